package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/watch"
)

func cmdIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ingest", stderr)
	var ws workspaceFlags
	ws.register(fs)
	prune := fs.Bool("prune", false, "also remove documents whose files were deleted from the given folders")
	quiet := fs.Bool("quiet", false, "no progress bar")
	batch := fs.Int("batch", backend.DefaultBatchQuads, "commit every this many quads (each document commits whole either way)")
	watching := fs.Bool("watch", false, "then keep the workspace in step with the paths until interrupted, as loom watch does (implies --prune)")
	var wo watchOptions
	wo.register(fs)
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usageErr("ingest: give at least one file or folder")
	}
	if *batch < 1 || *batch > 1<<24 {
		return usageErr("ingest: --batch %d must be between 1 and %d quads", *batch, 1<<24)
	}
	if *watching {
		wo.quiet, wo.batch = watch.DefaultQuiet, *batch
		return watchPaths(ctx, &ws, paths, wo, stdout, stderr)
	}
	wb, err := ws.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer wb.Close()
	bar := newProgressBar(stderr, *quiet)
	rep, err := wb.Ingest(ctx, paths, backend.IngestOptions{Prune: *prune, Progress: bar.update, BatchQuads: *batch})
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
	st, _ := wb.Stats(ctx)
	unchanged := fmt.Sprint(rep.Unchanged)
	if rep.Unread > 0 {
		unchanged += fmt.Sprintf(" (%d not read: git, or their size and time, say so)", rep.Unread)
	}
	updated := fmt.Sprint(rep.Updated)
	if rep.Reread > 0 {
		updated += fmt.Sprintf(" (%d unchanged but read again: this Loom reads their format better)", rep.Reread)
	}
	fmt.Fprintf(stdout, "ingested %d files (%s) in %s: %d added, %s updated, %s unchanged, %d removed, %d nodes, %d new concepts; %d errors\n",
		rep.Files, mb(rep.Bytes), rep.Duration.Round(time.Millisecond), rep.Added, updated, unchanged, rep.Removed,
		rep.Nodes, rep.ConceptsCreated, len(rep.Errors))
	fmt.Fprintf(stdout, "workspace %s: %d documents, %d content nodes, %d concepts, %d edges, %d tokens (embedder %s)\n",
		st.Workspace, st.Documents, st.ContentNodes, st.ConceptNodes, st.Edges, st.Tokens, st.Embedder)
	if rep.Canceled {
		return &exitError{130, fmt.Errorf("interrupted: documents committed so far are kept")}
	}
	if len(rep.Errors) > 0 {
		return &exitError{1, fmt.Errorf("%d of the inputs could not be ingested (see above)", len(rep.Errors))}
	}
	return nil
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// printLeftOut says what the folders held that was not ingested and is not
// an error: each file skipped with its reason, then one line of totals.
// (Skipped files do not change the exit status.)
func printLeftOut(w io.Writer, rep *backend.IngestReport) {
	for _, s := range rep.Skipped {
		fmt.Fprintln(w, s) // notes/x.pdf: skipped: Loom does not read .pdf files yet
	}
	var parts []string
	if n := len(rep.Skipped); n > 0 {
		parts = append(parts, fmt.Sprintf("skipped %d (listed above)", n))
	}
	if rep.Hidden > 0 {
		parts = append(parts, fmt.Sprintf("left out %d hidden %s (names starting with a dot, such as .git, and node_modules)",
			rep.Hidden, plural(rep.Hidden, "file or folder", "files and folders")))
	}
	if len(parts) > 0 {
		fmt.Fprintln(w, "ingest: "+strings.Join(parts, "; "))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// progressBar draws on stderr when it is a terminal, and prints nothing
// otherwise (scripts get the summary line only).
type progressBar struct {
	w    io.Writer
	tty  bool
	last time.Time
	drew bool
}

func newProgressBar(w io.Writer, quiet bool) *progressBar {
	tty := false
	if f, ok := w.(*os.File); ok && !quiet {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progressBar{w: w, tty: tty}
}

func (p *progressBar) update(pr backend.Progress) {
	if !p.tty || time.Since(p.last) < 100*time.Millisecond && pr.Current != "" {
		return
	}
	p.last = time.Now()
	frac := 0.0
	if pr.BytesTotal > 0 {
		frac = float64(pr.BytesDone) / float64(pr.BytesTotal)
	}
	const width = 28
	filled := int(frac * width)
	rate := 0.0
	if s := pr.Elapsed.Seconds(); s > 0 {
		rate = float64(pr.BytesDone) / 1e6 / s
	}
	cur := pr.Current
	if len(cur) > 32 {
		cur = "…" + cur[len(cur)-31:]
	}
	if pr.ToEmbed > 0 {
		cur += fmt.Sprintf(" (embedding %d/%d)", pr.Embedded, pr.ToEmbed)
	}
	stage := ""
	switch {
	case pr.Written > 0: // written in rounds: the first are searchable already
		stage = fmt.Sprintf("%s (%d searchable) ", pr.Stage, pr.Written)
	case pr.Stage == backend.StageEmbedding:
		stage = "embedding "
	case pr.Stage == backend.StageWriting:
		stage = "writing "
	}
	fmt.Fprintf(p.w, "\r\033[K%s[%s%s] %d/%d files  %d docs  %.1f MB/s  %d errors  %-32s",
		stage, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), pr.FilesDone, pr.FilesTotal, pr.Documents, rate, pr.Errors, cur)
	p.drew = true
}

func (p *progressBar) done() {
	if p.drew {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
