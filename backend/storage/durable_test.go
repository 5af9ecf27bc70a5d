//go:build !js

package storage

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// syncEach, the other systems' Sync, syncs files and their folders
// and names what it could not sync.
func TestSyncEach(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(name), 0o644))
		paths = append(paths, p)
	}
	require.NoError(t, syncEach(paths))
	require.NoError(t, syncEach(nil))
	missing := filepath.Join(dir, "missing")
	err := syncEach(append(paths, missing))
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorContains(t, err, missing)
}
