package workspace

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/tokens"
)

func (w *Workspace) IndexCachePath() string { return filepath.Join(w.dir, "index.cache") }

// loadIndex builds the working index: from the cache when it matches the
// store's generation, else by reading the whole graph (and re-caching).
// The cache is decoded while the embedder's vector log loads. Callers
// hold w.mu.
func (w *Workspace) Index(ctx context.Context) (*index.Graph, error) {
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
		path, generation := w.IndexCachePath(), w.meta.Generation
		wg.Go(func() { ix, known = index.LoadGraphCache(path, generation) })
	}
	e, err := w.Embedder(ctx)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	fromStore := ix == nil
	if fromStore {
		snap, err := w.Load(ctx)
		if err != nil {
			return nil, err
		}
		ix, known = index.FromSnapshot(snap), snap.Concepts
	}
	ix.Linker = concepts.NewLinker(e.Dim(), w.Threshold(e))
	if w.meta.Embedder == "" || w.meta.Embedder == e.ID() {
		for _, c := range known {
			if v, ok := w.vecs.Get(index.ConceptKey(c.ID)); ok {
				ix.Linker.Add(c.ID, v)
			}
		}
	}
	w.index = ix
	if fromStore && w.KeepsFiles() {
		_ = ix.SaveCache(w.IndexCachePath(), w.meta)
	}
	if !w.cfg.memory && w.searchCacheValid() {
		w.cachedGen = w.meta.Generation // both caches match: Close need not rewrite them
	}
	return ix, nil
}

// liveRetrieval is the query index if it belongs to ix (else nil: it will
// be rebuilt when next needed).
func (w *Workspace) LiveSearch(ix *index.Graph) *index.Search {
	if w.retr != nil && w.retr.Graph == ix {
		return w.retr
	}
	return nil
}

// saveCaches writes the working-index and search caches for the current
// generation (best effort: a missing cache only makes the next open
// slower). Callers hold w.mu.
func (w *Workspace) SaveCaches() {
	if !w.KeepsFiles() || w.index == nil || w.cachedGen == w.meta.Generation {
		return // nothing changed since the caches were read or written
	}
	_ = w.index.SaveCache(w.IndexCachePath(), w.meta)
	if r := w.LiveSearch(w.index); r != nil {
		_ = r.SaveCache(w.SearchCachePath(), w.meta.Generation)
		if !r.Vectors.Prepared() {
			// A sketch is due (an ingest grew the vectors past the
			// sketch's threshold, or twice past its fit): build and
			// cache it now, so the next open does not fit it (~0.4 s at
			// 50,000 rows of 768).
			w.prepareVectors(r)
		}
	}
	w.cachedGen = w.meta.Generation
}

// retrieval returns the query index, building it when missing or stale.
// Callers hold w.mu.
func (w *Workspace) Search(ctx context.Context) (*index.Search, error) {
	return w.retrievalWith(ctx, nil)
}

// retrievalWith is retrieval with search.cache possibly being read
// already (Warm starts reading it while the working index loads): pre,
// when not nil, returns what readSearchCache returned for the current
// generation.
func (w *Workspace) retrievalWith(ctx context.Context, pre func() (*index.SearchCache, error)) (*index.Search, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return nil, err
	}
	if w.retr != nil && w.retr.Graph == ix {
		if w.retr.RelAdj == nil {
			w.retr.RebuildGraph()
		}
		return w.retr, nil
	}
	r := index.NewSearch(ix, w.emb.Dim())
	fromCache := false
	if !w.cfg.memory {
		var sc *index.SearchCache
		if pre != nil {
			sc, err = pre()
		} else {
			sc, err = index.ReadSearchCache(w.SearchCachePath(), w.meta.Generation)
		}
		fromCache = err == nil && r.AdoptCache(sc, ix)
	}
	if !fromCache { // keyword postings from the cache, else from the texts
		if err := r.BuildKeywords(ctx, w.Content); err != nil {
			return nil, err
		}
	}
	// The vectors, from the matrix cache when it was made for this slot
	// table, else from the log; the concept graph is built meanwhile.
	var graph sync.WaitGroup
	graph.Go(r.RebuildGraph)
	if !w.cfg.memory && r.AdoptRows(w.RowsCachePath(), w.vecs) {
		w.rowsKey = string(r.TableKey())
	} else {
		r.FillRows(w.vecs)
	}
	graph.Wait()
	w.retr = r
	if w.KeepsFiles() && !fromCache {
		_ = r.SaveCache(w.SearchCachePath(), w.meta.Generation)
	}
	return r, nil
}

