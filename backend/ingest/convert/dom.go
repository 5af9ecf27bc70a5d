package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// attr returns an element's attribute (the parser lower-cases names).
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// isElement reports whether n is an element of the given kind.
func isElement(n *html.Node, a atom.Atom) bool {
	return n != nil && n.Type == html.ElementNode && n.DataAtom == a
}

// walk calls visit on n and its descendants in document order, without
// recursion (a page may nest elements thousands deep); a visit that
// returns false skips the node's children.
func walk(n *html.Node, visit func(*html.Node) bool) {
	if n == nil {
		return
	}
	stop := n
	for n != nil {
		if visit(n) && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for n != stop && n.NextSibling == nil {
			n = n.Parent
		}
		if n == stop {
			return
		}
		n = n.NextSibling
	}
}

// textOf is the text of n and its descendants with runs of white space
// made one space, leaving out scripts, styles and templates.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		switch c.Type {
		case html.TextNode:
			b.WriteString(c.Data)
			b.WriteByte(' ')
		case html.ElementNode:
			switch c.DataAtom {
			case atom.Script, atom.Style, atom.Template, atom.Noscript:
				return false
			}
		}
		return true
	})
	return collapseSpace(b.String())
}

// textLen is how many bytes of text n holds (white space included),
// leaving out scripts, styles and templates.
func textLen(n *html.Node) int {
	total := 0
	walk(n, func(c *html.Node) bool {
		switch c.Type {
		case html.TextNode:
			total += len(strings.TrimSpace(c.Data))
		case html.ElementNode:
			switch c.DataAtom {
			case atom.Script, atom.Style, atom.Template, atom.Noscript:
				return false
			}
		}
		return true
	})
	return total
}

// collapseSpace trims s and makes every run of white space one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
