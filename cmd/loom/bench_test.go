package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
)

func TestBenchJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests two 1,000-node workspaces")
	}
	out, _, err := runCLI(t, "bench", "--nodes", "1000", "--queries", "20", "--format", "json")
	require.NoError(t, err)

	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	for _, k := range []string{"goos", "goarch", "cpus", "go_version", "seed", "queries", "budget", "runs"} {
		assert.Contains(t, raw, k)
	}
	runs := raw["runs"].([]any)
	require.Len(t, runs, 2, "offline and 768")
	run := runs[0].(map[string]any)
	for _, k := range []string{"nodes", "embedder", "dim", "concept_threshold", "files", "content_nodes", "concept_nodes", "edges", "tokens",
		"generate_ms", "ingest_ms", "open_ms", "open_only_ms", "warm_ms", "reopen_ms", "query", "repeat", "memory"} {
		assert.Contains(t, run, k)
	}
	for _, k := range []string{"count", "first_ms", "p50_ms", "p99_ms", "mean_ms", "max_ms", "phases_mean_ms", "loaded_mean"} {
		assert.Contains(t, run["query"], k)
	}
	for _, k := range []string{"peak_heap_inuse_mib", "peak_sys_mib", "heap_after_open_mib", "max_rss_mib"} {
		assert.Contains(t, run["memory"], k)
	}

	var rep BenchReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 20, rep.Queries)
	assert.Equal(t, 4000, rep.Budget)
	dims := map[string]int{}
	for _, r := range rep.Runs {
		dims[r.Embedder] = r.Dim
		assert.Equal(t, 1000, r.Nodes)
		assert.Equal(t, 1000, r.ContentNodes, "%s: one content node a section", r.Embedder)
		assert.Positive(t, r.ConceptNodes)
		assert.Less(t, r.ConceptNodes, 500, "%s: concepts gather several nodes", r.Embedder)
		assert.Positive(t, r.Edges)
		assert.Positive(t, r.Tokens)
		assert.False(t, r.Reused)
		assert.Positive(t, r.IngestMS)
		assert.Positive(t, r.OpenMS)
		assert.InDelta(t, r.OpenMS, r.OpenOnlyMS+r.WarmMS, 0.1)
		assert.Positive(t, r.ReopenMS)
		q := r.Query
		assert.Equal(t, 20, q.Count)
		assert.Positive(t, q.P50MS)
		assert.LessOrEqual(t, q.P50MS, q.P99MS)
		assert.LessOrEqual(t, q.P99MS, q.MaxMS)
		assert.Less(t, q.MaxMS, 10_000.0, "a query at 1,000 nodes takes far less than 10 s")
		assert.Positive(t, q.LoadedMean, "questions load context")
		assert.Positive(t, q.Phases.Candidates)
		assert.Positive(t, q.AllocKiB, "a question allocates")
		assert.Less(t, q.AllocKiB, 100_000.0, "per question, not in all")
		assert.Equal(t, 20, r.Repeat.Count)
		assert.Positive(t, r.Repeat.P50MS)
		m := r.Memory
		assert.Positive(t, m.PeakHeapInuseMiB)
		assert.GreaterOrEqual(t, m.PeakSysMiB, m.PeakHeapInuseMiB)
		assert.Positive(t, m.HeapAfterOpenMiB)
		assert.Positive(t, m.MaxRSSMiB)
	}
	assert.Equal(t, map[string]int{"offline/minilm-l6-m2v-256": 256, "synthetic/random-768": 768}, dims)
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--nodes", "ten"},
		{"bench", "--nodes", "5"},
		{"bench", "--dims", "384"},
		{"bench", "--format", "xml"},
		{"bench", "--queries", "0"},
		{"bench", "extra"},
		{"bench", "--query-profile", "x.prof"},
	} {
		_, _, err := runCLI(t, args...)
		assert.Equal(t, 2, exitCode(err), "%v", args)
	}
}

