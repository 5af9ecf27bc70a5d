package backend

// Helpers shared by the native tests (workbench_test.go, !js: it makes a
// FIFO) and the WebAssembly ones (wasm_js_test.go).

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/model"
	"github.com/stretchr/testify/require"
)

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

// copyFixtureWithLongSection is copyFixture plus window.md, whose one
// section is too long for a tight budget: a question about it at summary
// level makes a summary.
func copyFixtureWithLongSection(t *testing.T) string {
	t.Helper()
	notes := copyFixture(t)
	long := "# Window arithmetic\n\n## Budget calculation\n\n" + strings.Repeat(
		"The loadable budget is the model's window minus the system prompt, minus the output reservation, minus the manifest. "+
			"The output reservation starts at thirty percent and grows with the question's complexity. "+
			"Whatever remains is filled with the most relevant nodes, highest score first.\n\n", 6)
	require.NoError(t, os.WriteFile(filepath.Join(notes, "window.md"), []byte(long), 0o644))
	return notes
}

// shownAs is how a text (a prompt, a tool's result) writes id: the
// bracketed letters (model.PromptID) that stand for a prefix of it; "" when
// it writes none.
func shownAs(text, id string) string {
	for _, m := range bracketedLetters.FindAllStringSubmatch(text, -1) {
		if p, ok := model.FromPromptID(m[1]); ok && strings.HasPrefix(id, p) {
			return m[1]
		}
	}
	return ""
}

// bracketedLetters is an id in letters, alone in brackets or one of a
// bracket's ids ("[tdac, imkn]").
var bracketedLetters = regexp.MustCompile(`[\[ ]([a-z]{3,16})[\],]`)
