package bind

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/watch"
)

// Live folders (desktop only): library folders the app keeps in step with
// their files. The list is the workspace's (<workspace>/watched.json,
// watch.ListFile); a watch.Watcher runs for each while the workspace is
// open for writing and syncs through the same workbench as the page's
// calls — an incremental ingest with Prune, under benchMu's read lock like
// any call, so Reopen, the doctor and Shutdown wait for a sync in flight
// and the engine's write lock keeps a sync and a user's ingest one after
// the other. Each state change goes to the page as a watch:state event.

// EventWatchState carries a WatchedFolder each time a watched folder's
// state changes.
const EventWatchState = "watch:state"

// FolderState is what the watch of a folder is doing.
type FolderState string

// The states of a watched folder.
const (
	// FolderWatching: waiting for changes.
	FolderWatching FolderState = "watching"
	// FolderSyncing: a sync is running.
	FolderSyncing FolderState = "syncing"
	// FolderSynced: the last sync finished (the counts say what it did).
	FolderSynced FolderState = "synced"
	// FolderError: the last sync failed, or the folder cannot be watched
	// (Error says why); the watch goes on when it can.
	FolderError FolderState = "error"
	// FolderStopped: the folder is no longer watched (UnwatchFolder).
	FolderStopped FolderState = "stopped"
)

// WatchedFolder is one watched folder as the library's sidebar shows it.
type WatchedFolder struct {
	Path  string      `json:"path"`
	State FolderState `json:"state"`
	// Since is when the state began.
	Since time.Time `json:"since"`
	// LastSync is when the last sync finished (absent before the first).
	LastSync *time.Time `json:"last_sync,omitempty"`
	// What the last sync did, in files.
	Added     int `json:"added"`
	Changed   int `json:"changed"`
	Removed   int `json:"removed"`
	Unchanged int `json:"unchanged"`
	// Errors counts the files the last sync could not read; Problems says
	// why for the first maxFolderNotes of them, and Warnings what it read
	// with a problem that lost nothing (front matter kept as text).
	Errors   int           `json:"errors"`
	Problems []FileProblem `json:"problems,omitempty"`
	Warnings []FileProblem `json:"warnings,omitempty"`
	// Error is why the state is error.
	Error string `json:"error,omitempty"`
	// While syncing: the files read so far of those to read, and the one
	// being read (named within the folder); in the embedding stage the
	// counts are of the files being embedded.
	FilesDone  int    `json:"files_done,omitempty"`
	FilesTotal int    `json:"files_total,omitempty"`
	Current    string `json:"current,omitempty"`
	Stage      string `json:"stage,omitempty"`
}

// folderWatch is one watched folder and its watcher, if it runs.
type folderWatch struct {
	status    WatchedFolder
	w         *watch.Watcher
	cancel    context.CancelFunc
	done      chan struct{}
	unwatched bool
	// shown is when the sync's progress was last sent to the page.
	shown time.Time
}

// watches are the App's watched folders.
type watches struct {
	mu      sync.Mutex
	folders []*folderWatch // in the order they were added
	// running counts the watchers' goroutines (Shutdown waits for them).
	running sync.WaitGroup
	// opts are the watchers' options (tests shorten the quiet period).
	opts watch.Options
}

func (ws *watches) find(path string) *folderWatch {
	for _, f := range ws.folders {
		if f.status.Path == path {
			return f
		}
	}
	return nil
}

func (ws *watches) paths() []string {
	out := make([]string, len(ws.folders))
	for i, f := range ws.folders {
		out[i] = f.status.Path
	}
	return out
}

func (a *App) noWatchInWeb() error {
	if a.web {
		return &Error{Code: CodeInvalid, Message: "The web edition cannot watch folders: it reads only the files you give it."}
	}
	return nil
}

// WatchedFolders lists the watched folders with their states.
func (a *App) WatchedFolders() ([]WatchedFolder, error) {
	out := []WatchedFolder{}
	if a.web {
		return out, nil
	}
	if err := a.waitReady(); err != nil {
		return out, err
	}
	a.watches.mu.Lock()
	defer a.watches.mu.Unlock()
	for _, f := range a.watches.folders {
		out = append(out, f.status)
	}
	return out, nil
}

