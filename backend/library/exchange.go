package library

import (
	"context"
	"fmt"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/graphdb"
)

// ExportGraph returns the seed's graph.json for the workspace, read from the
// store (the source of truth). With content, every node's text is included
// so that ImportGraph can rebuild the workspace elsewhere.
func (w *Library) ExportGraph(ctx context.Context, withContent bool) (*graphdb.GraphJSON, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	snap, err := w.ws.Load(ctx)
	if err != nil {
		return nil, err
	}
	g := snap.ToGraphJSON()
	if withContent {
		g.Content = map[string]string{}
		for _, n := range snap.Nodes {
			text, err := w.ws.Content(n.ContentHash)
			if err != nil {
				return nil, fmt.Errorf("export: %w", err)
			}
			g.Content[n.ContentHash] = text
		}
	}
	return g, nil
}

// ImportGraph loads a graph.json into an empty workspace. Node text comes
// from the file's content map, or from this workspace's content/ folder.
// Vectors are computed with the workspace's embedder. The file is checked
// whole first (graphdb.GraphJSON.Validate): a file with dangling
// references or impossible numbers is refused and nothing is stored. As
// with an ingest, texts and vectors are on disk before the graph commit
// that names them, so an import stopped at any moment leaves either an
// empty workspace or the whole graph.
func (w *Library) ImportGraph(ctx context.Context, g *graphdb.GraphJSON) error {
	if err := w.ws.Writable("import"); err != nil {
		return err
	}
	if err := g.Validate(); err != nil {
		return errs.Wrap(errs.Invalid, err, "import")
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	if w.ws.Meta().Documents > 0 || w.ws.Meta().ContentNodes > 0 {
		return errs.E(errs.Conflict, "import: the workspace is not empty (import into a new --workspace)")
	}
	e, err := w.ws.Embedder(ctx)
	if err != nil {
		return err
	}
	texts := make(map[string]string, len(g.ContentNodes))
	contents := make(map[string]string, len(g.ContentNodes))
	for _, n := range g.ContentNodes {
		text, ok := g.Content[n.ContentHash]
		if !ok {
			if text, err = w.ws.Content(n.ContentHash); err != nil {
				return fmt.Errorf("import: node %s has no text (export with --content): %w", n.ID, err)
			}
		}
		texts[n.ID] = text
		contents[n.ContentHash] = text
	}
	created, err := w.ws.Texts().WriteAll(contents)
	if err != nil {
		storage.RemoveFiles(created)
		return fmt.Errorf("import: %w", err)
	}
	committed := false
	defer func() {
		if !committed { // nothing names the texts this import made
			storage.RemoveFiles(created)
		}
	}()
	crash.At("import-after-texts")
	// Vectors for the nodes; concepts take their seed's vector.
	var need []string
	var hashes []string
	for _, n := range g.ContentNodes {
		if w.ws.Vectors().Has(index.ContentKey(n.ContentHash)) {
			continue
		}
		need = append(need, ingest.EmbedTextOf(n.HeadingPath, texts[n.ID], n.Symbol))
		hashes = append(hashes, n.ContentHash)
	}
	if len(need) > 0 {
		vecs, err := e.Embed(ctx, need)
		if err != nil {
			return fmt.Errorf("import: embed: %w", err)
		}
		for i, h := range hashes {
			if err := w.ws.Vectors().Put(index.ContentKey(h), vecs[i]); err != nil {
				return err
			}
		}
	}
	seedVec := map[string][]float32{}
	for _, n := range g.ContentNodes {
		v, _ := w.ws.Vectors().Get(index.ContentKey(n.ContentHash))
		seedVec[n.ID] = v
	}
	for _, c := range g.ConceptNodes {
		if v := seedVec[c.Seed]; v != nil {
			if err := w.ws.Vectors().Put(index.ConceptKey(c.ID), v); err != nil {
				return err
			}
		}
	}
	if err := w.ws.Vectors().Flush(); err != nil {
		return err
	}
	paths := []string{w.ws.Vectors().Path()}
	for h := range contents {
		paths = append(paths, w.ws.Texts().Path(h))
	}
	if err := w.ws.Sync(paths); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	crash.At("import-after-vectors")
	write := g.Writes()
	write.Meta = g.Facts()
	if write.Meta.Embedder == "" {
		write.Meta.Embedder = e.ID()
	}
	meta, err := w.ws.Apply(ctx, write)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	committed = true
	w.ws.SetMeta(meta)
	w.ws.Invalidate()
	if _, err := w.ws.Index(ctx); err != nil {
		return err
	}
	if w.ws.Meta().Embedder != e.ID() {
		_, err := w.reembedLocked(ctx, e, nil)
		return err
	}
	return nil
}
