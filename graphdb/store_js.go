//go:build js

package graphdb

// HasBolt tells whether this build can open bolt stores (false under js).
const HasBolt = false

// BoltFile is the bolt file in a graph folder.
const BoltFile = "indexes.bolt"

// OpenBolt is not available in the WebAssembly build: bolt needs mmap and
// flock, which GOOS=js lacks.
func OpenBolt(dir string, o BoltOptions) (*Store, error) {
	return nil, ErrNoBolt
}

// CreateBolt is not available in the WebAssembly build (see OpenBolt).
func CreateBolt(dir string) error { return ErrNoBolt }

// SweepUnfinished has nothing to sweep in the WebAssembly build.
func SweepUnfinished(dir string) {}

// boltKV is not built in the WebAssembly build; Store keeps a nil one.
type boltKV struct{}

func (*boltKV) rollback() {}

func (s *Store) reopenCayley() {}

func (*boltKV) begin() error  { return ErrNoBolt }
func (*boltKV) commit() error { return ErrNoBolt }
