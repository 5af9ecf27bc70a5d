package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// cleanLevel says how much of a subtree counts as clutter.
type cleanLevel int

const (
	// cleanChapter removes only what is never text: scripts, styles,
	// forms, frames, inline SVG (an e-book's chapter, whose "sidebar" is
	// a boxed text worth keeping).
	cleanChapter cleanLevel = iota
	// cleanContent also removes navigation, hidden elements and elements
	// whose id or class names clutter (a page's <main> or <article>).
	cleanContent
	// cleanPage also removes headers, footers and asides (a page's whole
	// <body>, when it marks no main content).
	cleanPage
)

// neverText are elements whose content is not the document's text.
var neverText = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Svg: true,
	atom.Iframe: true, atom.Template: true, atom.Object: true, atom.Embed: true,
	atom.Canvas: true, atom.Button: true, atom.Select: true, atom.Input: true,
	atom.Textarea: true, atom.Link: true, atom.Meta: true, atom.Dialog: true,
}

// clutterWords are words in an id or class that mark an element as
// clutter: "cookie-banner", "site-menu", "share_buttons", "skip-link".
var clutterWords = map[string]bool{
	"cookie": true, "cookies": true, "consent": true, "gdpr": true, "banner": true,
	"sidebar": true, "menu": true, "navbar": true, "breadcrumb": true, "breadcrumbs": true,
	"skip": true, "skiplink": true, "share": true, "sharing": true, "social": true,
	"comments": true, "newsletter": true, "popup": true,
}

// removeClutter deletes the clutter of a subtree in place, comments
// included. An element that holds an <h1> is never removed for its id,
// its class, aria-hidden or for being a <form> (pages built on ASP.NET
// wrap everything in one; a page saved with a dialog open hides its
// content from screen readers; a "post-banner" may hold the title), and a
// page header is replaced by the <h1> in it when that heading is the
// page's title.
func removeClutter(root *html.Node, level cleanLevel, title string) {
	keep := holdsTitle(root)
	var drop []*html.Node
	var promote []*html.Node // headers whose h1 stays
	walk(root, func(n *html.Node) bool {
		if n.Type == html.CommentNode {
			drop = append(drop, n)
			return false
		}
		if n.Type != html.ElementNode || n == root {
			return true
		}
		if neverText[n.DataAtom] || n.DataAtom == 0 && n.Namespace == "svg" {
			drop = append(drop, n)
			return false
		}
		if level == cleanChapter {
			return true
		}
		protected := keep[n]
		role := strings.ToLower(strings.TrimSpace(attr(n, "role")))
		switch {
		case n.DataAtom == atom.Nav, role == "navigation", role == "search":
		case n.DataAtom == atom.Form && !protected:
		case strings.EqualFold(attr(n, "aria-hidden"), "true") && !protected:
		case !protected && isClutterName(attr(n, "id"), attr(n, "class")):
		case level == cleanPage && (n.DataAtom == atom.Footer || n.DataAtom == atom.Aside ||
			role == "contentinfo" || role == "complementary"):
		case level == cleanPage && (n.DataAtom == atom.Header || role == "banner"):
			if protected && title != "" {
				promote = append(promote, n)
				return false
			}
		default:
			return true
		}
		drop = append(drop, n)
		return false
	})
	for _, n := range drop {
		n.Parent.RemoveChild(n)
	}
	for _, header := range promote {
		var titleHeading *html.Node
		walk(header, func(c *html.Node) bool {
			if titleHeading == nil && isElement(c, atom.H1) && strings.EqualFold(textOf(c), title) {
				titleHeading = c
			}
			return titleHeading == nil
		})
		if titleHeading != nil {
			titleHeading.Parent.RemoveChild(titleHeading)
			header.Parent.InsertBefore(titleHeading, header)
		}
		header.Parent.RemoveChild(header)
	}
}

// holdsTitle marks every element that is, or holds, an <h1>: elements
// never dropped for their names alone.
func holdsTitle(root *html.Node) map[*html.Node]bool {
	marked := map[*html.Node]bool{}
	walk(root, func(n *html.Node) bool {
		if isElement(n, atom.H1) {
			for a := n; a != nil && !marked[a]; a = a.Parent {
				marked[a] = true
			}
		}
		return true
	})
	return marked
}

// isClutterName reports whether an id or a class list names clutter: one
// of its words ("cookie-banner" has two) is a clutter word, or it mentions
// cookies at all ("cookieConsent").
func isClutterName(id, class string) bool {
	for _, name := range append(strings.Fields(class), id) {
		name = strings.ToLower(name)
		if strings.Contains(name, "cookie") {
			return true
		}
		for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ':' }) {
			if clutterWords[w] {
				return true
			}
		}
	}
	return false
}
