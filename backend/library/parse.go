package library

import (
	"context"

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
// files are read in the loop as before. Files in have (parsed by the
// ingest's first stage) are not read again.
func parseAhead(ctx context.Context, files []ingest.File, opts ingest.Options, have map[string]parsed) map[string]parsed {
	res := map[string]parsed{}
	var todo []ingest.File
	for _, f := range files {
		if !ingest.ParsesAsCode(f.Path) {
			continue
		}
		if p, ok := have[f.Abs]; ok {
			res[f.Abs] = p
			continue
		}
		todo = append(todo, f)
	}
	for i, p := range parseFiles(ctx, todo, opts) {
		if p.docs != nil || p.err != nil {
			res[todo[i].Abs] = p
		}
	}
	if len(res) == 0 {
		return nil
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
