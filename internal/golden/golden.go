// Package golden compares what a test made with a file under testdata,
// which `go test <package> -update` rewrites from the code as it is: the
// one -update flag every package's golden files answer to. Rewrite a
// golden file only for a change that means to alter its output, and read
// the diff before committing it.
//
//	golden.Equal(t, filepath.Join("testdata", "seed-prompt.golden"), []byte(prompt))
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files from the code as it is")

// Updating tells whether -update was given, for a test that keeps its
// golden file in a form of its own.
func Updating() bool { return *update }

// Equal compares got with the file at path; with -update it writes got
// there first (making its folder). msgAndArgs say what a difference
// means.
func Equal(t testing.TB, path string, got []byte, msgAndArgs ...any) bool {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "%s is missing: go test -update writes it", path)
	return assert.Equal(t, string(want), string(got), msgAndArgs...)
}
