package backend

import (
	"context"
	"sync"

	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// loadIndex builds the working index: from the cache when it matches the
// store's generation, else by reading the whole graph (and re-caching).
// The cache is decoded while the embedder's vector log loads. Callers
// hold w.mu.
func (w *Workbench) loadIndex(ctx context.Context) (*index.Graph, error) {
	if w.index != nil {
		return w.index, nil
	}
	var (
		ix    *index.Graph
		known []model.Concept
		wg    sync.WaitGroup
	)
	if w.saved != nil { // read-only beside a writer: the index it saved
		ix, known = w.saved, w.savedConcepts
	} else if !w.cfg.memory {
		path, generation := w.cachePath(), w.meta.Generation
		wg.Go(func() { ix, known = index.LoadGraphCache(path, generation) })
	}
	e, err := w.embedder(ctx)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	fromStore := ix == nil
	if fromStore {
		snap, err := w.load(ctx)
		if err != nil {
			return nil, err
		}
		ix, known = index.FromSnapshot(snap), snap.Concepts
	}
	ix.Linker = concepts.NewLinker(e.Dim(), w.threshold(e))
	if w.meta.Embedder == "" || w.meta.Embedder == e.ID() {
		for _, c := range known {
			if v, ok := w.vecs.Get(index.ConceptKey(c.ID)); ok {
				ix.Linker.Add(c.ID, v)
			}
		}
	}
	w.index = ix
	if fromStore && w.keepsFiles() {
		_ = ix.SaveCache(w.cachePath(), w.meta)
	}
	if !w.cfg.memory && w.searchCacheValid() {
		w.cachedGen = w.meta.Generation // both caches match: Close need not rewrite them
	}
	return ix, nil
}

func (w *Workbench) threshold(e embed.Embedder) float64 {
	if w.cfg.threshold > 0 {
		return w.cfg.threshold
	}
	return embed.ConceptThreshold(e.ID())
}
