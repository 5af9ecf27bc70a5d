package watch

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// harness runs a watcher on a temp folder with a fake clock. Events are
// handed to the loop directly (inject), and barrier returns once the loop
// has handled everything handed to it before, so what it reported can be
// checked without waiting on the wall clock.
type harness struct {
	t       *testing.T
	w       *Watcher
	clk     *FakeClock
	root    string
	states  chan Status
	calls   atomic.Int32
	release chan struct{} // when non-nil, each sync waits for a value
	cancel  context.CancelFunc
	ended   chan struct{}
}

func newHarness(t *testing.T, opts Options, blocking bool) *harness {
	t.Helper()
	return newHarnessOn(t, t.TempDir(), opts, blocking)
}

// newHarnessOn is newHarness watching root.
func newHarnessOn(t *testing.T, root string, opts Options, blocking bool) *harness {
	t.Helper()
	h := &harness{t: t, clk: NewFakeClock(time.Unix(1_700_000_000, 0)), root: root, states: make(chan Status, 256), ended: make(chan struct{})}
	if blocking {
		h.release = make(chan struct{})
	}
	opts.Clock = h.clk
	opts.OnState = func(s Status) { h.states <- s }
	w, err := New([]string{h.root}, func(ctx context.Context, roots []string) (Result, error) {
		h.calls.Add(1)
		if h.release != nil {
			select {
			case <-h.release:
			case <-ctx.Done():
			}
		}
		return Result{Changed: 1}, nil
	}, opts)
	require.NoError(t, err)
	h.w = w
	// The file system's own events would race the ones injected.
	w.injected = true
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard only
	h.cancel = cancel
	go func() { _ = w.Run(ctx); close(h.ended) }()
	t.Cleanup(func() {
		cancel()
		<-h.ended
	})
	require.Equal(t, Watching, h.next().State)
	return h
}

func (h *harness) inject(name string, op fsnotify.Op) {
	h.w.in <- msg{kind: mEvent, ev: fsnotify.Event{Name: filepath.Join(h.root, name), Op: op}}
	h.barrier() // the event handled, its timer armed
}

func (h *harness) barrier() { h.w.in <- msg{kind: mBarrier} }

// injectAt hands the loop an event of an absolute path.
func (h *harness) injectAt(path string, op fsnotify.Op) {
	h.w.in <- msg{kind: mEvent, ev: fsnotify.Event{Name: path, Op: op}}
	h.barrier()
}

// watched are the folders the watcher watches, and the paths it guards
// (read after a barrier: the loop is waiting).
func (h *harness) watched() (dirs []string, guards map[string]string) {
	h.barrier()
	for d := range h.w.dirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs, maps.Clone(h.w.guards)
}

// next waits for the next state reported.
func (h *harness) next() Status {
	h.t.Helper()
	select {
	case s := <-h.states:
		return s
	case <-time.After(30 * time.Second): // a failure guard, not a timing
		h.t.Fatal("no state reported")
		return Status{}
	}
}

// none checks that nothing was reported (call after barrier).
func (h *harness) none() {
	h.t.Helper()
	select {
	case s := <-h.states:
		h.t.Fatalf("unexpected state %s (%s)", s.State, s.Reason)
	default:
	}
}

func (h *harness) expectSync(reason string, events int) {
	h.t.Helper()
	s := h.next()
	require.Equal(h.t, Syncing, s.State)
	assert.Equal(h.t, reason, s.Reason)
	assert.Equal(h.t, events, s.Events)
	s = h.next()
	require.Equal(h.t, Synced, s.State)
	assert.Equal(h.t, reason, s.Reason)
	assert.Equal(h.t, Result{Changed: 1}, s.Result)
}

func TestWatchDebouncesABurstIntoOneSync(t *testing.T) {
	h := newHarness(t, Options{Quiet: 500 * time.Millisecond, Rescan: -1}, false)
	h.inject("a.md", fsnotify.Create)
	h.clk.Advance(200 * time.Millisecond)
	h.inject("a.md", fsnotify.Write)
	h.clk.Advance(200 * time.Millisecond)
	h.inject("a.md", fsnotify.Write)
	h.clk.Advance(499 * time.Millisecond)
	h.barrier()
	h.none()
	assert.Zero(t, h.calls.Load(), "still inside the quiet period of the last write")

	h.clk.Advance(time.Millisecond)
	h.expectSync(ReasonChange, 3)
	h.barrier()
	h.none()
	assert.EqualValues(t, 1, h.calls.Load())
}

