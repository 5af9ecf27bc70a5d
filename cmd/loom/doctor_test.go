package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
)

func TestDoctorAndRepairFromTheCommandLine(t *testing.T) {
	ws := ingestFixture(t)
	out, _, err := runCLI(t, "doctor", "--workspace", ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "ok       graph store")

	// Damage: the store overwritten, a text removed.
	require.NoError(t, os.WriteFile(filepath.Join(ws, "graph", "indexes.bolt"), []byte("this is not a bolt file at all"), 0o644))
	out, _, err = runCLI(t, "doctor", "--workspace", ws, "--format", "json")
	assert.Equal(t, 1, exitCode(err), "problems are exit 1")
	var c backend.Checkup
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	assert.Equal(t, "damaged", c.Store)
	assert.Positive(t, c.Problems())

	_, _, err = runCLI(t, "graph", "stats", "--workspace", ws)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "loom repair --workspace "+ws)

	out, _, err = runCLI(t, "repair", "--workspace", ws, "--replace")
	require.NoError(t, err, out)
	assert.Contains(t, out, "read the graph from the index cache")
	assert.Contains(t, out, "kept the damaged one as "+ws+".damaged-1")
	out, _, err = runCLI(t, "graph", "stats", "--workspace", ws)
	require.NoError(t, err)
	assert.Contains(t, out, "documents      3")
	_, err = os.Stat(filepath.Join(ws+".damaged-1", "graph", "indexes.bolt"))
	assert.NoError(t, err, "the damaged workspace is kept")

	_, _, err = runCLI(t, "doctor", "--workspace", ws, "extra")
	assert.Equal(t, 2, exitCode(err))
}
