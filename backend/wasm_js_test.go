//go:build js

package backend

// Under GOOS=js the test helpers of workbench_test.go (which is !js: it
// makes a FIFO) are defined here, so that the tests that use them build.
// openBolt gives the offline embedder from its table file, since the
// WebAssembly build does not embed the table.

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

var fixedNow = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return fixedNow }

func copyFixture(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "notes")
	src := filepath.Join("..", "testdata", "fixture", "notes")
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	for _, skip := range []string{".hidden", "node_modules"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dst, skip), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dst, skip, "x.md"), []byte("# skipped\n\nnever ingested\n"), 0o644))
	}
	return dst
}

// openBolt opens the workspace (kept in graph.snapshot under js) with the
// offline embedder read from its table file; opts may override it.
func openBolt(t *testing.T, dir string, opts ...Option) *Workbench {
	t.Helper()
	e := tableEmbedder(t)
	if e == nil {
		t.Fatal("the offline embedding table is missing: run scripts/embeddings.sh (or make setup)")
	}
	wb, err := Open(context.Background(), dir, append([]Option{WithClock(clock), WithEmbedder(e)}, opts...)...)
	require.NoError(t, err)
	return wb
}
