package workspace

import (
	"time"

	"github.com/loomwork/loom/backend/storage"
)

// Hooks let a test see and drive what the workspace does beside the
// caller; a nil field is the real thing.
type Hooks struct {
	// AfterFunc schedules the background persist of access times and
	// summaries (time.AfterFunc): a test runs it when it chooses.
	AfterFunc func(d time.Duration, f func())
	// BeforeBackgroundCommit runs as the background persist's commit
	// starts, without the workspace's lock.
	BeforeBackgroundCommit func()
	// WaitingForStore runs as a write or Close is about to wait for the
	// graph store's lock.
	WaitingForStore func()
	// Sync makes written files durable before a commit names them
	// (storage.Sync).
	Sync func(dir string, paths []string) error
}

// WithHooks sets the hooks.
func WithHooks(h Hooks) Option { return func(c *config) { c.hooks = h } }

func (h Hooks) afterFunc(d time.Duration, f func()) {
	if h.AfterFunc != nil {
		h.AfterFunc(d, f)
		return
	}
	time.AfterFunc(d, f)
}

func (h Hooks) beforeBackgroundCommit() {
	if h.BeforeBackgroundCommit != nil {
		h.BeforeBackgroundCommit()
	}
}

func (h Hooks) waitingForStore() {
	if h.WaitingForStore != nil {
		h.WaitingForStore()
	}
}

// Sync makes files written under the workspace durable before the graph
// transaction that names them commits.
func (w *Workspace) Sync(paths []string) error {
	if w.cfg.hooks.Sync != nil {
		return w.cfg.hooks.Sync(w.dir, paths)
	}
	return storage.Sync(w.dir, paths)
}
