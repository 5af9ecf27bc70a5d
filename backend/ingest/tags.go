package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Inline tags as Obsidian reads them: "#" after white space (or at the
// start of a line), then letters, digits, "_", "-" and "/" (a nested tag,
// #topic/sub), with at least one character that is not a digit (#123 is
// an issue number, not a tag). "# Title" is a heading and "C#", "x.com/#a"
// are not tags: the "#" follows no space. They are read by an inline parser
// of goldmark's, so code spans and blocks never hold one; link
// destinations and autolinks are not text, so URLs do not either.

// tagNode is an inline #tag in goldmark's AST; its one child is its source
// as text (a heading holding a tag reads as it did).
type tagNode struct {
	ast.BaseInline
	name string // without "#"
}

var kindTag = ast.NewNodeKind("Tag")

func (n *tagNode) Kind() ast.NodeKind { return kindTag }

func (n *tagNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Name": n.name}, nil)
}

type tagParser struct{}

func (tagParser) Trigger() []byte { return []byte{'#'} }

func (tagParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if prev := block.PrecendingCharacter(); !unicode.IsSpace(prev) {
		return nil
	}
	line, seg := block.PeekLine()
	size := 1 + tagLength(line[1:])
	name := strings.TrimRight(string(line[1:size]), "/")
	if !validTag(name) {
		return nil
	}
	n := &tagNode{name: name}
	n.AppendChild(n, ast.NewTextSegment(text.NewSegment(seg.Start, seg.Start+size)))
	block.Advance(size)
	return n
}

// tagLength is the length of the run of tag characters at the start of b.
func tagLength(b []byte) int {
	n := 0
	for n < len(b) {
		r, size := utf8.DecodeRune(b[n:])
		if !isTagRune(r) {
			break
		}
		n += size
	}
	return n
}

func isTagRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_' || r == '-' || r == '/'
}

// validTag reports whether name (without "#") is a tag: tag characters
// only, not all digits, not empty.
func validTag(name string) bool {
	digits := true
	for _, r := range name {
		if !isTagRune(r) {
			return false
		}
		if !unicode.IsDigit(r) && r != '/' {
			digits = false
		}
	}
	return name != "" && !digits
}

// tagSet gathers tags in the order met, each once: tags are
// case-insensitive (#Idea is #idea), and the first spelling is kept.
type tagSet struct {
	tags []string
	seen map[string]bool
}

func (s *tagSet) add(tag string) {
	tag = strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(tag), "#")), "/")
	if !validTag(tag) {
		return
	}
	key := strings.ToLower(tag)
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[key] {
		s.seen[key] = true
		s.tags = append(s.tags, tag)
	}
}
