package library

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// Location is where a node's text is in its source: the document and the
// pages or lines of it, what a viewer needs to open it there.
type Location struct {
	// Document is the document's id; Path its path in its collection's
	// folder (slash-separated), Key where its file is (an absolute path,
	// or loom:<collection>/<path> for an answer kept in the workspace).
	Document   string `json:"document"`
	Path       string `json:"path"`
	Collection string `json:"collection"`
	Format     string `json:"format"`
	Key        string `json:"key"`
	// PageStart, PageEnd, LineStart and LineEnd are 1-based, 0 when
	// unknown (pages are a paged document's, a PDF's).
	PageStart int `json:"page_start"`
	PageEnd   int `json:"page_end"`
	LineStart int `json:"line_start"`
	LineEnd   int `json:"line_end"`
}

// locate is where node n of document d is.
func locate(d *model.Document, n *model.ContentNode) *Location {
	l := &Location{Document: n.DocID, PageStart: n.PageStart, PageEnd: n.PageEnd, LineStart: n.LineStart, LineEnd: n.LineEnd}
	if d != nil {
		l.Path, l.Collection, l.Format, l.Key = d.Path, d.Collection, d.Format, d.Key
	}
	return l
}

// SourceDocument is the document a source view shows, with what it says
// of itself (authors, year, DOI, arXiv id, tags, aliases).
type SourceDocument struct {
	ID         string        `json:"id"`
	Path       string        `json:"path"`
	Collection string        `json:"collection"`
	Format     string        `json:"format"`
	Title      string        `json:"title"`
	Key        string        `json:"key"`
	Meta       model.DocMeta `json:"meta"`
	// File says that Key is a file the system can open (an answer is kept
	// in the workspace and has none).
	File bool `json:"file"`
}

// SourceSection is one section of a source view, in document order.
type SourceSection struct {
	ID          string   `json:"id"`
	HeadingPath []string `json:"heading_path"`
	Cite        string   `json:"cite"`
	PageStart   int      `json:"page_start"`
	PageEnd     int      `json:"page_end"`
	LineStart   int      `json:"line_start"`
	LineEnd     int      `json:"line_end"`
	// Part of Parts: a long section cut into chunks.
	Part  int `json:"part"`
	Parts int `json:"parts"`
	// Text is the section's stored text ("" when it is unavailable or
	// omitted).
	Text string `json:"text"`
	// Unavailable says why the stored text cannot be read (missing or
	// damaged: `loom repair` reads it back from the file).
	Unavailable string `json:"unavailable,omitempty"`
	// Omitted: the document is longer than a view shows at once
	// (MaxSourceBytes), and this section is far from the focus.
	Omitted bool `json:"omitted,omitempty"`
}

// SourceView is a node's document as the source viewer shows it: the
// document, its sections in order with their text, and the section to
// show first and highlight (the node asked for, or the section a summary
// condenses).
type SourceView struct {
	Document SourceDocument  `json:"document"`
	Sections []SourceSection `json:"sections"`
	// Focus is the id of the section the view opens at; Cite its cite.
	Focus string `json:"focus"`
	Cite  string `json:"cite"`
}

// MaxSourceBytes bounds the text a source view carries: the sections
// nearest the focus up to this many bytes; the rest are Omitted.
const MaxSourceBytes = 1 << 20

