package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/watch"
)

// cmdWatch is `loom watch`: ingest the paths, then keep the workspace in
// step with them until interrupted.
func cmdWatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("watch", stderr)
	var ws workspaceFlags
	ws.register(fs)
	var wo watchOptions
	wo.register(fs)
	quiet := fs.Duration("quiet", watch.DefaultQuiet, "sync once the files have been left unwritten this long")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usageErr("watch: give at least one folder (or file) to watch")
	}
	wo.quiet = *quiet
	return watchPaths(ctx, &ws, paths, wo, stdout, stderr)
}

// watchOptions are the flags `loom watch` and `loom ingest --watch` share.
type watchOptions struct {
	rescan time.Duration
	quiet  time.Duration
	batch  int
}

func (o *watchOptions) register(fs *flag.FlagSet) {
	fs.DurationVar(&o.rescan, "rescan", watch.DefaultRescan, "also re-read the folders this often, for changes the file events missed (0: never)")
}

// watchSynced, when set (by tests), is told each state of each watcher,
// with the workbench the watch writes to.
var watchSynced func(*backend.Workbench, watch.Status)

// syncWriter serialises the lines of several watchers.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// watchPaths sets up the watches, ingests the paths (with Prune), then
// re-ingests each path whose files change until ctx is done. The watches
// come first, so nothing written during the first ingest is missed.
func watchPaths(ctx context.Context, ws *workspaceFlags, paths []string, o watchOptions, stdout, stderr io.Writer) error {
	stderr = &syncWriter{w: stderr}
	if o.rescan == 0 {
		o.rescan = -1
	} else if o.rescan < 0 {
		return usageErr("watch: --rescan must not be negative")
	}
	if o.quiet < 0 {
		return usageErr("watch: --quiet must not be negative")
	}
	wb, err := ws.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer wb.Close()

	start := time.Now()
	var watchers []*watch.Watcher
	defer func() {
		for _, w := range watchers {
			w.Close()
		}
	}()
	dirs := 0
	for _, p := range paths {
		shown := showPath(p)
		w, err := watch.New([]string{p}, watchSync(wb, o.batch, stderr), watch.Options{Quiet: o.quiet, Rescan: o.rescan, Skip: []string{wb.Dir()}, OnState: func(st watch.Status) {
			printWatchState(stderr, shown, st)
			if watchSynced != nil {
				watchSynced(wb, st)
			}
		}})
		if err != nil {
			return &exitError{2, err}
		}
		watchers = append(watchers, w)
		dirs += w.Dirs()
	}
	fmt.Fprintf(stderr, "watching %d %s (%d %s) — set up in %s\n", len(paths), plural(len(paths), "path", "paths"),
		dirs, plural(dirs, "folder", "folders"), time.Since(start).Round(10*time.Microsecond))

	bar := newProgressBar(stderr, false)
	rep, err := wb.Ingest(ctx, paths, backend.IngestOptions{Prune: true, Progress: bar.update, BatchQuads: o.batch})
	bar.done()
	if err != nil {
		return &exitError{2, err}
	}
	for _, e := range rep.Errors {
		fmt.Fprintln(stderr, "error:", e)
	}
	for _, wn := range rep.Warnings {
		fmt.Fprintln(stderr, "warning:", wn)
	}
	printLeftOut(stderr, rep)
	fmt.Fprintf(stdout, "ingested %d files in %s: %d added, %d updated, %d unchanged, %d removed; %d errors\n",
		rep.Files, rep.Duration.Round(time.Millisecond), rep.Added, rep.Updated, rep.Unchanged, rep.Removed, len(rep.Errors))
	if ctx.Err() != nil {
		return nil
	}
	fmt.Fprintln(stderr, "watching for changes; interrupt (Ctrl-C) to stop")

	var wg sync.WaitGroup
	for _, w := range watchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = w.Run(ctx)
		}()
	}
	wg.Wait()
	return nil
}

// watchSync is loom watch's sync: an incremental ingest of the roots with
// Prune (unchanged files skipped, changed ones read again, the documents
// of files that are gone removed); the files it could not read are said
// on stderr.
func watchSync(wb *backend.Workbench, batch int, stderr io.Writer) watch.SyncFunc {
	return func(ctx context.Context, roots []string) (watch.Result, error) {
		rep, err := wb.Ingest(ctx, roots, backend.IngestOptions{Prune: true, BatchQuads: batch})
		if err != nil {
			return watch.Result{}, err
		}
		for _, e := range rep.Errors {
			fmt.Fprintln(stderr, "error:", e)
		}
		for _, wn := range rep.Warnings {
			fmt.Fprintln(stderr, "warning:", wn)
		}
		return backend.SyncResult(rep), nil
	}
}

// showPath is a path as given, a folder's with a trailing slash.
func showPath(p string) string {
	if info, err := os.Stat(p); err == nil && info.IsDir() && !strings.HasSuffix(p, string(filepath.Separator)) {
		return p + string(filepath.Separator)
	}
	return p
}

// printWatchState prints one line per sync (and per problem):
//
//	synced notes/: 1 changed, 0 added, 1 removed (0.2 s)
func printWatchState(w io.Writer, shown string, st watch.Status) {
	switch st.State {
	case watch.Synced:
		r := st.Result
		line := fmt.Sprintf("synced %s: %d changed, %d added, %d removed", shown, r.Changed, r.Added, r.Removed)
		if r.Errors > 0 {
			line += fmt.Sprintf(", %d %s", r.Errors, plural(r.Errors, "error", "errors"))
		}
		if st.Reason == watch.ReasonRescan || st.Reason == watch.ReasonOverflow {
			line += " [" + st.Reason + "]"
		}
		fmt.Fprintf(w, "%s (%.1f s)\n", line, st.Took.Seconds())
	case watch.Failed:
		fmt.Fprintf(w, "watch %s: %v\n", shown, st.Err)
	}
}
