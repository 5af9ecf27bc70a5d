package backend

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/mapfile"
	"github.com/loomwork/loom/backend/search"
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
	var pre func() (*SearchCache, error)
	if !w.cfg.memory && w.retr == nil {
		// search.cache is read and decoded while the working index and
		// the vector log load (they are independent until the slots are
		// checked against the index).
		var (
			sc   *SearchCache
			scEr error
			wg   sync.WaitGroup
		)
		path, generation := w.searchCachePath(), w.meta.Generation
		wg.Go(func() { sc, scEr = ReadSearchCache(path, generation) })
		pre = func() (*SearchCache, error) { wg.Wait(); return sc, scEr }
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

// prepareVectors loads the vector sketch from its cache when the cache
// was made for this slot table, else builds it and saves it (best effort:
// a missing cache only makes the next Warm slower). Callers hold w.mu.
func (w *Workbench) prepareVectors(r *Search) {
	if w.cfg.memory {
		r.Vectors.Prepare()
		return
	}
	path := w.sketchCachePath()
	key := r.TableKey()
	if b, err := os.ReadFile(path); err == nil && bytes.HasPrefix(b, key) {
		if r.Vectors.UnmarshalSketch(b[len(key):]) == nil && r.Vectors.Prepared() {
			return
		}
	}
	r.Vectors.Prepare()
	if !w.keepsFiles() {
		return
	}
	if blob, ok := r.Vectors.MarshalSketch(); ok {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, append(key, blob...), 0o644); err == nil {
			crash.At("sketch-cache-before-rename")
			_ = os.Rename(tmp, path)
		}
	}
}

// rowsCachePath sits beside the embedder's vector log.
func (w *Workbench) rowsCachePath() string {
	return filepath.Join(w.dir, "vectors", safeName(w.emb.ID())+".rows")
}

// rowsHeader is the room before the matrix in the rows cache: its key
// (sketchCacheKey), then zeros, so that the rows of the mapped file are
// aligned.
const rowsHeader = 64

// adoptRows makes the rows cache r's vectors when it was made for r's slot
// table (search.Vectors.AdoptRows), mapping it copy-on-write; false when it
// is missing, stale or damaged, and then r is unchanged. Callers hold w.mu.
func (w *Workbench) adoptRows(r *Search) bool {
	f, err := os.Open(w.rowsCachePath())
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < rowsHeader {
		return false
	}
	m, err := mapfile.Open(f, st.Size(), true)
	if err != nil {
		return false
	}
	key, b := r.TableKey(), m.Bytes()
	if !bytes.HasPrefix(b, key) || r.Vectors.AdoptRows(b[rowsHeader:], func() { _ = m.Close() }) != nil {
		_ = m.Close()
		return false
	}
	if !w.rowsMatchLog(r) {
		// Not these vectors after all: start again (the mapping is
		// released with the discarded matrix).
		r.Vectors = search.NewVectors(w.emb.Dim())
		return false
	}
	w.rowsKey = string(key)
	return true
}

// rowsMatchLog spot-checks adopted rows against the vector log, as
// UnmarshalSketch does a sketch: on an even sample of slots, a row is
// present exactly when the log holds the node's vector, and is that vector
// normalised.
func (w *Workbench) rowsMatchLog(r *Search) bool {
	const checks = 64
	buf := make([]float32, w.vecs.Dim())
	for s := 0; s < len(r.IDs); s += max(1, len(r.IDs)/checks) {
		id := r.IDs[s]
		has := id != "" && w.vecs.Read(ContentKey(r.Graph.Nodes[id].ContentHash), buf)
		if has != r.Vectors.Has(int32(s)) {
			return false
		}
		if !has {
			continue
		}
		var dot, norm float64
		for i, x := range r.Vectors.Row(int32(s)) {
			dot += float64(x) * float64(buf[i])
			norm += float64(buf[i]) * float64(buf[i])
		}
		if norm > 0 && dot/math.Sqrt(norm) < 0.9999 {
			return false
		}
	}
	return true
}

// saveRows writes the rows cache unless it is already r's (best effort: a
// missing cache only makes the next open slower). Close calls it: the
// file is rewritten when the slot table changed (an ingest, a removal),
// not when texts or access times did. Callers hold w.mu.
func (w *Workbench) saveRows(r *Search) {
	key := r.TableKey()
	if w.rowsKey == string(key) {
		return
	}
	// Every build of the query index tries the cache on disk (adoptRows),
	// so one not adopted is missing, stale or damaged.
	path := w.rowsCachePath()
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	hdr := make([]byte, rowsHeader)
	copy(hdr, key)
	_, err = bw.Write(hdr)
	err = errors.Join(err, r.Vectors.WriteRows(bw), bw.Flush(), f.Close())
	if err != nil {
		_ = os.Remove(tmp)
		return
	}
	crash.At("rows-cache-before-rename")
	if os.Rename(tmp, path) == nil {
		w.rowsKey = string(key)
	}
}

// TableKey is sketchCacheKey of r's slot table, computed once.
func (r *Search) TableKey() []byte {
	if r.key == nil {
		r.key = SketchCacheKey(r.IDs)
	}
	return r.key
}

// sketchCachePath sits beside the embedder's vector log.
func (w *Workbench) sketchCachePath() string {
	return filepath.Join(w.dir, "vectors", safeName(w.emb.ID())+".sketch")
}

// SketchCacheKey ties a sketch to one slot table: a magic and an FNV-1a
// hash of the node id in every slot. A node's id includes its content hash
// and the file holds one embedder's sketch, so the same table means the
// same vectors in the same slots; writes that leave the table alone
// (summaries, access times) leave the cache valid, unlike a key on the
// workspace generation.
func SketchCacheKey(ids []string) []byte {
	h := fnv.New64a()
	for _, id := range ids {
		h.Write([]byte(id))
		h.Write([]byte{0})
	}
	key := []byte("LOOMSKC1")
	key = binary.LittleEndian.AppendUint64(key, uint64(len(ids)))
	return binary.LittleEndian.AppendUint64(key, h.Sum64())
}
