// Package library is what a workspace holds and how it changes: the
// ingest pipeline (read, chunk, count, classify, embed, link to concepts,
// commit whole documents in batches; prune what left its folder), the
// documents and their removal and re-ingest, uploads from the page and the
// sample library, collections made by hand, pins, graph.json export and
// import, re-embedding when the embedder changes, and the views the page
// draws (the graph, one node's details).
//
//	lib := library.New(ws)
//	rep, err := lib.Ingest(ctx, []string{"notes/"}, library.IngestOptions{})
package library

import (
	"sync"

	"github.com/loomwork/loom/backend/workspace"
)

// Library changes and reads the documents of one workspace.
type Library struct {
	ws *workspace.Workspace
	// reembedMu: one re-embed at a time (see Reembed).
	reembedMu sync.Mutex
}

// New returns the library of ws.
func New(ws *workspace.Workspace) *Library { return &Library{ws: ws} }
