package library

import (
	"context"
	"fmt"
	"sort"

	"github.com/loomwork/loom/backend/clusters"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// GraphNode is a node as the graph view draws it.
type GraphNode struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"` // concept | content
	Label      string `json:"label"`
	Source     string `json:"source,omitempty"`
	Document   string `json:"document,omitempty"`
	Collection string `json:"collection,omitempty"`
	Tokens     int    `json:"tokens,omitempty"`
	Pinned     bool   `json:"pinned,omitempty"`
	// Cluster is the id of the community the node belongs to (a
	// GraphCluster's ID); "" when it belongs to none.
	Cluster string `json:"cluster,omitempty"`
}

// GraphCluster is a community of the concept graph, with the sections and
// documents that are mostly about its concepts: what the graph view draws
// as one super-node when zoomed out, and a query scope ("cluster:ID").
type GraphCluster struct {
	// ID is "c:" + the id of the cluster's most central concept when it is
	// first made ("c:other" for Other, the concepts linked to nothing
	// else), and is kept while the workspace is open by the cluster that
	// continues it after a change to the library (more than half of each
	// one's concepts shared; clusters.Result.Follow).
	ID string `json:"id"`
	// Name is made from the cluster's most central concepts (and its
	// documents' titles when they say it better), for people to read.
	Name string `json:"name"`
	// Colour is an index into the page's cluster palette (0 to 11:
	// clusters.PaletteSize colours), so that a cluster keeps its colour
	// while its id lives.
	Colour int `json:"colour"`
	// Concepts, Sections and Documents count its members: concepts,
	// content nodes (summaries go with their sources) and the documents
	// most of whose sections are in it.
	Concepts  int `json:"concepts"`
	Sections  int `json:"sections"`
	Documents int `json:"documents"`
	// Top are the ids of its most central concepts, best first (≤ 5).
	Top []string `json:"top"`
}

// ClusterLink is how strongly two clusters are linked: the summed weight of
// the edges between their members (the graph's edges, as drawn), and how
// many there are. Source is the larger cluster (earlier in Clusters).
type ClusterLink struct {
	Source string  `json:"source"`
	Target string  `json:"target"`
	Weight float64 `json:"weight"`
	Edges  int     `json:"edges"`
}

// GraphEdge is an edge as the graph view draws it.
type GraphEdge struct {
	Source string  `json:"source"`
	Target string  `json:"target"`
	Kind   string  `json:"kind"`
	Weight float64 `json:"weight"`
}

// GraphData is the whole graph for drawing.
type GraphData struct {
	Nodes      []GraphNode `json:"nodes"`
	Edges      []GraphEdge `json:"edges"`
	Generation int64       `json:"generation"`
	// Clusters are the graph's communities, largest first, and
	// ClusterLinks the links between them, strongest first.
	Clusters     []GraphCluster `json:"clusters"`
	ClusterLinks []ClusterLink  `json:"clusterLinks"`
}

