package graphdb_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/graphdb"
	"github.com/loomwork/loom/graphdb/graphtest"
)

func TestBoltConforms(t *testing.T) {
	if !graphdb.HasBolt {
		t.Skip("no bolt in this build")
	}
	graphtest.TestAll(t, func(t *testing.T) *graphdb.Store {
		dir := filepath.Join(t.TempDir(), "graph")
		require.NoError(t, graphdb.CreateBolt(dir))
		s, err := graphdb.OpenBolt(dir, graphdb.BoltOptions{})
		require.NoError(t, err)
		return s
	})
}

func TestMemoryConforms(t *testing.T) {
	graphtest.TestAll(t, func(t *testing.T) *graphdb.Store { return graphdb.OpenMemory() })
}

func TestSnapshotConforms(t *testing.T) {
	graphtest.TestAll(t, func(t *testing.T) *graphdb.Store {
		s, err := graphdb.OpenSnapshot(filepath.Join(t.TempDir(), "graph.snapshot"))
		require.NoError(t, err)
		return s
	})
}
