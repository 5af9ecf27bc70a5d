package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/embed/minilm"
)

// The full MiniLM encoder through the CLI: a workspace ingested with it,
// kept by auto mode, re-embedded away and back (its vectors kept for the
// way back), and a clear error when the weights are not where the
// environment says.
func TestTheCLIWithTheFullEncoder(t *testing.T) {
	t.Setenv("LOOM_PROVIDER", "")
	t.Setenv(minilm.DirEnv, "")
	_, err := minilm.Find()
	require.NoError(t, err, "the weights come with the set-up: bash scripts/minilm.sh")

	ws := t.TempDir()
	_, errOut, err := runCLI(t, "ingest", "--workspace", ws, "--embedder", "minilm", "--ollama-url", "http://127.0.0.1:9", "--quiet", "../../testdata/fixture/notes")
	require.NoError(t, err, errOut)
	assert.Contains(t, errOut, "using the full MiniLM encoder (384 dimensions): chosen in configuration")

	stats := func() (st struct {
		Embedder       string `json:"embedder"`
		EmbedderChoice string `json:"embedder_choice"`
		EmbedderDims   int    `json:"embedder_dims"`
	}) {
		out, errOut, err := runCLI(t, "graph", "stats", "--workspace", ws, "--ollama-url", "http://127.0.0.1:9", "--format", "json")
		require.NoError(t, err, errOut)
		require.NoError(t, json.Unmarshal([]byte(out), &st))
		return st
	}
	st := stats()
	assert.Equal(t, minilm.ID, st.Embedder)

	out, errOut, err := runCLI(t, "query", "--workspace", ws, "--ollama-url", "http://127.0.0.1:9", "--format", "json", "How do stale nodes lose score?")
	require.NoError(t, err, errOut)
	assert.Contains(t, errOut, "using the full MiniLM encoder (384 dimensions): the workspace's vectors were made with it")
	assert.Contains(t, out, "staleness.txt", "the question is encoded by the same encoder and finds its section")

	out, _, err = runCLI(t, "reembed", "--workspace", ws, "--offline", "--quiet")
	require.NoError(t, err)
	assert.Contains(t, out, "was "+minilm.ID)
	out, _, err = runCLI(t, "reembed", "--workspace", ws, "--minilm", "--quiet", "--format", "json")
	require.NoError(t, err)
	rep := readReembedReport(t, out)
	assert.Equal(t, minilm.ID, rep.To)
	assert.Positive(t, rep.Nodes)
	assert.Zero(t, rep.Embedded, "its vectors were still in its log: nothing is encoded twice")
	assert.Equal(t, minilm.ID, stats().Embedder)

	_, _, err = runCLI(t, "reembed", "--workspace", ws, "--minilm", "--offline")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "give one of --offline, --minilm and --embed-model")

	empty := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(empty, minilm.ConfigFile), []byte("{}"), 0o644))
	t.Setenv(minilm.DirEnv, empty)
	_, _, err = runCLI(t, "reembed", "--workspace", ws, "--offline", "--quiet")
	require.NoError(t, err)
	_, _, err = runCLI(t, "reembed", "--workspace", ws, "--minilm", "--quiet")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the full encoder's weights (all-MiniLM-L6-v2, 45 MB) are not installed: $LOOM_MINILM_DIR is "+empty+", which has no model.fp16.safetensors")
	assert.Equal(t, "offline/minilm-l6-m2v-256", stats().Embedder, "a failed re-embed keeps the embedder")
}
