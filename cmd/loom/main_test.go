package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/tokens"
)

func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if err != nil {
		return 2
	}
	return 0
}

func TestIngestAndStatsJSON(t *testing.T) {
	ws := t.TempDir()
	out, _, err := runCLI(t, "ingest", "--workspace", ws, "--embedder", "offline", "../../testdata/fixture/notes")
	require.NoError(t, err)
	assert.Contains(t, out, "3 added")

	out, _, err = runCLI(t, "graph", "stats", "--workspace", ws, "--format", "json")
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	for _, k := range []string{"documents", "content_nodes", "concept_nodes", "edges", "tokens", "embedder"} {
		assert.Contains(t, st, k)
	}
	assert.EqualValues(t, 3, st["documents"])

	file := filepath.Join(t.TempDir(), "graph.json")
	_, _, err = runCLI(t, "graph", "export", "--workspace", ws, "--out", file)
	require.NoError(t, err)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"concept_nodes"`)
}

func TestExitCodes(t *testing.T) {
	ws := t.TempDir()
	bad := filepath.Join(t.TempDir(), "bad.md")
	require.NoError(t, os.WriteFile(bad, []byte{0xff, 0xfe, 0, 0}, 0o644))
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no command", []string{"frobnicate"}, 2, "unknown command"},
		{"ingest without paths", []string{"ingest", "--workspace", ws}, 2, "at least one"},
		{"bad file", []string{"ingest", "--workspace", ws, "--embedder", "offline", bad, "../../testdata/fixture/notes/budget.md"}, 1, "could not be ingested"},
		{"bad format", []string{"graph", "stats", "--workspace", ws, "--format", "xml"}, 2, "--format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runCLI(t, tt.args...)
			assert.Equal(t, tt.code, exitCode(err))
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

// TestKilledIngestLeavesWholeDocuments kills a real `loom ingest` process
// (SIGKILL) after it has committed some documents, then checks that the
// workspace opens, that every stored document is complete (all its sections,
// their text), and that ingesting again finishes the job.
func TestKilledIngestLeavesWholeDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a subprocess")
	}
	bin := filepath.Join(t.TempDir(), "loom")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	corpus := filepath.Join(t.TempDir(), "corpus")
	require.NoError(t, os.MkdirAll(corpus, 0o755))
	for i := 0; i < 600; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# Document %d\n\nIntro paragraph %d about graphs and budgets.\n\n", i, i)
		for s := 0; s < 25; s++ {
			fmt.Fprintf(&b, "## Section %d\n\nSection %d of document %d talks about topic %d, tokens, concepts and retrieval %d.\n\n", s, s, i, (i*7+s)%40, s*i)
		}
		require.NoError(t, os.WriteFile(filepath.Join(corpus, fmt.Sprintf("doc%03d.md", i)), []byte(b.String()), 0o644))
	}
	ws := t.TempDir()
	cmd := exec.Command(bin, "ingest", "--workspace", ws, "--embedder", "offline", "--quiet", corpus)
	require.NoError(t, cmd.Start())
	// Wait for the first commit: the bolt file grows with each graph
	// transaction.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if fi, err := os.Stat(filepath.Join(ws, "graph", "indexes.bolt")); err == nil && fi.Size() > 4<<20 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond)
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()

	ctx := context.Background()
	wb, err := backend.Open(ctx, ws)
	require.NoError(t, err, "a killed ingest leaves a workspace that opens")
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	t.Logf("after kill: %d of 600 documents committed", st.Documents)
	require.Greater(t, st.Documents, 0, "the kill came after the first commit")
	require.Less(t, st.Documents, 600, "the kill came before the end")

	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	assert.Len(t, g.Documents, st.Documents)
	perDoc := map[string]int{}
	for _, n := range g.ContentNodes {
		perDoc[n.DocID]++
		_, err := wb.Content(n.ContentHash)
		assert.NoError(t, err, "every stored node has its text")
	}
	counter := tokens.Default()
	for _, d := range g.Documents {
		data, err := os.ReadFile(filepath.Join(corpus, d.Path))
		require.NoError(t, err)
		docs, err := ingest.Parse(d.Key, d.Path, d.Collection, data, ingest.Options{CountTokens: counter.Count})
		require.NoError(t, err)
		docs[0].Chunk(ingest.Options{CountTokens: counter.Count})
		assert.Equal(t, len(docs[0].Sections), perDoc[d.ID], "document %s is whole", d.Path)
	}

	rep, err := wb.Ingest(ctx, []string{corpus}, backend.IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, st.Documents, rep.Unchanged, "committed documents are not redone")
	assert.Equal(t, 600-st.Documents, rep.Added)
	final, _ := wb.Stats(ctx)
	assert.Equal(t, 600, final.Documents)
	assert.Equal(t, 600*26, final.ContentNodes)
	require.NoError(t, wb.Close())
}
