package bind

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

// standInEncoder stands in for the full MiniLM encoder: the offline
// table's vectors under an ID of the full encoder's kind. While held, its
// Embed waits until it is let go (or its context ends).
type standInEncoder struct {
	table embed.Embedder
	mu    sync.Mutex
	held  chan struct{} // closed to let go; nil: not held
	// waiting is closed when an Embed starts to wait.
	waiting chan struct{}
}

func newStandInEncoder(t *testing.T, held bool) *standInEncoder {
	table, err := offline.New()
	require.NoError(t, err)
	e := &standInEncoder{table: table, waiting: make(chan struct{})}
	if held {
		e.held = make(chan struct{})
	}
	return e
}

func (e *standInEncoder) ID() string { return embed.MiniLMPrefix + "stand-in" }
func (e *standInEncoder) Dim() int   { return e.table.Dim() }

func (e *standInEncoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	held, waiting := e.held, e.waiting
	if held != nil {
		select {
		case <-waiting:
		default:
			close(waiting)
		}
	}
	e.mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return e.table.Embed(ctx, texts)
}

// letGo lets every Embed through from now on.
func (e *standInEncoder) letGo() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.held != nil {
		close(e.held)
		e.held = nil
	}
}

// hangGuard fails the test if ch is not closed within two minutes (a
// guard against a hang, not a timing: the test waits on the state).
func hangGuard(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(2 * time.Minute):
		t.Fatalf("waited 2 min for %s", what)
	}
}

// upgradeApp starts the desktop app on a new workspace in dir, with no
// model server and enc as the full encoder.
func upgradeApp(t *testing.T, dir string, enc *standInEncoder) (*App, *fakeShell) {
	app, shell, _ := upgradeAppCounting(t, dir, enc)
	return app, shell
}

// upgradeAppCounting is upgradeApp, with how often the full encoder was
// loaded.
func upgradeAppCounting(t *testing.T, dir string, enc *standInEncoder) (*App, *fakeShell, *atomic.Int32) {
	t.Helper()
	forgetSettings(t)
	t.Setenv(WorkspaceEnv, dir)
	t.Setenv(OllamaEnv, ollamatest.Closed(t))
	shell := &fakeShell{}
	app := NewApp(shell)
	loads := &atomic.Int32{}
	app.miniLM = func() (embed.Embedder, error) {
		loads.Add(1)
		return enc, nil
	}
	app.Startup(t.Context())
	return app, shell, loads
}

// automaticEnds says whether the events hold n finished background
// re-embeds.
func automaticEnds(n int) func([]event) bool {
	return func(events []event) bool {
		ends := 0
		for _, ev := range events {
			if p, ok := ev.data.(ReembedProgress); ok && ev.name == EventReembedProgress && p.Automatic && p.Finished {
				ends++
			}
		}
		return ends >= n
	}
}

func lastAutomatic(shell *fakeShell) ReembedProgress {
	var last ReembedProgress
	for _, ev := range shell.eventsNamed(EventReembedProgress) {
		if p := ev.(ReembedProgress); p.Automatic {
			last = p
		}
	}
	return last
}

