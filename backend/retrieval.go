package backend

import (
	"context"
	"sync"

	"github.com/loomwork/loom/backend/index"
)

// liveRetrieval is the query index if it belongs to ix (else nil: it will
// be rebuilt when next needed).
func (w *Workbench) liveRetrieval(ix *index.Graph) *index.Search {
	if w.retr != nil && w.retr.Graph == ix {
		return w.retr
	}
	return nil
}

// saveCaches writes the working-index and search caches for the current
// generation (best effort: a missing cache only makes the next open
// slower). Callers hold w.mu.
func (w *Workbench) saveCaches() {
	if !w.keepsFiles() || w.index == nil || w.cachedGen == w.meta.Generation {
		return // nothing changed since the caches were read or written
	}
	_ = w.index.SaveCache(w.cachePath(), w.meta)
	if r := w.liveRetrieval(w.index); r != nil {
		_ = r.SaveCache(w.searchCachePath(), w.meta.Generation)
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
func (w *Workbench) retrieval(ctx context.Context) (*index.Search, error) {
	return w.retrievalWith(ctx, nil)
}

// retrievalWith is retrieval with search.cache possibly being read
// already (Warm starts reading it while the working index loads): pre,
// when not nil, returns what readSearchCache returned for the current
// generation.
func (w *Workbench) retrievalWith(ctx context.Context, pre func() (*index.SearchCache, error)) (*index.Search, error) {
	ix, err := w.loadIndex(ctx)
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
			sc, err = index.ReadSearchCache(w.searchCachePath(), w.meta.Generation)
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
	if !w.cfg.memory && r.AdoptRows(w.rowsCachePath(), w.vecs) {
		w.rowsKey = string(r.TableKey())
	} else {
		r.FillRows(w.vecs)
	}
	graph.Wait()
	w.retr = r
	if w.keepsFiles() && !fromCache {
		_ = r.SaveCache(w.searchCachePath(), w.meta.Generation)
	}
	return r, nil
}

func (w *Workbench) searchCachePath() string { return w.dir + "/search.cache" }

// searchCacheValid reports whether search.cache was written at the
// current generation (read from its header only).
func (w *Workbench) searchCacheValid() bool {
	g, ok := index.SearchCacheGeneration(w.searchCachePath())
	return ok && g == w.meta.Generation
}
