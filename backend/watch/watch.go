// Package watch keeps a library in step with its folders: it watches folder
// roots recursively (fsnotify), waits for the writes to settle, and calls a
// sync function over the roots — the CLI's runs an incremental ingest with
// Prune, which skips unchanged files, re-reads changed ones and drops the
// documents of files that are gone. A periodic full rescan catches what the
// events missed (an overflowing event queue asks for one at once).
//
// Symbolic links are followed, as a folder walk follows them. A watch
// follows a link to its target, so it hears neither the link's removal nor
// (once the link's folder is watched) its target's: the links on the way
// to a root, a linked root's target and a linked subfolder's target are
// watched through their parent folders, and their coming or going drops
// (or moves) the folder's watches and syncs, so its documents are pruned
// with that sync rather than at the next rescan.
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
	// Problems says why each of those files could not be read, and
	// Warnings what was read with a problem that lost nothing (front
	// matter kept as text), each "file: problem".
	Problems []string
	Warnings []string
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
	// injected: the tests hand the loop its events; the system's are
	// not read.
	injected bool
	ran      atomic.Bool

	// dirs are the folders watched, by their names under the roots, with
	// their real paths (links resolved); treeReal the other way round.
	dirs     map[string]string
	treeReal map[string]string
	ndirs    atomic.Int64
	// guards are the paths whose coming and going changes what a folder
	// of the tree holds, though no watch of the tree hears it: the
	// symbolic links on the way to a root (the root itself among them),
	// a linked root's target, and the target of a linked subfolder. Each
	// is kept by its parent folder's real path and its name, and maps to
	// the folder it stands for; it is heard through the watch of its
	// parent folder: a folder of the tree, or one watched for guards alone
	// (guardDirs, by real path). A root's guards last as long as the
	// watcher; a linked subfolder's go with it.
	guards    map[string]string
	guardDirs map[string]bool
	rootAbs   map[string]bool

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
	w := &Watcher{sync: sync, opts: opts, clock: opts.Clock, in: make(chan msg), done: make(chan struct{}), dirs: map[string]string{}, treeReal: map[string]string{},
		guards: map[string]string{}, guardDirs: map[string]bool{}, rootAbs: map[string]bool{}}
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
		w.rootAbs[abs] = true
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w.fw = fw
	for _, r := range w.roots {
		if r.file {
			err = w.addDir(filepath.Dir(r.abs), realPath(filepath.Dir(r.abs)))
		} else {
			err = w.addTree(r.abs, map[string]bool{})
			w.guardLinksAbove(r.abs)
		}
		if err != nil {
			fw.Close()
			return nil, err
		}
	}
	return w, nil
}

// guardLinksAbove guards the symbolic links on the way to a root, the
// root itself among them, and a linked root's target (/home/me/notes →
// /data/notes: removing or moving the link empties the root, yet the
// watch, which follows the link to /data/notes, hears nothing; and once
// the link's folder is watched, inotify no longer reports the target's own
// removal to the root's watch, but to the target's folder).
func (w *Watcher) guardLinksAbove(abs string) {
	for p := abs; p != filepath.Dir(p); p = filepath.Dir(p) {
		if isLink(p) {
			w.guard(p, abs)
		}
	}
	if real := realPath(abs); real != "" && real != abs {
		w.guard(real, abs)
	}
	w.settleGuards()
}

