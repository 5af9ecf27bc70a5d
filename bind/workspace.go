package bind

import (
	"context"
	"fmt"

	"github.com/loomwork/loom/backend"
)

// The workspace itself: how it opened (writable, read-only and why, or
// not at all and why), opening it again, and the doctor and repair the
// page offers. Every change of the open workspace happens under
// benchMu's write lock, so no call is using the workspace it closes.

// WorkspaceState is the open workspace as the page's header and banner
// show it.
type WorkspaceState struct {
	Dir   string        `json:"dir"`
	Stats backend.Stats `json:"stats"`
	// ReadOnly is set when the workspace is open read-only: questions
	// work, nothing can be added or changed.
	ReadOnly *ReadOnlyState `json:"read_only,omitempty"`
}

// ReadOnlyState says why the workspace is open read-only and what to do.
type ReadOnlyState struct {
	// Reason is the engine's reason (backend.Stats.ReadOnly).
	Reason string `json:"reason"`
	// InUse: another Loom process holds the workspace; it may let go,
	// so Reopen can make it writable.
	InUse bool `json:"in_use"`
	// Title is a short form for tooltips ("Read-only: another Loom
	// process is using this workspace").
	Title string `json:"title"`
	// Message is the banner's sentence: why, what it means, what to do.
	Message string `json:"message"`
}

const readOnlyMeans = " — questions work; nothing you add or change here is saved."

// readOnlyState turns the engine's reason and its cause into what the page
// shows.
func readOnlyState(reason string, cause backend.ReadOnlyCause) *ReadOnlyState {
	if reason == "" {
		return nil
	}
	s := &ReadOnlyState{Reason: reason}
	switch cause {
	case backend.ReadOnlyInUse:
		s.InUse = true
		s.Title = "Read-only: another Loom process is using this workspace"
		s.Message = s.Title + readOnlyMeans + " Close the other one (a window, loom watch or an ingest), then press Try again to edit."
	case backend.ReadOnlyFileSystem:
		s.Title = "Read-only: the workspace's folder is on a read-only file system"
		s.Message = s.Title + readOnlyMeans + " Copy the folder to a writable disk and set " + WorkspaceEnv + " to it, or remount the disk, then press Try again."
	case backend.ReadOnlyPermission:
		s.Title = "Read-only: Loom may not write the workspace's files (permission denied)"
		s.Message = s.Title + readOnlyMeans + " Give your user write permission on the folder, then press Try again."
	default:
		s.Title = "Read-only: " + reason
		s.Message = s.Title + readOnlyMeans
	}
	return s
}

// Workspace says which workspace is open and how; it fails with the open's
// error when the workspace did not open (a damaged one's payload names the
// damaged file).
func (a *App) Workspace() (*WorkspaceState, error) {
	var st *WorkspaceState
	err := a.use(func(ws workspace) error {
		stats, err := ws.Stats(a.ctx)
		if err != nil {
			return err
		}
		st = &WorkspaceState{Dir: a.dir, Stats: stats, ReadOnly: readOnlyState(stats.ReadOnly, stats.ReadOnlyCause)}
		return nil
	})
	return st, err
}

// Reopen closes the workspace and opens it again: the banner's "Try again"
// once another Loom process has let go of it (a read-only workspace comes
// back writable), and the way out of a failed open once its cause is gone.
func (a *App) Reopen() (*WorkspaceState, error) {
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	if err := a.change(func(ctx context.Context) error {
		a.closeLocked(ctx)
		a.openLocked(ctx)
		return nil
	}); err != nil {
		return nil, err
	}
	return a.Workspace()
}

// CheckWorkspace runs the doctor (backend.Doctor) over the workspace's
// folder: every part is checked and nothing is written, so it also works
// on a workspace that did not open. A workspace this window holds for
// writing is closed for the check and opened again after it: the doctor
// reads the store's files itself and would find them held — by this very
// process — and report another Loom process.
func (a *App) CheckWorkspace() (*backend.Checkup, error) {
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	var c *backend.Checkup
	err := a.change(func(ctx context.Context) error {
		held := a.holdsForWriting(ctx)
		if held {
			a.closeLocked(ctx)
			defer a.openLocked(ctx)
		}
		var err error
		c, err = a.doctor(ctx, a.dir)
		return err
	})
	return c, err
}