func TestWatchSyncsAFileWrittenWithoutPauseByTheMaxDelay(t *testing.T) {
	h := newHarness(t, Options{Quiet: 500 * time.Millisecond, MaxDelay: 2 * time.Second, Rescan: -1}, false)
	for i := 0; i < 5; i++ { // a write every 400 ms: the quiet period never ends
		h.inject("log.md", fsnotify.Write)
		h.clk.Advance(400 * time.Millisecond)
		if i < 4 {
			h.barrier()
			h.none()
		}
	}
	h.expectSync(ReasonChange, 5) // at 2 s from the first write
}

func TestWatchCoalescesABurstDuringASyncIntoExactlyOneMore(t *testing.T) {
	h := newHarness(t, Options{Quiet: 100 * time.Millisecond, Rescan: -1}, true)
	h.inject("a.md", fsnotify.Write)
	h.clk.Advance(100 * time.Millisecond)
	s := h.next()
	require.Equal(t, Syncing, s.State)

	// Three settled bursts while the sync runs: no second sync at once.
	for _, name := range []string{"b.md", "c.md", "d.md"} {
		h.inject(name, fsnotify.Create)
		h.clk.Advance(100 * time.Millisecond)
	}
	h.barrier()
	h.none()
	assert.EqualValues(t, 1, h.calls.Load())

	h.release <- struct{}{}
	require.Equal(t, Synced, h.next().State)
	s = h.next()
	require.Equal(t, Syncing, s.State, "the burst during the sync leads to one more")
	assert.Equal(t, 3, s.Events)
	h.release <- struct{}{}
	require.Equal(t, Synced, h.next().State)
	h.barrier()
	h.none()
	assert.EqualValues(t, 2, h.calls.Load())
}

func TestWatchRescansPeriodicallyAndAtOnceOnOverflow(t *testing.T) {
	h := newHarness(t, Options{Rescan: 5 * time.Minute}, false)
	h.clk.Advance(5*time.Minute - time.Second)
	h.barrier()
	h.none()
	h.clk.Advance(time.Second)
	h.expectSync(ReasonRescan, 0)
	h.clk.Advance(5 * time.Minute)
	h.expectSync(ReasonRescan, 0)

	h.w.in <- msg{kind: mError, err: fsnotify.ErrEventOverflow}
	h.barrier()
	h.expectSync(ReasonOverflow, 0)
	h.w.Sync()
	h.expectSync(ReasonManual, 0)
}

func TestWatchInitialSync(t *testing.T) {
	h := newHarness(t, Options{InitialSync: true, Rescan: -1}, false)
	h.expectSync(ReasonStart, 0)
}

func TestWatchIgnoresWhatAFolderWalkLeavesOut(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "workspace")
	for _, d := range []string{"sub", ".git", "node_modules", "workspace"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	w, err := New([]string{root}, nil, Options{Skip: []string{ws}})
	require.NoError(t, err)
	defer w.Close()
	assert.Equal(t, 2, w.Dirs(), "the root and sub; not .git, node_modules nor the workspace")
	for name, want := range map[string]bool{
		"a.md":                true,
		"sub/b.txt":           true,
		"sub":                 true, // a folder watched: removed or renamed
		".git/HEAD.md":        false,
		".a.md.swp":           false,
		"sub/.#a.md":          false,
		"node_modules/x/r.md": false,
		"workspace/graph.md":  false,
		"a.md~":               false, // an editor's backup: not a format Loom reads
		"../elsewhere/a.md":   false,
		"4913":                false, // vim's probe file
		"sub/photo.png":       false,
	} {
		ev := fsnotify.Event{Name: filepath.Join(root, name), Op: fsnotify.Remove}
		assert.Equal(t, want, w.relevant(ev), name)
	}
	assert.False(t, w.relevant(fsnotify.Event{Name: filepath.Join(root, "a.md"), Op: fsnotify.Chmod}), "chmod alone")
}