// Graph returns every concept and content node and every edge, ordered by
// id so that the same workspace always draws the same way.
func (w *Library) Graph(ctx context.Context) (*GraphData, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	cr, err := w.ws.Clusters(ctx)
	if err != nil {
		return nil, err
	}
	g := &GraphData{Nodes: make([]GraphNode, 0, len(ix.Concepts)+len(ix.Nodes)), Edges: []GraphEdge{}, Generation: w.ws.Meta().Generation}
	g.Clusters = clusterViews(cr)
	clusterOf := make(map[string]int, len(ix.Concepts)+len(ix.Nodes))
	setCluster := func(gn *GraphNode, ci int) {
		clusterOf[gn.ID] = ci
		if ci >= 0 {
			gn.Cluster = g.Clusters[ci].ID
			if gn.Kind == "content" {
				g.Clusters[ci].Sections++
			}
		}
	}
	for _, c := range ix.Concepts {
		gn := GraphNode{ID: c.ID, Kind: "concept", Label: c.Name}
		setCluster(&gn, cr.Of(c.ID))
		g.Nodes = append(g.Nodes, gn)
	}
	for _, n := range ix.Nodes {
		gn := GraphNode{ID: n.ID, Kind: "content", Label: nodeLabel(n), Source: string(n.Kind), Document: n.DocID, Tokens: n.Tokens, Pinned: n.Pinned}
		if d := ix.Docs[n.DocID]; d != nil {
			gn.Collection = d.Collection
		}
		setCluster(&gn, cr.NodeOf(n))
		g.Nodes = append(g.Nodes, gn)
	}
	sort.Slice(g.Nodes, func(i, j int) bool { return g.Nodes[i].ID < g.Nodes[j].ID })
	// A link to a document is drawn to the document's first section.
	docRoot := func(id string) string {
		if _, ok := ix.Docs[id]; !ok {
			return id
		}
		root, best := "", -1
		for _, nid := range ix.DocNodes[id] {
			if n := ix.Nodes[nid]; n != nil && index.Searchable(n) && (best < 0 || n.Ordinal < best) {
				root, best = nid, n.Ordinal
			}
		}
		return root
	}
	for _, es := range ix.Out {
		for _, e := range es {
			to := docRoot(e.To)
			if to == "" || to == e.From {
				continue
			}
			if e.Kind.SymbolEdge() && ix.Nodes[to] == nil {
				continue // a definition that is gone (its callers' edges outlive it)
			}
			g.Edges = append(g.Edges, GraphEdge{Source: e.From, Target: to, Kind: string(e.Kind), Weight: e.Weight})
		}
	}
	sort.Slice(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		return a.Kind < b.Kind
	})
	var links clusters.Links
	for _, e := range g.Edges {
		a, okA := clusterOf[e.Source]
		b, okB := clusterOf[e.Target]
		if okA && okB {
			links.Add(a, b, e.Weight)
		}
	}
	g.ClusterLinks = []ClusterLink{}
	for _, l := range links.List() {
		g.ClusterLinks = append(g.ClusterLinks, ClusterLink{Source: g.Clusters[l.A].ID, Target: g.Clusters[l.B].ID, Weight: round3(l.Weight), Edges: l.Edges})
	}
	return g, nil
}

// clusterViews are the clusters as the page and the CLI show them, in the
// result's order, with their sections not yet counted.
func clusterViews(cr *clusters.Result) []GraphCluster {
	out := make([]GraphCluster, len(cr.Clusters))
	for i, c := range cr.Clusters {
		out[i] = GraphCluster{ID: c.ID, Name: c.Name, Colour: c.Colour, Concepts: len(c.Concepts), Documents: c.Documents,
			Top: append([]string{}, c.Top()...)}
	}
	return out
}

// Clusters are the communities of the concept graph (package clusters),
// largest first, with their sections counted as the graph view counts
// them (summaries with their sources): what `loom graph clusters` lists,
// and the ids a "cluster:ID" scope takes.
func (w *Library) Clusters(ctx context.Context) ([]GraphCluster, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	cr, err := w.ws.Clusters(ctx)
	if err != nil {
		return nil, err
	}
	out := clusterViews(cr)
	for _, n := range ix.Nodes {
		if ci := cr.NodeOf(n); ci >= 0 {
			out[ci].Sections++
		}
	}
	return out, nil
}

// nodeLabel is a section's own heading, or its reference.
func nodeLabel(n *model.ContentNode) string {
	if len(n.HeadingPath) > 0 {
		if h := n.HeadingPath[len(n.HeadingPath)-1]; h != "" {
			return h
		}
	}
	return n.Ref
}

// ConceptLink is a concept a node is about, or one related to a concept.
type ConceptLink struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Similarity float64 `json:"similarity"`
}

// Neighbour is a node adjacent to another, by an edge of either direction.
type Neighbour struct {
	ID     string  `json:"id"`
	Label  string  `json:"label"`
	Kind   string  `json:"kind"`
	Edge   string  `json:"edge"`
	Weight float64 `json:"weight"`
}

