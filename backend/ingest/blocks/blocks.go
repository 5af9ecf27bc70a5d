// Package blocks is the shape converters hand to the splitter: a document
// as a flat run of headings, paragraphs, table rows and list items in
// reading order, each with the page (and line, where the source has lines)
// it came from. A PDF's layout analysis produces it; ingest turns it into
// sections with the same heading rules markdown follows.
package blocks

import "github.com/loomwork/loom/backend/model"

// Kind is what a block is.
type Kind int

// Block kinds.
const (
	// Paragraph is running text.
	Paragraph Kind = iota
	// Heading starts a section; Level says how deep (1 is the top).
	Heading
	// Table is a table, one row a line, cells separated by " | ".
	Table
	// Item is one entry of a list (a reference of a bibliography, say).
	Item
	// Code is preformatted text kept as it is.
	Code
	// Caption is a figure's or table's caption.
	Caption
)

// Block is one piece of a document in reading order.
type Block struct {
	Kind Kind
	// Level is a heading's depth, from 1.
	Level int
	// Text is the block's text, with hyphenation and ligatures undone. A
	// table holds one row a line.
	Text string
	// Page is the 1-based page the block starts on; PageEnd the page it ends
	// on (0 means the same page). Both are 0 when the source has no pages.
	Page, PageEnd int
	// Line is the 1-based line where the block starts in the source, 0
	// when the source has no lines worth citing.
	Line int
}

// LastPage is the page the block ends on.
func (b Block) LastPage() int {
	if b.PageEnd > b.Page {
		return b.PageEnd
	}
	return b.Page
}

// Doc is a converted document.
type Doc struct {
	// Title is the document's own title ("" to fall back to the file name).
	Title string
	// Meta is what the document says of itself (authors, DOI, arXiv id,
	// page count).
	Meta   model.DocMeta
	Blocks []Block
}
