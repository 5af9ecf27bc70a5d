package workspace

import (
	"context"

	"github.com/loomwork/loom/backend/clusters"
	"github.com/loomwork/loom/backend/index"
)

// clusterCache holds the clusters of the working index, with what they
// were made from: the index, the generation they were last checked at
// and the fingerprint of what Build read.
type clusterCache struct {
	result      *clusters.Result
	index       *index.Graph
	generation  int64
	fingerprint uint64
}

// Clusters are the communities of the working index's concept graph
// (package clusters), built on first need and kept in memory: the graph
// view and a question scoped to a cluster read the same ones, so their
// ids agree. They are checked again when the generation moves on (every
// committed write) and built again only when what they are made of
// changed: a write of access times or summaries keeps them (a summary
// belongs to its source's cluster, Result.NodeOf). Nothing is saved: at
// 50,000 sections a build takes tens of milliseconds. A rebuild keeps the
// ids of the clusters that continue the last build's (Result.Follow), for
// as long as the workspace is open. Callers hold the lock.
func (w *Workspace) Clusters(ctx context.Context) (*clusters.Result, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return nil, err
	}
	c := &w.clusters
	if c.result != nil && c.index == ix && c.generation == w.meta.Generation {
		return c.result, nil
	}
	fp := clusters.Fingerprint(ix)
	if c.result == nil || c.fingerprint != fp {
		next := clusters.Build(ix, clusters.Defaults)
		// Clusters that continue the last ones keep their ids and colours:
		// a question scoped to one, and the page's view of them, survive
		// an ingest that moves them a little.
		next.Follow(c.result)
		c.result, c.fingerprint = next, fp
	}
	c.index, c.generation = ix, w.meta.Generation
	return c.result, nil
}
