// Package ingest turns files into documents made of sections: markdown split by
// its heading hierarchy (through goldmark's AST), plain text by paragraphs, and
// BEIR corpus.jsonl files as one document per line. It validates input (binary,
// invalid UTF-8, empty, oversized) and reports problems as *FileError values
// that name the file, so a batch can go on past one bad file.
//
// Parse is the entry point for one file's bytes; Walk expands folders.
package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ingest/code"
	"github.com/loomwork/loom/backend/model"
)

// Format is how a file's text is split into sections.
type Format string

// The formats Loom reads.
const (
	FormatMarkdown Format = "markdown"
	FormatText     Format = "text"
	FormatBEIR     Format = "beir"
	// FormatPDF is a PDF's text layer, laid out into the paper's sections
	// with the pages each spans.
	FormatPDF Format = "pdf"
	// FormatHTML, FormatDOCX and FormatEPUB are converted to markdown.
	FormatHTML Format = "html"
	FormatDOCX Format = "docx"
	FormatEPUB Format = "epub"
	// FormatBibTeX is a .bib file: one document per entry.
	FormatBibTeX Format = "bibtex"
	// FormatCode is a source file: definitions in a language Loom parses
	// (see parseCode), plain text otherwise (shell, SQL, YAML…).
	FormatCode Format = "code"
	// FormatNotebook is a Jupyter notebook: its cells as markdown.
	FormatNotebook Format = "notebook"
	// FormatTable is a .csv/.tsv file: its head as a table.
	FormatTable Format = "table"
)

// Document is one ingested unit of provenance: a file, or one record of a
// BEIR corpus.
type Document struct {
	// Key identifies the document across runs: the absolute path of its
	// file, plus "#<_id>" for a BEIR record.
	Key string
	// Path is the reference path: relative to the folder that was ingested
	// (the file name when a single file was given). For BEIR records it is
	// the record's _id.
	Path string
	// Collection groups documents (the ingested folder's name by default).
	Collection string
	Format     Format
	Title      string
	// Hash is the SHA-256 of the document's bytes; unchanged hash means
	// re-ingest has nothing to do.
	Hash  string
	Bytes int
	// ModTime is the file's modification time (set by the caller that
	// found the file; zero otherwise).
	ModTime  time.Time `json:"-"`
	Sections []Section
	// Meta is what the document says of itself (front matter, a paper's
	// identifiers, a BibTeX entry's fields).
	Meta model.DocMeta `json:",omitzero"`
	// Warnings are problems that lost nothing but that the person should
	// hear of (front matter that could not be read and was kept as text).
	Warnings []string `json:",omitempty"`

	// Code is what a source file in a language Loom parses says of itself
	// (its imports, package, language); nil for other documents.
	Code *code.File `json:"-"`

	// linkAt is where each section's links were found, relative to the
	// section's text: the links of all sections in order, flat. Chunk uses
	// it to place the links of a huge section cheaply, then drops it.
	linkAt []int32
}

// Section is one piece of a document that can become a content node.
type Section struct {
	// Ordinal is the section's position in its document, from 0.
	Ordinal int
	// Ref is the evaluation reference: PATH#slug of the deepest heading
	// above the text, PATH alone before the first heading, the _id for BEIR.
	Ref string
	// Slug is the GitHub-style slug of the deepest heading ("" before any).
	Slug string
	// HeadingPath lists the headings above the text, outermost first.
	HeadingPath []string
	// Ancestors are the references of the enclosing sections, outermost
	// first: a reference to a section covers its subsections.
	Ancestors []string
	// Level is the heading level of the section (0 when there is none).
	Level int
	// LineStart and LineEnd are 1-based, inclusive line numbers in the file.
	LineStart, LineEnd int
	// Text is the section's source text.
	Text string
	// Parent is the Ordinal of the enclosing section, or -1.
	Parent int
	// Part and Parts number the chunks when an oversized section was split
	// (Parts is 1 when it was not).
	Part, Parts int
	// Links are the link destinations found in the text, as written.
	Links []string
	// Tokens is the section's token count once Chunk has run.
	Tokens int
	// PageStart and PageEnd are the 1-based pages a section of a paged
	// document spans (0 when the document has no pages).
	PageStart int `json:",omitempty"`
	PageEnd   int `json:",omitempty"`
	// Code is what a section of source code defines and uses (nil for
	// other sections).
	Code *CodeDef `json:",omitempty"`

	startByte int // offset of Text in the file, while splitting plain text
}

func (s *Section) startOff() int { return s.startByte }

