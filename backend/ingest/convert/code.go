package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// markCodeLanguages gives each <pre> the "language-x" class html-to-markdown
// reads a fence's info string from, when the page names the language in
// another way: pandoc's class="sourceCode toml", GitHub's and Sphinx's
// "highlight-source-go" / "highlight-python" on a wrapper, or a data-lang
// attribute (Hugo).
func markCodeLanguages(root *html.Node) {
	walk(root, func(n *html.Node) bool {
		if !isElement(n, atom.Pre) {
			return true
		}
		if lang := codeLanguage(n); lang != "" {
			setAttr(n, "class", strings.TrimSpace(attr(n, "class")+" language-"+lang))
		}
		return false
	})
}

// codeLanguage finds the language of a <pre>, looking at it, the <code>
// inside it and the two elements around it; "" when it has a language-
// class already or none is named.
func codeLanguage(pre *html.Node) string {
	nodes := []*html.Node{pre}
	if c := pre.FirstChild; isElement(c, atom.Code) {
		nodes = append(nodes, c)
	}
	for _, n := range nodes {
		if class := attr(n, "class"); strings.Contains(class, "language-") || strings.Contains(class, "lang-") {
			return ""
		}
	}
	for p, up := pre.Parent, 0; p != nil && up < 2; p, up = p.Parent, up+1 {
		nodes = append(nodes, p)
	}
	for _, n := range nodes {
		for _, key := range []string{"data-lang", "data-language"} {
			if v := strings.TrimSpace(attr(n, key)); isLanguageName(v) {
				return v
			}
		}
		classes := strings.Fields(attr(n, "class"))
		for _, c := range classes {
			for _, prefix := range []string{"highlight-source-", "highlight-"} {
				if v := strings.TrimPrefix(c, prefix); v != c && isLanguageName(v) {
					return v
				}
			}
		}
		if len(classes) == 2 && (classes[0] == "sourceCode" || classes[1] == "sourceCode") {
			v := classes[0]
			if v == "sourceCode" {
				v = classes[1]
			}
			if isLanguageName(v) {
				return v
			}
		}
	}
	return ""
}

// isLanguageName reports whether s can be a fence's info string: a short
// word of letters, digits and "+#-_.".
func isLanguageName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+#-_.", r)) {
			return false
		}
	}
	return true
}

// setAttr sets or adds an attribute.
func setAttr(n *html.Node, key, val string) {
	for i := range n.Attr {
		if n.Attr[i].Key == key && n.Attr[i].Namespace == "" {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}
