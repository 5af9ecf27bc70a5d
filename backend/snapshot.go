package backend

import (
	"path/filepath"

	"github.com/loomwork/loom/graphdb"
)

// SnapshotFile is the workspace file that holds the graph where bolt is not
// available (the WebAssembly build): Cayley's memstore, saved as compact
// graph.json after every committed write and loaded on Open.
const SnapshotFile = "graph.snapshot"

// snapshotGraph chooses the snapshot store over bolt: always where bolt
// does not build; tests set it to run the browser edition's store natively.
var snapshotGraph = !graphdb.HasBolt

// openGraph opens the workspace's graph store: a plain memory store with
// InMemory (nothing persisted, on every platform), else the bolt store in
// <dir>/graph, or, where bolt does not build (GOOS=js), the memory store
// kept in <dir>/graph.snapshot.
func openGraph(dir string, memory bool) (*graphdb.Store, error) {
	if memory {
		return graphdb.OpenMemory(), nil
	}
	if snapshotGraph {
		return graphdb.OpenSnapshot(filepath.Join(dir, SnapshotFile))
	}
	gdir := filepath.Join(dir, "graph")
	if err := checkNotLocked(filepath.Join(gdir, "indexes.bolt")); err != nil {
		return nil, err
	}
	return graphdb.OpenBolt(gdir)
}
