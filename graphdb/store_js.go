//go:build js

package graphdb

// HasBolt tells whether this build can open bolt stores (false under js).
const HasBolt = false

// OpenBolt is not available in the WebAssembly build: bolt needs mmap and
// flock, which GOOS=js lacks.
func OpenBolt(dir string) (*Store, error) {
	return nil, ErrNoBolt
}
