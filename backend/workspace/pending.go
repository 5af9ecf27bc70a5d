package workspace

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

type pendingAnalysis struct {
	node model.ContentNode
	edge model.Edge
}

// pendingWrites are query-side changes not yet in the graph: access times
// and made summaries. They are small and best kept off the query path.
type pendingWrites struct {
	touched  map[string]bool
	analysis []pendingAnalysis
	// superseded are summaries a newer one of the same source and level
	// replaced (made by another method or version), to delete.
	superseded []string
	timer      bool
}

// touch records that nodes were loaded now (staleness, seed §5).
func (w *Workspace) Touch(loaded []*assemble.Candidate) {
	now := w.cfg.clock()
	for _, c := range loaded {
		if n := w.index.Nodes[c.ID]; n != nil {
			n.LastAccess = now
			if w.pending.touched == nil {
				w.pending.touched = map[string]bool{}
			}
			w.pending.touched[c.ID] = true
		}
	}
	w.SchedulePersist()
}

// persistDelay is how long query-side changes wait to be written together.
const persistDelay = 2 * time.Second

func (w *Workspace) SchedulePersist() {
	if w.readOnly != "" { // kept in memory for this session
		return
	}
	if w.pending.timer || w.pending.empty() {
		return
	}
	w.pending.timer = true
	w.cfg.hooks.afterFunc(persistDelay, func() {
		w.mu.Lock()
		w.pending.timer = false
		write, ok := w.pendingWrite()
		if !ok {
			w.mu.Unlock()
			return
		}
		// The commit (a bolt transaction and its sync, ~1–100 ms) runs
		// without w.mu, so questions go on meanwhile. storeMu, taken
		// before w.mu is let go, keeps every other write (which holds
		// w.mu, then waits for storeMu) behind this one.
		w.storeMu.Lock()
		w.mu.Unlock()
		w.cfg.hooks.beforeBackgroundCommit()
		meta, err := w.store.Apply(context.Background(), write)
		if err == nil {
			w.bgCommit = meta
		}
		w.storeMu.Unlock()
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.closed {
			_ = w.persisted(meta, err)
		}
	})
}

// persistPending writes access times and summaries in one transaction.
// Callers hold w.mu.
func (w *Workspace) persistPending(ctx context.Context) error {
	if w.readOnly != "" {
		return nil
	}
	write, ok := w.pendingWrite()
	if !ok {
		return nil
	}
	meta, err := w.Apply(ctx, write)
	return w.persisted(meta, err)
}

// pendingWrite takes the pending access times and summaries as one write,
// once the summaries' texts are stored (the store names them); false when
// there is nothing to write. Callers hold w.mu.
func (w *Workspace) pendingWrite() (graphdb.Write, bool) {
	var write graphdb.Write
	if w.index == nil || w.closed || w.pending.empty() {
		return write, false
	}
	ix := w.index
	byDoc := map[string]*graphdb.DocWrite{}
	unstored := w.texts.FlushStaged() // the texts first: the store names them
	for _, pa := range w.pending.analysis {
		if ix.Nodes[pa.node.ID] == nil || ix.Nodes[pa.edge.To] == nil || ix.Docs[pa.node.DocID] == nil {
			continue // its source went away meanwhile
		}
		if unstored[pa.node.ContentHash] != nil {
			continue // its text could not be stored: made again when needed
		}
		dw := byDoc[pa.node.DocID]
		if dw == nil {
			dw = &graphdb.DocWrite{Doc: *ix.Docs[pa.node.DocID]}
			byDoc[pa.node.DocID] = dw
		}
		dw.Nodes = append(dw.Nodes, *ix.Nodes[pa.node.ID])
		dw.Edges = append(dw.Edges, pa.edge)
	}
	docIDs := make([]string, 0, len(byDoc))
	for id := range byDoc {
		docIDs = append(docIDs, id)
	}
	sort.Strings(docIDs)
	for _, id := range docIDs {
		write.Documents = append(write.Documents, *byDoc[id])
	}
	ids := make([]string, 0, len(w.pending.touched))
	for id := range w.pending.touched {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if n := ix.Nodes[id]; n != nil && n.Source == "" {
			write.Touch = append(write.Touch, *n)
		}
	}
	write.Remove = w.pending.superseded
	w.pending.touched, w.pending.analysis, w.pending.superseded = nil, nil, nil
	if len(write.Documents) == 0 && len(write.Touch) == 0 && len(write.Remove) == 0 {
		return write, false
	}
	if w.vecs != nil && w.emb != nil {
		write.Meta = ix.Meta(w.emb.ID())
	}
	return write, true
}

// persisted records the outcome of committing a pendingWrite. Callers
// hold w.mu.
func (w *Workspace) persisted(meta model.Meta, err error) error {
	if err != nil {
		w.index = nil // rebuild from the store on next use
		return fmt.Errorf("save access times and summaries: %w", err)
	}
	// A write that waited for this one's commit may have recorded its
	// newer facts already.
	if meta.Generation > w.meta.Generation {
		w.meta = meta
	}
	if cachesOnPersist {
		w.SaveCaches()
	}
	return nil
}

// RecordAnalysis adds a summary or essence (an analysis node of its
// source's document, with its derived edge) to the working and query
// indexes now, and queues its write (the text was staged by the caller).
func (w *Workspace) RecordAnalysis(a model.ContentNode, e model.Edge) {
	ix := w.index
	if old := ix.Nodes[w.retr.Analysis[a.Source][a.Level]]; old != nil && old.ID != a.ID && old.Kind == model.KindAnalysis {
		// The summary it replaces (an older method's or version's) is
		// read no more: it goes, not left beside the new one in the store.
		ix.DropNode(old.ID)
		w.pending.superseded = append(w.pending.superseded, old.ID)
	}
	if _, ok := ix.Nodes[a.ID]; !ok {
		ix.DocNodes[a.DocID] = append(ix.DocNodes[a.DocID], a.ID)
	}
	ix.Nodes[a.ID] = &a
	ix.AddEdge(e)
	if w.retr.Analysis[a.Source] == nil {
		w.retr.Analysis[a.Source] = map[string]string{}
	}
	w.retr.Analysis[a.Source][a.Level] = a.ID
	w.pending.analysis = append(w.pending.analysis, pendingAnalysis{node: a, edge: e})
	w.SchedulePersist()
}

// empty: nothing waits to be written.
func (p *pendingWrites) empty() bool {
	return len(p.touched) == 0 && len(p.analysis) == 0 && len(p.superseded) == 0
}
