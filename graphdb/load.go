package graphdb

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

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
	switch id[:2] {
	case "d-":
		var d model.Document
		if err := json.Unmarshal([]byte(js), &d); err != nil {
			return fmt.Errorf("read document %s: %w", id, err)
		}
		snap.Documents = append(snap.Documents, d)
	case "n-":
		var a nodeAttrs
		if err := json.Unmarshal([]byte(js), &a); err != nil {
			return fmt.Errorf("read content node %s: %w", id, err)
		}
		snap.Nodes = append(snap.Nodes, a.ContentNode)
		for to, e := range a.About {
			snap.Edges = append(snap.Edges, model.Edge{Kind: model.EdgeAbout, From: id, To: to, Weight: e.Weight, Direction: e.Direction, Created: e.Created})
		}
	case "c-":
		var a conceptAttrs
		if err := json.Unmarshal([]byte(js), &a); err != nil {
			return fmt.Errorf("read concept %s: %w", id, err)
		}
		snap.Concepts = append(snap.Concepts, a.Concept)
		for to, e := range a.Related {
			snap.Edges = append(snap.Edges, model.Edge{Kind: model.EdgeRelated, From: id, To: to, Weight: e.Weight, Created: e.Created})
		}
	}
	return nil
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
