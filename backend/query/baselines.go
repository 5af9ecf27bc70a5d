package query

import (
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/index"
)

// wholeFile is the whole-file baseline: the files of the best hits, whole,
// in rank order, while they fit (the first always loads).
func (w *Pipeline) wholeFile(ranked []*assemble.Candidate, among []string, split assemble.Split, system, q string, count assemble.Counter) (*assemble.Assembly, []*assemble.Candidate, error) {
	ix := w.ws.CurrentIndex()
	var out, loaded []*assemble.Candidate
	var blocks []assemble.Block
	used := 0
	seen := map[string]bool{}
	for _, c := range ranked {
		n := ix.Nodes[c.ID]
		if n == nil || seen[n.DocID] {
			continue
		}
		seen[n.DocID] = true
		size := 0
		for _, nid := range ix.DocNodes[n.DocID] {
			size += ix.Nodes[nid].Tokens
		}
		if used > 0 && used+size > split.Context {
			continue
		}
		for _, nid := range ix.DocNodes[n.DocID] {
			m := ix.Nodes[nid]
			if !index.Searchable(m) {
				continue
			}
			mc := &assemble.Candidate{ID: m.ID, Ref: m.Ref, Cite: ix.Cite(m.ID), Ancestors: m.Ancestors, Title: nodeTitle(ix.Docs[m.DocID], m), Source: string(m.Kind),
				Tokens: m.Tokens, Score: c.Score, Relevant: true, Loaded: true, Level: assemble.Detailed, LoadedTokens: m.Tokens,
				Reason: "whole-file baseline: the whole file of a top hit", Signals: c.Signals, Hops: -1}
			if d := ix.Docs[m.DocID]; d != nil {
				mc.Document, mc.Collection = d.Path, d.Collection
			}
			t, err := w.ws.Content(m.ContentHash)
			if err != nil {
				return nil, nil, err
			}
			blocks = append(blocks, assemble.Block{Candidate: mc, Text: t})
			loaded = append(loaded, mc)
			out = append(out, mc)
			used += m.Tokens
		}
	}
	assemble.ShortIDs(out, among)
	manifest := assemble.Manifest(loaded, len(loaded), nil)
	ctxText := assemble.ContextText(manifest, "", blocks)
	sp := split
	sp.Loaded, sp.Manifest = used, count(manifest)
	sp.Free = max(0, sp.Context-sp.Loaded-sp.Manifest)
	return &assemble.Assembly{Split: sp, Selection: assemble.Selection{Branch: "whole-file", Loaded: loaded, Relevant: len(loaded), Used: used},
		Manifest: manifest, Context: ctxText, Prompt: assemble.Prompt(system, ctxText, q), Blocks: blocks}, out, nil
}

// FileTokens is the size of the whole file at a reference path (the
// whole-file baseline's cost), over every collection that holds it.
func (w *Pipeline) FileTokens(path string) int {
	w.ws.Lock()
	defer w.ws.Unlock()
	if w.ws.CurrentIndex() == nil {
		return 0
	}
	total := 0
	for id, d := range w.ws.CurrentIndex().Docs {
		if d.Path != path && d.Key != path {
			continue
		}
		for _, nid := range w.ws.CurrentIndex().DocNodes[id] {
			if n := w.ws.CurrentIndex().Nodes[nid]; n != nil && index.Searchable(n) {
				total += n.Tokens
			}
		}
	}
	return total
}
