package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
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