// Real fsnotify on a real folder: a new subfolder is watched as it
// appears, and a note written in it syncs. The test waits on the states
// the watcher reports; its context's timeout is only a failure guard.
func TestWatchRealFolder(t *testing.T) {
	root := t.TempDir()
	states := make(chan Status, 64)
	var seen atomic.Int32
	w, err := New([]string{root}, func(ctx context.Context, roots []string) (Result, error) {
		seen.Add(1)
		return Result{}, nil
	}, Options{Quiet: 20 * time.Millisecond, Rescan: -1, OnState: func(s Status) { states <- s }})
	require.NoError(t, err)
	require.Equal(t, 1, w.Dirs())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ended := make(chan error)
	go func() { ended <- w.Run(ctx) }()
	synced := func() Status {
		t.Helper()
		for {
			select {
			case s := <-states:
				if s.State == Synced || s.State == Failed {
					return s
				}
			case <-ctx.Done():
				t.Fatal("no sync reported")
			}
		}
	}
	require.Equal(t, Watching, (<-states).State)

	require.NoError(t, os.Mkdir(filepath.Join(root, "sub"), 0o755))
	s := synced()
	require.Equal(t, Synced, s.State)
	assert.Equal(t, 2, s.Dirs, "the new subfolder is watched")

	require.NoError(t, os.WriteFile(filepath.Join(root, "sub", "note.md"), []byte("# Note\n"), 0o644))
	s = synced()
	require.Equal(t, Synced, s.State)
	assert.Positive(t, s.Events)

	cancel()
	require.NoError(t, <-ended)
	assert.GreaterOrEqual(t, seen.Load(), int32(2))
}

