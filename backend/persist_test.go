package backend

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/workspace"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commitHooks let a test run the background persist when it chooses and
// see what happens around its commit (workspace.Hooks).
type commitHooks struct {
	fired  chan func()
	before atomic.Pointer[func()] // run once as the next background commit starts
	wait   atomic.Pointer[func()] // run when a write or Close next waits for the store
}

func newCommitHooks() *commitHooks { return &commitHooks{fired: make(chan func(), 16)} }

// option makes the persist's timer hand its function to the test instead
// of running it after a delay.
func (h *commitHooks) option() Option {
	return workspace.WithHooks(workspace.Hooks{
		AfterFunc: func(_ time.Duration, f func()) { h.fired <- f },
		BeforeBackgroundCommit: func() {
			if f := h.before.Swap(nil); f != nil {
				(*f)()
			}
		},
		WaitingForStore: func() {
			if f := h.wait.Load(); f != nil {
				(*f)()
			}
		},
	})
}

// during makes the next background commit run f (without the workbench's
// lock) before it commits.
func (h *commitHooks) during(f func()) { h.before.Store(&f) }

// nextStoreWait returns a channel closed when a write (or Close) is next
// about to wait for the store: called while a commit holds the store, it
// tells that the write now waits for that commit.
func (h *commitHooks) nextStoreWait() <-chan struct{} {
	waiting := make(chan struct{})
	var once sync.Once
	f := func() { once.Do(func() { close(waiting) }) }
	h.wait.Store(&f)
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
func openForCommitTests(t *testing.T, dir string, opts ...Option) *Workbench {
	wb := openBolt(t, dir, opts...)
	t.Cleanup(func() { within(t, 20*time.Second, "Close", func() { wb.Close() }) })
	return wb
}

// TestQuestionsGoOnWhileTheBackgroundPersistCommits: the background
// persist lets go of the workbench's lock while its transaction commits,
// so a question asked meanwhile is answered; a write asked meanwhile
// (a pin) waits for the commit and lands after it; the workspace facts
// are the store's afterwards.
func TestQuestionsGoOnWhileTheBackgroundPersistCommits(t *testing.T) {
	h := newCommitHooks()
	fired := h.fired
	notes := copyFixture(t)
	wb := openForCommitTests(t, t.TempDir(), h.option())
	ctx := context.Background()
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	res, err := wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Budget: 800})
	require.NoError(t, err)
	require.NotEmpty(t, res.LoadedCandidates())
	persist := <-fired // the access times wait to be written

	pinned := res.LoadedCandidates()[0].ID
	pinDone := make(chan error, 1)
	h.during(func() {
		// The question is answered while the commit has not started.
		within(t, 20*time.Second, "a question during the commit", func() {
			_, err := wb.Query(ctx, QueryRequest{Question: "What is the manifest header?", Budget: 800, NoTouch: true})
			assert.NoError(t, err)
		})
		waiting := h.nextStoreWait()
		go func() { pinDone <- wb.Pin(ctx, []string{pinned}, true) }()
		waitFor(t, waiting, "the pin waiting for the store")
	})
	require.True(t, within(t, 20*time.Second, "the background persist", persist))
	require.NoError(t, <-pinDone)

	wb.ws.Lock()
	got := wb.ws.Meta()
	wb.ws.Unlock()
	stored, err := wb.ws.StoreMeta(ctx)
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
	h := newCommitHooks()
	fired := h.fired
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openForCommitTests(t, dir, h.option())
	ctx := context.Background()
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	_, err = wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Budget: 800})
	require.NoError(t, err)
	persist := <-fired
	closed := make(chan error, 1)
	h.during(func() {
		waiting := h.nextStoreWait()
		go func() { closed <- wb.Close() }()
		waitFor(t, waiting, "Close waiting for the store")
	})
	require.True(t, within(t, 20*time.Second, "the background persist", persist))
	require.NoError(t, <-closed)

	wb = openBolt(t, dir)
	defer wb.Close()
	ix, _ := index.LoadGraphCache(wb.ws.IndexCachePath(), wb.ws.Meta().Generation)
	assert.NotNil(t, ix, "the index cache is stamped with the generation of the last commit")
}
