package graphdb

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/loomwork/loom/backend/errs"
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
		return nil, errs.Wrap(errs.Invalid, err, "read graph.json")
	}
	if g.Version != GraphJSONVersion {
		return nil, errs.E(errs.Invalid, "read graph.json: version %d is not supported (expected %d)", g.Version, GraphJSONVersion)
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

// Limits Validate holds a graph.json to: a section's tokens (a 32 MiB file
// is under 10 million) and the problems it lists before it stops.
const (
	maxNodeTokens   = 1 << 26
	maxListProblems = 8
)

// Validate checks that g describes a graph Loom can hold before anything
// of it is stored: ids of the right kind and unique, every section in a
// document of the file, every edge between things the file has (a link
// may point at a document not ingested yet), token counts that are
// possible, content hashes that are hashes, and, when the file carries
// the texts, texts that match their hashes. The error lists the problems
// (the first few, and how many there are).
func (g *GraphJSON) Validate() error {
	var problems []string
	bad := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	kind := map[string]string{}
	claim := func(id, want, what string) {
		switch {
		case len(id) < 3 || id[:2] != want:
			bad("%s %q: its id must start with %q", what, id, want)
		case kind[id] != "":
			bad("%s %s: the id is used twice", what, id)
		default:
			kind[id] = what
		}
	}
	for _, d := range g.Documents {
		claim(d.ID, "d-", "document")
		if d.Bytes < 0 {
			bad("document %s: %d bytes", d.ID, d.Bytes)
		}
	}
	for _, c := range g.ConceptNodes {
		claim(c.ID, "c-", "concept")
	}
	for _, n := range g.ContentNodes {
		claim(n.ID, "n-", "content node")
	}
	for _, n := range g.ContentNodes {
		if kind[n.DocID] != "document" {
			bad("content node %s: its document %q is not in the file", n.ID, n.DocID)
		}
		if n.Tokens < 0 || n.Tokens > maxNodeTokens {
			bad("content node %s: %d tokens is not a possible size (0 to %d)", n.ID, n.Tokens, maxNodeTokens)
		}
		if n.LineStart < 0 || n.LineEnd < n.LineStart {
			bad("content node %s: lines %d–%d", n.ID, n.LineStart, n.LineEnd)
		}
		if !IsHash(n.ContentHash) {
			bad("content node %s: %q is not a content hash (64 hex digits)", n.ID, n.ContentHash)
		} else if text, ok := g.Content[n.ContentHash]; ok {
			if sum := sha256.Sum256([]byte(text)); hex.EncodeToString(sum[:]) != n.ContentHash {
				bad("content node %s: its text does not match its hash", n.ID)
			}
		}
		for _, ref := range []struct{ field, id string }{{"parent", n.Parent}, {"source", n.Source}} {
			if ref.id != "" && kind[ref.id] != "content node" {
				bad("content node %s: its %s %s is not in the file", n.ID, ref.field, ref.id)
			}
		}
	}
	for _, c := range g.ConceptNodes {
		if c.Seed != "" && kind[c.Seed] != "content node" {
			bad("concept %s: its seed %s is not in the file", c.ID, c.Seed)
		}
	}
	ends := map[model.EdgeKind][2]string{
		model.EdgeAbout:   {"content node", "concept"},
		model.EdgeRelated: {"concept", "concept"},
		model.EdgeParent:  {"content node", "content node"},
		model.EdgeDerived: {"content node", "content node"},
		model.EdgeLinks:   {"content node", ""},
		// The symbol graph's edges may point at a definition that is gone
		// (its callers' edges outlive it until they are read again).
		model.EdgeCalls:      {"content node", ""},
		model.EdgeImports:    {"content node", ""},
		model.EdgeImplements: {"content node", ""},
	}
	for _, e := range g.Edges {
		want, ok := ends[e.Kind]
		switch {
		case !ok:
			bad("edge %s → %s: unknown kind %q", e.From, e.To, e.Kind)
		case kind[e.From] != want[0]:
			bad("%s edge %s → %s: %s is not a %s in the file", e.Kind, e.From, e.To, e.From, want[0])
		case want[1] != "" && kind[e.To] != want[1]:
			bad("%s edge %s → %s: %s is not a %s in the file", e.Kind, e.From, e.To, e.To, want[1])
		case e.Kind == model.EdgeLinks && (len(e.To) < 3 || e.To[:2] != "d-"):
			bad("links edge %s → %s: a link points at a document id", e.From, e.To)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	n := len(problems)
	if n > maxListProblems {
		problems = append(problems[:maxListProblems], fmt.Sprintf("… and %d more", n-maxListProblems))
	}
	return fmt.Errorf("%d problem(s), nothing was imported: %s", n, strings.Join(problems, "; "))
}

// IsHash tells whether s is a SHA-256 in lower-case hex, as stored texts
// are named.
func IsHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Facts are the workspace facts of g counted from its contents (a file's
// own metadata is not trusted for them).
func (g *GraphJSON) Facts() model.Meta {
	m := model.Meta{Documents: len(g.Documents), ContentNodes: len(g.ContentNodes), ConceptNodes: len(g.ConceptNodes),
		Edges: len(g.Edges), Embedder: g.Meta.Embedder}
	for _, n := range g.ContentNodes {
		m.Tokens += int64(n.Tokens)
	}
	return m
}
