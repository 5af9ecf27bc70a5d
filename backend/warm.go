package backend

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/tokens"
)

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
func (w *Workbench) Warm(ctx context.Context) error {
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
		path, generation := w.searchCachePath(), w.meta.Generation
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
func (w *Workbench) prepareVectors(r *index.Search) {
	path := ""
	if !w.cfg.memory {
		path = w.sketchCachePath()
	}
	r.PrepareVectors(path, w.keepsFiles())
}

// rowsCachePath sits beside the embedder's vector log.
func (w *Workbench) rowsCachePath() string {
	return filepath.Join(w.dir, "vectors", safeName(w.emb.ID())+".rows")
}

// saveRows writes the rows cache unless it is already r's (best effort: a
// missing cache only makes the next open slower). Close calls it: the
// file is rewritten when the slot table changed (an ingest, a removal),
// not when texts or access times did. Callers hold w.mu.
func (w *Workbench) saveRows(r *index.Search) {
	key := string(r.TableKey())
	// Every build of the query index tries the cache on disk (adoptRows),
	// so one not adopted is missing, stale or damaged.
	if w.rowsKey != key && r.SaveRows(w.rowsCachePath()) {
		w.rowsKey = key
	}
}

// sketchCachePath sits beside the embedder's vector log.
func (w *Workbench) sketchCachePath() string {
	return filepath.Join(w.dir, "vectors", safeName(w.emb.ID())+".sketch")
}
