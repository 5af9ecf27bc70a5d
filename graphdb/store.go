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
	"runtime/debug"
	"sync"
	"time"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/memstore"
	"github.com/cayleygraph/quad"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/model"
)

// SchemaVersion is written into the meta quad; a store with another version
// is refused with a clear error rather than misread.
const SchemaVersion = 1

// Store is an open Cayley quad store holding one workspace's graph.
//
// Every method is safe for concurrent use and never panics on a damaged
// file: a panic inside bolt or Cayley (a damaged page, a fault on a file
// cut short under its memory map) becomes a *DamagedError naming the
// file, and the store refuses every later call with it.
type Store struct {
	qs      graph.QuadStore
	backend string
	// mu serialises every call: a bolt batch (Apply) must not see another
	// goroutine's transaction.
	mu sync.Mutex
	// snapshot is the file a snapshot store is kept in (snapshot.go).
	snapshot string
	// path is the bolt file, kv its key-value layer (bolt stores only).
	path     string
	kv       *boltKV
	readOnly bool
	// broken is the damage found by an earlier call.
	broken error
}

// BoltOptions say how OpenBolt opens a store.
type BoltOptions struct {
	// ReadOnly opens the store for reading only: it shares the file with
	// other readers, never writes it (a read-only folder works) and
	// refuses Apply.
	ReadOnly bool
	// Wait is how long to wait while another process holds the store
	// before giving up with ErrInUse (0: do not wait).
	Wait time.Duration
}

// ErrNoBolt is OpenBolt's error in the WebAssembly build (see HasBolt).
var ErrNoBolt = errors.New("the browser edition keeps the graph in memory; use OpenMemory (or OpenSnapshot to keep it in a file)")

// ErrInUse: another process has the store open for writing (or, for a
// writer, for reading).
var ErrInUse = &errs.Error{Code: errs.InUse, Message: "the workspace is in use by another Loom process"}

// ErrNoGraph: the folder holds no graph store (CreateBolt makes one).
var ErrNoGraph = errors.New("the workspace has no graph store yet")

// ErrReadOnly: a write to a store opened read-only.
var ErrReadOnly = &errs.Error{Code: errs.ReadOnly, Message: "the graph store is open read-only"}

// ErrPermission and ErrReadOnlyFS say why a store file cannot be opened
// for writing.
var (
	ErrPermission = errors.New("permission denied")
	ErrReadOnlyFS = errors.New("the folder is on a read-only file system")
)

// DamagedError is a store file that cannot be read as a graph.
type DamagedError struct {
	Path    string
	Problem string
}

// ErrorCode: a damaged store.
func (e *DamagedError) ErrorCode() errs.Code { return errs.Damaged }

func (e *DamagedError) Error() string {
	return fmt.Sprintf("the graph store %s is damaged: %s", e.Path, e.Problem)
}

// UnfinishedError is a store whose creation was interrupted before it held
// anything (stores made by CreateBolt never are; older Looms made them in
// place).
type UnfinishedError struct {
	Path    string
	Problem string
}

func (e *UnfinishedError) Error() string {
	return fmt.Sprintf("the graph store %s is unfinished: %s", e.Path, e.Problem)
}

var errNotInitialized = graph.ErrNotInitialized

// guard turns a panic in bolt or Cayley into a *DamagedError and marks the
// store broken; deferred first thing by every method, after protect.
func (s *Store) guard(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if s.kv != nil {
		s.kv.rollback()
	}
	path := s.path
	if path == "" {
		path = s.snapshot
	}
	d := &DamagedError{Path: path, Problem: fmt.Sprintf("reading it failed (%v)", r)}
	s.broken = d
	*err = d
}

// protect makes a memory fault on a mapped file (bolt maps its file; one
// cut short under the map faults) a panic that guard recovers, in the
// calling goroutine, where bolt and Cayley run; it returns the undo.
func protect() func() {
	old := debug.SetPanicOnFault(true)
	return func() { debug.SetPanicOnFault(old) }
}

// enter takes the store's lock and refuses calls on a broken or closed
// store; the caller defers the returned function.
func (s *Store) enter() (func(), error) {
	s.mu.Lock()
	undo := protect()
	leave := func() { undo(); s.mu.Unlock() }
	if s.broken != nil {
		leave()
		return func() {}, s.broken
	}
	if s.qs == nil {
		leave()
		return func() {}, errors.New("the graph store is closed")
	}
	return leave, nil
}

// OpenMemory opens an empty in-memory store (tests, the browser).
func OpenMemory() *Store {
	return &Store{qs: memstore.New(), backend: "memory"}
}

// Backend names the Cayley backend ("bolt", "memory").
func (s *Store) Backend() string { return s.backend }

// ReadOnly tells whether the store was opened read-only.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Path is the bolt file ("" for other backends).
func (s *Store) Path() string { return s.path }

// Close flushes and closes the store.
func (s *Store) Close() (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer protect()()
	defer s.guard(&err)
	s.release()
	if s.qs == nil {
		return nil
	}
	qs := s.qs
	s.qs = nil
	crash.At("store-close")
	return qs.Close()
}

// QuadCount is Cayley's own count of stored quads.
func (s *Store) QuadCount(ctx context.Context) (n int64, err error) {
	leave, err := s.enter()
	defer leave()
	if err != nil {
		return 0, err
	}
	defer s.guard(&err)
	st, err := s.qs.Stats(ctx, false)
	if err != nil {
		return 0, err
	}
	return st.Quads.Size, nil
}

// Meta reads the workspace facts (counts, embedder, generation) from the one
// meta quad: no scan. A new store has zero Meta.
func (s *Store) Meta(ctx context.Context) (m model.Meta, err error) {
	leave, err := s.enter()
	defer leave()
	if err != nil {
		return m, err
	}
	defer s.guard(&err)
	return s.meta(ctx)
}

func (s *Store) meta(ctx context.Context) (model.Meta, error) {
	var m model.Meta
	q, ok, err := s.one(ctx, iriWorkspace, predMeta)
	if err != nil || !ok {
		return m, err
	}
	var stored metaAttrs
	if err := json.Unmarshal([]byte(literal(q.Object)), &stored); err != nil {
		return m, &DamagedError{Path: s.path, Problem: "its workspace facts cannot be read (" + err.Error() + ")"}
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
