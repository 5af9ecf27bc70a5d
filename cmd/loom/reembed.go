package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/loomwork/loom/backend"
)

// cmdReembed embeds a workspace again with another embedder: the model
// server's embedding model (named, or the one auto mode would pick for a
// new workspace), the offline embedder or the full MiniLM encoder. The workspace commits it whole
// or not at all: an interrupted run leaves it with its old embedder, and
// the next run reuses the vectors already made.
func cmdReembed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("reembed", stderr)
	var ws workspaceFlags
	ws.register(fs)
	toOffline := fs.Bool("offline", false, "re-embed with the built-in offline embedder instead of the model server's")
	toMiniLM := fs.Bool("minilm", false, "re-embed with the full MiniLM encoder (better ranking; about 30 ms a section on two cores; needs its weights: bash scripts/minilm.sh)")
	quiet := fs.Bool("quiet", false, "no progress line")
	format := fs.String("format", "text", "text, or json (the report)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return usageErr("reembed: --format must be text or json")
	}
	if n := btoi(*toOffline) + btoi(*toMiniLM) + btoi(ws.model != ""); n > 1 {
		return usageErr("reembed: give one of --offline, --minilm and --embed-model")
	}
	c, err := ws.config(stderr)
	if err != nil {
		return err
	}
	target := ws.model
	switch {
	case *toOffline:
		target = backend.OfflineTarget
	case *toMiniLM:
		target = backend.MiniLMTarget
	}
	e, choice, err := c.OpenEmbedder(ctx, target)
	if err != nil {
		return err
	}
	c.Embedder = "offline" // nothing to choose: the re-embed says which
	wb, err := backend.New(ctx, c)
	if err != nil {
		return err
	}
	defer wb.Close()
	tty := newProgressBar(stderr, *quiet).tty
	drew := false
	rep, err := wb.Reembed(ctx, e, choice, func(p backend.ReembedProgress) {
		if tty {
			fmt.Fprintf(stderr, "\rre-embedding with %s: %d/%d nodes", e.ID(), p.Done, p.Total)
			drew = true
		}
	})
	if drew {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	from := rep.From
	if strings.TrimSpace(from) == "" {
		from = "nothing (an empty workspace)"
	}
	fmt.Fprintf(stdout, "re-embedded %d nodes with %s (%d dimensions; %d embedded, the rest reused), was %s: %d concepts, %s\n",
		rep.Nodes, rep.To, rep.Dims, rep.Embedded, from, rep.Concepts, rep.Duration.Round(time.Millisecond))
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
