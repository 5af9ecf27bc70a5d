package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/graphdb"
)

// SnapshotFile is the workspace file that holds the graph where bolt is not
// available (the WebAssembly build): Cayley's memstore, saved as compact
// graph.json after every committed write and loaded on Open.
const SnapshotFile = "graph.snapshot"

// GraphKind says which store keeps a workspace's graph.
type GraphKind int

// The graph stores.
const (
	// BoltGraph is graph/, a bolt file (where bolt builds).
	BoltGraph GraphKind = iota
	// SnapshotGraph is Cayley's memstore kept in graph.snapshot (the
	// browser edition; natively in tests of that edition's store).
	SnapshotGraph
	// MemoryGraph keeps nothing (tests, InMemory workspaces).
	MemoryGraph
)

// DefaultGraph is the store a workspace folder holds on this platform.
func DefaultGraph() GraphKind {
	if graphdb.HasBolt {
		return BoltGraph
	}
	return SnapshotGraph
}

// GraphDir is the workspace folder that holds the bolt store.
const GraphDir = "graph"

// ErrInUse is returned by Open when another process holds the workspace
// for writing (and by writes on a workspace opened read-only because of
// it); ErrReadOnly by writes on a workspace opened read-only.
var (
	ErrInUse    = &errs.Error{Code: errs.InUse, Message: "the workspace is in use by another Loom process (close it, or use another --workspace)"}
	ErrReadOnly = &errs.Error{Code: errs.ReadOnly, Message: "the workspace is open read-only"}
)

// ErrInUse and ErrReadOnly are as documented above.

// writerWait is how long a writer waits for the store: a reader holds it
// while it opens (reading the index cache, or the whole graph when that is
// stale), never longer.
const writerWait = time.Second

// OpenGraph opens the workspace's graph store of the given kind: the bolt
// store in <dir>/graph, the memory store kept in <dir>/graph.snapshot, or
// a plain memory store (nothing persisted).
//
// A bolt store is made when the workspace has none; one whose creation an
// older Loom left unfinished is made again when nothing else in the
// workspace depends on it. A store that is missing or damaged in a
// workspace that holds data is an error that says how to repair it:
// making an empty graph there would hide the data behind it.
func OpenGraph(dir string, kind GraphKind, readOnly bool) (*graphdb.Store, error) {
	switch kind {
	case MemoryGraph:
		return graphdb.OpenMemory(), nil
	case SnapshotGraph:
		s, err := graphdb.OpenSnapshot(filepath.Join(dir, SnapshotFile))
		var damaged *graphdb.DamagedError
		if errors.As(err, &damaged) {
			return nil, &DamagedError{Workspace: dir, File: damaged.Path, Problem: damaged.Problem}
		}
		return s, err
	}
	gdir := filepath.Join(dir, GraphDir)
	o := graphdb.BoltOptions{ReadOnly: readOnly}
	if !readOnly {
		o.Wait = writerWait
	}
	s, err := graphdb.OpenBolt(gdir, o)
	var unfinished *graphdb.UnfinishedError
	switch {
	case err == nil:
		if !readOnly {
			graphdb.SweepUnfinished(gdir)
			writeHolder(dir, time.Now())
		}
		return s, nil
	case errors.Is(err, graphdb.ErrInUse):
		return nil, inUse(dir)
	case errors.Is(err, graphdb.ErrNoGraph), errors.As(err, &unfinished):
		if what := WorkspaceData(dir); what != "" {
			if unfinished != nil {
				return nil, &DamagedError{Workspace: dir, File: unfinished.Path, Problem: unfinished.Problem + ", yet the workspace holds " + what}
			}
			return nil, &DamagedError{Workspace: dir, File: gdir, Problem: "the graph store is missing, yet the workspace holds " + what}
		}
		if readOnly { // a workspace never written: an empty graph
			return graphdb.OpenMemory(), nil
		}
		if err := graphdb.CreateBolt(gdir); err != nil {
			return nil, err
		}
		return OpenGraph(dir, BoltGraph, false)
	}
	var damaged *graphdb.DamagedError
	if errors.As(err, &damaged) {
		return nil, &DamagedError{Workspace: dir, File: damaged.Path, Problem: damaged.Problem}
	}
	return nil, err
}

// WorkspaceData names what the workspace holds besides its graph ("" for
// nothing): the index cache, stored texts or vectors.
func WorkspaceData(dir string) string {
	if st, err := os.Stat(filepath.Join(dir, "index.cache")); err == nil && st.Size() > 0 {
		return "a saved index (index.cache)"
	}
	for _, sub := range []string{"content", "vectors"} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if info, err := e.Info(); err == nil && (e.IsDir() || info.Size() > 0) {
				return "stored texts and vectors (" + sub + "/)"
			}
		}
	}
	return ""
}

// DamagedError is a workspace file that cannot be read; Open returns it
// for a damaged graph store. Its message says how to get out.
type DamagedError struct {
	Workspace string
	File      string
	Problem   string
}

// ErrorCode: a damaged workspace file.
func (e *DamagedError) ErrorCode() errs.Code { return errs.Damaged }

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s: %s; run `loom doctor --workspace %s` to see what is readable and `loom repair --workspace %s` to salvage it into a new workspace",
		e.File, e.Problem, e.Workspace, e.Workspace)
}
