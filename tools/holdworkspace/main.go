// Command holdworkspace holds a Loom workspace open for writing, as another
// Loom process would (a window, loom watch, a long ingest), so that a test
// can start the desktop app beside it:
//
//	holdworkspace DIR
//
// It opens the workspace in DIR (making it when absent), reads its
// documents (which loads the working index, so the index is saved when it
// lets go), prints "ready" on stdout once it holds the workspace, and
// closes it when its stdin closes. The end of its stdout tells the test
// that the workspace is free again: a state to wait on, not a sleep.
// scripts/e2e-desktop.sh uses it.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/loomwork/loom/backend"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: holdworkspace DIR (holds the workspace in DIR until stdin closes)")
		os.Exit(2)
	}
	if err := hold(os.Args[1], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "holdworkspace:", err)
		os.Exit(1)
	}
}

// hold opens dir, says "ready" on out, waits for in to end and closes.
func hold(dir string, in io.Reader, out io.Writer) error {
	ctx := context.Background()
	w, err := backend.Open(ctx, dir)
	if err != nil {
		return err
	}
	docs, err := w.Documents(ctx)
	if err != nil {
		w.Close()
		return fmt.Errorf("read the documents of %s: %w", dir, err)
	}
	fmt.Fprintf(os.Stderr, "holdworkspace: holding %s (%d documents); close stdin to let go\n", dir, len(docs))
	if _, err := fmt.Fprintln(out, "ready"); err != nil {
		w.Close()
		return err
	}
	_, _ = io.Copy(io.Discard, in) // until stdin closes (or fails: let go either way)
	if err := w.Close(); err != nil {
		return fmt.Errorf("close %s: %w", dir, err)
	}
	fmt.Fprintf(os.Stderr, "holdworkspace: let go of %s\n", dir)
	return nil
}