// EmbedText is what gets embedded for a section: its heading path (context
// the raw text lacks) followed by its text.
func (s Section) EmbedText() string {
	if s.Code != nil {
		return EmbedTextOf(s.HeadingPath, s.Text, &s.Code.Symbol)
	}
	return EmbedText(s.HeadingPath, s.Text)
}

// EmbedText joins a heading path and a text the way sections are embedded.
func EmbedText(headingPath []string, text string) string {
	if len(headingPath) == 0 {
		return text
	}
	return strings.Join(headingPath, " > ") + "\n" + text
}

// FileError is a problem with one input file. The batch it belongs to goes on.
type FileError struct {
	Path    string
	Problem string
}

func (e *FileError) Error() string { return e.Path + ": " + e.Problem }

// ErrorCode: a file that cannot be ingested.
func (e *FileError) ErrorCode() errs.Code { return errs.BadFile }

// Options bound what Parse accepts and how it splits.
type Options struct {
	// MaxFileBytes rejects larger text files: markdown, text, HTML, code
	// (BEIR corpora stream and are exempt). Default 32 MiB.
	MaxFileBytes int64
	// MaxBinaryBytes rejects larger PDF, Word and EPUB files, whose bytes
	// are mostly images and fonts. Default 128 MiB.
	MaxBinaryBytes int64
	// MaxSectionTokens splits sections above this size at paragraph
	// boundaries. Default 512.
	MaxSectionTokens int
	// OverlapTokens is how much trailing text of one chunk is repeated at
	// the start of the next. Default 64.
	OverlapTokens int
	// CountTokens measures text; required for splitting (a rough 4-bytes-a-
	// token estimate is used when nil). Chunking takes it to count the way
	// tiktoken's encodings do: never more tokens than bytes, and text cut
	// where their pre-split always breaks (before a space that follows
	// anything but white space, say) counts the sum of its parts.
	CountTokens func(string) int

	estimate bool // CountTokens is the 4-bytes-a-token estimate
}

func (o *Options) defaults() {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 32 << 20
	}
	if o.MaxBinaryBytes <= 0 {
		o.MaxBinaryBytes = 128 << 20
	}
	if o.MaxSectionTokens <= 0 {
		o.MaxSectionTokens = 512
	}
	if o.OverlapTokens < 0 {
		o.OverlapTokens = 0
	} else if o.OverlapTokens == 0 {
		o.OverlapTokens = 64
	}
	if o.CountTokens == nil {
		o.CountTokens = func(s string) int { return (len(s) + 3) / 4 }
		o.estimate = true
	}
}

// Validate reports why data cannot be ingested as text, or nil. Data is
// read as decodeText reads it: UTF-8 or UTF-16 with a byte-order mark, any
// line ends.
func Validate(path string, data []byte, opts Options) error {
	opts.defaults()
	if err := checkSize(path, data, opts); err != nil {
		return err
	}
	text, err := decodeText(path, data)
	if err != nil {
		return err
	}
	return checkText(path, text)
}

func checkSize(path string, data []byte, opts Options) error {
	format, _ := FormatOf(path)
	if limit := opts.limit(format); int64(len(data)) > limit {
		return &FileError{path, tooLarge(format, int64(len(data)), limit)}
	}
	return nil
}

// limit is the largest file of a format Parse takes.
func (o *Options) limit(f Format) int64 {
	if f.binary() {
		return o.MaxBinaryBytes
	}
	return o.MaxFileBytes
}

func tooLarge(f Format, size, limit int64) string {
	advice := "split it into smaller files"
	if f.binary() {
		advice = "export the part you need (or a version without images) to a smaller file"
	}
	return fmt.Sprintf("file is too large (%s; the limit is %s): %s", HumanBytes(size), HumanBytes(limit), advice)
}

// checkText reports why decoded text cannot be ingested, or nil.
func checkText(path string, text []byte) error {
	if len(bytes.TrimSpace(text)) == 0 {
		if len(text) == 0 {
			return &FileError{path, "file is empty: there is nothing to ingest"}
		}
		return &FileError{path, "file contains only whitespace: there is nothing to ingest"}
	}
	head := text
	if len(head) > 8192 {
		head = head[:8192]
	}
	if bytes.IndexByte(head, 0) >= 0 || controlRatio(head) > 0.1 {
		return &FileError{path, notTextProblem(head)}
	}
	if !utf8.Valid(text) {
		return &FileError{path, notUTF8Problem(text)}
	}
	return nil
}

// parseHook, when set (by tests), is called as Parse starts on path.
var parseHook func(path string)

