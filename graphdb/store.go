// Package graphdb stores Loom's graph in Cayley: the quad schema of
// SCHEMA.md, opening a bolt (on disk), memory, or snapshot-backed memory
// store, batched all-or-nothing writes, a full load for rebuilding the
// working index, and graph.json export/import.
//
// The bolt backend does not build for WebAssembly (GOOS=js): there OpenBolt
// returns an error and the browser edition uses OpenSnapshot or OpenMemory.
package graphdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/cayleygraph/cayley/graph"
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
	// snapshot is the file a snapshot store is kept in (snapshot.go).
	snapshot string
}

// ErrNoBolt is OpenBolt's error in the WebAssembly build (see HasBolt).
var ErrNoBolt = errors.New("the browser edition keeps the graph in memory; use OpenMemory (or OpenSnapshot to keep it in a file)")

// OpenMemory opens an empty in-memory store (tests, the browser).
func OpenMemory() *Store {
	return &Store{qs: memstore.New(), backend: "memory"}
}

// Backend names the Cayley backend ("bolt", "memory").
func (s *Store) Backend() string { return s.backend }

// Close flushes and closes the store.
func (s *Store) Close() error {
	s.release()
	return s.qs.Close()
}

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
