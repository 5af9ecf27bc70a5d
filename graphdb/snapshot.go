package graphdb

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/memstore"
	"github.com/cayleygraph/quad"
)

// A snapshot store is Cayley's memstore kept in one file: the graph.json of
// the whole graph (graphjson.go; compact, without content text), read on
// open and rewritten after every committed Apply. It is the browser
// edition's store, where bolt does not build; the file lives in the
// workspace folder beside content/ and vectors/.
//
// The file is replaced atomically (written to <file>.tmp, synced, renamed),
// so a crash leaves the previous or the new graph, never a mix. When the
// file cannot be written, Apply undoes the in-memory change and fails, so
// the memory and the file never disagree about a committed write.

// openSnapshots holds the files of the snapshot stores open in this
// process: a second open of the same file would let two stores overwrite
// each other's writes.
var openSnapshots = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

// OpenSnapshot opens a memory store kept in the snapshot file path,
// loading the file when it exists. A truncated or corrupt file is an error
// naming it (never an empty graph). Only one store per file may be open in
// a process at a time.
func OpenSnapshot(path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open graph snapshot %s: %w", path, err)
	}
	openSnapshots.Lock()
	defer openSnapshots.Unlock()
	if openSnapshots.paths[abs] {
		return nil, fmt.Errorf("open graph snapshot %s: the workspace is already open in this program (close it first)", path)
	}
	s := &Store{qs: memstore.New(), backend: "memory", snapshot: abs}
	g, err := readSnapshot(abs)
	if err != nil {
		return nil, err
	}
	if g != nil {
		if err := s.restore(g); err != nil {
			return nil, fmt.Errorf("load graph snapshot %s: %w", path, err)
		}
	}
	openSnapshots.paths[abs] = true
	return s, nil
}

// SnapshotPath is the file a snapshot store is kept in ("" for bolt and
// plain memory stores).
func (s *Store) SnapshotPath() string { return s.snapshot }

// readSnapshot reads the snapshot file; nil when there is none yet.
func readSnapshot(path string) (*GraphJSON, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open graph snapshot %s: %w", path, err)
	}
	defer f.Close()
	g, err := DecodeGraphJSON(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return nil, &DamagedError{Path: path, Problem: fmt.Sprintf("the graph snapshot is truncated or corrupt (%v)", err)}
	}
	return g, nil
}

// restore fills an empty store with g exactly as it was saved, the
// generation included (the working-index caches are keyed by it).
func (s *Store) restore(g *GraphJSON) error {
	w := g.Writes()
	var add []quad.Quad
	for _, d := range w.Documents {
		add = append(add, d.quads()...)
	}
	for _, c := range w.Concepts {
		add = append(add, conceptQuads(c.Concept, c.Related)...)
	}
	if g.Meta.Generation > 0 {
		b, _ := json.Marshal(metaAttrs{Schema: SchemaVersion, Meta: g.Meta})
		add = append(add, quad.Make(iriWorkspace, predMeta, quad.String(b), nil))
	}
	deltas := make([]graph.Delta, len(add)) // into an empty store: no netDeltas needed
	for i, q := range add {
		deltas[i] = graph.Delta{Quad: q, Action: graph.Add}
	}
	return s.qs.ApplyDeltas(deltas, graph.IgnoreOpts{IgnoreDup: true})
}

// saveSnapshot writes the whole graph to the snapshot file atomically.
// Callers hold s.mu.
func (s *Store) saveSnapshot(ctx context.Context) error {
	snap, lost, err := s.load(ctx)
	if err != nil {
		return err
	}
	if lost.Quads > 0 {
		return fmt.Errorf("write graph snapshot %s: %d quads cannot be read (%s)", s.snapshot, lost.Quads, lost.First)
	}
	tmp := s.snapshot + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("write graph snapshot: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = encodeCompact(bw, snap.ToGraphJSON())
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, s.snapshot)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write graph snapshot %s: %w", s.snapshot, err)
	}
	return nil
}

func encodeCompact(w io.Writer, g *GraphJSON) error {
	return json.NewEncoder(w).Encode(g)
}

// release forgets the snapshot file of a closed store.
func (s *Store) release() {
	if s.snapshot == "" {
		return
	}
	openSnapshots.Lock()
	delete(openSnapshots.paths, s.snapshot)
	openSnapshots.Unlock()
}
