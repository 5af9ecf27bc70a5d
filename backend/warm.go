package backend

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"

	"github.com/loomwork/loom/backend/tokens"
)

// Warm makes the workspace ready to answer questions at full speed: it
// loads the working index and the query index (keyword postings from
// search.cache, vectors from the vector log, the concept graph) and
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
	go w.pack.preload()
	var pre func() (*searchCache, error)
	if !w.cfg.memory && w.retr == nil {
		// search.cache is read and decoded while the working index and
		// the vector log load (they are independent until the slots are
		// checked against the index).
		var (
			sc   *searchCache
			scEr error
			wg   sync.WaitGroup
		)
		path, generation := w.searchCachePath(), w.meta.Generation
		wg.Go(func() { sc, scEr = readSearchCache(path, generation) })
		pre = func() (*searchCache, error) { wg.Wait(); return sc, scEr }
		defer wg.Wait() // on an early error too
	}
	r, err := w.retrievalWith(ctx, pre)
	if err != nil {
		return err
	}
	if !r.vec.Prepared() {
		w.prepareVectors(r)
	}
	return nil
}

// prepareVectors loads the vector sketch from its cache when the cache
// was made for this slot table, else builds it and saves it (best effort:
// a missing cache only makes the next Warm slower). Callers hold w.mu.
func (w *Workbench) prepareVectors(r *retrieval) {
	if w.cfg.memory {
		r.vec.Prepare()
		return
	}
	path := w.sketchCachePath()
	key := sketchCacheKey(r.ids)
	if b, err := os.ReadFile(path); err == nil && bytes.HasPrefix(b, key) {
		if r.vec.UnmarshalSketch(b[len(key):]) == nil && r.vec.Prepared() {
			return
		}
	}
	r.vec.Prepare()
	if blob, ok := r.vec.MarshalSketch(); ok {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, append(key, blob...), 0o644); err == nil {
			_ = os.Rename(tmp, path)
		}
	}
}

// sketchCachePath sits beside the embedder's vector log.
func (w *Workbench) sketchCachePath() string {
	return filepath.Join(w.dir, "vectors", safeName(w.emb.ID())+".sketch")
}

// sketchCacheKey ties a sketch to one slot table: a magic and an FNV-1a
// hash of the node id in every slot. A node's id includes its content hash
// and the file holds one embedder's sketch, so the same table means the
// same vectors in the same slots; writes that leave the table alone
// (summaries, access times) leave the cache valid, unlike a key on the
// workspace generation.
func sketchCacheKey(ids []string) []byte {
	h := fnv.New64a()
	for _, id := range ids {
		h.Write([]byte(id))
		h.Write([]byte{0})
	}
	key := []byte("LOOMSKC1")
	key = binary.LittleEndian.AppendUint64(key, uint64(len(ids)))
	return binary.LittleEndian.AppendUint64(key, h.Sum64())
}
