package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
)

// What the workbench's library, graph view and details panel read: the
// documents with their sizes, the whole graph in a compact form, one node
// with its text and neighbours, hop distances from a query's concepts.
// Everything is read from the in-memory working index, never by walking
// Cayley per node.

// DocumentInfo is a document with what it became.
type DocumentInfo struct {
	model.Document
	// Source is where the file was read from (the document's key without
	// a corpus record suffix).
	Source string `json:"source"`
	Nodes  int    `json:"nodes"`
	Tokens int    `json:"tokens"`
	// Pinned: every searchable section of the document is pinned.
	Pinned bool `json:"pinned"`
}

// Documents lists the workspace's documents by collection, then path.
func (w *Workbench) Documents(ctx context.Context) ([]DocumentInfo, error) {
	w.Lock()
	defer w.Unlock()
	ix, err := w.Index(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]DocumentInfo, 0, len(ix.Docs))
	for id, d := range ix.Docs {
		info := DocumentInfo{Document: *d, Source: docSource(d)}
		searchableNodes, pinned := 0, 0
		for _, nid := range ix.DocNodes[id] {
			n := ix.Nodes[nid]
			if n == nil || !index.Searchable(n) {
				continue
			}
			info.Nodes++
			info.Tokens += n.Tokens
			searchableNodes++
			if n.Pinned {
				pinned++
			}
		}
		info.Pinned = searchableNodes > 0 && pinned == searchableNodes
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Collection != out[j].Collection {
			return out[i].Collection < out[j].Collection
		}
		return out[i].Path < out[j].Path
	})
	return out, nil
}

func docSource(d *model.Document) string {
	if d.Format == "beir" {
		if i := strings.LastIndexByte(d.Key, '#'); i >= 0 {
			return d.Key[:i]
		}
	}
	return d.Key
}

// RemoveDocuments deletes documents with their sections, edges, vectors
// and the concepts only they were about, in one transaction. Unknown ids
// are an error naming them, and then nothing is removed.
func (w *Workbench) RemoveDocuments(ctx context.Context, ids []string) error {
	if err := w.Writable("remove"); err != nil {
		return err
	}
	w.Lock()
	defer w.Unlock()
	ix, err := w.Index(ctx)
	if err != nil {
		return err
	}
	var unknown []string
	for _, id := range ids {
		if _, ok := ix.Docs[id]; !ok {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("remove: no document %s in this workspace", strings.Join(unknown, ", "))
	}
	if _, err := w.Search(ctx); err != nil {
		return err
	}
	b := newBatch()
	for _, id := range ids {
		w.removeDoc(ix, b, id)
	}
	if err := w.flush(context.WithoutCancel(ctx), ix, b); err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	w.SaveCaches()
	return nil
}

// ReingestDocument reads a document's file again (a changed file replaces
// its old sections; an unchanged one is left alone).
func (w *Workbench) ReingestDocument(ctx context.Context, id string, opts IngestOptions) (*IngestReport, error) {
	w.Lock()
	ix, err := w.Index(ctx)
	var d *model.Document
	if err == nil {
		d = ix.Docs[id]
	}
	w.Unlock()
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("re-ingest: no document %s in this workspace", id)
	}
	src := docSource(d)
	if _, err := os.Stat(src); err != nil {
		return nil, fmt.Errorf("re-ingest %s: the file is no longer readable at %s (%w)", d.Path, src, err)
	}
	return w.Ingest(ctx, []string{src}, opts)
}

// Upload is a file's text handed over by the page (a browser file input or
// drop), with the name it had, folders included ("notes/a.md").
type Upload struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// UploadsDir is where uploaded files are kept, under the workspace: an
// upload becomes a file there, so it can be re-ingested and its collection
// is its folder ("uploads" at the top).
func (w *Workbench) UploadsDir() string { return filepath.Join(w.Dir(), "uploads") }

// IngestUploads writes uploaded texts under UploadsDir and ingests them.
// A name that would leave that folder, or text that is not UTF-8, is
// reported for that file and the rest go on.
func (w *Workbench) IngestUploads(ctx context.Context, files []Upload, opts IngestOptions) (*IngestReport, error) {
	if err := w.Writable("ingest"); err != nil {
		return nil, err
	}
	var paths []string
	var bad []error
	for _, f := range files {
		p, err := w.writeUpload(f)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		paths = append(paths, p)
	}
	rep := &IngestReport{}
	if len(paths) > 0 {
		var err error
		if rep, err = w.Ingest(ctx, paths, opts); err != nil {
			return rep, err
		}
	}
	rep.Files += len(bad)
	rep.Errors = append(bad, rep.Errors...)
	return rep, nil
}

