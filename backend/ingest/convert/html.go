package convert

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxHTMLBytes is the largest HTML file HTML converts. The parsed tree
// holds about seven times a page's size, and the garbage collector lets
// the heap grow to twice what is live: a 50 MB page took 6–10 s and peaked
// at 1.1–1.25 GB resident on a 2-core machine (BenchmarkHTML50MB), so
// 64 MiB is about as far as a browser tab should be asked to go.
const MaxHTMLBytes = 64 << 20

// HTML converts a web page — a saved article, a page of a documentation
// site — to markdown, keeping its main content only: the <main> element,
// else the largest <article>, else the element with role="main", else the
// <body> without its navigation, headers, footers, asides, forms, scripts
// and elements whose id or class names clutter (cookie banners, sidebars,
// menus, breadcrumbs, skip links, share buttons, comments).
//
// The title is the <title>, without a " | Site name" part when an <h1>
// confirms the shorter title, else the first <h1>. Meta comes from <meta>
// elements (see readPage). A page is UTF-8 unless it has a byte-order mark
// or declares another character set.
func HTML(data []byte) (*Doc, error) {
	root, err := parseHTML(data)
	if err != nil {
		return nil, err
	}
	p := readPage(root)
	doc := &Doc{Title: pageTitle(p.title, p.h1s), Meta: p.meta}
	content, level := mainContent(root)
	if content == nil {
		return doc, nil
	}
	removeClutter(content, level, doc.Title)
	markCodeLanguages(content)
	if doc.Markdown, err = toMarkdown(content); err != nil {
		return nil, badWrap(err, "cannot be converted to markdown")
	}
	return doc, nil
}

// parseHTML checks, decodes and parses a page.
func parseHTML(data []byte) (*html.Node, error) {
	if len(data) > MaxHTMLBytes {
		return nil, bad("is %d MiB of HTML, more than the %d MiB Loom converts: save the part you need as its own page", len(data)>>20, MaxHTMLBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, bad("is empty")
	}
	if looksBinary(data) {
		return nil, bad("is binary data, not HTML")
	}
	text, err := decodeHTML(data)
	if err != nil {
		return nil, err
	}
	root, err := html.Parse(bytes.NewReader(text))
	if err != nil {
		return nil, badWrap(err, "cannot be parsed as HTML")
	}
	return root, nil
}

// looksBinary reports whether the start of a file holds NUL bytes, which
// no text in UTF-8 or a legacy encoding does (UTF-16 has a byte-order mark
// and is checked before).
func looksBinary(data []byte) bool {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return false
	}
	head := data[:min(len(data), 1024)]
	return bytes.IndexByte(head, 0) >= 0
}

// mainContent picks the part of a page worth reading and how thoroughly to
// clean it: a <main> (the largest if there are several), else the largest
// <article>, else an element with role="main", each only when it has
// text; else the <body>, cleaned as a whole page.
func mainContent(root *html.Node) (*html.Node, cleanLevel) {
	var mains, articles, roleMains []*html.Node
	var body *html.Node
	walk(root, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		switch {
		case n.DataAtom == atom.Main:
			mains = append(mains, n)
		case n.DataAtom == atom.Article:
			articles = append(articles, n)
		case strings.EqualFold(strings.TrimSpace(attr(n, "role")), "main"):
			roleMains = append(roleMains, n)
		case n.DataAtom == atom.Body && body == nil:
			body = n
		case neverText[n.DataAtom]:
			return false
		}
		return true
	})
	for _, candidates := range [][]*html.Node{mains, outermost(articles), roleMains} {
		if n := largest(candidates); n != nil {
			return n, cleanContent
		}
	}
	if body == nil {
		return root, cleanPage
	}
	return body, cleanPage
}

// outermost drops the articles inside another article (comments are often
// articles within the post): their text counts with their container's.
func outermost(articles []*html.Node) []*html.Node {
	var out []*html.Node
	for _, a := range articles {
		inner := false
		for p := a.Parent; p != nil; p = p.Parent {
			if isElement(p, atom.Article) {
				inner = true
				break
			}
		}
		if !inner {
			out = append(out, a)
		}
	}
	return out
}

// largest returns the candidate with the most text, nil when none has any.
func largest(candidates []*html.Node) *html.Node {
	var best *html.Node
	bestLen := 0
	for _, n := range candidates {
		if l := textLen(n); l > bestLen {
			best, bestLen = n, l
		}
	}
	return best
}
