package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/watch"
)

// `loom bench watch`: how long after a save in a watched folder of 10,000
// notes the workspace has the change. A folder of generated notes is
// ingested, then watched as `loom watch` watches it (the same watcher, the
// same sync: an incremental ingest with prune); each round one note is
// saved — written beside it under a hidden name, then renamed over it, as
// editors save atomically, so the watch hears one event — and the clock
// runs from the rename until the watcher reports the sync done (its Synced
// state: no sleeps, no polling). The quiet period the watcher waits for
// after the last write is part of the figure, so the rounds run twice:
// with --quiet (default 500 ms, loom watch's) and with a quiet period of
// 1 ns (the debounce left out; the watcher's timers are its Options').

// BenchWatchReport is what `loom bench watch --format json` prints.
type BenchWatchReport struct {
	BenchHost
	Notes   int `json:"notes"`
	Folders int `json:"folders"`
	Saves   int `json:"saves"`
	// IngestMS is the first ingest of the folder (every note added).
	IngestMS float64 `json:"ingest_ms"`
	// SetupMS is watch.New on the folder (one watch a folder); Watches
	// how many it set.
	SetupMS float64          `json:"setup_ms"`
	Watches int              `json:"watches"`
	Modes   []BenchWatchMode `json:"modes"`
	// Documents the workspace holds at the end (one a note).
	Documents int `json:"documents"`
}

// BenchWatchMode is the saves with one quiet period.
type BenchWatchMode struct {
	Quiet   string  `json:"quiet"`
	QuietMS float64 `json:"quiet_ms"`
	// Synced is from the save (the rename) to the sync reported done.
	Synced BenchLatency `json:"save_to_synced"`
	// Sync is the sync alone (the incremental ingest, as the watcher
	// timed it).
	Sync BenchLatency `json:"sync"`
}

// noDebounce is the quiet period of the rounds without the debounce: the
// sync starts as the save's event is handled.
const noDebounce = time.Nanosecond

func cmdBenchWatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench watch", stderr)
	notes := fs.Int("notes", 10000, "notes in the watched folder (one short section each)")
	folders := fs.Int("folders", 100, "subfolders they are spread over")
	saves := fs.Int("saves", 20, "saves timed per quiet period (each a different note)")
	quiet := fs.Duration("quiet", watch.DefaultQuiet, "the watcher's quiet period of the first rounds (loom watch's default); the second rounds use 1 ns")
	dir := fs.String("dir", "", "make the notes and the workspace in this folder (default: a temporary folder, removed)")
	format := fs.String("format", "text", "text or json")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("bench watch: unexpected argument %q", pos[0])
	}
	switch {
	case *format != "text" && *format != "json":
		return usageErr("bench watch: --format must be text or json, not %q", *format)
	case *notes < 1 || *notes > maxBenchNodes:
		return usageErr("bench watch: --notes must be 1 to %d, not %d", maxBenchNodes, *notes)
	case *folders < 1 || *folders > *notes:
		return usageErr("bench watch: --folders must be 1 to --notes (%d), not %d", *notes, *folders)
	case *saves < 1 || *saves > maxBenchQueries:
		return usageErr("bench watch: --saves must be 1 to %d, not %d", maxBenchQueries, *saves)
	case *quiet <= 0:
		return usageErr("bench watch: --quiet must be positive, e.g. 500ms")
	}
	root, done, err := benchRoot(*dir, "loom-bench-watch-*")
	if err != nil {
		return err
	}
	defer done()
	rep, err := runBenchWatch(ctx, root, *notes, *folders, *saves, []time.Duration{*quiet, noDebounce}, stderr)
	if err != nil {
		return err
	}
	return writeBench(stdout, *format, rep, printBenchWatch)
}

// notePath is note i of the generated folder.
func notePath(lib string, i, folders int) string {
	return filepath.Join(lib, fmt.Sprintf("folder-%03d", i%folders), fmt.Sprintf("note-%05d.md", i))
}

