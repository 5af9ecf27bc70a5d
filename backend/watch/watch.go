// Package watch keeps a library in step with its folders: it watches folder
// roots recursively (fsnotify), waits for the writes to settle, and calls a
// sync function over the roots — the CLI's runs an incremental ingest with
// Prune, which skips unchanged files, re-reads changed ones and drops the
// documents of files that are gone. A periodic full rescan catches what the
// events missed (an overflowing event queue asks for one at once).
//
// The watcher is one goroutine (Run) fed by the file events, its timers and
// the end of each sync, so its decisions never race: one sync at a time,
// and the events that come during a sync lead to exactly one more. Its
// timers come from a Clock, so tests drive a FakeClock and wait on the
// states it reports, never on the wall clock.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/loomwork/loom/backend/ingest"
)

// Defaults of Options.
const (
	DefaultQuiet    = 500 * time.Millisecond
	DefaultMaxDelay = 5 * time.Second
	DefaultRescan   = 5 * time.Minute
)

// State is what a watcher is doing.
type State string

const (
	Watching State = "watching" // set up, waiting for changes
	Syncing  State = "syncing"  // a sync is running
	Synced   State = "synced"   // a sync finished (Status.Result says what it did)
	Failed   State = "error"    // a sync failed, or the watch reported a problem; the watcher goes on
)

// Reasons a sync runs (Status.Reason).
const (
	ReasonStart    = "start"    // Options.InitialSync
	ReasonChange   = "change"   // files changed and settled
	ReasonRescan   = "rescan"   // the periodic rescan
	ReasonOverflow = "overflow" // events were lost
	ReasonManual   = "manual"   // Watcher.Sync
)

// Result is what one sync did, as the sync function reports it.
type Result struct {
	Added     int
	Changed   int
	Removed   int
	Unchanged int
	Errors    int // files that could not be read; the sync went on
}

// Status is one state change, for a page or a terminal to show.
type Status struct {
	State State
	Roots []string // the roots as given
	// Reason is why the sync ran (Syncing, Synced, Failed after a sync).
	Reason string
	// Events is how many file events the sync took in.
	Events int
	Result Result
	Err    error
	// Took is how long the sync ran (by the watcher's clock).
	Took time.Duration
	// Dirs is how many folders are watched.
	Dirs int
	At   time.Time
}

// SyncFunc brings the library in line with the roots.
type SyncFunc func(ctx context.Context, roots []string) (Result, error)

// Options tune a watcher. The zero value is the defaults.
type Options struct {
	// Quiet is how long the files must stay unwritten before a sync
	// (default 500 ms): editors that save in several steps sync once.
	Quiet time.Duration
	// MaxDelay bounds the wait from the first change, so a file written
	// without pause still syncs (default 5 s).
	MaxDelay time.Duration
	// Rescan is the interval of the full rescan that catches lost events
	// (default 5 min; negative: never).
	Rescan time.Duration
	// Clock drives the timers (default the wall clock).
	Clock Clock
	// Skip are folders never watched nor answered to: the workspace's own
	// folder, when it lies under a root.
	Skip []string
	// OnState is told every state change, from the watcher's goroutine;
	// it must return quickly.
	OnState func(Status)
	// InitialSync runs a sync as Run starts.
	InitialSync bool
}

type root struct {
	given string
	abs   string
	file  bool // a file given directly: its folder is watched, for it alone
}

// Watcher watches a set of roots. Make one with New, then Run it.
type Watcher struct {
	roots []root
	given []string
	sync  SyncFunc
	opts  Options
	clock Clock
	fw    *fsnotify.Watcher
	skip  []string

	in   chan msg
	done chan struct{} // closed when Run's loop ends
	ran  atomic.Bool

	dirs  map[string]bool // folders watched
	ndirs atomic.Int64

	// loop state
	pending      bool
	first, last  time.Time
	events       int
	debounceGen  int
	stopDebounce func() bool
	rescanGen    int
	stopRescan   func() bool
	syncing      bool
	again        bool
	againReason  string
	syncStart    time.Time
	syncReason   string
	syncEvents   int
	closeOnce    sync.Once
}

type msgKind int

const (
	mEvent msgKind = iota
	mError
	mDebounce
	mRescanTick
	mSyncDone
	mManual
	mBarrier
)

type msg struct {
	kind msgKind
	ev   fsnotify.Event
	err  error
	gen  int
	res  Result
}

