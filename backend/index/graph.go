// Package index is the engine's working index: the whole graph in memory
// (Graph: documents, sections, concepts, edges, the concept linker) and
// the query side built on it (Search: every searchable section in a slot of
// a keyword index, a phrase index and a matrix of unit vectors; the concept
// graph's adjacency), each with the cache that makes opening fast
// (index.cache, search.cache, the rows and sketch caches beside the vector
// log). The workspace keeps them in step with every write; nothing here
// reads the graph store or writes anything but its caches.
package index

import (
	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// Graph is the in-memory working Graph: everything the query path and the
// linker need, built from the graph once and kept in step with every write.
type Graph struct {
	Docs     map[string]*model.Document
	DocByKey map[string]string
	DocNodes map[string][]string
	Nodes    map[string]*model.ContentNode
	Concepts map[string]*model.Concept
	// edges by source id
	Out        map[string][]model.Edge
	AboutCount map[string]int // content links per concept
	// SymbolIn is the symbol graph's edges the other way: a definition →
	// the nodes with a calls, imports or implements edge to it (some may
	// be gone since: check Nodes and Out).
	SymbolIn map[string][]string
	Linker   *concepts.Linker
	// Saved are the workspace facts of an index read from index.cache
	// (what a read-only open beside a writer reports).
	Saved model.Meta
}

func NewGraph() *Graph {
	return &Graph{Docs: map[string]*model.Document{}, DocByKey: map[string]string{}, DocNodes: map[string][]string{},
		Nodes: map[string]*model.ContentNode{}, Concepts: map[string]*model.Concept{}, Out: map[string][]model.Edge{},
		AboutCount: map[string]int{}, SymbolIn: map[string][]string{}}
}

func FromSnapshot(s *graphdb.Snapshot) *Graph {
	ix := NewGraph()
	for i := range s.Documents {
		d := s.Documents[i]
		ix.Docs[d.ID] = &d
		ix.DocByKey[d.Key] = d.ID
	}
	for id, ns := range s.DocNodes {
		ix.DocNodes[id] = append([]string(nil), ns...)
	}
	for i := range s.Nodes {
		n := s.Nodes[i]
		ix.Nodes[n.ID] = &n
	}
	for i := range s.Concepts {
		c := s.Concepts[i]
		ix.Concepts[c.ID] = &c
	}
	for _, e := range s.Edges {
		ix.AddEdge(e)
	}
	return ix
}

func (ix *Graph) AddEdge(e model.Edge) {
	ix.Out[e.From] = append(ix.Out[e.From], e)
	if e.Kind == model.EdgeAbout {
		ix.AboutCount[e.To]++
	}
	if e.Kind.SymbolEdge() {
		ix.SymbolIn[e.To] = append(ix.SymbolIn[e.To], e.From)
	}
}

// Snapshot turns the index back into the stored shape (for the cache and
// for export), in the store's stable order.
func (ix *Graph) Snapshot(meta model.Meta) *graphdb.Snapshot {
	s := &graphdb.Snapshot{Meta: meta, DocNodes: map[string][]string{}}
	for _, d := range ix.Docs {
		s.Documents = append(s.Documents, *d)
	}
	for id, ns := range ix.DocNodes {
		s.DocNodes[id] = append([]string(nil), ns...)
	}
	for _, n := range ix.Nodes {
		s.Nodes = append(s.Nodes, *n)
	}
	for _, c := range ix.Concepts {
		s.Concepts = append(s.Concepts, *c)
	}
	for _, es := range ix.Out {
		s.Edges = append(s.Edges, es...)
	}
	s.Sort()
	return s
}

func ConceptKey(id string) string { return "c:" + id }

func ContentKey(hash string) string { return "h:" + hash }

// RemoveConcept drops a concept, its edges both ways and its place in the
// linker.
func (ix *Graph) RemoveConcept(id string) {
	delete(ix.Concepts, id)
	delete(ix.AboutCount, id)
	delete(ix.Out, id)
	for cid := range ix.Concepts {
		es := ix.Out[cid]
		kept := es[:0]
		for _, e := range es {
			if e.To != id {
				kept = append(kept, e)
			}
		}
		ix.Out[cid] = kept
	}
	ix.Linker.Remove(map[string]bool{id: true})
}

// Meta computes the workspace facts from the index.
func (ix *Graph) Meta(embedder string) model.Meta {
	m := model.Meta{Documents: len(ix.Docs), ContentNodes: len(ix.Nodes), ConceptNodes: len(ix.Concepts), Embedder: embedder}
	for _, n := range ix.Nodes {
		m.Tokens += int64(n.Tokens)
	}
	for _, es := range ix.Out {
		m.Edges += len(es)
	}
	return m
}

// DropNode removes a node that is no document's section any more (a
// summary whose text is gone) from the index, with its edges.
func (ix *Graph) DropNode(id string) {
	n := ix.Nodes[id]
	if n == nil {
		return
	}
	delete(ix.Nodes, id)
	kept := ix.DocNodes[n.DocID][:0]
	for _, other := range ix.DocNodes[n.DocID] {
		if other != id {
			kept = append(kept, other)
		}
	}
	ix.DocNodes[n.DocID] = kept
	for _, e := range ix.Out[id] {
		if e.Kind == model.EdgeAbout {
			ix.AboutCount[e.To]--
		}
	}
	delete(ix.Out, id)
}

// Sections counts a document's sections: its searchable nodes, not the
// summaries made of them (analysis nodes kept with their source's
// document).
func (ix *Graph) Sections(docID string) int {
	n := 0
	for _, id := range ix.DocNodes[docID] {
		if nd := ix.Nodes[id]; nd != nil && Searchable(nd) {
			n++
		}
	}
	return n
}