func isLink(p string) bool {
	info, err := os.Lstat(p)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// realPath is p with its links resolved ("" when that fails).
func realPath(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return r
}

// guard makes the coming and going of path g stand for folder of the
// tree. It is kept by its parent folder's real path (settleGuards watches
// that folder when no folder of the tree is it).
func (w *Watcher) guard(g, folder string) {
	parent := realPath(filepath.Dir(g))
	if parent == "" || w.skipped(g) {
		return
	}
	w.guards[filepath.Join(parent, filepath.Base(g))] = folder
}

// guardOf is the folder an event's path stands for, when it is guarded:
// the event names it under its folder's watch, a folder of the tree (by
// its name there) or a folder watched for guards (by its real path).
func (w *Watcher) guardOf(name string) (string, bool) {
	parent := filepath.Dir(name)
	if real, ok := w.dirs[parent]; ok {
		parent = real
	}
	f, ok := w.guards[filepath.Join(parent, filepath.Base(name))]
	return f, ok
}

// settleGuards watches, by its real path, each folder that holds a guard
// and is no folder of the tree, and stops watching those that hold none
// any more.
func (w *Watcher) settleGuards() {
	needed := map[string]bool{}
	for g := range w.guards {
		needed[filepath.Dir(g)] = true
	}
	for d := range needed {
		if _, tree := w.treeReal[d]; tree || w.guardDirs[d] {
			continue
		}
		if err := w.fw.Add(d); err == nil {
			w.guardDirs[d] = true
		}
	}
	for d := range w.guardDirs {
		if !needed[d] {
			_ = w.fw.Remove(d)
			delete(w.guardDirs, d)
		}
	}
}

// dropTree stops watching folder and what is under it (gone, moved, or
// about to be watched again), with the guards of the linked folders
// under it; the guards of roots stay.
func (w *Watcher) dropTree(folder string) {
	prefix := folder + string(filepath.Separator)
	for d, real := range w.dirs {
		if d == folder || strings.HasPrefix(d, prefix) {
			_ = w.fw.Remove(d)
			delete(w.dirs, d)
			if w.treeReal[real] == d {
				delete(w.treeReal, real)
			}
		}
	}
	w.ndirs.Store(int64(len(w.dirs)))
	for g, f := range w.guards {
		if !w.rootAbs[f] && (f == folder || strings.HasPrefix(f, prefix)) {
			delete(w.guards, g)
		}
	}
	w.settleGuards()
}

// rewatch watches folder afresh: what was watched under it is dropped,
// and, when it is a folder now, it is watched again — wherever its link
// points now.
func (w *Watcher) rewatch(folder string) error {
	w.dropTree(folder)
	if info, err := os.Stat(folder); err == nil && info.IsDir() {
		if err := w.addTree(folder, map[string]bool{}); err != nil {
			return err
		}
	}
	if w.rootAbs[folder] {
		w.guardLinksAbove(folder)
	}
	return nil
}

// Dirs is how many folders are watched.
func (w *Watcher) Dirs() int { return int(w.ndirs.Load()) }

// Roots are the roots as given.
func (w *Watcher) Roots() []string { return append([]string(nil), w.given...) }

// addDir watches folder abs, whose real path is real.
func (w *Watcher) addDir(abs, real string) error {
	if _, ok := w.dirs[abs]; ok {
		return nil
	}
	if real == "" {
		real = abs
	}
	if w.guardDirs[real] {
		// Watched for guards, under its real path: inotify watches a
		// folder once, so the tree's watch, under its name here, takes
		// its place.
		_ = w.fw.Remove(real)
		delete(w.guardDirs, real)
	}
	if err := w.fw.Add(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone already; the sync sees it gone
		}
		return fmt.Errorf("watch %s: %w", abs, err)
	}
	w.dirs[abs] = real
	if _, ok := w.treeReal[real]; !ok {
		w.treeReal[real] = abs
	}
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
	real := realPath(abs)
	if real == "" {
		real = abs
	}
	if seen[real] {
		return nil
	}
	seen[real] = true
	if err := w.addDir(abs, real); err != nil {
		return err
	}
	if real != abs && isLink(abs) && !w.rootAbs[abs] {
		// A linked subfolder: the watch of the folder that holds the link
		// hears it come and go, but inotify reports its target's removal
		// to the target's folder, which no watch covers.
		w.guard(real, abs)
		w.settleGuards()
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
	if _, ok := w.guardOf(ev.Name); ok && (ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) {
		return true
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
	if _, ok := ingest.FormatOf(ev.Name); ok {
		return true
	}
	if _, ok := w.dirs[ev.Name]; ok {
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
		if w.injected {
			return
		}
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
					w.guardLinksAbove(r.abs)
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
	_, watched := w.dirs[ev.Name]
	switch folder, guarded := w.guardOf(ev.Name); {
	case guarded:
		// A link to a watched folder, or its target, came or went: what
		// the folder holds is now elsewhere, or nowhere. Its documents go
		// (or change) with this sync, not the next rescan.
		if err := w.rewatch(folder); err != nil {
			w.emit(Status{State: Failed, Err: err})
		}
	case ev.Has(fsnotify.Create):
		// A new folder, or a link put in place of one (a link pointed
		// elsewhere): watched afresh.
		if info, err := os.Stat(ev.Name); err == nil && info.IsDir() {
			if err := w.rewatch(ev.Name); err != nil {
				w.emit(Status{State: Failed, Err: err})
			}
		}
	case (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && watched:
		w.dropTree(ev.Name)
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