func runBenchWatch(ctx context.Context, root string, notes, folders, saves int, quiets []time.Duration, stderr io.Writer) (*BenchWatchReport, error) {
	rep := &BenchWatchReport{BenchHost: thisHost(),
		Notes: notes, Folders: folders, Saves: saves}
	lib, ws := filepath.Join(root, "notes"), filepath.Join(root, "ws")
	if err := os.RemoveAll(lib); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(ws); err != nil {
		return nil, err
	}
	for i := range notes {
		p := notePath(lib, i, folders)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		text := fmt.Sprintf("# Note %d\n\nThis note %d is about topic %d and links the budget, the window and the staleness of note %d.\n", i, i, i%37, (i*7)%notes)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	e, threshold, err := benchEmbedder("offline")
	if err != nil {
		return nil, err
	}
	wb, err := backend.New(ctx, backend.Config{Dir: ws, Options: []backend.Option{backend.WithEmbedder(e), backend.WithConceptThreshold(threshold)}})
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	fmt.Fprintf(stderr, "bench watch: ingesting %d notes …\n", notes)
	t := time.Now()
	ir, err := wb.Ingest(ctx, []string{lib}, backend.IngestOptions{Prune: true})
	if err != nil {
		return nil, err
	}
	if ir.Added != notes {
		return nil, fmt.Errorf("bench watch: the first ingest added %d notes of %d (%d errors)", ir.Added, notes, len(ir.Errors))
	}
	rep.IngestMS = round2(ms(time.Since(t)))

	save := 0
	for _, q := range quiets {
		fmt.Fprintf(stderr, "bench watch: %d saves, quiet period %s …\n", saves, q)
		mode := BenchWatchMode{Quiet: q.String(), QuietMS: round2(ms(q))}
		states := make(chan watch.Status, 64)
		t := time.Now()
		w, err := watch.New([]string{lib}, watchSync(wb, 0, stderr), watch.Options{Quiet: q, Rescan: -1, Skip: []string{ws},
			OnState: func(st watch.Status) { states <- st }})
		if err != nil {
			return nil, err
		}
		rep.SetupMS, rep.Watches = round2(ms(time.Since(t))), w.Dirs()
		wctx, stop := context.WithCancel(ctx)
		ended := make(chan error, 1)
		go func() { ended <- w.Run(wctx) }()
		lat, took, err := benchSaves(ctx, lib, notes, folders, saves, &save, states)
		stop()
		if rerr := <-ended; err == nil {
			err = rerr
		}
		if err != nil {
			return nil, err
		}
		mode.Synced, mode.Sync = latency(lat), latency(took)
		rep.Modes = append(rep.Modes, mode)
	}
	st, err := wb.Stats(ctx)
	if err != nil {
		return nil, err
	}
	rep.Documents = st.Documents
	return rep, nil
}

// benchSaves saves a note per round and times it until the watcher
// reports the sync done (the first state after Watching is awaited
// first). save numbers the saves across modes, so each writes new text.
func benchSaves(ctx context.Context, lib string, notes, folders, saves int, save *int, states <-chan watch.Status) (lat, took []float64, err error) {
	next := func(what string) (watch.Status, error) {
		guard := time.NewTimer(5 * time.Minute) // a failure guard, not a timing
		defer guard.Stop()
		select {
		case st := <-states:
			return st, nil
		case <-ctx.Done():
			return watch.Status{}, ctx.Err()
		case <-guard.C:
			return watch.Status{}, fmt.Errorf("bench watch: no state from the watcher in 5 min, waiting for %s", what)
		}
	}
	if st, err := next("it to start"); err != nil {
		return nil, nil, err
	} else if st.State != watch.Watching {
		return nil, nil, fmt.Errorf("bench watch: the watcher began %s (%v)", st.State, st.Err)
	}
	for range saves {
		*save++
		i := (*save * 7919) % notes // spread over the folders
		p := notePath(lib, i, folders)
		tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp")
		text := fmt.Sprintf("# Note %d\n\nRewritten, save %d: the budget, the window and what changed.\n", i, *save)
		if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
			return nil, nil, err
		}
		t0 := time.Now()
		if err := os.Rename(tmp, p); err != nil {
			return nil, nil, err
		}
		for {
			st, err := next("the sync of save " + fmt.Sprint(*save))
			if err != nil {
				return nil, nil, err
			}
			if st.State == watch.Failed {
				return nil, nil, fmt.Errorf("bench watch: save %d: %v", *save, st.Err)
			}
			if st.State != watch.Synced {
				continue
			}
			if r := st.Result; r.Changed != 1 || r.Added != 0 || r.Removed != 0 || r.Errors != 0 {
				return nil, nil, fmt.Errorf("bench watch: save %d: the sync did %+v, not one note changed", *save, r)
			}
			lat = append(lat, ms(st.At.Sub(t0)))
			took = append(took, ms(st.Took))
			break
		}
	}
	return lat, took, nil
}

func printBenchWatch(w io.Writer, rep *BenchWatchReport) {
	fmt.Fprintf(w, "loom bench watch · %s/%s · %d CPUs · %s · %d notes in %d folders · %d saves a quiet period\n",
		rep.GOOS, rep.GOARCH, rep.CPUs, rep.GoVersion, rep.Notes, rep.Folders, rep.Saves)
	fmt.Fprintf(w, "first ingest %.1f s · watch set up in %.1f ms (%d watches) · %d documents at the end\n\n",
		rep.IngestMS/1000, rep.SetupMS, rep.Watches, rep.Documents)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "quiet\tsave→synced p50 ms\tp95 ms\tmean ms\tmax ms\tsync alone p50 ms\tp95 ms\t")
	for _, m := range rep.Modes {
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t\n", m.Quiet, m.Synced.P50MS, m.Synced.P95MS, m.Synced.MeanMS, m.Synced.MaxMS, m.Sync.P50MS, m.Sync.P95MS)
	}
	tw.Flush()
}
