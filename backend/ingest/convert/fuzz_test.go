package convert

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/loomwork/loom/backend/errs"
)

// checkConverted is what every converter promises whatever the input:
// a document or a bad-file error, never both, never a panic.
func checkConverted(t *testing.T, d *Doc, err error) {
	t.Helper()
	if err != nil {
		if d != nil {
			t.Fatalf("a document and an error (%v)", err)
		}
		if errs.CodeOf(err) != errs.BadFile || err.Error() == "" {
			t.Fatalf("an error that is not a bad-file problem: %v", err)
		}
		return
	}
	if d == nil {
		t.Fatal("no document and no error")
	}
}

// addFiles adds files under testdata to a fuzz target's seed corpus.
func addFiles(f *testing.F, names ...string) {
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzHTML(f *testing.F) {
	addFiles(f, "saved-page.html", "docs-page.html", "latin1-page.html")
	for _, s := range []string{"", "<", "<title/>", "<main></main>", "<table><tr><td>|</table>", "<pre><code class=language-", "<meta charset=x>", "\xff\xfe<\x00p\x00>", "<header><h1>t</h1></header><title>t | s</title>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := HTML(data)
		checkConverted(t, d, err)
	})
}

func FuzzDOCX(f *testing.F) {
	addFiles(f, "report.docx", "report-localized.docx", "book.epub")
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := DOCX(data)
		checkConverted(t, d, err)
	})
}

// FuzzDOCXDocumentXML fuzzes the XML a Word document is made of, which
// the zip around it would otherwise keep the fuzzer from reaching.
func FuzzDOCXDocumentXML(f *testing.F) {
	for _, s := range []string{
		wordDoc(p("Heading1", r("h")) + p("", r("x"))),
		wordDoc(`<w:tbl><w:tr><w:tc><w:tbl><w:tr><w:tc>` + p("", r("in")) + `</w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>`),
		wordDoc(`<w:p><w:pPr><w:numPr><w:ilvl w:val="8"/><w:numId w:val="1"/></w:numPr></w:pPr>` + r("i") + `</w:p>`),
		wordDoc(p("", `<w:hyperlink r:id="rId1">`+r("l")+`</w:hyperlink><w:r><w:footnoteReference w:id="1"/></w:r>`)),
		wordDoc(`<w:p><w:p>` + r("nested") + `</w:p></w:p>`), "<", "",
	} {
		f.Add(s, `<w:footnotes xmlns:w="w"><w:footnote w:id="1"><w:p>`+r("note")+`</w:p></w:footnote></w:footnotes>`)
	}
	f.Fuzz(func(t *testing.T, document, footnotes string) {
		data := makeZip(t, map[string]string{
			"word/document.xml":            document,
			"word/footnotes.xml":           footnotes,
			"word/_rels/document.xml.rels": `<Relationships><Relationship Id="rId1" Target="https://example.org"/></Relationships>`,
		})
		d, err := DOCX(data)
		checkConverted(t, d, err)
	})
}

func FuzzEPUB(f *testing.F) {
	addFiles(f, "book.epub", "report.docx")
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := EPUB(data)
		checkConverted(t, d, err)
	})
}

// FuzzEPUBPackage fuzzes the package document and one chapter.
func FuzzEPUBPackage(f *testing.F) {
	f.Add(twoChapterOPF, `<html><head><title/></head><body><h1>One</h1><a href="two.xhtml#x">l</a></body></html>`)
	f.Add(`<package><manifest><item id="a" href="Text/two.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>`, "<title/>")
	f.Fuzz(func(t *testing.T, opf, chapter string) {
		data := epubOf(t, opf, map[string]string{"Text/two.xhtml": chapter, "Text/one a.xhtml": chapter})
		d, err := EPUB(data)
		checkConverted(t, d, err)
	})
}

func FuzzNotebook(f *testing.F) {
	addFiles(f, "tokens.ipynb")
	for _, s := range []string{"", "{}", `{"cells": null}`, `{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["a", "b"], "outputs": [{"output_type": "stream", "text": 5}]}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Notebook(data)
		checkConverted(t, d, err)
	})
}

func FuzzCSVHead(f *testing.F) {
	addFiles(f, "measures.csv", "terms.tsv", "cities-semicolon.csv")
	for _, s := range []string{"", "\"", "a,\"b\n", "|||\n;;;", "\r\r\r"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := CSVHead(data, 3)
		checkConverted(t, d, err)
	})
}