// Source returns the document that holds a content node, its sections in
// order with their texts, and the node to focus (for an analysis node, the
// section it condenses). A section whose stored text is missing or damaged
// is marked unavailable; that is not a failure. An unknown id is
// not_found.
func (w *Library) Source(ctx context.Context, nodeID string) (*SourceView, error) {
	w.ws.Lock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		w.ws.Unlock()
		return nil, err
	}
	n := ix.CitedNode(nodeID)
	if n == nil {
		_, concept := ix.Concepts[nodeID]
		w.ws.Unlock()
		if concept {
			return nil, errs.E(errs.Invalid, "%s is a concept: it has no source to open (its sections do)", nodeID)
		}
		return nil, fmt.Errorf("node %s: %w in this workspace", nodeID, ErrNotFound)
	}
	d := ix.Docs[n.DocID]
	if d == nil {
		w.ws.Unlock()
		return nil, fmt.Errorf("the document of node %s: %w in this workspace", nodeID, ErrNotFound)
	}
	v := &SourceView{Focus: n.ID, Cite: ix.Cite(n.ID), Sections: []SourceSection{},
		Document: SourceDocument{ID: d.ID, Path: d.Path, Collection: d.Collection, Format: d.Format, Title: d.Title, Key: d.Key, Meta: d.Meta,
			File: filepath.IsAbs(d.Key)}}
	var nodes []*model.ContentNode
	for _, id := range ix.DocNodes[d.ID] {
		if m := ix.Nodes[id]; m != nil && index.Searchable(m) {
			nodes = append(nodes, m)
		}
	}
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].Ordinal < nodes[j].Ordinal })
	hashes := make([]string, len(nodes))
	for i, m := range nodes {
		v.Sections = append(v.Sections, SourceSection{ID: m.ID, HeadingPath: m.HeadingPath, Cite: model.Cite(d, m),
			PageStart: m.PageStart, PageEnd: m.PageEnd, LineStart: m.LineStart, LineEnd: m.LineEnd, Part: m.Part, Parts: m.Parts})
		hashes[i] = m.ContentHash
	}
	sizes := make([]int, len(nodes))
	for i, m := range nodes {
		sizes[i] = m.Tokens * 4 // texts are read after the lock; their size is guessed from tokens
	}
	w.ws.Unlock()

	shown := nearest(sizes, focusIndex(v.Sections, n.ID), MaxSourceBytes)
	for i := range v.Sections {
		s := &v.Sections[i]
		if s.HeadingPath == nil {
			s.HeadingPath = []string{}
		}
		if !shown[i] {
			s.Omitted = true
			continue
		}
		text, err := w.ws.Content(hashes[i])
		switch {
		case errs.CodeOf(err) == errs.Unavailable:
			s.Unavailable = err.Error()
		case err != nil:
			return nil, fmt.Errorf("source of %s: %w", nodeID, err)
		default:
			s.Text = strings.TrimRight(text, " \t\r\n")
		}
	}
	return v, nil
}

// DocumentSource is Source for a document, by its id: the view focuses on
// its first section. An unknown id is not_found; a document with no
// section to show (all of it unreadable at ingest) is not_found too.
func (w *Library) DocumentSource(ctx context.Context, docID string) (*SourceView, error) {
	w.ws.Lock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		w.ws.Unlock()
		return nil, err
	}
	if ix.Docs[docID] == nil {
		w.ws.Unlock()
		return nil, fmt.Errorf("document %s: %w in this workspace", docID, ErrNotFound)
	}
	first := ""
	best := 0
	for _, id := range ix.DocNodes[docID] {
		if m := ix.Nodes[id]; m != nil && index.Searchable(m) && (first == "" || m.Ordinal < best) {
			first, best = id, m.Ordinal
		}
	}
	w.ws.Unlock()
	if first == "" {
		return nil, fmt.Errorf("the sections of document %s: %w in this workspace", docID, ErrNotFound)
	}
	return w.Source(ctx, first)
}

// Locate is where a content node's text is: its document's file and the
// pages or lines of the node (for an analysis node, of the section it
// condenses). An unknown id is not_found.
func (w *Library) Locate(ctx context.Context, nodeID string) (*Location, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	n := ix.CitedNode(nodeID)
	if n == nil || ix.Docs[n.DocID] == nil {
		return nil, fmt.Errorf("node %s: %w in this workspace", nodeID, ErrNotFound)
	}
	return locate(ix.Docs[n.DocID], n), nil
}

func focusIndex(sections []SourceSection, id string) int {
	for i, s := range sections {
		if s.ID == id {
			return i
		}
	}
	return 0
}

// nearest chooses the sections to show: the focus, then its neighbours
// alternately after and before it, while their sizes add up to at most
// limit (the focus always).
func nearest(sizes []int, focus, limit int) []bool {
	shown := make([]bool, len(sizes))
	if len(sizes) == 0 {
		return shown
	}
	shown[focus] = true
	used := sizes[focus]
	for lo, hi := focus-1, focus+1; lo >= 0 || hi < len(sizes); lo, hi = lo-1, hi+1 {
		for _, i := range []int{hi, lo} {
			if i < 0 || i >= len(sizes) {
				continue
			}
			if used+sizes[i] > limit {
				return shown
			}
			used += sizes[i]
			shown[i] = true
		}
	}
	return shown
}
