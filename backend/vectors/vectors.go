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
// A goroutine reads the file in large blocks while this one checks and
// decodes the records of the block before into large shared arenas (no
// allocation per vector, no copy of the whole file): at 50,000 vectors of
// 768 dimensions (150 MB) this is a large part of opening a workspace.
func (l *Log) load() (int64, error) {
	st, err := l.f.Stat()
	if err != nil {
		return 0, err
	}
	const hdrLen = int64(len(magic) + 4)
	size := st.Size()
	if size < hdrLen {
		return 0, nil // empty or torn header: start over
	}
	hdr := make([]byte, hdrLen)
	if _, err := l.f.ReadAt(hdr, 0); err != nil {
		return 0, err
	}
	if string(hdr[:len(magic)]) != magic {
		return 0, errors.New("not a Loom vector log")
	}
	if d := int(binary.LittleEndian.Uint32(hdr[len(magic):])); d != l.dim {
		return 0, fmt.Errorf("vectors have dimension %d, expected %d", d, l.dim)
	}

	body := 4 * l.dim
	// Size the map and the first arena from the file: records are
	// 2+len(key)+4·dim+4 bytes, keys mostly a content hash of 66.
	expect := int(min((size-hdrLen)/int64(2+64+body+4), 1<<24))
	l.vecs = make(map[string][]float32, max(expect, 0))
	var arena []float32
	arenaRows := max(expect+expect/16, 64)
	good := hdrLen // offset after the last intact record
	// record checks and stores one whole record; false if it is damaged.
	record := func(rec []byte) bool {
		klen := int(binary.LittleEndian.Uint16(rec))
		key, data := rec[2:2+klen], rec[2+klen:2+klen+body]
		if crc32.ChecksumIEEE(rec[2:2+klen+body]) != binary.LittleEndian.Uint32(rec[2+klen+body:]) {
			return false
		}
		if len(arena) < l.dim {
			arena = make([]float32, arenaRows*l.dim)
			arenaRows = 1024 // records beyond the estimate
		}
		v := arena[:l.dim:l.dim]
		arena = arena[l.dim:]
		decodeFloats(v, data)
		l.vecs[string(key)] = v
		good += int64(len(rec))
		return true
	}
	recLen := func(b []byte) int { return 2 + int(binary.LittleEndian.Uint16(b)) + body + 4 }

	blocks := readBlocks(l.f, hdrLen, size)
	defer blocks.stop()
	var carry []byte // the start of a record that runs into the next block
	for b := range blocks.out {
		if b.err != nil {
			return 0, b.err
		}
		data := b.data
		if len(carry) > 0 {
			if len(carry) < 2 { // the record's length itself was cut
				take := min(2-len(carry), len(data))
				carry, data = append(carry, data[:take]...), data[take:]
				if len(carry) < 2 {
					blocks.done(b)
					continue
				}
			}
			take := min(recLen(carry)-len(carry), len(data))
			carry, data = append(carry, data[:take]...), data[take:]
			if len(carry) == recLen(carry) {
				if !record(carry) {
					return good, nil
				}
				carry = carry[:0]
			}
		}
		for len(data) >= 2 && recLen(data) <= len(data) {
			n := recLen(data)
			if !record(data[:n]) {
				return good, nil
			}
			data = data[n:]
		}
		carry = append(carry, data...)
		blocks.done(b)
	}
	return good, nil // a torn record at the end, if any, is dropped
}

// blockReader reads a file's bytes in order, in large blocks, on its own
// goroutine, two blocks ahead of the reader.
type blockReader struct {
	out  chan block
	free chan []byte
	quit chan struct{}
}

type block struct {
	data []byte
	buf  []byte
	err  error
}

// blockSize is the read size (a variable for tests).
var blockSize = 4 << 20

func readBlocks(f *os.File, from, to int64) *blockReader {
	r := &blockReader{out: make(chan block, 2), free: make(chan []byte, 3), quit: make(chan struct{})}
	for range 3 {
		r.free <- make([]byte, blockSize)
	}
	go func() {
		defer close(r.out)
		for off := from; off < to; {
			var buf []byte
			select {
			case buf = <-r.free:
			case <-r.quit:
				return
			}
			n, err := f.ReadAt(buf[:min(int64(len(buf)), to-off)], off)
			if n == 0 && err != nil {
				select {
				case r.out <- block{err: err}:
				case <-r.quit:
				}
				return
			}
			off += int64(n)
			select {
			case r.out <- block{data: buf[:n], buf: buf}:
			case <-r.quit:
				return
			}
		}
	}()
	return r
}

// done hands a block's buffer back for reuse.
func (r *blockReader) done(b block) { r.free <- b.buf }

// stop ends the reading goroutine (once the reader is done with out).
func (r *blockReader) stop() { close(r.quit) }

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
