// Package vectors keeps one embedder's vectors in an append-only log file
// keyed by content hash (or concept id). Records are length-prefixed and
// checksummed, so a process killed mid-append leaves at worst a torn tail,
// which the next open drops. Vectors are content-addressed: an orphan record
// (written before a graph commit that never happened) is harmless.
package vectors

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"slices"
	"sync"
	"unsafe"
)

const magic = "LOOMVEC1"

// Log is an open vector log for one embedder.
type Log struct {
	mu   sync.RWMutex
	f    *os.File
	w    *bufio.Writer
	dim  int
	vecs map[string][]float32
}

// Open opens or creates the log at path for vectors of dimension dim,
// loading every intact record.
func Open(path string, dim int) (*Log, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open vectors %s: %w", path, err)
	}
	l := &Log{f: f, dim: dim, vecs: map[string][]float32{}}
	good, err := l.load()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read vectors %s: %w", path, err)
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	if good == 0 {
		hdr := make([]byte, len(magic)+4)
		copy(hdr, magic)
		binary.LittleEndian.PutUint32(hdr[len(magic):], uint32(dim))
		if _, err := f.Write(hdr); err != nil {
			f.Close()
			return nil, err
		}
	}
	l.w = bufio.NewWriterSize(f, 1<<20)
	return l, nil
}

// load reads records and returns the offset after the last intact one.
// The vectors are cut from large shared arenas rather than allocated one
// by one, and the file is read in large blocks, parsed in place: at 50,000
// vectors of 768 dimensions this is most of opening a workspace.
func (l *Log) load() (int64, error) {
	st, err := l.f.Stat()
	if err != nil {
		return 0, err
	}
	r := bufio.NewReaderSize(l.f, 4<<20)
	hdr := make([]byte, len(magic)+4)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return 0, nil // empty or torn header: start over
	}
	if string(hdr[:len(magic)]) != magic {
		return 0, errors.New("not a Loom vector log")
	}
	if d := int(binary.LittleEndian.Uint32(hdr[len(magic):])); d != l.dim {
		return 0, fmt.Errorf("vectors have dimension %d, expected %d", d, l.dim)
	}
	off := int64(len(hdr))
	// Size the map and the first arena from the file: records are at
	// 2+len(key)+4·dim+4 bytes, keys mostly a content hash of 66.
	expect := int(min((st.Size()-off)/int64(2+64+4*l.dim+4), 1<<24))
	l.vecs = make(map[string][]float32, max(expect, 0))
	var arena []float32
	arenaRows := max(expect, 64)
	body := 4 * l.dim
	var lenBuf [2]byte
	rec := make([]byte, 0, 1<<10+body+4)
	for {
		if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
			return off, nil
		}
		klen := int(binary.LittleEndian.Uint16(lenBuf[:]))
		rec = slices.Grow(rec[:0], klen+body+4)[:klen+body+4]
		if _, err := io.ReadFull(r, rec); err != nil {
			return off, nil
		}
		key, data, sum := rec[:klen], rec[klen:klen+body], rec[klen+body:]
		if crc32.ChecksumIEEE(rec[:klen+body]) != binary.LittleEndian.Uint32(sum) {
			return off, nil
		}
		if len(arena) < l.dim {
			arena = make([]float32, arenaRows*l.dim)
			arenaRows = 1024 // records appended after the estimate
		}
		v := arena[:l.dim:l.dim]
		arena = arena[l.dim:]
		decodeFloats(v, data)
		l.vecs[string(key)] = v
		off += int64(2 + len(rec))
	}
}

// decodeFloats fills v from little-endian float32s.
func decodeFloats(v []float32, data []byte) {
	if littleEndian && len(v) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v)), data)
		return
	}
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
}

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Dim is the vector dimension.
func (l *Log) Dim() int { return l.dim }

// Len is the number of distinct keys.
func (l *Log) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.vecs)
}

// Get returns the vector for key (shared: do not modify).
func (l *Log) Get(key string) ([]float32, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	v, ok := l.vecs[key]
	return v, ok
}

// Put appends a vector unless key already holds one. Call Flush before
// committing anything that refers to it.
func (l *Log) Put(key string, v []float32) error {
	if len(v) != l.dim {
		return fmt.Errorf("vector for %s has dimension %d, expected %d", key, len(v), l.dim)
	}
	if len(key) > math.MaxUint16 {
		return fmt.Errorf("vector key too long")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.vecs[key]; ok {
		return nil
	}
	rec := make([]byte, 2+len(key)+4*l.dim+4)
	binary.LittleEndian.PutUint16(rec, uint16(len(key)))
	copy(rec[2:], key)
	for i, x := range v {
		binary.LittleEndian.PutUint32(rec[2+len(key)+4*i:], math.Float32bits(x))
	}
	binary.LittleEndian.PutUint32(rec[len(rec)-4:], crc32.ChecksumIEEE(rec[2:len(rec)-4]))
	if _, err := l.w.Write(rec); err != nil {
		return err
	}
	l.vecs[key] = append([]float32(nil), v...)
	return nil
}

// Flush writes buffered records to the file.
func (l *Log) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Flush()
}

// Close flushes and closes the file.
func (l *Log) Close() error {
	if err := l.Flush(); err != nil {
		l.f.Close()
		return err
	}
	return l.f.Close()
}