// WatchFolder keeps a folder of the library in step with its files: it
// syncs it now (an ingest that skips what has not changed) and again each
// time its files change, until UnwatchFolder. The workspace remembers it.
func (a *App) WatchFolder(path string) (*WatchedFolder, error) {
	if err := a.noWatchInWeb(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil || path == "" {
		return nil, &Error{Code: CodeInvalid, Message: "Name a folder to watch.", Err: err}
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, &Error{Code: CodeNotFound, Message: abs + " could not be read, so Loom cannot watch it.", Err: err}
	}
	if !info.IsDir() {
		return nil, &Error{Code: CodeInvalid, Message: abs + " is a file: Loom watches folders."}
	}
	var st WatchedFolder
	err = a.use(func(ws workspace) error {
		stats, err := ws.Stats(a.ctx)
		if err != nil {
			return err
		}
		if stats.ReadOnly != "" {
			return &Error{Code: CodeReadOnly, Message: "The workspace is open read-only (" + stats.ReadOnly + "): Loom cannot keep a folder in it."}
		}
		a.watches.mu.Lock()
		defer a.watches.mu.Unlock()
		if f := a.watches.find(abs); f != nil {
			st = f.status
			return nil
		}
		if err := watch.WriteList(a.dir, append(a.watches.paths(), abs)); err != nil {
			return &Error{Code: CodeInternal, Message: "Loom could not save the list of watched folders.", Err: err}
		}
		f := &folderWatch{status: WatchedFolder{Path: abs, State: FolderWatching, Since: time.Now()}}
		a.watches.folders = append(a.watches.folders, f)
		a.startWatchLocked(f)
		st = f.status
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// UnwatchFolder stops watching a folder; its documents stay. The page
// hears a last watch:state, stopped.
func (a *App) UnwatchFolder(path string) error {
	if err := a.noWatchInWeb(); err != nil {
		return err
	}
	if err := a.waitReady(); err != nil {
		return err
	}
	abs, _ := filepath.Abs(path)
	a.watches.mu.Lock()
	f := a.watches.find(abs)
	if f == nil {
		a.watches.mu.Unlock()
		return &Error{Code: CodeNotFound, Message: abs + " is not watched."}
	}
	rest := slices.DeleteFunc(slices.Clone(a.watches.folders), func(g *folderWatch) bool { return g == f })
	paths := make([]string, len(rest))
	for i, g := range rest {
		paths[i] = g.status.Path
	}
	if err := watch.WriteList(a.dir, paths); err != nil {
		a.watches.mu.Unlock()
		return &Error{Code: CodeInternal, Message: "Loom could not save the list of watched folders.", Err: err}
	}
	a.watches.folders = rest
	f.unwatched = true
	cancel, done := f.cancel, f.done
	f.cancel = nil
	a.watches.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done // the sync in flight ends first
	}
	st := f.status
	st.State, st.Since, st.Error = FolderStopped, time.Now(), ""
	a.shell.Emit(a.ctx, EventWatchState, st)
	return nil
}

// SyncFolder syncs a watched folder now ("Sync now"); a folder that
// could not be watched (gone, say) is tried again. The result comes as
// watch:state events.
func (a *App) SyncFolder(path string) error {
	if err := a.noWatchInWeb(); err != nil {
		return err
	}
	return a.use(func(ws workspace) error {
		abs, _ := filepath.Abs(path)
		a.watches.mu.Lock()
		defer a.watches.mu.Unlock()
		f := a.watches.find(abs)
		if f == nil {
			return &Error{Code: CodeNotFound, Message: abs + " is not watched."}
		}
		if f.w != nil && f.cancel != nil {
			f.w.Sync()
			return nil
		}
		if st := a.readOnlyLocked(a.ctx); st != nil {
			return &Error{Code: CodeReadOnly, Message: "The workspace is open read-only: Loom cannot sync folders into it."}
		}
		a.startWatchLocked(f)
		return nil
	})
}

// watchable are the folders among paths that WatchFolder would take and
// that are not watched yet (none in the web edition or on a workspace
// open read-only).
func (a *App) watchable(paths []string) []string {
	if a.web {
		return nil
	}
	if a.use(func(ws workspace) error {
		if st, err := ws.Stats(a.ctx); err != nil || st.ReadOnly != "" {
			return errors.New("read-only")
		}
		return nil
	}) != nil {
		return nil
	}
	a.watches.mu.Lock()
	defer a.watches.mu.Unlock()
	var out []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil || slices.Contains(out, abs) || a.watches.find(abs) != nil {
			continue
		}
		if info, err := os.Stat(abs); err == nil && info.IsDir() {
			out = append(out, abs)
		}
	}
	return out
}

// PickFolder asks the person for a folder to add (and watch); "" when
// they cancel.
func (a *App) PickFolder() (string, error) {
	if err := a.noWatchInWeb(); err != nil {
		return "", err
	}
	if err := a.waitReady(); err != nil {
		return "", err
	}
	path, err := a.shell.OpenFolder(a.ctx, "Add a folder to Loom")
	if err != nil {
		return "", &Error{Code: CodeShellFailed, Message: "The folder dialog failed.", Err: err}
	}
	return path, nil
}

// startWatchesLocked reads the workspace's list and starts a watcher for
// each folder, when the workspace is open for writing. Callers hold
// benchMu's write lock.
func (a *App) startWatchesLocked(ctx context.Context) {
	if a.web || a.bench == nil {
		return
	}
	// A damaged list gives the folders it still names (Check workspace
	// reports it, and a repair writes them back whole).
	folders, err := watch.ReadList(a.dir)
	if err != nil {
		a.shell.LogError(ctx, "watched folders: "+err.Error())
	}
	ro := a.readOnlyLocked(ctx)
	a.watches.mu.Lock()
	defer a.watches.mu.Unlock()
	a.watches.folders = nil
	for _, p := range folders {
		f := &folderWatch{status: WatchedFolder{Path: p, State: FolderWatching, Since: time.Now()}}
		a.watches.folders = append(a.watches.folders, f)
		if ro != nil {
			f.status.State, f.status.Error = FolderError, "Not watched: the workspace is open read-only ("+ro.Reason+")."
			continue
		}
		a.startWatchLocked(f)
	}
}

// stopWatchesLocked stops every watcher without waiting: a sync in flight
// waits for benchMu, then finds its context done and gives up. Callers
// hold benchMu's write lock.
func (a *App) stopWatchesLocked() {
	a.watches.mu.Lock()
	defer a.watches.mu.Unlock()
	for _, f := range a.watches.folders {
		if f.cancel != nil {
			f.cancel()
			f.cancel = nil
		}
	}
	a.watches.folders = nil
}

// startWatchLocked starts f's watcher, syncing the folder at once.
// Callers hold watches.mu.
func (a *App) startWatchLocked(f *folderWatch) {
	path := f.status.Path
	opts := a.watches.opts
	opts.InitialSync = true
	if a.dir != "" {
		opts.Skip = []string{a.dir}
	}
	var ctx context.Context
	opts.OnState = func(st watch.Status) {
		a.watches.mu.Lock()
		if ctx.Err() != nil { // stopped: a late state of a watch that is gone
			a.watches.mu.Unlock()
			return
		}
		f.status = folderStatus(f.status, st)
		out := f.status
		a.watches.mu.Unlock()
		a.shell.Emit(a.ctx, EventWatchState, out)
	}
	w, err := watch.New([]string{path}, a.syncFolder, opts)
	if err != nil {
		f.w = nil
		f.status.State, f.status.Since, f.status.Error = FolderError, time.Now(), "Not watched: "+err.Error()
		a.shell.Emit(a.ctx, EventWatchState, f.status)
		return
	}
	ctx, f.cancel = context.WithCancel(a.ctx)
	f.w, f.done = w, make(chan struct{})
	done := f.done
	a.watches.running.Add(1)
	go func() {
		defer a.watches.running.Done()
		defer close(done)
		_ = w.Run(ctx)
	}()
}

// syncFolder is the watchers' sync: an incremental ingest with Prune
// through the open workspace.
func (a *App) syncFolder(ctx context.Context, roots []string) (watch.Result, error) {
	var res watch.Result
	err := a.use(func(ws workspace) error {
		// Holding benchMu, the workspace is the one the watch started
		// with unless the watch was stopped.
		if err := ctx.Err(); err != nil {
			return err
		}
		rep, err := ws.Ingest(ctx, roots, backend.IngestOptions{Prune: true, Progress: func(p backend.Progress) { a.syncProgress(ctx, roots, p) }})
		if rep != nil {
			res = backend.SyncResult(rep)
		}
		return err
	})
	return res, err
}

// syncProgress puts a sync's progress in its folder's state: the files
// done of those to do, and the one being read.
func (a *App) syncProgress(ctx context.Context, roots []string, p backend.Progress) {
	if len(roots) != 1 || ctx.Err() != nil {
		return
	}
	a.watches.mu.Lock()
	var out *WatchedFolder
	for _, f := range a.watches.folders {
		if f.status.Path == roots[0] && f.cancel != nil {
			// The first, each stage's first and last, and one each
			// progressEvery: a rescan that reads a thousand unchanged
			// files sends a few.
			first := f.status.FilesTotal == 0
			if !first && p.Stage == f.status.Stage && p.FilesDone < p.FilesTotal && time.Since(f.shown) < progressEvery {
				break
			}
			f.shown = time.Now()
			f.status.State = FolderSyncing
			f.status.FilesDone, f.status.FilesTotal, f.status.Stage = p.FilesDone, p.FilesTotal, p.Stage
			f.status.Current = ""
			if p.Current != "" {
				f.status.Current = inFolder(f.status.Path, p.Current)
			}
			st := f.status
			out = &st
			break
		}
	}
	a.watches.mu.Unlock()
	if out != nil {
		a.shell.Emit(a.ctx, EventWatchState, *out)
	}
}

// progressEvery is how often at most a sync's progress goes to the page.
const progressEvery = 100 * time.Millisecond

// maxFolderNotes bounds the problems and the warnings a folder's state
// carries (Errors counts them all): the page lists them under the folder.
const maxFolderNotes = 20

// fileNotes splits the first maxFolderNotes of notes, each "file: problem",
// into their files, named within folder, and problems (nil for none).
func fileNotes(folder string, notes []string) []FileProblem {
	var out []FileProblem
	for _, n := range notes[:min(len(notes), maxFolderNotes)] {
		f := fileNote(n)
		f.Path = inFolder(folder, f.Path)
		out = append(out, f)
	}
	return out
}

// inFolder names an absolute path under folder within it; other paths as
// they are.
func inFolder(folder, path string) string {
	if rel, err := filepath.Rel(folder, path); err == nil && filepath.IsAbs(path) && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// folderStatus is the folder's state after a watcher's status.
func folderStatus(prev WatchedFolder, st watch.Status) WatchedFolder {
	out := prev
	out.Since = st.At
	out.Error = ""
	if st.State != watch.Syncing { // the progress of a sync that has ended
		out.FilesDone, out.FilesTotal, out.Current, out.Stage = 0, 0, "", ""
	}
	switch st.State {
	case watch.Watching:
		out.State = FolderWatching
	case watch.Syncing:
		out.State = FolderSyncing
	case watch.Synced:
		out.State = FolderSynced
		at := st.At
		out.LastSync = &at
		r := st.Result
		out.Added, out.Changed, out.Removed, out.Unchanged, out.Errors = r.Added, r.Changed, r.Removed, r.Unchanged, r.Errors
		out.Problems, out.Warnings = fileNotes(out.Path, r.Problems), fileNotes(out.Path, r.Warnings)
	case watch.Failed:
		out.State = FolderError
		if st.Err != nil {
			out.Error = st.Err.Error()
		}
	}
	return out
}
