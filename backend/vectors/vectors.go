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

	"github.com/loomwork/loom/backend/mapfile"
)

const magic = "LOOMVEC1"

const hdrLen = len(magic) + 4

// Log is an open vector log for one embedder.
//
// The records found at open are not decoded: the file is mapped (package
// mapfile) and an index keeps where each key's floats are, so opening a log
// of 50,000 vectors of 768 dimensions (150 MB) costs a pass that checks
// every record's checksum, not a copy of the file into the heap. Records
// appended since open are kept in memory.
type Log struct {
	mu    sync.RWMutex
	path  string
	f     *os.File // nil for a read-only log whose file does not exist
	w     *bufio.Writer
	dim   int
	m     *mapfile.Map         // the file up to its last intact record at open
	at    map[string]int       // key → offset of its floats in m
	fresh map[string][]float32 // appended since open
}

// Open opens or creates the log at path for vectors of dimension dim,
// indexing every intact record; a torn or damaged tail is cut off.
func Open(path string, dim int) (*Log, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open vectors %s: %w", path, err)
	}
	l := &Log{path: path, f: f, dim: dim, fresh: map[string][]float32{}}
	good, size, err := l.load()
	if err != nil {
		l.release()
		f.Close()
		return nil, fmt.Errorf("read vectors %s: %w", path, err)
	}
	if err := l.cut(good, size); err != nil {
		l.release()
		f.Close()
		return nil, fmt.Errorf("cut the damaged tail of vectors %s: %w", path, err)
	}
	if good == 0 {
		hdr := make([]byte, hdrLen)
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

// OpenReadOnly opens the log at path for reading: the file is never
// written (nor created: a missing file is an empty log), a torn or damaged
// tail is left where it is for the writer to cut, and Put fails.
func OpenReadOnly(path string, dim int) (*Log, error) {
	l := &Log{path: path, dim: dim, fresh: map[string][]float32{}, at: map[string]int{}}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open vectors %s: %w", path, err)
	}
	l.f = f
	if _, _, err := l.load(); err != nil {
		l.release()
		f.Close()
		return nil, fmt.Errorf("read vectors %s: %w", path, err)
	}
	return l, nil
}

// ErrReadOnly is Put's error on a log opened with OpenReadOnly.
var ErrReadOnly = errors.New("the vector log is open read-only")

// ErrClosed is Put's error on a log that was closed (by another goroutine:
// an ingest's first stage embeds beside a re-embed that may close it).
var ErrClosed = errors.New("the vector log is closed")

// load maps the file, indexes its records and returns the offset after
// the last intact one, and the file's size.
func (l *Log) load() (good int, size int64, err error) {
	st, err := l.f.Stat()
	if err != nil {
		return 0, 0, err
	}
	size = st.Size()
	if size < int64(hdrLen) {
		l.at = map[string]int{}
		return 0, size, nil // empty or torn header: start over
	}
	if l.m, err = mapfile.Open(l.f, size, false); err != nil {
		return 0, 0, err
	}
	data := l.m.Bytes()
	if string(data[:len(magic)]) != magic {
		return 0, 0, errors.New("not a Loom vector log")
	}
	if d := int(binary.LittleEndian.Uint32(data[len(magic):])); d != l.dim {
		return 0, 0, fmt.Errorf("vectors have dimension %d, expected %d", d, l.dim)
	}
	body := 4 * l.dim
	// Records are 2+len(key)+4·dim+4 bytes, keys mostly a content hash of 66.
	l.at = make(map[string]int, min(len(data)/(2+64+body+4), 1<<24))
	off := hdrLen
	for off+2 <= len(data) {
		klen := int(binary.LittleEndian.Uint16(data[off:]))
		end := off + 2 + klen + body + 4
		if end > len(data) {
			break // a torn record
		}
		rec := data[off+2 : end-4]
		if crc32.ChecksumIEEE(rec) != binary.LittleEndian.Uint32(data[end-4:]) {
			break // damaged: it and everything after it are dropped
		}
		l.at[string(rec[:klen])] = off + 2 + klen
		off = end
	}
	return off, size, nil
}