func (w *Workbench) writeUpload(f Upload) (string, error) {
	name := path.Clean("/" + strings.ReplaceAll(f.Name, `\`, "/"))[1:]
	if name == "" || name == "." || strings.HasPrefix(f.Name, "..") || strings.Contains(f.Name, "/../") {
		return "", &uploadError{name: f.Name, problem: "the name is not a file name inside the workspace"}
	}
	if !utf8.ValidString(f.Text) {
		return "", &uploadError{name: f.Name, problem: "the file is not UTF-8 text (binary files are not ingested)"}
	}
	p := filepath.Join(w.UploadsDir(), filepath.FromSlash(name))
	if err := storage.WriteFileAtomic(p, []byte(f.Text)); err != nil {
		return "", &uploadError{name: f.Name, problem: "could not store it in the workspace: " + err.Error()}
	}
	return p, nil
}

type uploadError struct{ name, problem string }

func (e *uploadError) Error() string { return e.name + ": " + e.problem }

// FileProblem splits an ingest error into the file it names and the
// problem, for showing per file.
func FileProblem(err error) (file, problem string) {
	var ue *uploadError
	if errors.As(err, &ue) {
		return ue.name, ue.problem
	}
	var fe *ingest.FileError
	if errors.As(err, &fe) {
		return fe.Path, fe.Problem
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 {
		return msg[:i], msg[i+2:]
	}
	return "", msg
}

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
}

// Graph returns every concept and content node and every edge, ordered by
// id so that the same workspace always draws the same way.
func (w *Workbench) Graph(ctx context.Context) (*GraphData, error) {
	w.Lock()
	defer w.Unlock()
	ix, err := w.Index(ctx)
	if err != nil {
		return nil, err
	}
	g := &GraphData{Nodes: make([]GraphNode, 0, len(ix.Concepts)+len(ix.Nodes)), Edges: []GraphEdge{}, Generation: w.Meta().Generation}
	for _, c := range ix.Concepts {
		g.Nodes = append(g.Nodes, GraphNode{ID: c.ID, Kind: "concept", Label: c.Name})
	}
	for _, n := range ix.Nodes {
		gn := GraphNode{ID: n.ID, Kind: "content", Label: nodeLabel(n), Source: string(n.Kind), Document: n.DocID, Tokens: n.Tokens, Pinned: n.Pinned}
		if d := ix.Docs[n.DocID]; d != nil {
			gn.Collection = d.Collection
		}
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
	return g, nil
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
	ID         string        `json:"id"`
	Kind       string        `json:"kind"`
	Label      string        `json:"label"`
	Reference  string        `json:"reference,omitempty"`
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
func (w *Workbench) Node(ctx context.Context, id string) (*NodeDetail, error) {
	w.Lock()
	ix, err := w.Index(ctx)
	if err != nil {
		w.Unlock()
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
	} else {
		w.Unlock()
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
	w.Unlock()
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
		text, err := w.Content(hash)
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

// ConceptHops is the hop distance of every concept within maxHops related
// edges of the seeds (seeds are 0), over the same adjacency the query's hop
// signal walks.
func (w *Workbench) ConceptHops(ctx context.Context, seeds []string, maxHops int) (map[string]int, error) {
	w.Lock()
	defer w.Unlock()
	r, err := w.Search(ctx)
	if err != nil {
		return nil, err
	}
	hops := make(map[string]int, len(seeds))
	frontier := make([]string, 0, len(seeds))
	for _, s := range seeds {
		if _, ok := hops[s]; !ok {
			hops[s] = 0
			frontier = append(frontier, s)
		}
	}
	for h := 1; h <= maxHops && len(frontier) > 0; h++ {
		var next []string
		for _, c := range frontier {
			for _, nb := range r.RelAdj[c] {
				if _, ok := hops[nb]; !ok {
					hops[nb] = h
					next = append(next, nb)
				}
			}
		}
		frontier = next
	}
	return hops, nil
}