// Parse splits one file's bytes into documents (one, or one per BEIR line).
// path is the reference path, key the stable identity (absolute path). The
// bytes may be UTF-8 (with or without a byte-order mark) or UTF-16 with
// one, with any line ends (see decodeText); a document's Hash and Bytes are
// those of the file as it is. A reader that panics on a file is that
// file's FileError.
func Parse(key, path, collection string, data []byte, opts Options) (docs []Document, err error) {
	defer func() {
		// A reader that fails on some file is a bug; the file is refused
		// with an error that names it, and the run (the app, the watcher)
		// goes on with the other files.
		if r := recover(); r != nil {
			docs, err = nil, &FileError{path, fmt.Sprintf("Loom's reader failed on this file (%v); please report it with the file", r)}
		}
	}()
	if parseHook != nil {
		parseHook(path)
	}
	opts.defaults()
	format, _ := FormatOf(path)
	if format == FormatBEIR {
		return ParseBEIR(key, path, collection, data, opts)
	}
	if err := checkSize(path, data, opts); err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, &FileError{path, "file is empty: there is nothing to ingest"}
	}
	switch format {
	case FormatBibTeX:
		return parseBibTeX(key, path, collection, data)
	case FormatPDF, FormatHTML, FormatDOCX, FormatEPUB, FormatNotebook, FormatTable:
		doc := Document{Key: key, Path: path, Collection: collection, Format: format, Hash: HashBytes(data), Bytes: len(data)}
		if err := parseConverted(&doc, data); err != nil {
			return nil, err
		}
		return finish(doc)
	}
	text, err := decodeText(path, data)
	if err != nil {
		return nil, err
	}
	if err := checkText(path, text); err != nil {
		return nil, err
	}
	doc := Document{Key: key, Path: path, Collection: collection, Format: format, Hash: HashBytes(data), Bytes: len(data)}
	switch format {
	case FormatMarkdown:
		if strings.EqualFold(filepath.Ext(path), ".mdx") || speaksMDX(text) {
			text = mdxText(text)
		}
		ids := LogseqIDs(text)
		text = logseqText(blockRefs(text))
		doc.readMarkdown(path, text)
		doc.Meta.IDs = append(doc.Meta.IDs, ids...)
	case FormatCode:
		ok, err := parseCode(&doc, text)
		if err != nil {
			return nil, err
		}
		if !ok {
			doc.Sections = splitText(path, text)
			titleSections(doc.Sections)
		}
	default:
		org := strings.EqualFold(filepath.Ext(path), ".org")
		marked, n := markedHeadings(path, blockRefs(text))
		switch {
		case n > 0:
			doc.readMarkdown(path, marked)
			if org && len(doc.Sections) == 0 {
				doc.Sections = orgStub(path, marked)
			}
		case org: // no title: its prose, without drawers and keywords, links as Markdown's
			doc.Sections = splitText(path, marked)
			titleSections(doc.Sections)
		default:
			doc.Sections = splitText(path, text)
			titleSections(doc.Sections)
		}
		if org {
			m := orgMeta(text)
			doc.Meta.Tags = append(doc.Meta.Tags, m.Tags...)
			doc.Meta.Authors = append(doc.Meta.Authors, m.Authors...)
			doc.Meta.Aliases = append(doc.Meta.Aliases, m.Aliases...)
			doc.Meta.IDs = m.IDs
		}
	}
	return finish(doc)
}

// readMarkdown splits Markdown text into the document's sections, title
// and metadata; a problem with the text is a warning.
func (d *Document) readMarkdown(path string, text []byte) {
	var problem string
	d.Sections, d.Title, d.Meta, d.linkAt, problem = splitMarkdown(path, text)
	if problem != "" {
		d.Warnings = append(d.Warnings, problem)
	}
}

// finish checks a parsed document has something to index and names it.
func finish(doc Document) ([]Document, error) {
	if doc.Title == "" {
		doc.Title = filepath.Base(doc.Path)
	}
	if len(doc.Sections) == 0 {
		return nil, &FileError{doc.Path, "has no text to index, only headings or markup"}
	}
	return []Document{doc}, nil
}

// Chunk splits the document's oversized sections (seed §7.2) and counts
// every section's tokens. Parse leaves this to the caller so that it can run
// in parallel across documents. The sections are updated in place when none
// is split (a copy of the Document shares them).
func (d *Document) Chunk(opts Options) {
	opts.defaults()
	d.Sections = splitLarge(d.Sections, d.linkAt, opts)
	d.linkAt = nil
}

// HashBytes is the content hash used for re-ingest detection and content/.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func controlRatio(b []byte) float64 {
	if len(b) == 0 {
		return 0
	}
	n := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b {
			n++
		}
	}
	return float64(n) / float64(len(b))
}

// HumanBytes says a number of bytes as a person reads it ("3.2 MiB").
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
