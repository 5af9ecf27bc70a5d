package ingest

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// A goldmark AST takes from ten to over a hundred times its source (a list
// of one-word items is the worst), so a file is parsed in pieces of about a
// sixty-fourth of it, from minPiece (smaller files are parsed whole) to
// maxPiece, each dropped once its headings and links are read (see
// nextPiece). A paragraph is cut when it is longer than both a piece and
// minParagraphCut.
const (
	minPiece        = 16 << 10
	maxPiece        = 256 << 10
	minParagraphCut = 64 << 10
)

// piece is one stretch of a markdown file parsed on its own.
type piece struct {
	start, end int
	// parseEnd is where the parse stopped: end, or the end of the line at
	// end when that line was parsed to prove end a clean cut (trim).
	parseEnd int
	trim     bool
}

// nextPiece parses the piece of src that starts at start. A piece ends
// before a line, at least a piece's size in, that begins a block of
// its own at the top level (or an item of a top-level list): the blocks
// before such a line are closed by it whatever follows, and a parse that
// starts at it starts the way the whole file's parse goes on from there.
// Which lines do is goldmark's call: the piece is parsed up to and
// including the line, and the cut holds if that line's block is the last
// top-level block or list item, which is then removed (the next piece
// starts with it). Inside a long fence, quote or list, the next candidate
// is looked for twice as far each time, so the work stays linear; a
// paragraph longer than a piece is cut at a line.
func nextPiece(src []byte, start int) (piece, ast.Node, parser.Context) {
	size := min(max(len(src)/64, minPiece), maxPiece)
	for want := start + size; want < len(src); {
		c := nextBlockLine(src, want)
		if c < 0 {
			break
		}
		lineEnd := len(src)
		if nl := bytes.IndexByte(src[c:], '\n'); nl >= 0 {
			lineEnd = c + nl + 1
		}
		doc, pc := parseMarkdownContext(src[start:lineEnd], nil)
		if cutBlockAt(doc, src[start:lineEnd], c-start) {
			return piece{start: start, end: c, parseEnd: lineEnd, trim: true}, doc, pc
		}
		if p := openParagraph(doc, src[c]); p != nil && c-start-blockStart(p, src[start:lineEnd]) >= max(size, minParagraphCut) {
			// A paragraph this long (a pasted log, a word list, a quoted
			// thread) would take forty times its size as one AST: it is
			// cut at a line, which only splits a link or a code span
			// written across that line.
			doc = nil
			doc, pc = parseMarkdownContext(src[start:c], nil)
			return piece{start: start, end: c, parseEnd: c}, doc, pc
		}
		want = start + 2*(lineEnd-start)
	}
	doc, pc := parseMarkdownContext(src[start:], nil)
	return piece{start: start, end: len(src), parseEnd: len(src)}, doc, pc
}

// openParagraph is the paragraph that the last line parsed into doc went
// on, when that paragraph is the last top-level block or sits at the end of
// the last top-level quote (a line starting with first, '>', for a quote,
// so that a parse from that line starts the same quote).
func openParagraph(doc ast.Node, first byte) *ast.Paragraph {
	n := doc.LastChild()
	for first == '>' {
		q, ok := n.(*ast.Blockquote)
		if !ok {
			break
		}
		n = q.LastChild()
	}
	p, _ := n.(*ast.Paragraph)
	return p
}

// nextBlockLine is the start of the first line at or after from that
// starts in the first column with something other than white space, or -1.
func nextBlockLine(src []byte, from int) int {
	i := from
	for i < len(src) {
		if i == 0 || src[i-1] == '\n' {
			if c := src[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return i
			}
		}
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			return -1
		}
		i += nl + 1
	}
	return -1
}

// cutBlockAt removes the block that begins at offset at, if it is the last
// top-level block of doc or the last item of its last top-level list, and
// reports whether it did.
func cutBlockAt(doc ast.Node, src []byte, at int) bool {
	last := doc.LastChild()
	if last == nil {
		return false
	}
	if blockStart(last, src) == at {
		doc.RemoveChild(doc, last)
		return true
	}
	if list, ok := last.(*ast.List); ok {
		if item := list.LastChild(); item != nil && blockStart(item, src) == at {
			list.RemoveChild(list, item)
			return true
		}
	}
	return false
}

// blockStart is the start of the line that opened block n (its fence line
// for fenced code, its first marker for a list or a quote), or -1.
func blockStart(n ast.Node, src []byte) int {
	if pos := n.Pos(); pos >= 0 && pos <= len(src) {
		return lineStartOf(src, pos)
	}
	return -1
}