// NodeDetail is what the details panel shows of one node.
type NodeDetail struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Label     string `json:"label"`
	Reference string `json:"reference,omitempty"`
	// Cite is a content node's human-readable reference (model.Cite) and
	// Location where its text is, for the source viewer.
	Cite       string        `json:"cite,omitempty"`
	Location   *Location     `json:"location,omitempty"`
	Document   string        `json:"document,omitempty"`
	Collection string        `json:"collection,omitempty"`
	Source     string        `json:"source,omitempty"`
	Tokens     int           `json:"tokens,omitempty"`
	Pinned     bool          `json:"pinned,omitempty"`
	Text       string        `json:"text"`
	Concepts   []ConceptLink `json:"concepts"`
	Neighbours []Neighbour   `json:"neighbours"`
}

// MaxNeighbours bounds the neighbours a detail lists (a concept can be
// about thousands of sections).
const MaxNeighbours = 200

// ErrNotFound is returned for an id the workspace does not have.
var ErrNotFound = &errs.Error{Code: errs.NotFound, Message: "not found"}

// Node returns one concept or content node with its text, its concepts
// and its neighbours (strongest first).
func (w *Library) Node(ctx context.Context, id string) (*NodeDetail, error) {
	w.ws.Lock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		w.ws.Unlock()
		return nil, err
	}
	d := &NodeDetail{ID: id, Concepts: []ConceptLink{}, Neighbours: []Neighbour{}}
	var hash string
	if c := ix.Concepts[id]; c != nil {
		d.Kind, d.Label, d.Text = "concept", c.Name, c.Description
	} else if n := ix.Nodes[id]; n != nil {
		d.Kind, d.Label, d.Reference, d.Document = "content", nodeLabel(n), n.Ref, n.DocID
		d.Source, d.Tokens, d.Pinned, hash = string(n.Kind), n.Tokens, n.Pinned, n.ContentHash
		if doc := ix.Docs[n.DocID]; doc != nil {
			d.Collection = doc.Collection
		}
		d.Cite = ix.Cite(id)
		if src := ix.CitedNode(id); src != nil {
			d.Location = locate(ix.Docs[src.DocID], src)
		}
	} else {
		w.ws.Unlock()
		return nil, fmt.Errorf("node %s: %w in this workspace", id, ErrNotFound)
	}
	label := func(id string) (string, string) {
		if c := ix.Concepts[id]; c != nil {
			return c.Name, "concept"
		}
		if n := ix.Nodes[id]; n != nil {
			return nodeLabel(n), "content"
		}
		return id, ""
	}
	add := func(other string, e model.Edge) {
		l, k := label(other)
		if k == "" {
			return
		}
		d.Neighbours = append(d.Neighbours, Neighbour{ID: other, Label: l, Kind: k, Edge: string(e.Kind), Weight: e.Weight})
		if k == "concept" && (e.Kind == model.EdgeAbout || e.Kind == model.EdgeRelated) {
			d.Concepts = append(d.Concepts, ConceptLink{ID: other, Name: l, Similarity: e.Weight})
		}
	}
	for _, e := range ix.Out[id] {
		add(e.To, e)
	}
	for from, es := range ix.Out {
		if from == id {
			continue
		}
		for _, e := range es {
			if e.To == id {
				add(from, e)
			}
		}
	}
	w.ws.Unlock()
	sort.SliceStable(d.Concepts, func(i, j int) bool { return d.Concepts[i].Similarity > d.Concepts[j].Similarity })
	sort.SliceStable(d.Neighbours, func(i, j int) bool {
		if d.Neighbours[i].Weight != d.Neighbours[j].Weight {
			return d.Neighbours[i].Weight > d.Neighbours[j].Weight
		}
		return d.Neighbours[i].ID < d.Neighbours[j].ID
	})
	d.Concepts = dedupeConcepts(d.Concepts)
	if len(d.Neighbours) > MaxNeighbours {
		d.Neighbours = d.Neighbours[:MaxNeighbours]
	}
	if hash != "" {
		text, err := w.ws.Content(hash)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", id, err)
		}
		d.Text = text
	}
	return d, nil
}

func dedupeConcepts(cs []ConceptLink) []ConceptLink {
	seen := map[string]bool{}
	out := cs[:0]
	for _, c := range cs {
		if !seen[c.ID] {
			seen[c.ID] = true
			out = append(out, c)
		}
	}
	return out
}
