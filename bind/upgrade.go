package bind

import (
	"context"
	"errors"
	"strings"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/embed"
)

// A new workspace in the desktop app starts on the offline table
// (backend.Config.StartOnTable), so that the first files dropped on it are
// searchable seconds later instead of after minutes of the full encoder's
// work (about 30 ms a section); the full MiniLM encoder then re-embeds it in
// the background, questions going on meanwhile on the table's vectors, and
// takes over when it is done. The workspace folder holds the re-embed
// still to do (backend.PendingReembedFile), so that one interrupted by
// quitting goes on at the next start, with the vectors it had made.
//
// The background re-embed starts once the workspace holds files and no
// ingest or other re-embed runs: when the workspace opens and after each
// ingest. An ingest, a re-embed the person asks for, a check or a repair
// stop it (what it made is kept); it starts again after an ingest, a check
// or a repair. Cancelling it (the page's Cancel) keeps the workspace on the
// table: the page offers the full encoder again.

// upgradeRun is the background re-embed while it runs.
type upgradeRun struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once it has stopped and let go of jobs
}

// startedOnTable records that the new workspace in dir started on the
// table and is to be re-embedded with target.
func (a *App) startedOnTable(dir, target string) {
	if err := backend.SetPendingReembed(dir, target); err != nil {
		a.shell.LogError(a.ctx, "embedder: the workspace started on the offline table, but Loom could not note that the full encoder is to re-embed it: "+err.Error())
	}
}

// clearPending forgets the background re-embed still to do.
func (a *App) clearPending() {
	if err := backend.ClearPendingReembed(a.dir); err != nil {
		a.shell.LogError(a.ctx, "embedder: "+err.Error())
	}
}

// stopUpgradeLocked stops the background re-embed, if one runs, and waits
// until it has let go of the workspace; declined (the person chose: a
// re-embed of their own, or Cancel) forgets it too, else it starts again
// later. It lets go of jobs.mu while it waits. Callers hold jobs.mu.
func (a *App) stopUpgradeLocked(declined bool) {
	for a.jobs.auto != nil {
		run := a.jobs.auto
		if declined {
			a.clearPending()
		}
		run.cancel()
		a.jobs.mu.Unlock()
		<-run.done
		a.jobs.mu.Lock()
	}
}

// upgradeLater starts the background re-embed when one is still to do and
// nothing else holds the workspace's writes.
func (a *App) upgradeLater() {
	if a.web || a.dir == "" {
		return
	}
	target := backend.PendingReembed(a.dir)
	if target == "" {
		return
	}
	a.jobs.mu.Lock()
	defer a.jobs.mu.Unlock()
	select {
	case <-a.stopping:
		return
	default:
	}
	if a.jobs.ingest != nil || a.jobs.reembed != nil {
		return
	}
	ctx, cancel := context.WithCancel(a.ctx)
	run := &upgradeRun{cancel: cancel, done: make(chan struct{})}
	a.jobs.auto, a.jobs.reembed = run, cancel
	go a.upgrade(ctx, run, target)
}

// upgrade runs the background re-embed with target.
func (a *App) upgrade(ctx context.Context, run *upgradeRun, target string) {
	defer func() {
		run.cancel()
		a.jobs.mu.Lock()
		if a.jobs.auto == run {
			a.jobs.auto, a.jobs.reembed = nil, nil
		}
		a.jobs.mu.Unlock()
		close(run.done)
	}()
	ran := false
	err := a.use(func(ws workspace) error {
		st, err := ws.Stats(ctx)
		if err != nil {
			return err
		}
		switch {
		case st.ReadOnly != "", st.Documents == 0:
			return nil // another process writes it, or nothing to re-embed yet
		case st.Embedder != "" && !strings.HasPrefix(st.Embedder, embed.OfflinePrefix):
			a.clearPending() // re-embedded with another since
			return nil
		}
		ran = true
		a.shell.LogInfo(a.ctx, "embedder: re-embedding the workspace with "+target+" in the background")
		_, err = a.runReembed(ctx, ws, target, true)
		return err
	})
	var app *Error
	switch {
	case !ran:
		// Not started (nothing to re-embed yet, or the workspace closed
		// first): it goes on later.
	case err == nil: // runReembed forgot it
		a.shell.LogInfo(a.ctx, "embedder: the workspace is re-embedded with "+target)
	case errors.As(err, &app) && app.Code == CodeCanceled, ctx.Err() != nil:
		// Stopped: it goes on later (or was declined).
	default:
		// The page has the error (the progress event's); the full encoder
		// stays on offer.
		a.clearPending()
		a.shell.LogError(a.ctx, "embedder: the background re-embed with "+target+" failed: "+err.Error())
	}
}
