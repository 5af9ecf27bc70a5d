//go:build !js

package backend

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStagedTextsAreReadableThenStored: a staged text reads back at once,
// is on disk once flushStaged returns, and one that cannot be stored is
// reported (and still reads back from memory).
func TestStagedTextsAreReadableThenStored(t *testing.T) {
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	good := "a summary worth keeping"
	bad := ""
	for i := 0; bad == "" || textHash(bad)[:2] == textHash(good)[:2]; i++ {
		bad = fmt.Sprintf("a summary that cannot be stored %d", i)
	}
	hg, hb := textHash(good), textHash(bad)
	// A file where the second text's folder should be: its write fails.
	require.NoError(t, os.WriteFile(filepath.Join(wb.dir, "content", hb[:2]), nil, 0o644))

	wb.mu.Lock()
	wb.stageContent(hg, good)
	wb.stageContent(hb, bad)
	got, err := wb.Content(hg)
	require.NoError(t, err)
	assert.Equal(t, good, got)
	failed := wb.flushStaged()
	wb.mu.Unlock()

	b, err := os.ReadFile(wb.contentPath(hg))
	require.NoError(t, err, "stored once flushStaged returns")
	assert.Equal(t, good, string(b))
	require.Len(t, failed, 1)
	assert.Error(t, failed[hb])
	got, err = wb.Content(hb)
	require.NoError(t, err, "what could not be stored still reads from memory")
	assert.Equal(t, bad, got)
	matches, _ := filepath.Glob(filepath.Join(wb.dir, "content", hg[:2], "*.tmp"))
	assert.Empty(t, matches, "no temporary file left behind")
}