// New sets up the watches on roots (folders, recursively, or files) and
// returns the watcher, not yet running. The set-up reads every folder
// under the roots once.
func New(roots []string, sync SyncFunc, opts Options) (*Watcher, error) {
	if len(roots) == 0 {
		return nil, errors.New("watch: no folders to watch")
	}
	if opts.Quiet <= 0 {
		opts.Quiet = DefaultQuiet
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = DefaultMaxDelay
	}
	if opts.MaxDelay < opts.Quiet {
		opts.MaxDelay = opts.Quiet
	}
	if opts.Rescan == 0 {
		opts.Rescan = DefaultRescan
	}
	if opts.Clock == nil {
		opts.Clock = RealClock{}
	}
	w := &Watcher{sync: sync, opts: opts, clock: opts.Clock, in: make(chan msg), done: make(chan struct{}), dirs: map[string]bool{}}
	for _, s := range opts.Skip {
		if abs, err := filepath.Abs(s); err == nil {
			w.skip = append(w.skip, abs)
		}
	}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("watch %s: %w", r, err)
		}
		info, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("watch %s: %w", r, err)
		}
		w.roots = append(w.roots, root{given: r, abs: abs, file: !info.IsDir()})
		w.given = append(w.given, r)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w.fw = fw
	for _, r := range w.roots {
		if r.file {
			err = w.addDir(filepath.Dir(r.abs))
		} else {
			err = w.addTree(r.abs, map[string]bool{})
		}
		if err != nil {
			fw.Close()
			return nil, err
		}
	}
	return w, nil
}

// Dirs is how many folders are watched.
func (w *Watcher) Dirs() int { return int(w.ndirs.Load()) }

// Roots are the roots as given.
func (w *Watcher) Roots() []string { return append([]string(nil), w.given...) }

func (w *Watcher) addDir(abs string) error {
	if w.dirs[abs] {
		return nil
	}
	if err := w.fw.Add(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone already; the sync sees it gone
		}
		return fmt.Errorf("watch %s: %w", abs, err)
	}
	w.dirs[abs] = true
	w.ndirs.Store(int64(len(w.dirs)))
	return nil
}

