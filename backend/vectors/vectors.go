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
	"runtime"
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
// The file is read whole, in parallel chunks, the records are found in
// one pass over their lengths, then checked and decoded in parallel into
// one shared arena: at 50,000 vectors of 768 dimensions (150 MB) this is
// most of opening a workspace.
func (l *Log) load() (int64, error) {
	st, err := l.f.Stat()
	if err != nil {
		return 0, err
	}
	const hdrLen = len(magic) + 4
	size := st.Size()
	if size < int64(hdrLen) {
		return 0, nil // empty or torn header: start over
	}
	if size > math.MaxInt {
		return 0, errors.New("vector log too large")
	}
	buf := make([]byte, size)
	if err := readAll(l.f, buf); err != nil {
		return 0, err
	}
	if string(buf[:len(magic)]) != magic {
		return 0, errors.New("not a Loom vector log")
	}
	if d := int(binary.LittleEndian.Uint32(buf[len(magic):])); d != l.dim {
		return 0, fmt.Errorf("vectors have dimension %d, expected %d", d, l.dim)
	}
	body := 4 * l.dim
	var starts []int // every complete record (intact or not)
	off := hdrLen
	for off+2 <= len(buf) {
		end := off + 2 + int(binary.LittleEndian.Uint16(buf[off:])) + body + 4
		if end > len(buf) {
			break
		}
		starts = append(starts, off)
		off = end
	}
	n := len(starts)
	intact := make([]bool, n)
	arena := make([]float32, n*l.dim)
	parallel(n, func(from, to int) {
		for i := from; i < to; i++ {
			s := starts[i]
			klen := int(binary.LittleEndian.Uint16(buf[s:]))
			rec := buf[s+2 : s+2+klen+body+4]
			if crc32.ChecksumIEEE(rec[:klen+body]) != binary.LittleEndian.Uint32(rec[klen+body:]) {
				continue
			}
			intact[i] = true
			decodeFloats(arena[i*l.dim:(i+1)*l.dim], rec[klen:klen+body])
		}
	})
	good := n // records after the first damaged one are dropped with it
	for i, ok := range intact {
		if !ok {
			good = i
			break
		}
	}
	l.vecs = make(map[string][]float32, good)
	for i := range good {
		s := starts[i]
		klen := int(binary.LittleEndian.Uint16(buf[s:]))
		l.vecs[string(buf[s+2:s+2+klen])] = arena[i*l.dim : (i+1)*l.dim : (i+1)*l.dim]
	}
	if good < n {
		return int64(starts[good]), nil
	}
	return int64(off), nil
}

// readAll fills buf from the start of f, in parallel chunks for a large
// file (copying 150 MB out of the page cache is otherwise ~50 ms on one
// core).
func readAll(f *os.File, buf []byte) error {
	var errs [maxReaders]error
	chunks := min(maxReaders, runtime.GOMAXPROCS(0), 1+len(buf)/(8<<20))
	per := (len(buf) + chunks - 1) / chunks
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			from, to := c*per, min((c+1)*per, len(buf))
			if from < to {
				_, errs[c] = f.ReadAt(buf[from:to], int64(from))
			}
		})
	}
	wg.Wait()
	return errors.Join(errs[:]...)
}

const maxReaders = 4

// parallel runs f over [0, n) split into up to GOMAXPROCS (at most 4)
// ranges.
func parallel(n int, f func(from, to int)) {
	workers := min(maxReaders, runtime.GOMAXPROCS(0), 1+n/1024)
	per := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for start := per; start < n; start += per {
		wg.Go(func() { f(start, min(start+per, n)) })
	}
	f(0, min(per, n))
	wg.Wait()
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