// A new workspace starts on the offline table, so that the first files are
// searchable as soon as they are in; the full encoder then re-embeds it in
// the background while questions go on, gives way to an ingest and starts
// again after it, and takes over when it is done.
func TestANewWorkspaceStartsOnTheTableAndTheFullEncoderTakesOverInTheBackground(t *testing.T) {
	dir := t.TempDir()
	enc := newStandInEncoder(t, true)
	app, shell, loads := upgradeAppCounting(t, dir, enc)
	t.Cleanup(func() { app.Shutdown(context.Background()) })

	st, err := app.Stats()
	require.NoError(t, err)
	assert.Zero(t, loads.Load(), "the full encoder is not loaded to start on the table")
	assert.True(t, strings.HasPrefix(st.EmbedderInUse, embed.OfflinePrefix), st.EmbedderInUse)
	assert.Contains(t, st.EmbedderChoice, "the full MiniLM encoder re-embeds it in the background")
	assert.Equal(t, backend.MiniLMTarget, backend.PendingReembed(dir))

	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "tides.md"), "# Tides\n\nThe moon's pull raises the tides twice a day.\n\n## Neap tides\n\nWhen sun and moon pull at right angles the tides are low.\n")
	_, err = app.IngestPaths([]string{notes})
	require.NoError(t, err, "the ingest embeds with the table: the held encoder is not asked")

	// The background re-embed starts and waits in the full encoder; the
	// files are searchable meanwhile, on the table's vectors.
	hangGuard(t, enc.waiting, "the background re-embed to ask the full encoder")
	res, err := app.Query(backend.QueryRequest{Question: "Why are the tides low?", Budget: 800})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(res.Embedder, embed.OfflinePrefix), res.Embedder)
	assert.NotEmpty(t, res.Loaded)
	p := lastAutomatic(shell)
	assert.False(t, p.Finished)
	assert.Equal(t, backend.MiniLMTarget, p.Target)

	// An ingest stops it (its first stage holds no lock, so the stop is
	// what lets the ingest run) and it starts again after.
	more := t.TempDir()
	writeNote(t, filepath.Join(more, "glaciers.md"), "# Glaciers\n\nA glacier moves metres a year down the valley it carves.\n")
	_, err = app.IngestPaths([]string{more})
	require.NoError(t, err)
	shell.waitFor(t, "the background re-embed to stop for the ingest", automaticEnds(1))
	stopped := false
	for _, ev := range shell.eventsNamed(EventReembedProgress) {
		if p := ev.(ReembedProgress); p.Automatic && p.Finished {
			stopped = p.Canceled && p.Error == ""
			break
		}
	}
	assert.True(t, stopped, "it stopped as cancelled, without an error")
	assert.Equal(t, backend.MiniLMTarget, backend.PendingReembed(dir), "still to do")

	enc.letGo()
	shell.waitFor(t, "the background re-embed to finish", automaticEnds(2))
	p = lastAutomatic(shell)
	assert.True(t, p.Finished && !p.Canceled && p.Error == "", "%+v", p)
	st, err = app.Stats()
	require.NoError(t, err)
	assert.Equal(t, enc.ID(), st.Embedder, "the full encoder took over")
	assert.Equal(t, enc.ID(), st.EmbedderInUse)
	assert.Equal(t, 2, st.Documents)
	assert.Equal(t, p.Done, st.ContentNodes, "every section re-embedded, the second ingest's too")
	assert.Empty(t, backend.PendingReembed(dir), "nothing left to do")
	res, err = app.Query(backend.QueryRequest{Question: "How fast does a glacier move?", Budget: 800})
	require.NoError(t, err)
	assert.Equal(t, enc.ID(), res.Embedder)
	require.NotEmpty(t, res.Loaded)
}

// Quitting during the background re-embed leaves the workspace on the
// table, and the next start goes on with it.
func TestTheBackgroundReembedGoesOnAtTheNextStart(t *testing.T) {
	dir := t.TempDir()
	enc := newStandInEncoder(t, true)
	app, shell := upgradeApp(t, dir, enc)
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "tides.md"), "# Tides\n\nThe moon's pull raises the tides twice a day.\n")
	_, err := app.IngestPaths([]string{notes})
	require.NoError(t, err)
	hangGuard(t, enc.waiting, "the background re-embed to ask the full encoder")
	app.Shutdown(context.Background())
	shell.waitFor(t, "the background re-embed to stop", automaticEnds(1))
	assert.Equal(t, backend.MiniLMTarget, backend.PendingReembed(dir))

	enc.letGo()
	again, shell := upgradeApp(t, dir, enc)
	t.Cleanup(func() { again.Shutdown(context.Background()) })
	shell.waitFor(t, "the background re-embed to finish", automaticEnds(1))
	p := lastAutomatic(shell)
	assert.True(t, p.Finished && !p.Canceled && p.Error == "", "%+v", p)
	st, err := again.Stats()
	require.NoError(t, err)
	assert.Equal(t, enc.ID(), st.Embedder)
	assert.Empty(t, backend.PendingReembed(dir))
}

// Cancelling the background re-embed keeps the workspace on the table for
// good: a later ingest does not start it again, and the page offers the
// full encoder as before.
func TestCancellingTheBackgroundReembedKeepsTheTable(t *testing.T) {
	dir := t.TempDir()
	enc := newStandInEncoder(t, true)
	app, shell := upgradeApp(t, dir, enc)
	t.Cleanup(func() { app.Shutdown(context.Background()) })
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "tides.md"), "# Tides\n\nThe moon's pull raises the tides twice a day.\n")
	_, err := app.IngestPaths([]string{notes})
	require.NoError(t, err)
	hangGuard(t, enc.waiting, "the background re-embed to ask the full encoder")
	app.CancelReembed()
	shell.waitFor(t, "the background re-embed to stop", automaticEnds(1))
	assert.Empty(t, backend.PendingReembed(dir), "declined")
	st, err := app.Stats()
	require.NoError(t, err)
	assert.Equal(t, backend.KeptTableReason, st.EmbedderChoice, "the page no longer says it will come")

	enc.letGo()
	writeNote(t, filepath.Join(notes, "moon.md"), "# Moon\n\nThe moon keeps one face to the earth.\n")
	_, err = app.IngestPaths([]string{notes})
	require.NoError(t, err)
	st, err = app.Stats()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(st.Embedder, embed.OfflinePrefix), st.Embedder)
	for _, ev := range shell.eventsNamed(EventReembedProgress) {
		if p := ev.(ReembedProgress); p.Automatic && p.Finished {
			assert.True(t, p.Canceled, "the only background re-embed is the cancelled one: %+v", p)
		}
	}
}
