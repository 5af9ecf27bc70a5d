//go:build !js

package graphdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cayleygraph/cayley/graph"
	_ "github.com/cayleygraph/cayley/graph/kv/bolt" // registers the "bolt" backend
)

// HasBolt tells whether this build can open bolt stores (false under js).
const HasBolt = true

// OpenBolt opens (creating when absent) a bolt-backed store in dir.
func OpenBolt(dir string) (*Store, error) {
	opts := graph.Options{"no_bloom": true} // the bloom filter would rescan every quad on open
	if _, err := os.Stat(filepath.Join(dir, "indexes.bolt")); errors.Is(err, os.ErrNotExist) {
		if err := graph.InitQuadStore("bolt", dir, opts); err != nil && !errors.Is(err, graph.ErrDatabaseExists) {
			return nil, fmt.Errorf("create graph store in %s: %w", dir, err)
		}
	}
	qs, err := graph.NewQuadStore("bolt", dir, opts)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil, fmt.Errorf("open graph store in %s: permission denied", dir)
		}
		return nil, fmt.Errorf("open graph store in %s: %w (is another Loom using this workspace?)", dir, err)
	}
	return &Store{qs: qs, backend: "bolt"}, nil
}
