package index

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
)

// Search is the query side of the working index: every searchable
// content node has a slot (a small int) in a BM25 keyword index and in one
// contiguous matrix of unit vectors, and the concept graph has undirected
// adjacency for hop distances. It is built from the index on first need
// (from search.cache when that matches the store's generation) and kept in
// step by ingest.
type Search struct {
	Graph   *Graph // the working index it was built for
	Slot    map[string]int32
	IDs     []string // by slot; "" for a free slot
	Free    []int32
	Keyword *search.Keyword // unigrams
	Phrases *search.Keyword // bigrams (phrase field)
	Vectors *search.Vectors
	RelAdj  map[string][]string // concept ↔ concept (related edges, both ways)
	Concept map[string][]string // concept → content nodes about it
	// ConceptSlots is concept → the slots of those nodes (the query's
	// graph expansion walks it without map lookups).
	ConceptSlots map[string][]int32
	// Analysis: source node → level → summary node; pins: pinned nodes.
	Analysis map[string]map[string]string
	Pins     map[string]bool
	Children map[string][]string // section → its subsections
	// Callers is source code's symbol graph the other way: a definition →
	// the definitions that call, implement or import it.
	Callers map[string][]string
	// Names is source code's definitions by name (a method's without its
	// receiver: "Close" for "Workbench.Close"), as a question may name them.
	Names   map[string][]string
	scratch sync.Pool
	key     []byte // tableKey, once computed; add and remove clear it
	idsMu   sync.Mutex
	sorted  []string // SortedIDs, once computed; add and remove clear it
}

// SortedIDs are the ids of the searchable nodes in order (what a prompt's
// shortened ids must tell apart: assemble.ShortIDs). Built on first need
// after a change; safe for queries that run at once.
func (r *Search) SortedIDs() []string {
	r.idsMu.Lock()
	defer r.idsMu.Unlock()
	if r.sorted == nil {
		r.sorted = make([]string, 0, len(r.Slot))
		for id := range r.Slot {
			r.sorted = append(r.sorted, id)
		}
		slices.Sort(r.sorted)
	}
	return r.sorted
}

// forgetIDs drops SortedIDs (a node came or went).
func (r *Search) forgetIDs() {
	r.idsMu.Lock()
	r.sorted = nil
	r.idsMu.Unlock()
}

// Scratch holds one query's per-slot arrays (reused: at 50k nodes they
// are 800 KB a question, which the garbage collector would otherwise chase).
type Scratch struct {
	KW, Cos, Fused []float32
	Seen, Exact    []bool
}

func (r *Search) GetScratch(n int) *Scratch {
	if sc, ok := r.scratch.Get().(*Scratch); ok && len(sc.Seen) == n {
		clear(sc.Seen)
		clear(sc.Exact)
		return sc
	}
	return &Scratch{KW: make([]float32, n), Cos: make([]float32, n), Fused: make([]float32, n),
		Seen: make([]bool, n), Exact: make([]bool, n)}
}

func (r *Search) PutScratch(sc *Scratch) { r.scratch.Put(sc) }

func NewSearch(ix *Graph, dim int) *Search {
	return &Search{Graph: ix, Slot: map[string]int32{}, Keyword: search.NewKeyword(search.DefaultBM25), Phrases: search.NewKeyword(search.DefaultBM25),
		Vectors: search.NewVectors(dim), RelAdj: map[string][]string{}, Concept: map[string][]string{}}
}

// Searchable: analysis nodes (summaries) are reached through their source.
func Searchable(n *model.ContentNode) bool { return n.Source == "" }

// KeywordTerms is what the keyword index sees of a section: its heading
// path, its own heading again headingBoost more times (a heading names
// what the section is about: a cheap BM25F), and its text.
func KeywordTerms(headingPath []string, text string) []string {
	var b strings.Builder
	b.WriteString(ingest.EmbedText(headingPath, text))
	if len(headingPath) > 0 {
		for range headingBoost {
			b.WriteString("\n")
			b.WriteString(headingPath[len(headingPath)-1])
		}
	}
	return search.Terms(b.String())
}

// Bigrams are the pairs of adjacent terms, indexed as a phrase field of
// their own: a shared phrase ("context catalog", "budget calculation") is
// strong evidence on notes, but weighs on scientific abstracts, so its
// weight is a setting (phrase_weight).
func Bigrams(terms []string) []string {
	out := make([]string, 0, len(terms))
	for i := 1; i < len(terms); i++ {
		out = append(out, terms[i-1]+"_"+terms[i])
	}
	return out
}

// headingBoost: on the seed queries, repeating a section's own heading
// twice more lifted precision 0.51 → 0.53 at equal recall (BENCHMARKS.md).
const headingBoost = 2

func (r *Search) Add(n *model.ContentNode, terms []string, vec []float32) {
	r.key = nil
	s, ok := r.Slot[n.ID]
	if !ok {
		r.forgetIDs()
		if k := len(r.Free); k > 0 {
			s, r.Free = r.Free[k-1], r.Free[:k-1]
			r.IDs[s] = n.ID
		} else {
			s = int32(len(r.IDs))
			r.IDs = append(r.IDs, n.ID)
		}
		r.Slot[n.ID] = s
	}
	r.Keyword.Set(s, terms)
	r.Phrases.Set(s, Bigrams(terms))
	if vec != nil {
		r.Vectors.Set(s, vec)
	}
}

