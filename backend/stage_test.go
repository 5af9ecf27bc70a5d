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

// TestStagedTextsAreReadableThenStored: a staged text reads back at once
// and is in the pack once flushStaged returns (a reopened pack has it);
// with no pack to write, texts go to files of their own; one that cannot
// be stored either way is reported and still reads back from memory.
func TestStagedTextsAreReadableThenStored(t *testing.T) {
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	good := "a summary worth keeping"
	wb.mu.Lock()
	wb.stageContent(textHash(good), good)
	got, err := wb.Content(textHash(good))
	require.NoError(t, err)
	assert.Equal(t, good, got)
	failed := wb.flushStaged()
	wb.mu.Unlock()
	assert.Empty(t, failed)
	reopened := pack{path: wb.pack.path}
	got, ok, err := reopened.read(textHash(good))
	require.NoError(t, err)
	require.True(t, ok, "in the pack once flushStaged returns")
	assert.Equal(t, good, got)
	require.NoError(t, reopened.close())

	// A folder where the pack should be: texts go to files instead, and
	// one whose folder is taken by a file cannot be stored at all.
	wb2 := openBolt(t, t.TempDir())
	defer wb2.Close()
	require.NoError(t, os.Mkdir(wb2.pack.path, 0o755))
	filed := "a summary kept in a file"
	bad := ""
	for i := 0; bad == "" || textHash(bad)[:2] == textHash(filed)[:2]; i++ {
		bad = fmt.Sprintf("a summary that cannot be stored %d", i)
	}
	hf, hb := textHash(filed), textHash(bad)
	require.NoError(t, os.WriteFile(filepath.Join(wb2.dir, "content", hb[:2]), nil, 0o644))
	wb2.mu.Lock()
	wb2.stageContent(hf, filed)
	wb2.stageContent(hb, bad)
	failed = wb2.flushStaged()
	wb2.mu.Unlock()
	b, err := os.ReadFile(wb2.contentPath(hf))
	require.NoError(t, err, "stored in a file of its own")
	assert.Equal(t, filed, string(b))
	wb2.texts = textCache{} // read it from disk, through the pack that cannot be read
	got, err = wb2.Content(hf)
	require.NoError(t, err, "a pack that cannot be read does not hide texts in files")
	assert.Equal(t, filed, got)
	_, err = wb2.Content(textHash("never stored"))
	assert.ErrorContains(t, err, PackFile, "a text found nowhere names both places")
	require.Len(t, failed, 1)
	assert.Error(t, failed[hb])
	got, err = wb2.Content(hb)
	require.NoError(t, err, "what could not be stored still reads from memory")
	assert.Equal(t, bad, got)
	matches, _ := filepath.Glob(filepath.Join(wb2.dir, "content", hf[:2], "*.tmp"))
	assert.Empty(t, matches, "no temporary file left behind")
}