// cut truncates the file (of size bytes) at good when it holds more (a
// torn or damaged tail), mapping only the intact part, and positions
// appends at good.
func (l *Log) cut(good int, size int64) error {
	if size > int64(good) {
		var err error
		l.release()
		if err := l.f.Truncate(int64(good)); err != nil {
			return err
		}
		if good > 0 {
			if l.m, err = mapfile.Open(l.f, int64(good), false); err != nil {
				return err
			}
		}
	}
	_, err := l.f.Seek(int64(good), io.SeekStart)
	return err
}

// release unmaps the file.
func (l *Log) release() {
	if l.m != nil {
		_ = l.m.Close()
		l.m = nil
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

// Path is the log's file.
func (l *Log) Path() string { return l.path }

// Len is the number of distinct keys.
func (l *Log) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.at) + len(l.fresh)
}

// Get returns the vector for key. Do not modify it: a vector appended
// since open is shared.
func (l *Log) Get(key string) ([]float32, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if v, ok := l.fresh[key]; ok {
		return v, true
	}
	off, ok := l.at[key]
	if !ok || l.m == nil { // unknown, or the log is closed
		return nil, false
	}
	v := make([]float32, l.dim)
	decodeFloats(v, l.m.Bytes()[off:off+4*l.dim])
	return v, true
}

// Read copies the vector for key into dst (of length Dim), without
// allocating.
func (l *Log) Read(key string, dst []float32) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if v, ok := l.fresh[key]; ok {
		copy(dst, v)
		return true
	}
	off, ok := l.at[key]
	ok = ok && l.m != nil
	if ok {
		decodeFloats(dst[:l.dim], l.m.Bytes()[off:off+4*l.dim])
	}
	return ok
}

// Has reports whether key holds a vector.
func (l *Log) Has(key string) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	_, ok := l.at[key]
	if !ok {
		_, ok = l.fresh[key]
	}
	return ok
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
	if l.w == nil {
		return fmt.Errorf("store a vector in %s: %w", l.path, ErrReadOnly)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fresh == nil {
		return fmt.Errorf("store a vector in %s: %w", l.path, ErrClosed)
	}
	if _, ok := l.at[key]; ok {
		return nil
	}
	if _, ok := l.fresh[key]; ok {
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
	l.fresh[key] = append([]float32(nil), v...)
	return nil
}

// Flush writes buffered records to the file.
func (l *Log) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		return nil
	}
	return l.w.Flush()
}

// Close flushes and closes the file. Vectors returned by Get stay valid;
// the log holds no vector afterwards.
func (l *Log) Close() error {
	err := l.Flush()
	l.mu.Lock()
	l.release()
	l.at, l.fresh = nil, nil
	l.mu.Unlock()
	if l.f == nil {
		return err
	}
	return errors.Join(err, l.f.Close())
}

// Inspection is what Inspect found in a vector log.
type Inspection struct {
	Dim     int
	Records int // intact records (a key written twice counts once)
	// Intact is where the intact records end; Size the file's size. A
	// file larger than Intact has a torn or damaged tail there, which the
	// next writer cuts off (its vectors are made again when needed).
	Intact, Size int64
	// Keys are the keys of the intact records.
	Keys map[string]bool
}

// Inspect reads a vector log without changing it: its dimension, its
// intact records, and where damage starts if any.
func Inspect(path string) (Inspection, error) {
	var in Inspection
	f, err := os.Open(path)
	if err != nil {
		return in, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return in, err
	}
	in.Size = st.Size()
	in.Keys = map[string]bool{}
	if in.Size < int64(hdrLen) {
		return in, nil
	}
	hdr := make([]byte, hdrLen)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return in, err
	}
	if string(hdr[:len(magic)]) != magic {
		return in, errors.New("not a Loom vector log")
	}
	in.Dim = int(binary.LittleEndian.Uint32(hdr[len(magic):]))
	l := &Log{path: path, f: f, dim: in.Dim}
	good, _, err := l.load()
	defer l.release()
	if err != nil {
		return in, err
	}
	in.Intact = int64(good)
	for k := range l.at {
		in.Keys[k] = true
	}
	in.Records = len(l.at)
	return in, nil
}
