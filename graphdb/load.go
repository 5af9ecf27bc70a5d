package graphdb

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/loomwork/loom/backend/model"
)

// Snapshot is the whole graph, read in one pass over the store.
type Snapshot struct {
	Meta      model.Meta
	Documents []model.Document
	Nodes     []model.ContentNode
	Concepts  []model.Concept
	Edges     []model.Edge
	// DocNodes maps a document id to its content node ids.
	DocNodes map[string][]string
	// Repeated counts the documents, content nodes and concepts whose
	// attributes the store held more than once (written twice, an older
	// copy left beside the newer: stores written before Apply replaced
	// them); the snapshot keeps the newest of each.
	Repeated int
	// RepeatedIDs are the ids held more than once, each once, sorted.
	RepeatedIDs []string

	// seen is where each id's attributes are (addAttrs), for repeats.
	seen map[string]attrsAt
}

// attrsAt is where addAttrs put an id's attributes: its index in
// Documents, Nodes or Concepts, when it was last written, and the edges
// its attributes hold (about, related), kept apart until finish.
type attrsAt struct {
	i        int
	when     time.Time
	edges    []model.Edge
	repeated bool
}

// Load reads every quad once and rebuilds the graph. It is the slow path
// (used when the working-index cache is missing or stale); stats and the
// query path never call it. A quad that cannot be read whole makes the
// store *DamagedError (Salvage reads around such quads).
func (s *Store) Load(ctx context.Context) (snap *Snapshot, err error) {
	leave, err := s.enter()
	defer leave()
	if err != nil {
		return nil, err
	}
	defer s.guard(&err)
	snap, lost, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	if lost.Quads > 0 {
		d := &DamagedError{Path: s.path, Problem: fmt.Sprintf("%d of its quads cannot be read (%s)", lost.Quads, lost.First)}
		s.broken = d
		return nil, d
	}
	return snap, nil
}

// Lost is what a read of the store had to leave out.
type Lost struct {
	// Quads could not be read whole; First says why the first one failed.
	Quads int
	First string
	// Attrs are nodes whose attributes did not parse.
	Attrs []string
}

// load reads the graph; quads or attributes that cannot be read are
// counted in lost rather than failing the read. Callers hold s.mu.
func (s *Store) load(ctx context.Context) (*Snapshot, Lost, error) {
	var lost Lost
	snap := &Snapshot{DocNodes: map[string][]string{}}
	var err error
	if snap.Meta, err = s.meta(ctx); err != nil {
		lost.Quads++
		lost.First = "the workspace facts: " + err.Error()
	}
	before := cayleyErrors.Load()
	it := s.qs.QuadsAllIterator()
	defer it.Close()
	for it.Next(ctx) {
		q := s.qs.Quad(it.Result())
		if q.Subject == nil || q.Predicate == nil || q.Object == nil {
			lost.Quads++
			if lost.First == "" {
				lost.First = "a quad refers to values that are gone"
				if msg := lastCayleyError(before); msg != "" {
					lost.First = msg
				}
			}
			continue
		}
		snap.addQuad(q, &lost)
	}
	snap.finish()
	if err := it.Err(); err != nil {
		return nil, lost, &DamagedError{Path: s.path, Problem: "reading its quads failed (" + err.Error() + ")"}
	}
	if len(lost.Attrs) > 0 {
		lost.Quads += len(lost.Attrs)
	}
	snap.Sort()
	return snap, lost, nil
}

// addQuad adds what one quad says to the snapshot (the workspace facts'
// quad aside: load reads it first, Salvage where it finds it).
func (snap *Snapshot) addQuad(q quad.Quad, lost *Lost) {
	subj := idOf(q.Subject)
	switch q.Predicate {
	case predAttrs:
		if err := snap.addAttrs(subj, literal(q.Object)); err != nil {
			lost.Attrs = append(lost.Attrs, subj)
			if lost.First == "" {
				lost.First = err.Error()
			}
		}
	case predHas:
		snap.DocNodes[subj] = append(snap.DocNodes[subj], idOf(q.Object))
	case predParent, predLinks, predDerivedFrom, predCalls, predImports, predImplements:
		snap.Edges = append(snap.Edges, model.Edge{Kind: predEdge[q.Predicate.(quad.IRI)], From: subj, To: idOf(q.Object), Weight: 1})
	}
}