// A root reached through a symbolic link: the watch follows the link to
// its target, so removing the link tells that watch nothing. The link and
// its target are guarded through their parent folders: removing either
// drops the root's watches and syncs after the quiet period (the sync
// prunes the root's documents), not at the next rescan; a link put back,
// pointing elsewhere, is watched afresh. Events are injected and the clock
// is fake: no sleeps.
func TestWatchARootReachedThroughALinkSyncsWhenTheLinkOrItsTargetGoes(t *testing.T) {
	base := t.TempDir()
	target, other, link := filepath.Join(base, "data", "notes"), filepath.Join(base, "data", "other"), filepath.Join(base, "notes")
	require.NoError(t, os.MkdirAll(filepath.Join(target, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.Symlink(target, link))
	h := newHarnessOn(t, link, Options{Quiet: 500 * time.Millisecond, Rescan: -1}, false)

	dirs, guards := h.watched()
	assert.Equal(t, []string{link, filepath.Join(link, "sub")}, dirs)
	assert.Equal(t, map[string]string{link: link, target: link}, guards)
	assert.Equal(t, map[string]bool{base: true, filepath.Join(base, "data"): true}, h.w.guardDirs,
		"the link's folder is watched for the link, the target's for the target")
	assert.Equal(t, 2, h.w.Dirs(), "guard folders are not counted")
	// Other names in those folders are nobody's business.
	h.injectAt(filepath.Join(base, "notes.md"), fsnotify.Create)
	h.injectAt(other, fsnotify.Remove)
	h.none()

	// The link removed (what inotify reports in its folder).
	require.NoError(t, os.Remove(link))
	h.injectAt(link, fsnotify.Remove)
	dirs, _ = h.watched()
	assert.Empty(t, dirs, "the target's watches are dropped: they no longer stand for the root")
	h.clk.Advance(500 * time.Millisecond)
	h.expectSync(ReasonChange, 1)

	// The link put back, to another folder: that folder is watched.
	require.NoError(t, os.Symlink(other, link))
	h.injectAt(link, fsnotify.Create)
	dirs, guards = h.watched()
	assert.Equal(t, []string{link}, dirs)
	assert.Equal(t, map[string]string{link: link, target: link, other: link}, guards, "the root's guards stay")
	h.clk.Advance(500 * time.Millisecond)
	h.expectSync(ReasonChange, 1)

	// The target removed: the link dangles.
	require.NoError(t, os.Remove(other))
	h.injectAt(other, fsnotify.Remove)
	dirs, _ = h.watched()
	assert.Empty(t, dirs)
	h.clk.Advance(500 * time.Millisecond)
	h.expectSync(ReasonChange, 1)
}

// A root under a linked folder (/home/me/link/notes, link → /data): the
// link on the way is guarded too.
func TestWatchGuardsTheLinksOnTheWayToARoot(t *testing.T) {
	base := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(base, "data", "notes"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(base, "data"), filepath.Join(base, "link")))
	root := filepath.Join(base, "link", "notes")
	h := newHarnessOn(t, root, Options{Quiet: 100 * time.Millisecond, Rescan: -1}, false)
	_, guards := h.watched()
	assert.Equal(t, map[string]string{filepath.Join(base, "link"): root, filepath.Join(base, "data", "notes"): root}, guards)
	require.NoError(t, os.Remove(filepath.Join(base, "link")))
	h.injectAt(filepath.Join(base, "link"), fsnotify.Rename)
	dirs, _ := h.watched()
	assert.Empty(t, dirs)
	h.clk.Advance(100 * time.Millisecond)
	h.expectSync(ReasonChange, 1)
}

// A linked subfolder: its link is heard in the root's own watch, but its
// target's removal in no watch of the tree (inotify leaves a folder's
// removal to the folder that holds it). The target is guarded.
func TestWatchALinkedSubfolderSyncsWhenItsTargetGoes(t *testing.T) {
	base := t.TempDir()
	root, target := filepath.Join(base, "notes"), filepath.Join(base, "elsewhere", "papers")
	require.NoError(t, os.MkdirAll(root, 0o755))
	require.NoError(t, os.MkdirAll(target, 0o755))
	sub := filepath.Join(root, "papers")
	require.NoError(t, os.Symlink(target, sub))
	h := newHarnessOn(t, root, Options{Quiet: 100 * time.Millisecond, Rescan: -1}, false)
	dirs, guards := h.watched()
	assert.Equal(t, []string{root, sub}, dirs)
	assert.Equal(t, map[string]string{target: sub}, guards, "the link is heard by the root's watch")

	require.NoError(t, os.Rename(target, target+".old"))
	h.injectAt(target, fsnotify.Rename)
	dirs, guards = h.watched()
	assert.Equal(t, []string{root}, dirs)
	assert.Empty(t, guards, "a subfolder's guards go with it")
	assert.False(t, h.w.guardDirs[filepath.Dir(target)], "and so does the watch of its target's folder")
	h.clk.Advance(100 * time.Millisecond)
	h.expectSync(ReasonChange, 1)

	// The folder back under the same name, through the link: watched again.
	require.NoError(t, os.Rename(target+".old", target))
	h.injectAt(sub, fsnotify.Create) // as a rescan or an editor would tell it
	dirs, guards = h.watched()
	assert.Equal(t, []string{root, sub}, dirs)
	assert.Equal(t, map[string]string{target: sub}, guards)
	h.clk.Advance(100 * time.Millisecond)
	h.expectSync(ReasonChange, 1)
}

// Real fsnotify: removing the link a root is reached through, or the
// target of a linked subfolder, syncs with no rescan. The test waits on
// the states reported; the context's timeout is only a failure guard.
func TestWatchRealLinksSyncWhenRemoved(t *testing.T) {
	base := t.TempDir()
	data := filepath.Join(base, "data")
	require.NoError(t, os.MkdirAll(filepath.Join(data, "notes", "sub"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(data, "papers"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(base, "home"), 0o755))
	link, sub := filepath.Join(base, "notes"), filepath.Join(base, "home", "papers")
	require.NoError(t, os.Symlink(filepath.Join(data, "notes"), link))
	require.NoError(t, os.Symlink(filepath.Join(data, "papers"), sub))
	states := make(chan Status, 64)
	w, err := New([]string{link, filepath.Join(base, "home")}, func(ctx context.Context, roots []string) (Result, error) { return Result{}, nil },
		Options{Quiet: 10 * time.Millisecond, Rescan: -1, OnState: func(s Status) { states <- s }})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ended := make(chan error)
	go func() { ended <- w.Run(ctx) }()
	require.Equal(t, Watching, (<-states).State)
	synced := func(what string) Status {
		t.Helper()
		for {
			select {
			case s := <-states:
				if s.State == Synced || s.State == Failed {
					return s
				}
			case <-ctx.Done():
				t.Fatal("no sync after " + what)
			}
		}
	}
	require.Equal(t, 4, w.Dirs(), "notes, notes/sub, home, home/papers")

	require.NoError(t, os.Remove(link))
	s := synced("the root's link was removed")
	assert.Equal(t, ReasonChange, s.Reason)
	assert.Equal(t, 2, s.Dirs, "home and home/papers")

	require.NoError(t, os.Symlink(filepath.Join(data, "notes"), link))
	s = synced("the root's link was put back")
	assert.Equal(t, 4, s.Dirs, "watched again")

	require.NoError(t, os.Rename(filepath.Join(data, "notes"), filepath.Join(base, "trash"))) // moved to the trash: one event
	s = synced("the root's target was moved away")
	assert.Equal(t, 2, s.Dirs, "the moved folders are not watched any more")

	require.NoError(t, os.Remove(filepath.Join(data, "papers"))) // an empty folder: no file events, only its own
	s = synced("the linked subfolder's target was removed")
	assert.Equal(t, 1, s.Dirs, "home")

	cancel()
	require.NoError(t, <-ended)
}
