package graphdb

import (
	"encoding/json"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/loomwork/loom/backend/model"
)

// The vocabulary of SCHEMA.md. Every node is an IRI "loom:<id>", where ids
// carry their kind as a prefix (d- document, n- content, c- concept).
const (
	iriWorkspace = quad.IRI("loom:workspace")

	predType        = quad.IRI("loom:type")
	predAttrs       = quad.IRI("loom:attrs")
	predMeta        = quad.IRI("loom:meta")
	predHas         = quad.IRI("loom:has")         // document → content node
	predAbout       = quad.IRI("loom:about")       // content node → concept
	predRelated     = quad.IRI("loom:related")     // concept → concept
	predParent      = quad.IRI("loom:parent")      // section → enclosing section
	predLinks       = quad.IRI("loom:links")       // section → document it links to
	predDerivedFrom = quad.IRI("loom:derivedFrom") // analysis node → its source
	predCalls       = quad.IRI("loom:calls")       // definition → definition it calls or names
	predImports     = quad.IRI("loom:imports")     // file node → file node it imports
	predImplements  = quad.IRI("loom:implements")  // type → interface, trait or base it implements

	typeDocument = quad.IRI("loom:Document")
	typeContent  = quad.IRI("loom:Content")
	typeConcept  = quad.IRI("loom:Concept")
)

// IRI is the Cayley node for a Loom id.
func IRI(id string) quad.IRI { return quad.IRI("loom:" + id) }

func idOf(v quad.Value) string {
	if iri, ok := v.(quad.IRI); ok && len(iri) > 5 {
		return string(iri[5:])
	}
	return ""
}

var edgePred = map[model.EdgeKind]quad.IRI{
	model.EdgeAbout:      predAbout,
	model.EdgeRelated:    predRelated,
	model.EdgeParent:     predParent,
	model.EdgeLinks:      predLinks,
	model.EdgeDerived:    predDerivedFrom,
	model.EdgeCalls:      predCalls,
	model.EdgeImports:    predImports,
	model.EdgeImplements: predImplements,
}

var predEdge = func() map[quad.IRI]model.EdgeKind {
	m := map[quad.IRI]model.EdgeKind{}
	for k, v := range edgePred {
		m[v] = k
	}
	return m
}()

// metaAttrs is the JSON of the workspace's meta quad.
type metaAttrs struct {
	Schema int `json:"schema"`
	model.Meta
}

// edgeAttrs is what an about/related edge carries besides its endpoints;
// it lives in the attrs of the edge's source node, keyed by target id.
type edgeAttrs struct {
	Weight    float64   `json:"w"`
	Direction string    `json:"dir,omitempty"`
	Created   time.Time `json:"at"`
}

// nodeAttrs is the JSON of a content node's attrs quad.
type nodeAttrs struct {
	model.ContentNode
	About map[string]edgeAttrs `json:"about,omitempty"`
}

// conceptAttrs is the JSON of a concept's attrs quad.
type conceptAttrs struct {
	model.Concept
	Related map[string]edgeAttrs `json:"related,omitempty"`
}

func attrsQuad(id string, v any) quad.Quad {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs of strings, numbers and times always marshal
	}
	return quad.Make(IRI(id), predAttrs, quad.String(b), nil)
}

// DocWrite is one document with everything it owns.
type DocWrite struct {
	Doc   model.Document
	Nodes []model.ContentNode
	// Edges from this document's nodes: about (to concepts), parent, links
	// (To is a document id), derived.
	Edges []model.Edge
}

func (w DocWrite) quads() []quad.Quad {
	out := make([]quad.Quad, 0, 3+2*len(w.Nodes)+len(w.Edges))
	d := IRI(w.Doc.ID)
	out = append(out, quad.Make(d, predType, typeDocument, nil), attrsQuad(w.Doc.ID, w.Doc))
	about := map[string]map[string]edgeAttrs{}
	for _, e := range w.Edges {
		out = append(out, quad.Make(IRI(e.From), edgePred[e.Kind], IRI(e.To), nil))
		if e.Kind == model.EdgeAbout {
			if about[e.From] == nil {
				about[e.From] = map[string]edgeAttrs{}
			}
			about[e.From][e.To] = edgeAttrs{Weight: e.Weight, Direction: e.Direction, Created: e.Created}
		}
	}
	for _, n := range w.Nodes {
		out = append(out,
			quad.Make(d, predHas, IRI(n.ID), nil),
			quad.Make(IRI(n.ID), predType, typeContent, nil),
			attrsQuad(n.ID, nodeAttrs{ContentNode: n, About: about[n.ID]}))
	}
	return out
}

func conceptQuads(c model.Concept, related []model.Edge) []quad.Quad {
	out := []quad.Quad{quad.Make(IRI(c.ID), predType, typeConcept, nil)}
	rel := map[string]edgeAttrs{}
	for _, e := range related {
		out = append(out, quad.Make(IRI(e.From), predRelated, IRI(e.To), nil))
		rel[e.To] = edgeAttrs{Weight: e.Weight, Created: e.Created}
	}
	if len(rel) == 0 {
		rel = nil
	}
	return append(out, attrsQuad(c.ID, conceptAttrs{Concept: c, Related: rel}))
}
