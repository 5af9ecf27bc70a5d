// Package sample is a small library to try Loom on: eight short notes on
// retrieval-augmented generation and context windows, linked to one another
// with relative Markdown links and holding headings, tables and code, and a
// two-column paper (PDF) with the bibliography that lists it, so a question
// about them shows the graph, the ranking, the token budget and citations
// to pages at work. All of it is Loom's own text (see NOTICE).
//
// Workbench.IngestSample ingests them through the upload path, so they land
// in the same place in the desktop app and in the web edition.
package sample

import (
	"embed"
	"io/fs"
	"path"
	"sort"
)

// Collection is the collection the sample lands in (the folder its files
// are stored under among the workspace's uploads).
const Collection = "sample"

//go:embed notes/*.md
var notes embed.FS

//go:embed papers/*.pdf papers/*.bib
var papers embed.FS

// File is one file of the sample: its name and its Markdown (a note) or its
// bytes (a paper, a bibliography).
type File struct {
	Name string
	Text string
	Data []byte
}

// Papers returns the sample's paper (a two-page PDF, "papers/…") and the
// bibliography that lists it, in name order.
func Papers() []File {
	entries, err := fs.ReadDir(papers, "papers")
	if err != nil {
		panic("sample: the embedded papers are missing: " + err.Error())
	}
	var out []File
	for _, e := range entries {
		b, err := papers.ReadFile(path.Join("papers", e.Name()))
		if err != nil {
			panic("sample: " + err.Error())
		}
		out = append(out, File{Name: path.Join("papers", e.Name()), Data: b})
	}
	return out
}

// Files returns the notes in name order.
func Files() []File {
	entries, err := fs.ReadDir(notes, "notes")
	if err != nil {
		panic("sample: the embedded notes are missing: " + err.Error()) // a build without them is broken
	}
	var out []File
	for _, e := range entries {
		b, err := notes.ReadFile(path.Join("notes", e.Name()))
		if err != nil {
			panic("sample: " + err.Error())
		}
		out = append(out, File{Name: e.Name(), Text: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
