package backend

// Helpers shared by the native tests (workbench_test.go, !js: it makes a
// FIFO) and the WebAssembly ones (wasm_js_test.go).

import (
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

// copyFixture copies testdata/fixture/notes into a temp folder so tests can
// change files.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "notes")
	src := filepath.Join("..", "testdata", "fixture", "notes")
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	// Folders the walker must skip (not tracked in git: a tracked
	// node_modules would look like a mistake).
	for _, skip := range []string{".hidden", "node_modules"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dst, skip), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dst, skip, "x.md"), []byte("# skipped\n\nnever ingested\n"), 0o644))
	}
	return dst
}
