package backend

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/index"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// captureTimers makes afterFunc hand its functions to the test instead of
// running them after a delay.
func captureTimers(t *testing.T) chan func() {
	fired := make(chan func(), 16)
	old := afterFunc
	afterFunc = func(_ time.Duration, f func()) { fired <- f }
	t.Cleanup(func() { afterFunc = old })
	return fired
}

// during makes the next background commit run f (without the workbench's
// lock) before it commits, and waits for f.
func during(t *testing.T, f func()) {
	old := beforeBackgroundCommit
	beforeBackgroundCommit = func() {
		beforeBackgroundCommit = old
		f()
	}
	t.Cleanup(func() { beforeBackgroundCommit = old })
}

// nextStoreWait returns a channel closed when a write (or Close) is next
// about to wait for the store: called while a commit holds the store, it
// tells that the write now waits for that commit.
func nextStoreWait(t *testing.T) <-chan struct{} {
	waiting := make(chan struct{})
	var once sync.Once
	f := func() { once.Do(func() { close(waiting) }) }
	waitingForStore.Store(&f)
	t.Cleanup(func() { waitingForStore.Store(nil) })
	return waiting
}

// waitFor waits for ch to close; the timeout only guards against a hang
// and fails the test.
func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Errorf("%s did not happen within 20s", what)
	}
}

// within reports an error (safe from any goroutine) and returns false if
// f does not return within d: a deadlock. f is then left running.
func within(t *testing.T, d time.Duration, what string, f func()) bool {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		t.Errorf("%s did not return within %s", what, d)
		return false
	}
}

// openForCommitTests is openBolt whose Close, at the end of the test, is
// given up on (leaked) if a deadlock holds it.
func openForCommitTests(t *testing.T, dir string) *Workbench {
	wb := openBolt(t, dir)
	t.Cleanup(func() { within(t, 20*time.Second, "Close", func() { wb.Close() }) })
	return wb
}

// TestQuestionsGoOnWhileTheBackgroundPersistCommits: the background
// persist lets go of the workbench's lock while its transaction commits,
// so a question asked meanwhile is answered; a write asked meanwhile
// (a pin) waits for the commit and lands after it; the workspace facts
// are the store's afterwards.
func TestQuestionsGoOnWhileTheBackgroundPersistCommits(t *testing.T) {
	fired := captureTimers(t)
	notes := copyFixture(t)
	wb := openForCommitTests(t, t.TempDir())
	ctx := context.Background()
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	res, err := wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Budget: 800})
	require.NoError(t, err)
	require.NotEmpty(t, res.LoadedCandidates())
	persist := <-fired // the access times wait to be written

	pinned := res.LoadedCandidates()[0].ID
	pinDone := make(chan error, 1)
	during(t, func() {
		// The question is answered while the commit has not started.
		within(t, 20*time.Second, "a question during the commit", func() {
			_, err := wb.Query(ctx, QueryRequest{Question: "What is the manifest header?", Budget: 800, NoTouch: true})
			assert.NoError(t, err)
		})
		waiting := nextStoreWait(t)
		go func() { pinDone <- wb.Pin(ctx, []string{pinned}, true) }()
		waitFor(t, waiting, "the pin waiting for the store")
	})
	require.True(t, within(t, 20*time.Second, "the background persist", persist))
	require.NoError(t, <-pinDone)

	wb.mu.Lock()
	got := wb.meta
	wb.mu.Unlock()
	stored, err := wb.store.Meta(ctx)
	require.NoError(t, err)
	assert.Equal(t, stored.Generation, got.Generation, "the facts of the last commit (the pin's), not the persist's")
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	for _, n := range g.ContentNodes {
		if n.ID == pinned {
			assert.True(t, n.Pinned, "the pin, written after the persist, is kept")
			assert.False(t, n.LastAccess.IsZero())
		}
	}
}

// TestCloseDuringTheBackgroundCommit: Close waits for a commit in flight
// and stamps the caches with the generation it made, so the next open
// finds them current.
func TestCloseDuringTheBackgroundCommit(t *testing.T) {
	fired := captureTimers(t)
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openForCommitTests(t, dir)
	ctx := context.Background()
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	_, err = wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Budget: 800})
	require.NoError(t, err)
	persist := <-fired
	closed := make(chan error, 1)
	during(t, func() {
		waiting := nextStoreWait(t)
		go func() { closed <- wb.Close() }()
		waitFor(t, waiting, "Close waiting for the store")
	})
	require.True(t, within(t, 20*time.Second, "the background persist", persist))
	require.NoError(t, <-closed)

	wb = openBolt(t, dir)
	defer wb.Close()
	ix, _ := index.LoadGraphCache(wb.cachePath(), wb.meta.Generation)
	assert.NotNil(t, ix, "the index cache is stamped with the generation of the last commit")
}