func (snap *Snapshot) addAttrs(id, js string) error {
	if len(id) < 2 {
		return nil
	}
	if snap.seen == nil {
		snap.seen = map[string]attrsAt{}
	}
	// keep puts the attributes at index n of their list, or where the
	// id's earlier copy is when these are newer; it reports where (-1:
	// the earlier copy is newer and stays).
	keep := func(n int, when time.Time, edges []model.Edge) int {
		at, ok := snap.seen[id]
		if !ok {
			snap.seen[id] = attrsAt{i: n, when: when, edges: edges}
			return n
		}
		if snap.Repeated++; !at.repeated {
			at.repeated = true
			snap.seen[id] = at
			snap.RepeatedIDs = append(snap.RepeatedIDs, id)
		}
		if !when.After(at.when) {
			return -1
		}
		snap.seen[id] = attrsAt{i: at.i, when: when, edges: edges, repeated: true}
		return at.i
	}
	switch id[:2] {
	case "d-":
		var d model.Document
		if err := json.Unmarshal([]byte(js), &d); err != nil {
			return fmt.Errorf("read document %s: %w", id, err)
		}
		switch i := keep(len(snap.Documents), d.Ingested, nil); {
		case i == len(snap.Documents):
			snap.Documents = append(snap.Documents, d)
		case i >= 0:
			snap.Documents[i] = d
		}
	case "n-":
		var a nodeAttrs
		if err := json.Unmarshal([]byte(js), &a); err != nil {
			return fmt.Errorf("read content node %s: %w", id, err)
		}
		var edges []model.Edge
		for to, e := range a.About {
			edges = append(edges, model.Edge{Kind: model.EdgeAbout, From: id, To: to, Weight: e.Weight, Direction: e.Direction, Created: e.Created})
		}
		switch i := keep(len(snap.Nodes), latest(a.Created, a.LastAccess), edges); {
		case i == len(snap.Nodes):
			snap.Nodes = append(snap.Nodes, a.ContentNode)
		case i >= 0:
			snap.Nodes[i] = a.ContentNode
		}
	case "c-":
		var a conceptAttrs
		if err := json.Unmarshal([]byte(js), &a); err != nil {
			return fmt.Errorf("read concept %s: %w", id, err)
		}
		var edges []model.Edge
		for to, e := range a.Related {
			edges = append(edges, model.Edge{Kind: model.EdgeRelated, From: id, To: to, Weight: e.Weight, Created: e.Created})
		}
		switch i := keep(len(snap.Concepts), a.Created, edges); {
		case i == len(snap.Concepts):
			snap.Concepts = append(snap.Concepts, a.Concept)
		case i >= 0:
			snap.Concepts[i] = a.Concept
		}
	}
	return nil
}

// latest is the later of two times.
func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// finish adds the edges the kept attributes hold (once every quad is
// read: a newer copy of an id's attributes replaces the older's edges).
func (snap *Snapshot) finish() {
	concepts := make(map[string]bool, len(snap.Concepts))
	for _, c := range snap.Concepts {
		concepts[c.ID] = true
	}
	for _, at := range snap.seen {
		for _, e := range at.edges {
			// An about or related edge is kept in its source's attributes
			// too, which a concept removed later (Remove takes the quads
			// that name it) does not rewrite: one to a concept no longer
			// there is no edge.
			if concepts[e.To] {
				snap.Edges = append(snap.Edges, e)
			}
		}
	}
	snap.seen = nil
	slices.Sort(snap.RepeatedIDs)
}

// Sort puts everything in a stable order (documents by path, nodes by document
// and ordinal, concepts by creation then id, edges by kind, from, to).
func (snap *Snapshot) Sort() {
	docPath := map[string]string{}
	sort.Slice(snap.Documents, func(i, j int) bool { return snap.Documents[i].Path < snap.Documents[j].Path })
	for _, d := range snap.Documents {
		docPath[d.ID] = d.Path
	}
	sort.Slice(snap.Nodes, func(i, j int) bool {
		a, b := snap.Nodes[i], snap.Nodes[j]
		if docPath[a.DocID] != docPath[b.DocID] {
			return docPath[a.DocID] < docPath[b.DocID]
		}
		if a.DocID != b.DocID {
			return a.DocID < b.DocID
		}
		if a.Ordinal != b.Ordinal {
			return a.Ordinal < b.Ordinal
		}
		return a.ID < b.ID
	})
	sort.Slice(snap.Concepts, func(i, j int) bool {
		a, b := snap.Concepts[i], snap.Concepts[j]
		if !a.Created.Equal(b.Created) {
			return a.Created.Before(b.Created)
		}
		return a.ID < b.ID
	})
	sort.Slice(snap.Edges, func(i, j int) bool {
		a, b := snap.Edges[i], snap.Edges[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.From != b.From {
			return a.From < b.From
		}
		return a.To < b.To
	})
	for _, ids := range snap.DocNodes {
		sort.Strings(ids)
	}
}