func (w *Workspace) SearchCachePath() string { return w.dir + "/search.cache" }

// searchCacheValid reports whether search.cache was written at the
// current generation (read from its header only).
func (w *Workspace) searchCacheValid() bool {
	g, ok := index.SearchCacheGeneration(w.SearchCachePath())
	return ok && g == w.meta.Generation
}

// Warm makes the workspace ready to answer questions at full speed: it
// loads the working index and the query index (keyword postings from
// search.cache, vectors from the rows cache or else the vector log, the
// concept graph) and
// readies the vector scan (the low-dimensional sketch of vectors above 128
// dimensions, read from the sketch cache beside the vectors or built and
// saved there), all of which the first Query would otherwise do. It also
// starts loading the token table (~0.1 s of CPU) in the background without
// waiting for it: on two free cores it is loaded before the rest is, and a
// Query that comes sooner waits for what is left of it. Opening stays
// lazy; call Warm when a question is expected soon (the app after opening
// a workspace; `loom bench` times Open + Warm as "open").
func (w *Workspace) Warm(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("warm the workspace: it is closed")
	}
	if w.cfg.ingest.CountTokens == nil && w.counter == nil {
		// The token table loads beside the indexes; the first count
		// (countFunc, through tokens.New) waits for it if need be.
		tokens.Preload(tokens.DefaultEncoding)
	}
	// So does the index of summaries.pack (read whole: ~30 MB after
	// 100,000 summaries); the first read of a text waits for it.
	go w.texts.Preload()
	var pre func() (*index.SearchCache, error)
	if !w.cfg.memory && w.retr == nil {
		// search.cache is read and decoded while the working index and
		// the vector log load (they are independent until the slots are
		// checked against the index).
		var (
			sc   *index.SearchCache
			scEr error
			wg   sync.WaitGroup
		)
		path, generation := w.SearchCachePath(), w.meta.Generation
		wg.Go(func() { sc, scEr = index.ReadSearchCache(path, generation) })
		pre = func() (*index.SearchCache, error) { wg.Wait(); return sc, scEr }
		defer wg.Wait() // on an early error too
	}
	r, err := w.retrievalWith(ctx, pre)
	if err != nil {
		return err
	}
	if !r.Vectors.Prepared() {
		w.prepareVectors(r)
	}
	return nil
}

// prepareVectors readies r's vector scan, from the sketch cache when it
// fits, saving one otherwise (best effort). Callers hold w.mu.
func (w *Workspace) prepareVectors(r *index.Search) {
	path := ""
	if !w.cfg.memory {
		path = w.SketchCachePath()
	}
	r.PrepareVectors(path, w.KeepsFiles())
}

// rowsCachePath sits beside the embedder's vector log.
func (w *Workspace) RowsCachePath() string {
	return filepath.Join(w.dir, "vectors", safeName(w.emb.ID())+".rows")
}

// saveRows writes the rows cache unless it is already r's (best effort: a
// missing cache only makes the next open slower). Close calls it: the
// file is rewritten when the slot table changed (an ingest, a removal),
// not when texts or access times did. Callers hold w.mu.
func (w *Workspace) saveRows(r *index.Search) {
	key := string(r.TableKey())
	// Every build of the query index tries the cache on disk (adoptRows),
	// so one not adopted is missing, stale or damaged.
	if w.rowsKey != key && r.SaveRows(w.RowsCachePath()) {
		w.rowsKey = key
	}
}

// sketchCachePath sits beside the embedder's vector log.
func (w *Workspace) SketchCachePath() string {
	return filepath.Join(w.dir, "vectors", safeName(w.emb.ID())+".sketch")
}
