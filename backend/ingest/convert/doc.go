// Package convert turns files that are not markdown — saved web pages and
// documentation sites (HTML), Word documents (DOCX), e-books (EPUB), Jupyter
// notebooks and CSV/TSV tables — into markdown that Loom's splitter
// (backend/ingest) cuts into sections, together with what each file says of
// itself: its title, authors, keywords, identifiers.
//
// Every converter takes the file's bytes and returns a *Doc or an error.
// The error's message is a problem sentence about the file ("is not a zip
// archive (a .docx must be one): …"), meant to follow the file's name, and
// carries errs.BadFile. No input makes a converter panic, and memory stays
// bounded: archives are refused when they would unpack to more than
// MaxUnpackedBytes, and HTML larger than MaxHTMLBytes is refused.
//
// HTML, DOCX and EPUB share one path to markdown: an HTML tree converted by
// github.com/JohannesKaufmann/html-to-markdown/v2, which writes headings,
// links, GFM tables and fenced code and escapes markdown's special
// characters in text (a paragraph that starts with "#" stays a paragraph).
// The DOCX reader therefore writes a small HTML document from the Word XML
// rather than markdown of its own. Relative links stay relative: the
// splitter turns them into edges of the graph.
package convert

import (
	"errors"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/model"
)

// Doc is a converted document: markdown for Loom's splitter, and what the
// file says of itself.
type Doc struct {
	// Markdown is the document's text as CommonMark with GFM tables.
	Markdown string
	// Title is the document's own title ("" when it states none: the
	// caller falls back to the first heading or the file name).
	Title string
	// Meta holds what the format gives: authors, tags, year, DOI, arXiv id.
	Meta model.DocMeta
}

// bad makes the error for a file that cannot be converted: a problem
// sentence without the file's name, which the caller puts in front.
func bad(format string, args ...any) error {
	return errs.E(errs.BadFile, format, args...)
}

// badWrap is bad with the cause appended after a colon.
func badWrap(err error, format string, args ...any) error {
	return errs.Wrap(errs.BadFile, err, format, args...)
}

// xmlProblem is the error for an XML part that cannot be read: the
// archive's own error when unpacking failed (it says so already), else
// the message with the parser's complaint.
func xmlProblem(err error, format string, args ...any) error {
	var coded *errs.Error
	if errors.As(err, &coded) {
		return err
	}
	return badWrap(err, format, args...)
}
