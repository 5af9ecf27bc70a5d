package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCite(t *testing.T) {
	note := &Document{Path: "notes/Properties.md", Format: "markdown"}
	text := &Document{Path: "logs/staleness.txt", Format: "text"}
	code := &Document{Path: "cmd/loom/query.go", Format: "code"}
	paper := &Document{Path: "papers/flash.pdf", Format: "pdf"}
	page := &Document{Path: "web/guide.html", Format: "html"}
	bib := &Document{Path: "refs.bib", Format: "bibtex", Meta: DocMeta{BibKey: "dao2022"}}
	beir := &Document{Path: "scifact/corpus.jsonl", Format: "beir", Title: "A title"}
	answer := &Document{Path: "conv-1/t1.md", Format: "markdown", Title: "How does staleness decay?"}
	long := "A rather long heading that goes on and on about attention kernels"

	tests := []struct {
		name string
		doc  *Document
		node ContentNode
		want string
	}{
		{"a note's section with its lines", note, ContentNode{Ref: "notes/Properties.md#aliases", LineStart: 12, LineEnd: 30}, "notes/Properties.md#aliases L12–30"},
		{"a note's section of one line", note, ContentNode{Ref: "notes/Properties.md#aliases", LineStart: 12, LineEnd: 12}, "notes/Properties.md#aliases L12"},
		{"a note's text before its first heading", note, ContentNode{Ref: "notes/Properties.md", LineStart: 1, LineEnd: 4}, "notes/Properties.md L1–4"},
		{"lines not known are left out", note, ContentNode{Ref: "notes/Properties.md#aliases"}, "notes/Properties.md#aliases"},
		{"a plain text file", text, ContentNode{Ref: "logs/staleness.txt", LineStart: 3, LineEnd: 9}, "logs/staleness.txt L3–9"},
		{"code like a note", code, ContentNode{Ref: "cmd/loom/query.go#cmdquery", LineStart: 120, LineEnd: 170}, "cmd/loom/query.go#cmdquery L120–170"},
		{"a paper's numbered section over two pages", paper, ContentNode{Ref: "papers/flash.pdf#x", PageStart: 4, PageEnd: 5, HeadingPath: []string{"3 Method", "3.2.1 Tiling"}, LineStart: 80, LineEnd: 120}, "papers/flash.pdf p. 4–5 §3.2.1"},
		{"a paper's section on one page", paper, ContentNode{PageStart: 4, PageEnd: 4, HeadingPath: []string{"3. Method"}}, "papers/flash.pdf p. 4 §3"},
		{"an appendix numbered by letter", paper, ContentNode{PageStart: 12, PageEnd: 13, HeadingPath: []string{"A.1 Proofs"}}, "papers/flash.pdf p. 12–13 §A.1"},
		{"a roman numeral", paper, ContentNode{PageStart: 2, HeadingPath: []string{"IV. EXPERIMENTS"}}, "papers/flash.pdf p. 2 §IV"},
		{"a lone roman one with a dot", paper, ContentNode{PageStart: 1, HeadingPath: []string{"I. INTRODUCTION"}}, "papers/flash.pdf p. 1 §I"},
		{"a heading of words", paper, ContentNode{PageStart: 1, HeadingPath: []string{"Abstract"}}, "papers/flash.pdf p. 1 §Abstract"},
		{"a heading that starts with a word of one letter is words", paper, ContentNode{PageStart: 1, HeadingPath: []string{"A Survey"}}, "papers/flash.pdf p. 1 §A Survey"},
		{"a long heading is clipped", paper, ContentNode{PageStart: 7, HeadingPath: []string{long}}, "papers/flash.pdf p. 7 §A rather long heading that goes on and…"},
		{"a paper's text before any heading", paper, ContentNode{PageStart: 1, PageEnd: 1}, "papers/flash.pdf p. 1"},
		{"pages not known", paper, ContentNode{HeadingPath: []string{"2 Background"}}, "papers/flash.pdf §2"},
		{"converted text cites its heading, not its lines", page, ContentNode{Ref: "web/guide.html#setup", HeadingPath: []string{"Guide", "Setup"}, LineStart: 4, LineEnd: 9}, "web/guide.html §Setup"},
		{"a part of a long converted section says which", page, ContentNode{Ref: "web/guide.html#setup", HeadingPath: []string{"Guide", "Setup"}, Part: 2, Parts: 3}, "web/guide.html §Setup (part 2/3)"},
		{"a part of a paper's long section says which", paper, ContentNode{PageStart: 4, HeadingPath: []string{"3 Method"}, Part: 1, Parts: 2}, "papers/flash.pdf p. 4 §3 (part 1/2)"},
		{"a part of a note's section is told apart by its lines", note, ContentNode{Ref: "notes/Properties.md#aliases", LineStart: 12, LineEnd: 30, Part: 1, Parts: 2}, "notes/Properties.md#aliases L12–30"},
		{"converted text without a heading", &Document{Path: "book.epub", Format: "epub"}, ContentNode{LineStart: 1}, "book.epub"},
		{"a BibTeX entry by its key and lines", bib, ContentNode{Ref: "refs.bib#vaswani2017", LineStart: 120, LineEnd: 131}, "refs.bib @vaswani2017 L120–131"},
		{"a BibTeX file of one entry, by the document's key", bib, ContentNode{Ref: "refs.bib", LineStart: 1, LineEnd: 9}, "refs.bib @dao2022 L1–9"},
		{"a BEIR record is its id", beir, ContentNode{Ref: "doc-4983"}, "doc-4983"},
		{"an answer by its question", answer, ContentNode{Kind: KindOutput, Ref: "conv-1/t1.md#how-does-staleness-decay", LineStart: 1}, `answer "How does staleness decay?"`},
		{"an answer without a title by its file", &Document{Path: "conv-1/t2.md"}, ContentNode{Kind: KindOutput}, "answer conv-1/t2.md"},
		{"a summary carries its source's place", note, ContentNode{Kind: KindAnalysis, Ref: "notes/Properties.md#aliases", LineStart: 12, LineEnd: 30, Source: "n-1"}, "notes/Properties.md#aliases L12–30"},
		{"no document: the reference", nil, ContentNode{Ref: "x.md#y"}, "x.md#y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Cite(tt.doc, &tt.node))
		})
	}
	assert.Empty(t, Cite(note, nil), "no node, no cite")
}

func TestSpan(t *testing.T) {
	assert.Equal(t, "", Span(0, 9))
	assert.Equal(t, "4", Span(4, 0))
	assert.Equal(t, "4", Span(4, 4))
	assert.Equal(t, "4–5", Span(4, 5))
}