func (r *Search) Remove(id string) {
	s, ok := r.Slot[id]
	if !ok {
		return
	}
	r.key = nil
	r.forgetIDs()
	r.Keyword.Remove(s)
	r.Phrases.Remove(s)
	r.Vectors.Remove(s)
	r.IDs[s] = ""
	r.Free = append(r.Free, s)
	delete(r.Slot, id)
}

// RebuildGraph recomputes the concept adjacency from the index's edges.
func (r *Search) RebuildGraph() {
	r.IndexNodes()
	r.RelAdj, r.Concept, r.ConceptSlots = map[string][]string{}, map[string][]string{}, map[string][]int32{}
	r.Callers = map[string][]string{}
	// By source id, so that every list comes out in the same order
	// whatever the map's; the edges are taken with their key (no second
	// lookup).
	type source struct {
		id    string
		edges []model.Edge
	}
	sources := make([]source, 0, len(r.Graph.Out))
	for id, es := range r.Graph.Out {
		sources = append(sources, source{id, es})
	}
	slices.SortFunc(sources, func(a, b source) int { return strings.Compare(a.id, b.id) })
	for _, src := range sources {
		sl, hasSlot := int32(0), false
		looked := false
		for _, e := range src.edges {
			switch e.Kind {
			case model.EdgeCalls, model.EdgeImplements, model.EdgeImports:
				r.Callers[e.To] = append(r.Callers[e.To], e.From)
			case model.EdgeRelated:
				r.RelAdj[e.From] = append(r.RelAdj[e.From], e.To)
				r.RelAdj[e.To] = append(r.RelAdj[e.To], e.From)
			case model.EdgeAbout:
				r.Concept[e.To] = append(r.Concept[e.To], e.From)
				if e.From != src.id || !looked {
					sl, hasSlot = r.Slot[e.From]
					looked = e.From == src.id
				}
				if hasSlot {
					r.ConceptSlots[e.To] = append(r.ConceptSlots[e.To], sl)
				}
			}
		}
	}
}

// DefinitionName is the name a question would use for a definition named
// name in the index: without a receiver ("Workbench.Close" → "Close") and
// without the suffix that tells apart definitions of one name in one file
// ("init-2" → "init").
func DefinitionName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.LastIndexByte(name, '-'); i > 0 && strings.Trim(name[i+1:], "0123456789") == "" && i+1 < len(name) {
		name = name[:i]
	}
	return name
}

// AnalysisOf returns the cached summary or essence of a node, if made.
func (r *Search) AnalysisOf(source string, level abstract.Level) *model.ContentNode {
	if r == nil || r.Analysis == nil {
		return nil
	}
	id := r.Analysis[source][string(level)]
	if id == "" {
		return nil
	}
	return r.Graph.Nodes[id]
}

// Pinned is the set of nodes Pinned in the workspace.
func (r *Search) Pinned() map[string]bool { return r.Pins }

// IndexNodes rebuilds the analysis and pin maps from the index.
func (r *Search) IndexNodes() {
	r.Analysis, r.Pins, r.Children = map[string]map[string]string{}, map[string]bool{}, map[string][]string{}
	r.Names = map[string][]string{}
	for id, n := range r.Graph.Nodes {
		if n.Symbol != nil && n.Symbol.Kind != "file" && Searchable(n) && n.Part <= 1 {
			name := DefinitionName(n.Symbol.Name)
			r.Names[name] = append(r.Names[name], id)
		}
		if n.Parent != "" && Searchable(n) {
			r.Children[n.Parent] = append(r.Children[n.Parent], id)
		}
		if n.Pinned {
			r.Pins[id] = true
		}
		if n.Source != "" {
			if r.Analysis[n.Source] == nil {
				r.Analysis[n.Source] = map[string]string{}
			}
			// A node may have several summaries at one level, each made to
			// the room a question had: the latest stands, as it did when it
			// was made (workspace's pending), not the one the map's order
			// gives last, so that a question gets the same context from one
			// run to the next.
			if old := r.Graph.Nodes[r.Analysis[n.Source][n.Level]]; old == nil || Later(n, old) {
				r.Analysis[n.Source][n.Level] = id
			}
		}
	}
	for _, ids := range r.Names {
		slices.Sort(ids) // the same order whatever the map's
	}
}

// Later: a was made after b (by the id when they were made at once): of
// two summaries of one section at one level, the later is read.
func Later(a, b *model.ContentNode) bool {
	if !a.Created.Equal(b.Created) {
		return a.Created.After(b.Created)
	}
	return a.ID > b.ID
}

// BuildKeywords reads every searchable node's text (read) and indexes it,
// in parallel (analysis is the cost). A node whose text cannot be had
// (errs.Unavailable) is indexed by its headings: a question that would
// load it says why it cannot.
func (s *Search) BuildKeywords(ctx context.Context, read func(hash string) (string, error)) error {
	var nodes []*model.ContentNode
	for _, n := range s.Graph.Nodes {
		if Searchable(n) {
			nodes = append(nodes, n)
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	terms := make([][]string, len(nodes))
	failed := make([]error, len(nodes))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				text, err := read(nodes[i].ContentHash)
				if errs.CodeOf(err) == errs.Unavailable {
					text, err = "", nil
				}
				if err != nil {
					failed[i] = err
					continue
				}
				terms[i] = NodeTerms(nodes[i], s.Graph.Docs[nodes[i].DocID], text)
			}
		})
	}
	for i := range nodes {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := errors.Join(failed...); err != nil {
		return fmt.Errorf("build the keyword index: %w", err)
	}
	for i, n := range nodes {
		s.Add(n, terms[i], nil)
	}
	return nil
}
