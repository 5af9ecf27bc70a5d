package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// A workspace on a read-only mount can be read: stats, queries and export
// work, and say why they read it read-only. It needs a bind mount, so it
// runs where the test may mount (root, as in CI) and is skipped elsewhere.
func TestAWorkspaceOnAReadOnlyMountCanBeRead(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	ws := ingestFixture(t)
	ro := t.TempDir()
	if out, err := exec.Command("mount", "--bind", ws, ro).CombinedOutput(); err != nil {
		t.Skipf("cannot bind-mount here: %s", out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", ro).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %s", ro, out)
		}
	})
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", ro).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only here: %s", out)
	}
	require.Error(t, os.WriteFile(filepath.Join(ro, "probe"), nil, 0o644), "the mount is read-only")

	out, errOut, err := runCLI(t, "graph", "stats", "--workspace", ro)
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "documents      3")
	assert.Contains(t, errOut, "read-only file system")
	assert.NotContains(t, errOut, "another Loom")
	out, _, err = runCLI(t, "query", "--workspace", ro, "--embedder", "offline", "--budget", "1500", "How is the loadable budget calculated?")
	require.NoError(t, err)
	assert.Contains(t, out, "Question: How is the loadable budget calculated?")
	_, _, err = runCLI(t, "graph", "export", "--workspace", ro)
	require.NoError(t, err)
	_, _, err = runCLI(t, "ingest", "--workspace", ro, "--embedder", "offline", "../../testdata/fixture/notes")
	require.Error(t, err, "a write on a read-only mount fails")
	assert.Contains(t, err.Error(), "read-only file system")
}

// Front matter that cannot be read loses nothing (it is kept as the note's
// text) and is not passed over in silence either.
func TestIngestWarnsOfFrontMatterItCouldNotRead(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "note.md"), []byte("---\ntitle: [broken\n---\n\nThe note's text.\n"), 0o644))
	_, errOut, err := runCLI(t, "ingest", "--workspace", t.TempDir(), "--embedder", "offline", dir)
	require.NoError(t, err, "a warning is not an error")
	assert.Contains(t, errOut, "warning: "+filepath.Join(dir, "note.md")+": ")
	assert.Contains(t, errOut, "kept as the note's text")
}
