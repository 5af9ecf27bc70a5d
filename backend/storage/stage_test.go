//go:build !js

package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStagedTextsAreReadableThenStored: a staged text reads back at once
// and is in the pack once FlushStaged returns (a reopened pack has it);
// with no pack to write, texts go to files of their own; one that cannot
// be stored either way is reported and still reads back from memory.
func TestStagedTextsAreReadableThenStored(t *testing.T) {
	texts := NewTexts(t.TempDir(), false)
	defer texts.Close()
	good := "a summary worth keeping"
	texts.Stage(Hash(good), good)
	got, err := texts.Read(Hash(good))
	require.NoError(t, err)
	assert.Equal(t, good, got)
	failed := texts.FlushStaged()
	assert.Empty(t, failed)
	reopened := pack{path: texts.PackPath()}
	got, ok, err := reopened.read(Hash(good))
	require.NoError(t, err)
	require.True(t, ok, "in the pack once FlushStaged returns")
	assert.Equal(t, good, got)
	require.NoError(t, reopened.close())

	// A folder where the pack should be: texts go to files instead, and
	// one whose folder is taken by a file cannot be stored at all.
	dir := t.TempDir()
	texts2 := NewTexts(dir, false)
	defer texts2.Close()
	require.NoError(t, os.Mkdir(texts2.PackPath(), 0o755))
	filed := "a summary kept in a file"
	bad := ""
	for i := 0; bad == "" || Hash(bad)[:2] == Hash(filed)[:2]; i++ {
		bad = fmt.Sprintf("a summary that cannot be stored %d", i)
	}
	hf, hb := Hash(filed), Hash(bad)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "content"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "content", hb[:2]), nil, 0o644))
	texts2.Stage(hf, filed)
	texts2.Stage(hb, bad)
	failed = texts2.FlushStaged()
	b, err := os.ReadFile(texts2.Path(hf))
	require.NoError(t, err, "stored in a file of its own")
	assert.Equal(t, filed, string(b))
	texts2.cache = textCache{} // read it from disk, through the pack that cannot be read
	got, err = texts2.Read(hf)
	require.NoError(t, err, "a pack that cannot be read does not hide texts in files")
	assert.Equal(t, filed, got)
	_, err = texts2.Read(Hash("never stored"))
	assert.ErrorContains(t, err, PackFile, "a text found nowhere names both places")
	require.Len(t, failed, 1)
	assert.Error(t, failed[hb])
	got, err = texts2.Read(hb)
	require.NoError(t, err, "what could not be stored still reads from memory")
	assert.Equal(t, bad, got)
	matches, _ := filepath.Glob(filepath.Join(dir, "content", hf[:2], "*.tmp"))
	assert.Empty(t, matches, "no temporary file left behind")
}
