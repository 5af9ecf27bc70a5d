package backend

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/storage"
)

// TestLostSummaryTextsAreMadeAgain: when the pack loses its records (cut
// short by a crash), a reopened workspace answers the same question,
// making the summaries again instead of failing on their missing texts.
func TestLostSummaryTextsAreMadeAgain(t *testing.T) {
	notes := copyFixtureWithLongSection(t)
	dir := t.TempDir()
	clock := WithClock(func() time.Time { return fixedNow })
	wb := openBolt(t, dir, clock)
	_, err := wb.Ingest(context.Background(), []string{notes}, IngestOptions{})
	require.NoError(t, err)
	q := QueryRequest{Question: "How is the loadable budget calculated from the window?", Budget: 300, Level: "summary", NoTouch: true}
	_, err = wb.Query(context.Background(), q)
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	st, err := os.Stat(filepath.Join(dir, PackFile))
	require.NoError(t, err)
	require.Greater(t, st.Size(), int64(100), "the summaries' texts are in the pack")
	intact := filepath.Join(t.TempDir(), "intact") // the same workspace, its pack whole
	require.NoError(t, os.CopyFS(intact, os.DirFS(dir)))
	require.NoError(t, os.Truncate(filepath.Join(dir, PackFile), 30)) // less than one record

	answer := func(dir string) string {
		wb := openBolt(t, dir, clock)
		defer wb.Close()
		res, err := wb.Query(context.Background(), q)
		require.NoError(t, err)
		return res.Prompt
	}
	assert.Equal(t, answer(intact), answer(dir), "the same summaries, made again")
	texts := storage.NewTexts(dir, true)
	defer texts.Close()
	texts.Preload()
	_, n := texts.Packed()
	assert.Positive(t, n, "stored again")
}

// TestWarmReadsThePackIndex: Warm starts reading the pack's index, so the
// first question does not.
func TestWarmReadsThePackIndex(t *testing.T) {
	dir := t.TempDir()
	texts := storage.NewTexts(dir, false)
	texts.Stage(storage.Hash("kept"), "kept")
	require.Empty(t, texts.FlushStaged())
	require.NoError(t, texts.Close())
	wb := openBolt(t, dir)
	defer wb.Close()
	require.NoError(t, wb.Warm(context.Background()))
	require.Eventually(t, func() bool {
		read, n := wb.ws.Texts().Packed()
		return read && n == 1
	}, 10*time.Second, 5*time.Millisecond)
}
