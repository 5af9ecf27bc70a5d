// Package graphdb stores Loom's graph in Cayley: the quad schema of
// SCHEMA.md, opening a bolt (on disk) or memory store, batched all-or-nothing
// writes, a full load for rebuilding the working index, and graph.json
// export/import.
package graphdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/cayleygraph/cayley/graph"
	_ "github.com/cayleygraph/cayley/graph/kv/bolt" // registers the "bolt" backend
	"github.com/cayleygraph/cayley/graph/memstore"
	"github.com/cayleygraph/quad"

	"github.com/loomwork/loom/backend/model"
)

// SchemaVersion is written into the meta quad; a store with another version
// is refused with a clear error rather than misread.
const SchemaVersion = 1

// Store is an open Cayley quad store holding one workspace's graph.
type Store struct {
	qs      graph.QuadStore
	backend string
	mu      sync.Mutex // serialises writes (Cayley's kv writer also does)
}

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

// OpenMemory opens an empty in-memory store (tests, the browser).
func OpenMemory() *Store {
	return &Store{qs: memstore.New(), backend: "memory"}
}

// Backend names the Cayley backend ("bolt", "memory").
func (s *Store) Backend() string { return s.backend }

// Close flushes and closes the store.
func (s *Store) Close() error { return s.qs.Close() }

// QuadCount is Cayley's own count of stored quads.
func (s *Store) QuadCount(ctx context.Context) (int64, error) {
	st, err := s.qs.Stats(ctx, false)
	if err != nil {
		return 0, err
	}
	return st.Quads.Size, nil
}

// Meta reads the workspace facts (counts, embedder, generation) from the one
// meta quad: no scan. A new store has zero Meta.
func (s *Store) Meta(ctx context.Context) (model.Meta, error) {
	var m model.Meta
	q, ok, err := s.one(ctx, iriWorkspace, predMeta)
	if err != nil || !ok {
		return m, err
	}
	var stored metaAttrs
	if err := json.Unmarshal([]byte(literal(q.Object)), &stored); err != nil {
		return m, fmt.Errorf("read workspace meta: %w", err)
	}
	if stored.Schema != SchemaVersion {
		return m, fmt.Errorf("workspace graph has schema version %d; this Loom reads version %d", stored.Schema, SchemaVersion)
	}
	return stored.Meta, nil
}

// one returns the first quad with subject s and predicate p.
func (s *Store) one(ctx context.Context, subj, pred quad.IRI) (quad.Quad, bool, error) {
	ref := s.qs.ValueOf(subj)
	if ref == nil {
		return quad.Quad{}, false, nil
	}
	it := s.qs.QuadIterator(quad.Subject, ref)
	defer it.Close()
	for it.Next(ctx) {
		q := s.qs.Quad(it.Result())
		if q.Predicate == pred {
			return q, true, nil
		}
	}
	return quad.Quad{}, false, it.Err()
}

// quadsAbout lists every quad with iri as subject, and as object too when
// objects is set.
func (s *Store) quadsAbout(ctx context.Context, iri quad.IRI, objects bool) ([]quad.Quad, error) {
	ref := s.qs.ValueOf(iri)
	if ref == nil {
		return nil, nil
	}
	var out []quad.Quad
	dirs := []quad.Direction{quad.Subject}
	if objects {
		dirs = append(dirs, quad.Object)
	}
	for _, d := range dirs {
		it := s.qs.QuadIterator(d, ref)
		for it.Next(ctx) {
			out = append(out, s.qs.Quad(it.Result()))
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func literal(v quad.Value) string {
	switch x := v.(type) {
	case quad.String:
		return string(x)
	case quad.IRI:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(quad.NativeOf(v))
}
