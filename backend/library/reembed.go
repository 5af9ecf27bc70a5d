package library

import (
	"context"
	"fmt"
	"sort"

	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// reembedLocked rebuilds the concept layer with embedder e: every content
// node is embedded again (vectors already in e's log are reused), concepts
// are recreated and re-linked, and the whole change commits in one
// transaction. Callers hold w.mu and have loaded the index.
func (w *Library) reembedLocked(ctx context.Context, e embed.Embedder) error {
	ix := w.ws.CurrentIndex()
	now := w.ws.Now()
	var ids []string
	for id := range ix.Nodes {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := ix.Nodes[ids[i]], ix.Nodes[ids[j]]
		if a.Created != b.Created {
			return a.Created.Before(b.Created)
		}
		return a.ID < b.ID
	})
	texts := make([]string, len(ids))
	vecs := make([][]float32, len(ids))
	var need []string
	var at []int
	for i, id := range ids {
		n := ix.Nodes[id]
		text, err := w.ws.Content(n.ContentHash)
		if err != nil {
			return fmt.Errorf("re-embed: %w", err)
		}
		texts[i] = text
		if v, ok := w.ws.Vectors().Get(index.ContentKey(n.ContentHash)); ok {
			vecs[i] = v
			continue
		}
		need = append(need, ingest.EmbedTextOf(n.HeadingPath, text, n.Symbol))
		at = append(at, i)
	}
	if len(need) > 0 {
		got, err := e.Embed(ctx, need)
		if err != nil {
			return fmt.Errorf("re-embed with %s: %w", e.ID(), err)
		}
		for k, i := range at {
			vecs[i] = got[k]
			if err := w.ws.Vectors().Put(index.ContentKey(ix.Nodes[ids[i]].ContentHash), got[k]); err != nil {
				return err
			}
		}
	}
	var write graphdb.Write
	for id := range ix.Concepts {
		write.Remove = append(write.Remove, id)
	}
	for id := range ix.Docs {
		write.Remove = append(write.Remove, id)
	}
	// Fresh concepts, linked in creation order.
	linker := concepts.NewLinker(e.Dim(), w.ws.Threshold(e))
	newConcepts := map[string]*model.Concept{}
	about := map[string][]model.Edge{}
	for i, id := range ids {
		n := ix.Nodes[id]
		title, path := "", ""
		if d := ix.Docs[n.DocID]; d != nil {
			title, path = d.Title, d.Path
		}
		matches, best := linker.Link(vecs[i])
		n.NearMiss, n.NearMissSim = "", 0
		if len(matches) == 0 {
			c := model.Concept{ID: "c-" + model.ShortHash(e.ID(), n.ID), Created: now, Seed: n.ID,
				Name: concepts.NameIn(n.HeadingPath, title, path, texts[i]), Description: concepts.Describe(texts[i])}
			if best.ID != "" {
				n.NearMiss, n.NearMissSim = best.ID, round3(best.Sim)
			}
			cw := graphdb.ConceptWrite{Concept: c}
			for _, r := range linker.Related(vecs[i], c.ID) {
				cw.Related = append(cw.Related, model.Edge{Kind: model.EdgeRelated, From: c.ID, To: r.ID, Weight: round3(r.Sim), Created: now})
			}
			linker.Add(c.ID, vecs[i])
			newConcepts[c.ID] = &c
			write.Concepts = append(write.Concepts, cw)
			if err := w.ws.Vectors().Put(index.ConceptKey(c.ID), vecs[i]); err != nil {
				return err
			}
			matches = []concepts.Match{{ID: c.ID, Sim: 1}}
		}
		for _, m := range matches {
			about[id] = append(about[id], model.Edge{Kind: model.EdgeAbout, From: id, To: m.ID, Weight: round3(m.Sim), Direction: string(n.Kind), Created: now})
		}
	}
	for docID, d := range ix.Docs {
		dw := graphdb.DocWrite{Doc: *d}
		for _, nid := range ix.DocNodes[docID] {
			dw.Nodes = append(dw.Nodes, *ix.Nodes[nid])
			for _, e := range ix.Out[nid] {
				if e.Kind != model.EdgeAbout {
					dw.Edges = append(dw.Edges, e)
				}
			}
			dw.Edges = append(dw.Edges, about[nid]...)
		}
		write.Documents = append(write.Documents, dw)
	}
	if err := w.ws.Vectors().Flush(); err != nil {
		return err
	}
	// The new vectors reach the disk before the commit that relies on them.
	if err := w.ws.Sync([]string{w.ws.Vectors().Path()}); err != nil {
		return fmt.Errorf("re-embed: %w", err)
	}
	crash.At("reembed-after-vectors")
	snap := &graphdb.Snapshot{DocNodes: ix.DocNodes}
	for _, d := range ix.Docs {
		snap.Documents = append(snap.Documents, *d)
	}
	for _, n := range ix.Nodes {
		snap.Nodes = append(snap.Nodes, *n)
	}
	for _, c := range newConcepts {
		snap.Concepts = append(snap.Concepts, *c)
	}
	for _, dw := range write.Documents {
		snap.Edges = append(snap.Edges, dw.Edges...)
	}
	for _, cw := range write.Concepts {
		snap.Edges = append(snap.Edges, cw.Related...)
	}
	nix := index.FromSnapshot(snap)
	nix.Linker = linker
	write.Meta = nix.Meta(e.ID())
	meta, err := w.ws.Apply(ctx, write)
	if err != nil {
		w.ws.Invalidate()
		return fmt.Errorf("re-embed: %w", err)
	}
	w.ws.Replace(nix, e, meta)
	return nil
}
