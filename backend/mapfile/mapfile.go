// Package mapfile gives a file's bytes as a slice: mapped into memory
// where the platform has mmap (Linux, macOS and the other Unixes), read
// into the heap elsewhere (Windows, WebAssembly).
//
// Mapping is how Loom opens its large binary files (the vector log and the
// matrix cache, 150 MB each at 50,000 vectors of 768 dimensions): the
// pages are the page cache's own, so opening costs neither a copy nor the
// faults of fresh heap memory (measured on a 158 MB vector log: 7 ms to
// map and touch every page, against 65–130 ms to read it into the heap).
//
// The slice is valid until Close. Loom's files are replaced by rename and
// only ever appended to while open, never truncated under a mapping, so a
// mapped page never vanishes from under a reader.
package mapfile

import (
	"fmt"
	"io"
	"os"
)

// Map is a file's bytes, from offset 0 to the size given to Open.
type Map struct {
	data   []byte
	mapped bool
}

// Open maps the first size bytes of f. With private set the mapping is
// writable and copy-on-write: writes change this process's pages only,
// never the file. The file may be closed afterwards.
func Open(f *os.File, size int64, private bool) (*Map, error) {
	if size < 0 || size != int64(int(size)) {
		return nil, fmt.Errorf("map %s: size %d", f.Name(), size)
	}
	if size == 0 {
		return &Map{}, nil
	}
	if data, ok, err := mapFile(f, int(size), private); ok {
		if err != nil {
			return nil, fmt.Errorf("map %s: %w", f.Name(), err)
		}
		return &Map{data: data, mapped: true}, nil
	}
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return &Map{data: data}, nil
}

// Bytes returns the file's bytes: valid until Close; read-only unless the
// map is private.
func (m *Map) Bytes() []byte { return m.data }

// Mapped reports whether the bytes are mapped (not read into the heap).
func (m *Map) Mapped() bool { return m.mapped }

// Close releases the bytes. Nothing may use them afterwards.
func (m *Map) Close() error {
	data, mapped := m.data, m.mapped
	m.data, m.mapped = nil, false
	if mapped {
		return unmap(data)
	}
	return nil
}

// ReadFile returns the contents of a file that is replaced, never written
// in place (Loom's stored texts), as os.ReadFile does but in fewer system
// calls where the platform allows: open, fstat, read and close. os.ReadFile
// also registers the file with the network poller, which fails for a
// regular file, and reads once more to see the end. A question on a fresh
// workspace reads twenty-odd stored texts, and under a virtual machine
// each call costs microseconds: 5 µs a read against 11. It reads what the
// size said, so a file growing meanwhile is read short; what is not a
// regular file, or says it is empty, is read by os.ReadFile. Errors are
// *fs.PathError, as os.ReadFile's.
func ReadFile(path string) ([]byte, error) {
	if b, ok, err := readFile(path); ok {
		return b, err
	}
	return os.ReadFile(path)
}
