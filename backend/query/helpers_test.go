//go:build !js

package query

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/levels"
	"github.com/loomwork/loom/backend/library"
	"github.com/loomwork/loom/backend/workspace"
)

func clock() time.Time { return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC) }

// openPipeline opens the workspace in dir (the default embedder, a fixed
// clock) and returns its query pipeline; the workspace closes with the
// test.
func openPipeline(t *testing.T, dir string) *Pipeline {
	t.Helper()
	ws, err := workspace.Open(context.Background(), dir, workspace.WithClock(clock))
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return New(ws, levels.New(ws))
}

// ingestInto ingests the files under src into the workspace in dir and
// closes it.
func ingestInto(t *testing.T, dir string, src ...string) {
	t.Helper()
	ws, err := workspace.Open(context.Background(), dir, workspace.WithClock(clock))
	require.NoError(t, err)
	rep, err := library.New(ws).Ingest(context.Background(), src, library.IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	require.NoError(t, ws.Close())
}

// ingestedFixture is the pipeline of a workspace holding the test
// fixture's notes.
func ingestedFixture(t *testing.T) *Pipeline {
	t.Helper()
	notes := filepath.Join(t.TempDir(), "notes")
	require.NoError(t, os.CopyFS(notes, os.DirFS(filepath.Join("..", "..", "testdata", "fixture", "notes"))))
	dir := t.TempDir()
	ingestInto(t, dir, notes)
	return openPipeline(t, dir)
}