// addTree watches abs and the folders under it that a folder walk reads
// (ingest.Walk's rules: no hidden names, no node_modules; symbolic links
// followed once), and none of Skip.
func (w *Watcher) addTree(abs string, seen map[string]bool) error {
	if w.skipped(abs) {
		return nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	if seen[real] {
		return nil
	}
	seen[real] = true
	if err := w.addDir(abs); err != nil {
		return err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil // unreadable or gone: the sync reports it
	}
	for _, e := range entries {
		name := e.Name()
		if hiddenName(name) {
			continue
		}
		p := filepath.Join(abs, name)
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if info, err := os.Stat(p); err == nil && info.IsDir() {
				isDir = true
			}
		}
		if isDir {
			if err := w.addTree(p, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

func hiddenName(name string) bool { return strings.HasPrefix(name, ".") || name == "node_modules" }

func (w *Watcher) skipped(abs string) bool {
	for _, s := range w.skip {
		if abs == s || strings.HasPrefix(abs, s+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// relevant says whether an event may change what a sync would ingest.
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod || ev.Op == 0 || w.skipped(ev.Name) {
		return false
	}
	under := false
	for _, r := range w.roots {
		if r.file {
			if ev.Name == r.abs {
				return true
			}
			continue
		}
		if ev.Name == r.abs {
			return true
		}
		rel, err := filepath.Rel(r.abs, ev.Name)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		hidden := false
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if hiddenName(part) {
				hidden = true
				break
			}
		}
		if !hidden {
			under = true
			break
		}
	}
	if !under {
		return false
	}
	if _, ok := ingest.FormatOf(ev.Name); ok || w.dirs[ev.Name] {
		return true
	}
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Write) {
		info, err := os.Stat(ev.Name)
		return err == nil && info.IsDir()
	}
	return false
}

// Sync asks for a sync now, as a rescan would (for a button that says
// "sync now"). It returns at once.
func (w *Watcher) Sync() {
	go w.send(msg{kind: mManual})
}

func (w *Watcher) send(m msg) bool {
	select {
	case w.in <- m:
		return true
	case <-w.done:
		return false
	}
}

// Run watches until ctx is done, then waits for the sync in flight and
// closes the watches. A watcher runs once.
func (w *Watcher) Run(ctx context.Context) error {
	if w.ran.Swap(true) {
		return errors.New("watch: Run called twice")
	}
	defer w.Close()
	go func() {
		for {
			select {
			case ev, ok := <-w.fw.Events:
				if !ok {
					return
				}
				if !w.send(msg{kind: mEvent, ev: ev}) {
					return
				}
			case err, ok := <-w.fw.Errors:
				if !ok {
					return
				}
				if !w.send(msg{kind: mError, err: err}) {
					return
				}
			}
		}
	}()
	w.emit(Status{State: Watching})
	w.armRescan()
	if w.opts.InitialSync {
		w.request(ctx, ReasonStart)
	}
	stopping := false
	for {
		if stopping && !w.syncing {
			break
		}
		var m msg
		select {
		case m = <-w.in:
		case <-ctx.Done():
			if !stopping {
				stopping = true
				w.stopTimers()
			}
			if !w.syncing {
				continue
			}
			m = <-w.in // the sync in flight ends with mSyncDone
		}
		if stopping && m.kind != mSyncDone {
			continue
		}
		w.handle(ctx, m)
	}
	close(w.done)
	w.stopTimers()
	return nil
}

// Close releases the watches (Run does it when it returns).
func (w *Watcher) Close() error {
	var err error
	w.closeOnce.Do(func() { err = w.fw.Close() })
	return err
}

func (w *Watcher) handle(ctx context.Context, m msg) {
	switch m.kind {
	case mEvent:
		w.onEvent(m.ev)
	case mError:
		if errors.Is(m.err, fsnotify.ErrEventOverflow) {
			w.request(ctx, ReasonOverflow)
			return
		}
		w.emit(Status{State: Failed, Err: m.err})
	case mDebounce:
		if m.gen == w.debounceGen && w.pending {
			w.request(ctx, ReasonChange)
		}
	case mRescanTick:
		if m.gen == w.rescanGen {
			w.armRescan()
			// Folders created while events were lost get their watches.
			seen := map[string]bool{}
			for _, r := range w.roots {
				if !r.file {
					_ = w.addTree(r.abs, seen)
				}
			}
			w.request(ctx, ReasonRescan)
		}
	case mManual:
		w.request(ctx, ReasonManual)
	case mSyncDone:
		w.syncing = false
		st := Status{State: Synced, Reason: w.syncReason, Events: w.syncEvents, Result: m.res, Took: w.clock.Now().Sub(w.syncStart)}
		if m.err != nil {
			st.State, st.Err = Failed, m.err
		}
		w.emit(st)
		if w.again && ctx.Err() == nil {
			w.again = false
			w.startSync(ctx, w.againReason)
		}
	case mBarrier:
	}
}

func (w *Watcher) onEvent(ev fsnotify.Event) {
	if !w.relevant(ev) {
		return
	}
	if ev.Has(fsnotify.Create) {
		if info, err := os.Stat(ev.Name); err == nil && info.IsDir() && !w.dirs[ev.Name] {
			if err := w.addTree(ev.Name, map[string]bool{}); err != nil {
				w.emit(Status{State: Failed, Err: err})
			}
		}
	}
	if (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && w.dirs[ev.Name] {
		prefix := ev.Name + string(filepath.Separator)
		for d := range w.dirs {
			if d == ev.Name || strings.HasPrefix(d, prefix) {
				_ = w.fw.Remove(d)
				delete(w.dirs, d)
			}
		}
		w.ndirs.Store(int64(len(w.dirs)))
	}
	now := w.clock.Now()
	if !w.pending {
		w.pending, w.first = true, now
	}
	w.last = now
	w.events++
	deadline := w.last.Add(w.opts.Quiet)
	if limit := w.first.Add(w.opts.MaxDelay); limit.Before(deadline) {
		deadline = limit
	}
	w.armDebounce(deadline.Sub(now))
}

func (w *Watcher) armDebounce(d time.Duration) {
	if w.stopDebounce != nil {
		w.stopDebounce()
	}
	w.debounceGen++
	gen := w.debounceGen
	w.stopDebounce = w.clock.AfterFunc(d, func() { w.send(msg{kind: mDebounce, gen: gen}) })
}

func (w *Watcher) armRescan() {
	if w.stopRescan != nil {
		w.stopRescan()
		w.stopRescan = nil
	}
	if w.opts.Rescan < 0 {
		return
	}
	w.rescanGen++
	gen := w.rescanGen
	w.stopRescan = w.clock.AfterFunc(w.opts.Rescan, func() { w.send(msg{kind: mRescanTick, gen: gen}) })
}

func (w *Watcher) stopTimers() {
	if w.stopDebounce != nil {
		w.stopDebounce()
	}
	if w.stopRescan != nil {
		w.stopRescan()
	}
	w.debounceGen++
	w.rescanGen++
}

// request runs a sync now, or right after the one running.
func (w *Watcher) request(ctx context.Context, reason string) {
	if w.stopDebounce != nil {
		w.stopDebounce()
		w.stopDebounce = nil
	}
	w.debounceGen++
	w.pending = false
	if w.syncing {
		if !w.again || w.againReason == ReasonChange {
			w.againReason = reason
		}
		w.again = true
		return
	}
	w.startSync(ctx, reason)
}

func (w *Watcher) startSync(ctx context.Context, reason string) {
	w.syncing = true
	w.syncReason, w.syncEvents, w.events = reason, w.events, 0
	w.syncStart = w.clock.Now()
	w.emit(Status{State: Syncing, Reason: reason, Events: w.syncEvents})
	roots := w.Roots()
	go func() {
		res, err := w.sync(ctx, roots)
		w.in <- msg{kind: mSyncDone, res: res, err: err} // the loop waits for it, even when stopping
	}()
}

func (w *Watcher) emit(st Status) {
	if w.opts.OnState == nil {
		return
	}
	st.Roots = w.Roots()
	st.Dirs = w.Dirs()
	if st.At.IsZero() {
		st.At = w.clock.Now()
	}
	w.opts.OnState(st)
}
