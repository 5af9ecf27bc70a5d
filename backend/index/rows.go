package index

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
	"os"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/mapfile"
	"github.com/loomwork/loom/backend/search"
	"github.com/loomwork/loom/backend/vectors"
)

// RowsHeader is the room before the matrix in the rows cache: its key
// (sketchCacheKey), then zeros, so that the rows of the mapped file are
// aligned.
const RowsHeader = 64

// TableKey is sketchCacheKey of r's slot table, computed once.
func (r *Search) TableKey() []byte {
	if r.key == nil {
		r.key = SketchCacheKey(r.IDs)
	}
	return r.key
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

// AdoptRows makes the rows cache at path s's vectors when it was made for
// s's slot table (search.Vectors.AdoptRows), mapping it copy-on-write, and
// spot-checks it against the vector log; false when it is missing, stale,
// damaged or of other vectors, and then s is unchanged.
func (s *Search) AdoptRows(path string, vecs *vectors.Log) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < RowsHeader {
		return false
	}
	m, err := mapfile.Open(f, st.Size(), true)
	if err != nil {
		return false
	}
	key, b := s.TableKey(), m.Bytes()
	if !bytes.HasPrefix(b, key) || s.Vectors.AdoptRows(b[RowsHeader:], func() { _ = m.Close() }) != nil {
		_ = m.Close()
		return false
	}
	if !s.rowsMatchLog(vecs) {
		// Not these vectors after all: start again (the mapping is
		// released with the discarded matrix).
		s.Vectors = search.NewVectors(s.Vectors.Dim())
		return false
	}
	return true
}

// rowsMatchLog spot-checks adopted rows against the vector log, as
// UnmarshalSketch does a sketch: on an even sample of slots, a row is
// present exactly when the log holds the node's vector, and is that vector
// normalised.
func (s *Search) rowsMatchLog(vecs *vectors.Log) bool {
	const checks = 64
	buf := make([]float32, vecs.Dim())
	for sl := 0; sl < len(s.IDs); sl += max(1, len(s.IDs)/checks) {
		id := s.IDs[sl]
		has := id != "" && vecs.Read(ContentKey(s.Graph.Nodes[id].ContentHash), buf)
		if has != s.Vectors.Has(int32(sl)) {
			return false
		}
		if !has {
			continue
		}
		var dot, norm float64
		for i, x := range s.Vectors.Row(int32(sl)) {
			dot += float64(x) * float64(buf[i])
			norm += float64(buf[i]) * float64(buf[i])
		}
		if norm > 0 && dot/math.Sqrt(norm) < 0.9999 {
			return false
		}
	}
	return true
}

// SaveRows writes the rows cache to path (best effort: a missing cache only
// makes the next open slower) and reports whether it did.
func (s *Search) SaveRows(path string) bool {
	key := s.TableKey()
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return false
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	hdr := make([]byte, RowsHeader)
	copy(hdr, key)
	_, err = bw.Write(hdr)
	err = errors.Join(err, s.Vectors.WriteRows(bw), bw.Flush(), f.Close())
	if err != nil {
		_ = os.Remove(tmp)
		return false
	}
	crash.At("rows-cache-before-rename")
	return os.Rename(tmp, path) == nil
}

// PrepareVectors readies the vector scan: the sketch from its cache at
// path when that was made for this slot table, else built (and saved there
// when save is set; best effort).
func (s *Search) PrepareVectors(path string, save bool) {
	if path == "" {
		s.Vectors.Prepare()
		return
	}
	key := s.TableKey()
	if b, err := os.ReadFile(path); err == nil && bytes.HasPrefix(b, key) {
		if s.Vectors.UnmarshalSketch(b[len(key):]) == nil && s.Vectors.Prepared() {
			return
		}
	}
	s.Vectors.Prepare()
	if !save {
		return
	}
	if blob, ok := s.Vectors.MarshalSketch(); ok {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, append(key, blob...), 0o644); err == nil {
			crash.At("sketch-cache-before-rename")
			_ = os.Rename(tmp, path)
		}
	}
}

// FillRows sets every slot's vector from the log, all rows at once: the
// matrix grows once, and rows are normalised in parallel.
func (s *Search) FillRows(vecs *vectors.Log) {
	dim := vecs.Dim()
	slots := make([]int32, 0, len(s.IDs))
	arena := make([]float32, len(s.IDs)*dim)
	rows := make([][]float32, 0, len(s.IDs))
	for sl, id := range s.IDs {
		if id == "" {
			continue
		}
		row := arena[len(rows)*dim : (len(rows)+1)*dim]
		if vecs.Read(ContentKey(s.Graph.Nodes[id].ContentHash), row) {
			slots, rows = append(slots, int32(sl)), append(rows, row)
		}
	}
	s.Vectors.SetRows(slots, rows)
}
