//go:build !js

package backend

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/workspace"
)

// TestIngestSyncsTextsBeforeTheGraphNamesThem: an ingest's texts and
// vectors are made durable before the transaction that names them
// commits, so a power cut cannot leave a node whose text the disk lost;
// when that sync fails, nothing is committed and the same ingest succeeds
// later.
func TestIngestSyncsTextsBeforeTheGraphNamesThem(t *testing.T) {
	notes := copyFixture(t)
	ctx := context.Background()
	var sync func(dir string, paths []string) error // what the workspace syncs with
	hooks := workspace.WithHooks(workspace.Hooks{Sync: func(dir string, paths []string) error { return sync(dir, paths) }})

	// A failing sync: the ingest fails and the workspace stays empty.
	wb := openBolt(t, t.TempDir(), hooks)
	defer wb.Close()
	sync = func(string, []string) error { return errors.New("disk gone") }
	res, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	if err == nil {
		err = errors.Join(res.Errors...)
	}
	require.ErrorContains(t, err, "disk gone")
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	assert.Zero(t, st.Documents, "a document was committed although its texts were not synced")
	left, err := filepath.Glob(filepath.Join(wb.Dir(), "content", "*", "*"))
	require.NoError(t, err)
	assert.Empty(t, left, "a failed write takes back the texts it made (nothing names them)")

	// A working sync: it is called before the commit, with every new text
	// written whole, and the vector log.
	var synced []string
	calls := 0
	sync = func(dir string, paths []string) error {
		calls++
		assert.Equal(t, wb.Dir(), dir)
		assert.Zero(t, wb.ws.Meta().Documents, "the graph named the texts before they were synced")
		for _, p := range paths {
			_, err := os.Stat(p)
			assert.NoError(t, err, "synced a file that is not there")
		}
		synced = append(synced, paths...)
		return storage.Sync(dir, paths)
	}
	res, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, res.Errors)
	require.Positive(t, calls)
	assert.Contains(t, synced, wb.ws.Vectors().Path())
	st, err = wb.Stats(ctx)
	require.NoError(t, err)
	require.Positive(t, st.Documents)
	for _, n := range wb.ws.CurrentIndex().Nodes {
		assert.Contains(t, synced, wb.ws.Texts().Path(n.ContentHash), "node %s's text was not synced", n.ID)
		text, err := wb.Content(n.ContentHash)
		require.NoError(t, err)
		assert.NotEmpty(t, text)
	}
}

// An ingest interrupted while writing a text leaves its temporary file in
// content/; the next open's first ingest removes such files, and keeps
// this process's own (which may be writes in flight) and every stored text.
func TestIngestSweepsTemporaryFilesAnInterruptedIngestLeft(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	notes := copyFixture(t)
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	stored := storedTexts(t, dir)
	require.NotEmpty(t, stored)

	sub := filepath.Dir(stored[0])
	left := []string{
		filepath.Join(sub, filepath.Base(stored[0])+".7.tmp"),        // the naming before process tags
		filepath.Join(sub, filepath.Base(stored[0])+".p1-2-3.tmp"),   // another process's
		filepath.Join(dir, "content", "zz", "0123456789.p9-9-9.tmp"), // a folder of its own
	}
	own := filepath.Join(sub, filepath.Base(stored[0])+"."+storage.ProcessTag()+"-999.tmp")
	for _, p := range append(left, own) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("half a tex"), 0o644))
	}

	wb = openBolt(t, dir)
	extra := filepath.Join(t.TempDir(), "extra.md")
	require.NoError(t, os.WriteFile(extra, []byte("# Extra\n\nA note added after the crash.\n"), 0o644))
	rep, err := wb.Ingest(ctx, []string{extra}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	require.NoError(t, wb.Close()) // waits for the sweep
	for _, p := range left {
		assert.NoFileExists(t, p, "a leftover temporary file is removed")
	}
	assert.FileExists(t, own, "this process's temporary files are not touched")
	after := storedTexts(t, dir)
	assert.Subset(t, after, stored, "every stored text is kept")
	assert.Greater(t, len(after), len(stored), "the new note's text is stored")
}

// storedTexts lists the stored texts under dir/content (no temporary files).
func storedTexts(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) != ".tmp" {
			out = append(out, p)
		}
		return err
	}))
	return out
}
