package library

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/vectors"
	"github.com/loomwork/loom/graphdb"
)

// reembedBatch is how many texts a re-embed sends to the embedder at once:
// between batches it reports progress and checks for cancellation.
const reembedBatch = 64

// ReembedProgress is how far a re-embed has come: content nodes embedded
// (or found in the embedder's vector log) of all of them.
type ReembedProgress struct {
	Done    int           `json:"done"`
	Total   int           `json:"total"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// ReembedReport says what a re-embed did.
type ReembedReport struct {
	// From is the embedder the workspace's vectors were made with before,
	// To the one they are made with now, Dims its vector length.
	From string `json:"from"`
	To   string `json:"to"`
	Dims int    `json:"dims"`
	// Nodes is the content nodes; Embedded how many of them were sent to
	// the embedder (the others' vectors were in its log already, from an
	// earlier run); Concepts the concepts made.
	Nodes    int           `json:"nodes"`
	Embedded int           `json:"embedded"`
	Concepts int           `json:"concepts"`
	Duration time.Duration `json:"duration_ns"`
}

// Reembed embeds every content node of the workspace again with e and
// rebuilds the concept layer with it, all in one commit: the workspace
// then records e as its embedder, and this session uses it (choice says
// why, for Stats). progress (may be nil) hears after each batch.
//
// Nothing is committed until every vector is made: cancelling ctx, a
// failure of the embedder, or a crash leaves the workspace as it was,
// with its old embedder. The vectors made so far stay in e's own log, so
// the next try embeds only the rest.
func (w *Library) Reembed(ctx context.Context, e embed.Embedder, choice string, progress func(ReembedProgress)) (*ReembedReport, error) {
	if err := w.ws.Writable("re-embed"); err != nil {
		return nil, err
	}
	// One re-embed at a time: its first stage writes the log of an
	// embedder the workspace does not use yet, which its second stage (or
	// another re-embed's) opens as the workspace's own.
	w.reembedMu.Lock()
	defer w.reembedMu.Unlock()
	start := time.Now()
	last := [2]int{-1, -1}
	report := func(done, total int) { // each count once, across the stages
		if progress != nil && last != [2]int{done, total} {
			last = [2]int{done, total}
			progress(ReembedProgress{Done: done, Total: total, Elapsed: time.Since(start)})
		}
	}
	ahead := 0 // embedded by the first stage
	if embedsAhead(e) {
		var err error
		if ahead, err = w.reembedAhead(ctx, e, report); err != nil {
			return nil, err
		}
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	if _, err := w.ws.Index(ctx); err != nil {
		return nil, err
	}
	rep := &ReembedReport{From: w.ws.Meta().Embedder, To: e.ID(), Dims: e.Dim()}
	prev, err := w.ws.SwitchEmbedder(e, choice)
	if err != nil {
		return nil, err
	}
	counts, err := w.reembedLocked(ctx, e, report)
	if err != nil {
		w.ws.RestoreEmbedder(prev)
		return nil, err
	}
	rep.Nodes, rep.Embedded, rep.Concepts = counts.nodes, ahead+counts.embedded, counts.concepts
	rep.Duration = time.Since(start)
	return rep, prev.Release()
}

// reembedAhead is a re-embed's first stage, as an ingest's (embedAhead):
// without the workspace's lock, it embeds every content node whose vector
// e's log lacks and stores it there, so that questions go on while a slow
// embedder works; the second stage, under the lock, finds them and
// rebuilds the concepts. It takes the lock only to list the nodes. Nothing
// changes in the library: a cancel or a crash leaves it as it was, with
// the vectors made so far kept for the next try. A workspace whose
// vectors are e's already needs no first stage.
func (w *Library) reembedAhead(ctx context.Context, e embed.Embedder, progress func(done, total int)) (embedded int, err error) {
	type item struct {
		hash    string
		heading []string
		symbol  *model.Symbol
	}
	w.ws.Lock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		w.ws.Unlock()
		return 0, err
	}
	path := w.ws.VectorsPath(e)
	// The workspace's vectors are e's already, or this session embeds with
	// e (an ingest switched to it) and holds its log: no second handle.
	if w.ws.Meta().Embedder == e.ID() || w.ws.Vectors() != nil && w.ws.Vectors().Path() == path {
		w.ws.Unlock()
		return 0, nil
	}
	items := make([]item, 0, len(ix.Nodes))
	for _, n := range ix.Nodes {
		items = append(items, item{n.ContentHash, n.HeadingPath, n.Symbol})
	}
	w.ws.Unlock()
	sort.Slice(items, func(i, j int) bool { return items[i].hash < items[j].hash })

	vl, err := vectors.Open(path, e.Dim())
	if err != nil {
		return 0, err
	}
	defer vl.Close()
	var keys, need []string
	seen := map[string]bool{}
	for _, it := range items {
		k := index.ContentKey(it.hash)
		if seen[k] || vl.Has(k) {
			continue
		}
		seen[k] = true
		text, terr := w.ws.Content(it.hash)
		if terr != nil {
			continue // the second stage reads it again and says what is wrong
		}
		keys = append(keys, k)
		need = append(need, ingest.EmbedTextOf(it.heading, text, it.symbol))
	}
	total := len(items)
	done := total - len(need)
	progress(done, total)
	err = embedSteps(ctx, e, need, reembedBatch, func(i int, v []float32) error {
		return vl.Put(keys[i], v)
	}, func(n int) error {
		if err := vl.Flush(); err != nil {
			return err
		}
		crash.At("reembed-ahead-after-batch")
		embedded = n
		progress(done+n, total)
		return nil
	})
	if err != nil {
		return embedded, fmt.Errorf("re-embed with %s: %w", e.ID(), err)
	}
	return embedded, nil
}

// reembedCounts is what reembedLocked did.
type reembedCounts struct{ nodes, embedded, concepts int }

// reembedLocked rebuilds the concept layer with embedder e: every content
// node is embedded again (vectors already in e's log are reused), concepts
// are recreated and re-linked, and the whole change commits in one
// transaction. Callers hold w.mu, have loaded the index and made e the
// session's embedder (its log is w.ws.Vectors()); progress hears how many
// nodes have their vector, of how many.
func (w *Library) reembedLocked(ctx context.Context, e embed.Embedder, progress func(done, total int)) (reembedCounts, error) {
	var counts reembedCounts
	ix := w.ws.CurrentIndex()
	now := w.ws.Now()
	var ids []string
	for id := range ix.Nodes {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := ix.Nodes[ids[i]], ix.Nodes[ids[j]]
		if a.Created != b.Created {
			return a.Created.Before(b.Created)
		}
		return a.ID < b.ID
	})
	texts := make([]string, len(ids))
	vecs := make([][]float32, len(ids))
	var need []string
	var at []int
	for i, id := range ids {
		n := ix.Nodes[id]
		text, err := w.ws.Content(n.ContentHash)
		if err != nil {
			return counts, fmt.Errorf("re-embed: %w", err)
		}
		texts[i] = text
		if v, ok := w.ws.Vectors().Get(index.ContentKey(n.ContentHash)); ok {
			vecs[i] = v
			continue
		}
		need = append(need, ingest.EmbedTextOf(n.HeadingPath, text, n.Symbol))
		at = append(at, i)
	}
	counts.nodes, counts.embedded = len(ids), len(need)
	done := len(ids) - len(need)
	if progress != nil {
		progress(done, len(ids))
	}
	for start := 0; start < len(need); start += reembedBatch {
		end := min(start+reembedBatch, len(need))
		got, err := e.Embed(ctx, need[start:end])
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			// Keep what was made: the next try reuses it.
			_ = w.ws.Vectors().Flush()
			return counts, fmt.Errorf("re-embed with %s: %w", e.ID(), err)
		}
		for k, v := range got {
			if err := w.ws.Vectors().Put(index.ContentKey(ix.Nodes[ids[at[start+k]]].ContentHash), v); err != nil {
				return counts, err
			}
			vecs[at[start+k]] = v
		}
		done += len(got)
		if progress != nil {
			progress(done, len(ids))
		}
	}
	var write graphdb.Write
	for id := range ix.Concepts {
		write.Remove = append(write.Remove, id)
	}
	for id := range ix.Docs {
		write.Remove = append(write.Remove, id)
	}
	// Fresh concepts, linked in creation order.
	linker := concepts.NewLinker(e.Dim(), w.ws.Threshold(e))
	newConcepts := map[string]*model.Concept{}
	about := map[string][]model.Edge{}
	named := map[string]string{} // the new concepts' names, lower-case: the document that founded each
	for i, id := range ids {
		n := ix.Nodes[id]
		title, path := "", ""
		if d := ix.Docs[n.DocID]; d != nil {
			title, path = d.Title, d.Path
		}
		matches, best := linker.Link(vecs[i])
		n.NearMiss, n.NearMissSim = "", 0
		if len(matches) == 0 {
			name := concepts.NameIn(n.HeadingPath, title, path, texts[i])
			if doc, taken := named[strings.ToLower(name)]; taken && n.Symbol == nil { // as an ingest tells a taken name apart
				name = concepts.Distinct(name, doc != n.DocID, n.HeadingPath, title, path, texts[i],
					func(n string) bool { _, ok := named[strings.ToLower(n)]; return ok })
			}
			if _, taken := named[strings.ToLower(name)]; !taken {
				named[strings.ToLower(name)] = n.DocID
			}
			c := model.Concept{ID: "c-" + model.ShortHash(e.ID(), n.ID), Created: now, Seed: n.ID,
				Name: name, Description: concepts.Describe(texts[i])}
			if best.ID != "" {
				n.NearMiss, n.NearMissSim = best.ID, round3(best.Sim)
			}
			cw := graphdb.ConceptWrite{Concept: c}
			for _, r := range linker.Related(vecs[i], c.ID) {
				cw.Related = append(cw.Related, model.Edge{Kind: model.EdgeRelated, From: c.ID, To: r.ID, Weight: round3(r.Sim), Created: now})
			}
			linker.Add(c.ID, vecs[i])
			newConcepts[c.ID] = &c
			write.Concepts = append(write.Concepts, cw)
			if err := w.ws.Vectors().Put(index.ConceptKey(c.ID), vecs[i]); err != nil {
				return counts, err
			}
			matches = []concepts.Match{{ID: c.ID, Sim: 1}}
		}
		for _, m := range matches {
			about[id] = append(about[id], model.Edge{Kind: model.EdgeAbout, From: id, To: m.ID, Weight: round3(m.Sim), Direction: string(n.Kind), Created: now})
		}
	}
	for docID, d := range ix.Docs {
		dw := graphdb.DocWrite{Doc: *d}
		for _, nid := range ix.DocNodes[docID] {
			dw.Nodes = append(dw.Nodes, *ix.Nodes[nid])
			for _, e := range ix.Out[nid] {
				if e.Kind != model.EdgeAbout {
					dw.Edges = append(dw.Edges, e)
				}
			}
			dw.Edges = append(dw.Edges, about[nid]...)
		}
		write.Documents = append(write.Documents, dw)
	}
	if err := w.ws.Vectors().Flush(); err != nil {
		return counts, err
	}
	// The new vectors reach the disk before the commit that relies on them.
	if err := w.ws.Sync([]string{w.ws.Vectors().Path()}); err != nil {
		return counts, fmt.Errorf("re-embed: %w", err)
	}
	crash.At("reembed-after-vectors")
	snap := &graphdb.Snapshot{DocNodes: ix.DocNodes}
	for _, d := range ix.Docs {
		snap.Documents = append(snap.Documents, *d)
	}
	for _, n := range ix.Nodes {
		snap.Nodes = append(snap.Nodes, *n)
	}
	for _, c := range newConcepts {
		snap.Concepts = append(snap.Concepts, *c)
	}
	for _, dw := range write.Documents {
		snap.Edges = append(snap.Edges, dw.Edges...)
	}
	for _, cw := range write.Concepts {
		snap.Edges = append(snap.Edges, cw.Related...)
	}
	nix := index.FromSnapshot(snap)
	nix.Linker = linker
	write.Meta = nix.Meta(e.ID())
	meta, err := w.ws.Apply(ctx, write)
	if err != nil {
		w.ws.Invalidate()
		return counts, fmt.Errorf("re-embed: %w", err)
	}
	w.ws.Replace(nix, e, meta)
	counts.concepts = len(newConcepts)
	return counts, nil
}
