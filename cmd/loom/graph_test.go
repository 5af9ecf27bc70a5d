package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
)

func TestGraphClustersListsTheClustersAQueryCanBeScopedTo(t *testing.T) {
	ws := t.TempDir()
	_, _, err := runCLI(t, "ingest", "--workspace", ws, "--embedder", "offline", "../../testdata/fixture/notes", "../../backend/sample/notes", "../../testdata/eval/distill/docs")
	require.NoError(t, err)

	out, _, err := runCLI(t, "graph", "clusters", "--workspace", ws, "--embedder", "offline", "--format", "json")
	require.NoError(t, err)
	var cs []backend.GraphCluster
	require.NoError(t, json.Unmarshal([]byte(out), &cs))
	require.GreaterOrEqual(t, len(cs), 2)
	docs := 0
	for _, c := range cs {
		assert.True(t, strings.HasPrefix(c.ID, "c:"), c.ID)
		assert.NotEmpty(t, c.Name)
		assert.Positive(t, c.Concepts)
		docs += c.Documents
	}
	assert.Equal(t, 18, docs, "every document is in one cluster")

	text, _, err := runCLI(t, "graph", "clusters", "--workspace", ws, "--embedder", "offline")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	require.Greater(t, len(lines), len(cs))
	assert.Regexp(t, `^ID\s+NAME\s+CONCEPTS\s+SECTIONS\s+DOCUMENTS$`, lines[0])
	for i, c := range cs {
		assert.Regexp(t, `^`+c.ID+`\s+`+regexp.QuoteMeta(c.Name)+`\s+\d+\s+`, lines[1+i], "one row per cluster, in order")
	}
	assert.Contains(t, text, "loom query --scope cluster:ID")

	// A question scoped to the largest cluster.
	out, _, err = runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--format", "json", "--no-touch", "--scope", "cluster:"+cs[0].ID, "what do the sections say?")
	require.NoError(t, err)
	var res struct {
		Candidates []struct{ ID string } `json:"candidates"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.NotEmpty(t, res.Candidates)

	// An id that is not a cluster's is refused with a sentence.
	_, _, err = runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--scope", "cluster:c:c-nothere", "what do the sections say?")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `no cluster "c:c-nothere"`)
	assert.Contains(t, err.Error(), "loom graph clusters")

	_, _, err = runCLI(t, "graph", "clusterz", "--workspace", ws)
	assert.Equal(t, 2, exitCode(err))
	assert.ErrorContains(t, err, "clusters")
}
