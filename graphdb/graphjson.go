package graphdb

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/loomwork/loom/backend/model"
)

// GraphJSONVersion is the version of the graph.json interchange format.
const GraphJSONVersion = 1

// GraphJSON is the seed's graph.json (§9.1): concept nodes, content nodes,
// edges with similarity, provenance and timestamp, plus the documents and
// workspace metadata. Content text is optional (Content, by content hash),
// so an export can be either a light index or a full, importable copy.
type GraphJSON struct {
	Version      int                 `json:"version"`
	Meta         model.Meta          `json:"metadata"`
	Documents    []model.Document    `json:"documents"`
	ConceptNodes []model.Concept     `json:"concept_nodes"`
	ContentNodes []model.ContentNode `json:"content_nodes"`
	Edges        []model.Edge        `json:"edges"`
	// Content maps content hashes to text (only with --content).
	Content map[string]string `json:"content,omitempty"`
}

// ToGraphJSON converts a snapshot.
func (snap *Snapshot) ToGraphJSON() *GraphJSON {
	g := &GraphJSON{Version: GraphJSONVersion, Meta: snap.Meta, Documents: snap.Documents,
		ConceptNodes: snap.Concepts, ContentNodes: snap.Nodes, Edges: snap.Edges}
	if g.Documents == nil {
		g.Documents = []model.Document{}
	}
	if g.ConceptNodes == nil {
		g.ConceptNodes = []model.Concept{}
	}
	if g.ContentNodes == nil {
		g.ContentNodes = []model.ContentNode{}
	}
	if g.Edges == nil {
		g.Edges = []model.Edge{}
	}
	return g
}

// Encode writes indented JSON.
func (g *GraphJSON) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}

// DecodeGraphJSON reads and checks a graph.json.
func DecodeGraphJSON(r io.Reader) (*GraphJSON, error) {
	var g GraphJSON
	dec := json.NewDecoder(r)
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("read graph.json: %w", err)
	}
	if g.Version != GraphJSONVersion {
		return nil, fmt.Errorf("read graph.json: version %d is not supported (expected %d)", g.Version, GraphJSONVersion)
	}
	return &g, nil
}

// Writes groups a graph.json into the Write that recreates it.
func (g *GraphJSON) Writes() Write {
	byDoc := map[string]*DocWrite{}
	var order []string
	for _, d := range g.Documents {
		byDoc[d.ID] = &DocWrite{Doc: d}
		order = append(order, d.ID)
	}
	nodeDoc := map[string]string{}
	for _, n := range g.ContentNodes {
		nodeDoc[n.ID] = n.DocID
		if dw := byDoc[n.DocID]; dw != nil {
			dw.Nodes = append(dw.Nodes, n)
		}
	}
	related := map[string][]model.Edge{}
	for _, e := range g.Edges {
		if e.Kind == model.EdgeRelated {
			related[e.From] = append(related[e.From], e)
			continue
		}
		if dw := byDoc[nodeDoc[e.From]]; dw != nil {
			dw.Edges = append(dw.Edges, e)
		}
	}
	var w Write
	for _, id := range order {
		w.Documents = append(w.Documents, *byDoc[id])
	}
	for _, c := range g.ConceptNodes {
		w.Concepts = append(w.Concepts, ConceptWrite{Concept: c, Related: related[c.ID]})
	}
	w.Meta = g.Meta
	return w
}
