package ingest

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/loomwork/loom/backend/ingest/bibtex"
	"github.com/loomwork/loom/backend/ingest/convert"
	"github.com/loomwork/loom/backend/ingest/pdf"
)

// csvHeadRows is how many rows of a .csv/.tsv file are read: its head
// tells what the data is; the rows themselves are not prose to retrieve.
const csvHeadRows = 20

// parseConverted reads a file of a format that is not text as it stands:
// it is converted (to markdown, or to blocks for a PDF) and split like a
// note. Problems name the file.
func parseConverted(doc *Document, data []byte) error {
	var (
		conv *convert.Doc
		err  error
	)
	switch doc.Format {
	case FormatPDF:
		return parsePDF(doc, data)
	case FormatHTML:
		conv, err = convert.HTML(data)
	case FormatDOCX:
		conv, err = convert.DOCX(data)
	case FormatEPUB:
		conv, err = convert.EPUB(data)
	case FormatNotebook:
		conv, err = convert.Notebook(data)
	case FormatTable:
		conv, err = convert.CSVHead(data, csvHeadRows)
	default:
		return fmt.Errorf("ingest: no converter for %s", doc.Format)
	}
	if err != nil {
		return &FileError{doc.Path, problemOf(err)}
	}
	secs, title, meta, linkAt, _ := splitMarkdown(doc.Path, []byte(conv.Markdown))
	for i := range secs {
		// Lines of converted text are nobody's lines: sections are cited
		// by their headings.
		secs[i].LineStart, secs[i].LineEnd = 0, 0
	}
	doc.Sections, doc.linkAt = secs, linkAt
	doc.Title = conv.Title
	if doc.Title == "" && title != noteName(doc.Path) {
		doc.Title = title
	}
	doc.Meta = conv.Meta
	if len(meta.Tags) > 0 {
		var tags tagSet
		for _, t := range append(doc.Meta.Tags, meta.Tags...) {
			tags.add(t)
		}
		doc.Meta.Tags = tags.tags
	}
	return nil
}

// parsePDF reads a PDF's text layer and lays it out into the paper's
// sections, each with its pages.
func parsePDF(doc *Document, data []byte) error {
	raw, err := pdf.Extract(data)
	if err != nil {
		return &FileError{doc.Path, problemOf(err)}
	}
	bd, err := pdf.Layout(raw)
	if err != nil {
		return &FileError{doc.Path, problemOf(err)}
	}
	parseBlocks(doc, bd)
	return nil
}

// parseBibTeX makes one document of every entry of a .bib (or .ris) file, keyed
// "<file>#<citation key>", each a single section: the entry as a reader
// would write it out. Entries that could not be read are warnings on the
// first document; a file of which nothing could be read is an error.
func parseBibTeX(key, path, collection string, data []byte) ([]Document, error) {
	read := bibtex.Parse
	if strings.EqualFold(filepath.Ext(path), ".ris") {
		read = bibtex.ParseRIS // a RIS record reads as the entry BibTeX would give
	}
	entries, problems, err := read(data)
	if err != nil {
		return nil, &FileError{path, problemOf(err)}
	}
	if len(entries) == 0 {
		if len(problems) > 0 {
			return nil, &FileError{path, "has no BibTeX entry that could be read: line " + problems[0].String()}
		}
		return nil, &FileError{path, "has no BibTeX entries (@article{…}, @book{…}, …)"}
	}
	lines := lineOffsets(data)
	docs := make([]Document, 0, len(entries))
	for _, e := range entries {
		raw := data[lines.start(e.Line):lines.end(e.EndLine)]
		title := e.Title()
		if title == "" {
			title = e.Key
		}
		d := Document{
			Key: key + "#" + e.Key, Path: path + "#" + e.Key, Collection: collection, Format: FormatBibTeX,
			Title: title, Hash: HashBytes(raw), Bytes: len(raw),
		}
		d.Meta.Authors, d.Meta.Year, d.Meta.Venue = e.Authors(), e.Year(), e.Venue()
		d.Meta.DOI, d.Meta.ArXiv, d.Meta.BibKey, d.Meta.Tags = e.DOI(), e.ArXiv(), e.Key, e.Keywords()
		d.Sections = []Section{{
			Ref: d.Path, Slug: e.Key, HeadingPath: []string{title}, Text: e.Text(),
			LineStart: e.Line, LineEnd: e.EndLine, Parent: -1, Part: 1, Parts: 1,
		}}
		docs = append(docs, d)
	}
	for _, p := range problems {
		docs[0].Warnings = append(docs[0].Warnings, p.String())
	}
	return docs, nil
}

// lineIndex finds where lines start in a file.
type lineIndex struct {
	starts []int // offset of each line's first byte
	size   int
}

func lineOffsets(data []byte) lineIndex {
	idx := lineIndex{starts: []int{0}, size: len(data)}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			idx.starts = append(idx.starts, i+1)
		}
	}
	return idx
}

// start is the offset of 1-based line n.
func (l lineIndex) start(n int) int { return l.starts[min(max(n, 1), len(l.starts))-1] }

// end is the offset just past 1-based line n (its newline included).
func (l lineIndex) end(n int) int {
	if n >= 1 && n < len(l.starts) {
		return l.starts[n]
	}
	return l.size
}

// problemOf is an error's message as a problem sentence (converters write
// them so, for the caller to put the file name in front).
func problemOf(err error) string { return strings.TrimSpace(err.Error()) }