// TestBenchDirStartsEachRunFromTheIngest: with --dir the second run reuses
// the ingest, but its queries start from the workspace as the ingest left
// it (queries write summaries; a first pass over summaries made by an
// earlier run would be a repeat).
func TestBenchDirStartsEachRunFromTheIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests a 1,000-node workspace")
	}
	dir := t.TempDir()
	// Summaries' texts go to the workspace's pack.
	packSize := func(ws string) int64 {
		st, err := os.Stat(filepath.Join(ws, backend.PackFile))
		if errors.Is(err, fs.ErrNotExist) {
			return 0
		}
		require.NoError(t, err)
		return st.Size()
	}
	args := []string{"bench", "--nodes", "1000", "--dims", "offline", "--queries", "40", "--format", "json", "--dir", dir}
	out, _, err := runCLI(t, args...)
	require.NoError(t, err)
	var first BenchReport
	require.NoError(t, json.Unmarshal([]byte(out), &first))
	require.Len(t, first.Runs, 1)
	assert.False(t, first.Runs[0].Reused)
	run := filepath.Join(dir, "n1000-seed1-offline_minilm-l6-m2v-256")
	ingested, afterFirst := packSize(filepath.Join(run, "ws.ingested")), packSize(filepath.Join(run, "ws"))
	require.Greater(t, afterFirst, ingested, "the queries made summaries")

	// What the first run's queries left must be gone when the second asks.
	left := filepath.Join(run, "ws", "content", "left-by-the-first-run")
	require.NoError(t, os.WriteFile(left, []byte("x"), 0o644))

	out, _, err = runCLI(t, args...)
	require.NoError(t, err)
	assert.NoFileExists(t, left)
	var second BenchReport
	require.NoError(t, json.Unmarshal([]byte(out), &second))
	assert.True(t, second.Runs[0].Reused)
	assert.Equal(t, afterFirst, packSize(filepath.Join(run, "ws")), "the same summaries made again, from none")
	assert.Equal(t, ingested, packSize(filepath.Join(run, "ws.ingested")), "the kept ingest is left as it was")
	assert.Equal(t, first.Runs[0].Query.LoadedMean, second.Runs[0].Query.LoadedMean)
}

// loom bench mcp, small: the CLI it starts as the server answers
// get_context over stdio and over HTTP, and every mode has its figures.
func TestBenchMCPJSON(t *testing.T) {
	bin := buildLoom(t)
	out, _, err := runCLI(t, "bench", "mcp", "--nodes", "200", "--calls", "6", "--warmup", "1", "--loom", bin, "--format", "json")
	require.NoError(t, err)
	var rep BenchMCPReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 6, rep.Calls)
	assert.Equal(t, 4000, rep.Budget)
	require.Len(t, rep.Runs, 1)
	r := rep.Runs[0]
	assert.Equal(t, 200, r.Nodes)
	assert.Equal(t, 200, r.ContentNodes)
	for name, l := range map[string]BenchLatency{"in process": r.InProcess, "stdio": r.Stdio, "http": r.HTTP} {
		assert.Equal(t, 6, l.Count, name)
		assert.Positive(t, l.P50MS, name)
		assert.LessOrEqual(t, l.P50MS, l.P95MS, name)
		assert.LessOrEqual(t, l.P95MS, l.MaxMS, name)
	}
	assert.Zero(t, r.InProcess.StartMS)
	assert.Positive(t, r.Stdio.StartMS, "a process started")
	assert.Positive(t, r.HTTP.StartMS)

	text, _, err := runCLI(t, "bench", "mcp", "--nodes", "200", "--calls", "2", "--warmup", "0", "--loom", bin)
	require.NoError(t, err)
	assert.Contains(t, text, "loom bench mcp · ")
	for _, mode := range []string{"in process", "stdio", "http"} {
		assert.Contains(t, text, mode)
	}
	_, _, err = runCLI(t, "bench", "mcp", "--calls", "0")
	assert.Equal(t, 2, exitCode(err))
}

// loom bench watch, small: each save is one note changed, synced after the
// quiet period (and at once without it); the workspace ends with one
// document a note.
func TestBenchWatchJSON(t *testing.T) {
	out, _, err := runCLI(t, "bench", "watch", "--notes", "60", "--folders", "3", "--saves", "3", "--quiet", "40ms", "--format", "json")
	require.NoError(t, err)
	var rep BenchWatchReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 60, rep.Notes)
	assert.Equal(t, 60, rep.Documents)
	assert.Equal(t, 4, rep.Watches, "the folder and its 3 subfolders")
	require.Len(t, rep.Modes, 2)
	assert.Equal(t, "40ms", rep.Modes[0].Quiet)
	assert.Equal(t, "1ns", rep.Modes[1].Quiet)
	for _, m := range rep.Modes {
		assert.Equal(t, 3, m.Synced.Count, m.Quiet)
		assert.Equal(t, 3, m.Sync.Count, m.Quiet)
		assert.GreaterOrEqual(t, m.Synced.P50MS, m.Sync.P50MS, "the save's figure holds the sync")
	}
	assert.GreaterOrEqual(t, rep.Modes[0].Synced.P50MS, 40.0, "the quiet period is part of it")
	_, _, err = runCLI(t, "bench", "watch", "--folders", "0")
	assert.Equal(t, 2, exitCode(err))
}
