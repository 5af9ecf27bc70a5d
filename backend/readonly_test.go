//go:build !js

package backend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filesOf lists every file of a workspace with its bytes and time, to show
// that a read-only open changed nothing.
func filesOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		info, err := d.Info()
		require.NoError(t, err)
		if d.IsDir() {
			out[p] = "folder"
			return nil
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out[p] = fmt.Sprintf("%x %s", b, info.ModTime())
		return nil
	}))
	return out
}

// Queries, stats and the library read a workspace another process holds
// for writing, from the index it saved; any number of them at once.
func TestReadersShareAWorkspaceAWriterHolds(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	dir := t.TempDir()
	writer := openBolt(t, dir)
	defer writer.Close()
	_, err := writer.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	want, err := writer.Stats(ctx)
	require.NoError(t, err)
	wantQ, err := writer.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated?", Budget: 1500, NoTouch: true})
	require.NoError(t, err)

	_, err = Open(ctx, dir)
	require.ErrorIs(t, err, ErrInUse, "a second writer is refused")

	before := filesOf(t, dir)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Go(func() {
			r, err := Open(ctx, dir, WithClock(clock), ReadOnlyWhenBusy())
			if err != nil {
				errs <- err
				return
			}
			defer r.Close()
			if r.ReadOnlyReason() == "" {
				errs <- errors.New("a reader beside a writer opened writable")
				return
			}
			st, err := r.Stats(ctx)
			if err == nil && (st.Documents != want.Documents || st.ContentNodes != want.ContentNodes || st.Generation != want.Generation) {
				err = fmt.Errorf("stats %+v, want %+v", st, want)
			}
			if err != nil {
				errs <- err
				return
			}
			q, err := r.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated?", Budget: 1500})
			if err == nil && q.Prompt != wantQ.Prompt {
				err = errors.New("a reader's prompt differs from the writer's")
			}
			if err != nil {
				errs <- err
				return
			}
			docs, err := r.Documents(ctx)
			if err == nil && len(docs) != want.Documents {
				err = fmt.Errorf("%d documents, want %d", len(docs), want.Documents)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, before, filesOf(t, dir), "readers wrote nothing")

	r, err := Open(ctx, dir, ReadOnly())
	require.NoError(t, err)
	defer r.Close()
	assert.Contains(t, r.ReadOnlyReason(), "saved")
	g, err := r.ExportGraph(ctx, true)
	require.NoError(t, err)
	assert.Len(t, g.Documents, want.Documents, "export reads the saved index")
	assert.Len(t, g.Content, want.ContentNodes)
	_, err = r.Ingest(ctx, []string{notes}, IngestOptions{})
	assert.ErrorIs(t, err, ErrReadOnly)
	assert.ErrorIs(t, r.Pin(ctx, []string{"x"}, true), ErrReadOnly)
	assert.ErrorIs(t, r.RemoveDocuments(ctx, []string{"x"}), ErrReadOnly)
	assert.ErrorIs(t, r.Group(ctx, "c", []string{"x"}, true), ErrReadOnly)
	_, err = r.IngestUploads(ctx, []Upload{{Name: "a.md", Text: "# a"}}, IngestOptions{})
	assert.ErrorIs(t, err, ErrReadOnly)
	_, err = os.Stat(r.lib.UploadsDir())
	assert.ErrorIs(t, err, os.ErrNotExist, "a refused upload leaves no file")
}

// Without a writer, a read-only open reads the store itself (shared with
// other readers, for as long as it takes to read the graph) and writes
// nothing, summaries and access times included.
func TestReadOnlyOpenWritesNothingInTheWorkspace(t *testing.T) {
	ctx := context.Background()
	notes := copyFixtureWithLongSection(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	os.Remove(filepath.Join(dir, "index.cache")) // the store, not the cache

	before := filesOf(t, dir)
	r1, err := Open(ctx, dir, WithClock(clock), ReadOnly())
	require.NoError(t, err)
	r2, err := Open(ctx, dir, WithClock(clock), ReadOnly())
	require.NoError(t, err, "readers share the store")
	q, err := r1.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated from the window and the output reservation?", Budget: 300, Level: "summary"})
	require.NoError(t, err)
	require.Positive(t, q.Loaded)
	st, err := r2.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 4, st.Documents)
	require.NoError(t, r1.Close())
	assert.Equal(t, before, filesOf(t, dir))

	// Readers let go of the store once they have read the graph: a writer
	// opens beside them, and they go on from what they read.
	w, err := Open(ctx, dir)
	require.NoError(t, err, "a reader does not keep a writer out")
	_, err = r2.Query(ctx, QueryRequest{Question: "budget calculation", Budget: 300})
	require.NoError(t, err)
	require.NoError(t, r2.Close())
	require.NoError(t, w.Close())
}

// A read-only open of a workspace that was never written is an empty
// workspace, and makes no folder or file.
func TestReadOnlyOpenOfAnEmptyFolder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r, err := Open(ctx, dir, ReadOnly())
	require.NoError(t, err)
	st, err := r.Stats(ctx)
	require.NoError(t, err)
	assert.Zero(t, st.Documents)
	require.NoError(t, r.Close())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}
