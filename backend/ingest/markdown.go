package ingest

import (
	"bytes"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

var markdownParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

type heading struct {
	start int // byte offset of the heading's first line
	level int
	title string
}

// splitMarkdown cuts source at every heading (goldmark decides what a heading
// is, so "#" lines inside fenced code are not). Each section runs from its
// heading to the next one; text before the first heading is its own section.
// Sections with no text besides their heading line yield no node, but their
// title stays in the heading path of the sections below them.
func splitMarkdown(path string, src []byte) ([]Section, string) {
	src = blankFrontMatter(src)
	doc := markdownParser.Parse(text.NewReader(src))
	lines := lineStarts(src)

	var heads []heading
	type link struct {
		at   int
		dest string
	}
	var links []link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Heading:
			if v.Lines().Len() == 0 {
				return ast.WalkSkipChildren, nil
			}
			seg := v.Lines().At(0)
			heads = append(heads, heading{start: lineStartOf(src, seg.Start), level: v.Level, title: inlineText(v, src)})
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			links = append(links, link{at: blockOffset(v), dest: string(v.Destination)})
		}
		return ast.WalkContinue, nil
	})

	title := ""
	for _, h := range heads {
		if h.level == 1 {
			title = h.title
			break
		}
	}

	slugs := newSlugger()
	var sections []Section
	type open struct {
		level   int
		title   string
		ref     string
		ordinal int // ordinal of the section node, -1 when it had no text
	}
	var stack []open
	emit := func(start, end int, h *heading) {
		body := src[start:end]
		var slug string
		var hp, ancestors []string
		level := 0
		parent := -1
		if h != nil {
			slug = slugs.slug(h.title)
			level = h.level
			for len(stack) > 0 && stack[len(stack)-1].level >= h.level {
				stack = stack[:len(stack)-1]
			}
			for _, s := range stack {
				hp = append(hp, s.title)
				ancestors = append(ancestors, s.ref)
			}
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].ordinal >= 0 {
					parent = stack[i].ordinal
					break
				}
			}
			hp = append(hp, h.title)
		}
		ordinal := -1
		ref := path
		if slug != "" {
			ref = path + "#" + slug
		}
		rest := body
		if h != nil {
			if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
				rest = rest[nl+1:]
				rest = trimSetextUnderline(rest)
			} else {
				rest = nil
			}
		}
		if len(bytes.TrimSpace(rest)) > 0 {
			ordinal = len(sections)
			s := Section{
				Ordinal: ordinal, Ref: ref, Slug: slug, HeadingPath: hp, Ancestors: ancestors, Level: level,
				LineStart: lineOf(lines, start), LineEnd: lineOf(lines, lastContentByte(src, start, end)),
				Text: strings.TrimRight(string(body), " \t\r\n"), Parent: parent, Part: 1, Parts: 1,
			}
			for _, l := range links {
				if l.at >= start && l.at < end {
					s.Links = append(s.Links, l.dest)
				}
			}
			sections = append(sections, s)
		}
		if h != nil {
			stack = append(stack, open{h.level, h.title, ref, ordinal})
		}
	}
	first := len(src)
	if len(heads) > 0 {
		first = heads[0].start
	}
	emit(0, first, nil)
	for i := range heads {
		end := len(src)
		if i+1 < len(heads) {
			end = heads[i+1].start
		}
		emit(heads[i].start, end, &heads[i])
	}
	return sections, title
}

// inlineText is a heading's text as GitHub sees it for slugs: text, code
// spans without backticks, link and emphasis text; raw HTML dropped.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch v := c.(type) {
			case *ast.Text:
				b.Write(v.Segment.Value(src))
				if v.SoftLineBreak() || v.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(v.Value)
			case *ast.AutoLink:
				b.Write(v.Label(src))
			case *ast.RawHTML:
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// blockOffset finds a source offset for an inline node: its first text
// segment, else the start of its enclosing block.
func blockOffset(n ast.Node) int {
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines() != nil && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return 0
}

// blankFrontMatter replaces a leading YAML front matter block with spaces so
// offsets and line numbers stay those of the file.
func blankFrontMatter(src []byte) []byte {
	if !bytes.HasPrefix(src, []byte("---\n")) && !bytes.HasPrefix(src, []byte("---\r\n")) {
		return src
	}
	rest := src[3:]
	end := -1
	for off := 0; off < len(rest); {
		nl := bytes.IndexByte(rest[off:], '\n')
		if nl < 0 {
			break
		}
		line := bytes.TrimRight(rest[off:off+nl], "\r")
		if off > 0 && (string(line) == "---" || string(line) == "...") {
			end = 3 + off + nl
			break
		}
		off += nl + 1
	}
	if end < 0 {
		return src
	}
	out := append([]byte(nil), src...)
	for i := 0; i < end; i++ {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
	return out
}

func trimSetextUnderline(rest []byte) []byte {
	nl := bytes.IndexByte(rest, '\n')
	line := rest
	if nl >= 0 {
		line = rest[:nl]
	}
	t := bytes.TrimSpace(line)
	if len(t) > 0 && (len(bytes.Trim(t, "=")) == 0 || len(bytes.Trim(t, "-")) == 0) {
		if nl < 0 {
			return nil
		}
		return rest[nl+1:]
	}
	return rest
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineStartOf(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// lineOf is the 1-based line holding byte offset off.
func lineOf(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}

func lastContentByte(src []byte, start, end int) int {
	for end > start && (src[end-1] == '\n' || src[end-1] == '\r' || src[end-1] == ' ' || src[end-1] == '\t') {
		end--
	}
	if end <= start {
		return start
	}
	return end - 1
}