// RepairWorkspace mends the workspace (backend.Repair with the options
// it is opened with): in place when its graph store is sound, else by
// salvaging what can be read into a fresh workspace that takes the
// folder's place, the damaged one kept beside it as <folder>.damaged-N.
// The workspace is then opened again; the report says what was done, what
// was lost and where the damaged copy is.
func (a *App) RepairWorkspace() (*backend.RepairReport, error) {
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	var rep *backend.RepairReport
	err := a.change(func(ctx context.Context) error {
		// The repair would find the store held and fail the same way,
		// after closing the workspace this window reads.
		if st := a.readOnlyLocked(ctx); st != nil && st.InUse {
			return &Error{Code: CodeInUse, Message: "Loom cannot repair the workspace while another Loom process is using it: close the other one, press Try again, then repair."}
		}
		a.closeLocked(ctx)
		defer a.openLocked(ctx)
		var err error
		rep, err = a.repair(ctx, a.dir)
		return err
	})
	return rep, err
}

// change runs f with the workspace held by no call (benchMu's write lock),
// unless there is no folder or Loom is shutting down. An ingest or a chat
// holds the workspace for as long as it runs (minutes, for an answer that
// waits on Ollama), and while change waited for it every other call would
// wait behind change: so they are refused instead, with what to do.
func (a *App) change(f func(ctx context.Context) error) error {
	a.jobs.mu.Lock()
	a.stopUpgradeLocked(false) // it starts again once the workspace opens
	a.jobs.mu.Unlock()
	if what := a.jobs.running(); what != "" {
		return &Error{Code: CodeBusy, Message: "Wait for " + what + " to finish (or stop it) first: this closes the workspace for a moment."}
	}
	a.benchMu.Lock()
	defer a.benchMu.Unlock()
	select {
	case <-a.stopping:
		return closedError()
	default:
	}
	if a.dir == "" {
		return a.openErr
	}
	return f(a.ctx)
}

// holdsForWriting tells whether this window has the workspace open for
// writing (and so holds its store). Callers hold benchMu.
func (a *App) holdsForWriting(ctx context.Context) bool {
	if a.bench == nil {
		return false
	}
	st, err := a.bench.Stats(ctx)
	return err == nil && st.ReadOnly == ""
}

// readOnlyLocked is the open workspace's read-only state (nil when it is
// writable or not open). Callers hold benchMu.
func (a *App) readOnlyLocked(ctx context.Context) *ReadOnlyState {
	if a.bench == nil {
		return nil
	}
	st, err := a.bench.Stats(ctx)
	if err != nil {
		return nil
	}
	return readOnlyState(st.ReadOnly, st.ReadOnlyCause)
}

// openLocked opens the workspace in a.dir, keeping the engine's error for
// the calls that follow (damaged, in use, …: the page switches on its
// code). Callers hold benchMu's write lock.
func (a *App) openLocked(ctx context.Context) {
	bench, err := a.open(ctx, a.dir)
	if err != nil {
		a.bench, a.openErr = nil, err
		// The engine's error names the workspace; scripts/e2e-desktop.sh
		// waits for "did not open it" (or "opened workspace") in the log.
		a.shell.LogError(ctx, fmt.Sprintf("%v; Loom did not open it", err))
		a.mcpOpened()
		return
	}
	a.bench, a.openErr = bench, nil
	defer a.startWatchesLocked(ctx)
	defer a.upgradeLater() // a re-embed left to do (upgrade.go)
	if st, err := bench.Stats(ctx); err == nil && st.ReadOnly != "" {
		a.shell.LogInfo(ctx, "opened workspace "+a.dir+" read-only: "+st.ReadOnly)
	} else {
		a.shell.LogInfo(ctx, "opened workspace "+a.dir)
	}
	a.mcpOpened()
}

// closeLocked closes the open workspace, if any. Callers hold benchMu's
// write lock.
func (a *App) closeLocked(ctx context.Context) {
	a.mcpClosing() // before the workspace it serves closes
	a.stopWatchesLocked()
	if a.bench == nil {
		return
	}
	if err := a.bench.Close(); err != nil {
		a.shell.LogError(ctx, fmt.Sprintf("close workspace %s: %v", a.dir, err))
	}
	a.bench = nil
}
