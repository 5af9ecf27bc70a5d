package ingest

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Obsidian's links: [[Note]], [[Note|shown text]], [[Note#Heading]],
// [[Note#^block]], [[#Heading]] (the same note), [[folder/Note]],
// [[Note.md]], and embeds ![[Note]], ![[image.png]]. They are read by an
// inline parser of goldmark's, so what goldmark calls code (spans, fenced
// and indented blocks) never holds one. A section records each in Links
// whole, as written ("[[Note#Heading|shown]]", "![[image.png]]"): what
// Chunk looks for in a part's text to keep a link with its part, and what
// a markdown destination never looks like. ParseWikiLink reads one back.

// WikiLink is a wiki link or embed as ParseWikiLink reads it.
type WikiLink struct {
	// Target is the note or file named, as written, without a heading or
	// block ("" for a link within the same note): "folder/Note",
	// "Note.md", "image.png".
	Target string
	// Heading and Block are the part of the target linked to, if any
	// ("Heading" of [[Note#Heading]], "block" of [[Note#^block]]).
	Heading, Block string
	// Shown is the text shown instead of the target ([[Note|Shown]]).
	Shown string
	// Embed is true for ![[…]].
	Embed bool
}

// ParseWikiLink reads a link of Section.Links written as a wiki link or
// embed; ok is false for a markdown link's destination.
func ParseWikiLink(link string) (l WikiLink, ok bool) {
	if strings.HasPrefix(link, "!") {
		l.Embed, link = true, link[1:]
	}
	if !strings.HasPrefix(link, "[[") || !strings.HasSuffix(link, "]]") || len(link) < 4 {
		return WikiLink{}, false
	}
	inner := link[2 : len(link)-2]
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		inner, l.Shown = inner[:i], strings.TrimSpace(inner[i+1:])
	}
	// In a table the pipe is written "\|": the backslash is not the
	// target's.
	inner = strings.TrimSuffix(inner, `\`)
	if i := strings.IndexAny(inner, "#^"); i >= 0 {
		sub := inner[i:]
		inner = inner[:i]
		sub = strings.TrimPrefix(sub, "#")
		if strings.HasPrefix(sub, "^") {
			l.Block = strings.TrimSpace(sub[1:])
		} else {
			l.Heading = strings.TrimSpace(sub)
		}
	}
	l.Target = strings.TrimSpace(inner)
	return l, true
}

// wikiLinkNode is a wiki link or embed in goldmark's AST. Its one child is
// the link's source as text, so that a heading holding one reads (and is
// slugged) as it did before wiki links were parsed.
type wikiLinkNode struct {
	ast.BaseInline
	raw text.Segment // the whole link, "![[" or "[[" to "]]"
}

var kindWikiLink = ast.NewNodeKind("WikiLink")

func (n *wikiLinkNode) Kind() ast.NodeKind { return kindWikiLink }

func (n *wikiLinkNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Raw": string(n.raw.Value(src))}, nil)
}

// wikiLinkParser reads [[…]] and ![[…]]. It runs before goldmark's link
// parser (which would read [[Note]] as brackets around a shortcut
// reference) and gives way to it for anything else. A wiki link stays on
// one line, names something ([[]] and [[|x]] do not), and holds no other
// bracket.
type wikiLinkParser struct{}

func (wikiLinkParser) Trigger() []byte { return []byte{'!', '['} }

func (wikiLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	open := 2
	if len(line) > 0 && line[0] == '!' {
		open = 3
	}
	if !bytes.HasPrefix(line[open-2:], []byte("[[")) {
		return nil
	}
	end := bytes.Index(line[open:], []byte("]]"))
	if end < 0 {
		return nil
	}
	inner := line[open : open+end]
	if bytes.ContainsAny(inner, "[]\n") {
		return nil
	}
	if name, _, _ := bytes.Cut(inner, []byte("|")); len(bytes.TrimSpace(name)) == 0 {
		return nil
	}
	size := open + end + 2
	raw := text.NewSegment(seg.Start, seg.Start+size)
	n := &wikiLinkNode{raw: raw}
	n.AppendChild(n, ast.NewTextSegment(raw))
	block.Advance(size)
	return n
}
