package library

import (
	"context"
	"runtime"
	"sync"

	"github.com/loomwork/loom/backend/ingest"
)

// parsed is one file read and parsed ahead of an ingest's loop.
type parsed struct {
	size int
	docs []ingest.Document
	err  error
}

// parseAhead reads and parses the run's source files that Loom parses
// into definitions, on every core, before the run links any: the symbol
// graph needs every definition of the run to resolve the names the first
// file uses, and parsing is most of the work of indexing code. Other
// files are read in the loop as before.
func parseAhead(ctx context.Context, files []ingest.File, opts ingest.Options) map[string]parsed {
	var todo []ingest.File
	for _, f := range files {
		if ingest.ParsesAsCode(f.Path) {
			todo = append(todo, f)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	out := make([]parsed, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f := todo[i]
				data, err := ingest.ReadFile(f, opts)
				p := parsed{size: len(data), err: err}
				if err == nil {
					p.docs, p.err = ingest.Parse(f.Abs, f.Path, f.Collection, data, opts)
				}
				out[i] = p
			}
		}()
	}
	for i := range todo {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	res := make(map[string]parsed, len(todo))
	for i, f := range todo {
		if out[i].docs != nil || out[i].err != nil {
			res[f.Abs] = out[i]
		}
	}
	return res
}

// runDocs lists the documents parsed ahead.
func runDocs(pre map[string]parsed) []ingest.Document {
	var out []ingest.Document
	for _, p := range pre {
		out = append(out, p.docs...)
	}
	return out
}
