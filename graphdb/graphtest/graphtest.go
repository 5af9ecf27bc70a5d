// Package graphtest is the conformance suite every graphdb backend passes
// (bolt, memory, snapshot, and any later one), in the manner of Cayley's
// graphtest: the backend's own test calls TestAll with a function that
// opens an empty store.
//
//	func TestBoltConforms(t *testing.T) {
//		graphtest.TestAll(t, func(t *testing.T) *graphdb.Store { … })
//	}
package graphtest

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// Open opens an empty store for one test; the suite closes it.
type Open func(t *testing.T) *graphdb.Store

// TestAll runs every conformance test against the backend.
func TestAll(t *testing.T, open Open) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, s *graphdb.Store)
	}{
		{"WriteThenLoadIsExact", writeThenLoadIsExact},
		{"GenerationCountsCommits", generationCountsCommits},
		{"ReplacingOneDocumentWhileRemovingOthersKeepsTheReplacement", replaceWhileRemoving},
		{"RemovingADocumentTakesItsNodesAndEdges", removeCascades},
		{"TouchRewritesAttributesOnly", touchKeepsEdges},
		{"UpdatingAMissingNodeFailsWholly", missingTouchFailsWholly},
		{"RandomWritesMatchAModel", randomWritesMatchAModel},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			c.run(t, s)
		})
	}
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// Doc is a document with n sections, each about concept c and the first
// linking to the document link (when set).
func Doc(id string, n int, c, link, version string) graphdb.DocWrite {
	dw := graphdb.DocWrite{Doc: model.Document{ID: id, Key: "/notes/" + id + ".md", Path: id + ".md", Collection: "notes",
		Format: "markdown", Title: "Doc " + id, Hash: "h-" + id + version, Bytes: 100 * n, Ingested: t0}}
	prev := ""
	for i := 0; i < n; i++ {
		nid := fmt.Sprintf("n-%s-%d%s", id[2:], i, version)
		node := model.ContentNode{ID: nid, DocID: id, Ref: fmt.Sprintf("%s.md#s%d", id, i), HeadingPath: []string{"Doc", fmt.Sprint("S", i)},
			LineStart: 10 * i, LineEnd: 10*i + 9, Ordinal: i, Parts: 1, ContentHash: "sha-" + nid, Kind: model.KindInput,
			ContentType: "prose", Tokens: 100 + i, Created: t0, LastAccess: t0, Parent: prev}
		if prev != "" {
			dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeParent, From: nid, To: prev, Weight: 1})
		}
		if i == 0 && link != "" {
			dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeLinks, From: nid, To: link, Weight: 1})
		}
		dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeAbout, From: nid, To: c, Weight: 0.8, Direction: "input", Created: t0})
		dw.Nodes = append(dw.Nodes, node)
		prev = nid
	}
	return dw
}

// Concept is a concept, related to the one named (when set).
func Concept(id, related string) graphdb.ConceptWrite {
	cw := graphdb.ConceptWrite{Concept: model.Concept{ID: id, Name: "concept " + id, Created: t0}}
	if related != "" {
		cw.Related = []model.Edge{{Kind: model.EdgeRelated, From: id, To: related, Weight: 0.6, Created: t0}}
	}
	return cw
}

func load(t *testing.T, s *graphdb.Store) *graphdb.Snapshot {
	t.Helper()
	snap, err := s.Load(context.Background())
	require.NoError(t, err)
	return snap
}

func ids(snap *graphdb.Snapshot) (docs, nodes, concepts []string) {
	for _, d := range snap.Documents {
		docs = append(docs, d.ID)
	}
	for _, n := range snap.Nodes {
		nodes = append(nodes, n.ID)
	}
	for _, c := range snap.Concepts {
		concepts = append(concepts, c.ID)
	}
	sort.Strings(docs)
	sort.Strings(nodes)
	sort.Strings(concepts)
	return
}

func writeThenLoadIsExact(t *testing.T, s *graphdb.Store) {
	ctx := context.Background()
	w := graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept("c-1", ""), Concept("c-2", "c-1")},
		Documents: []graphdb.DocWrite{Doc("d-a", 3, "c-1", "", ""), Doc("d-b", 2, "c-2", "d-a", "")},
		Meta:      model.Meta{Documents: 2, ContentNodes: 5, ConceptNodes: 2, Embedder: "test/e"}}
	meta, err := s.Apply(ctx, w)
	require.NoError(t, err)
	assert.Equal(t, int64(1), meta.Generation)
	snap := load(t, s)
	assert.Equal(t, "test/e", snap.Meta.Embedder)
	require.Len(t, snap.Documents, 2)
	assert.Equal(t, w.Documents[0].Doc, snap.Documents[0])
	require.Len(t, snap.Nodes, 5)
	assert.Equal(t, w.Documents[0].Nodes[1], snap.Nodes[1])
	assert.Equal(t, []string{"n-a-0", "n-a-1", "n-a-2"}, snap.DocNodes["d-a"])
	var kinds []string
	for _, e := range snap.Edges {
		kinds = append(kinds, string(e.Kind)+" "+e.From+" "+e.To)
	}
	assert.ElementsMatch(t, []string{
		"about n-a-0 c-1", "about n-a-1 c-1", "about n-a-2 c-1", "about n-b-0 c-2", "about n-b-1 c-2",
		"parent n-a-1 n-a-0", "parent n-a-2 n-a-1", "parent n-b-1 n-b-0", "links n-b-0 d-a", "related c-2 c-1",
	}, kinds)
	m, err := s.Meta(ctx)
	require.NoError(t, err)
	assert.Equal(t, meta, m)
}

func generationCountsCommits(t *testing.T, s *graphdb.Store) {
	ctx := context.Background()
	for i := 1; i <= 3; i++ {
		meta, err := s.Apply(ctx, graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept(fmt.Sprint("c-", i), "")}})
		require.NoError(t, err)
		assert.Equal(t, int64(i), meta.Generation)
	}
}

// Cayley v0.7.7's kv store lost the replacement when one write removed
// two documents sharing predicates and re-added one (ingest --prune).
func replaceWhileRemoving(t *testing.T, s *graphdb.Store) {
	ctx := context.Background()
	_, err := s.Apply(ctx, graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept("c-1", "")},
		Documents: []graphdb.DocWrite{Doc("d-a", 2, "c-1", "", ""), Doc("d-b", 2, "c-1", "d-a", ""), Doc("d-c", 1, "c-1", "", "")}})
	require.NoError(t, err)
	replaced := Doc("d-a", 3, "c-1", "", "v2")
	_, err = s.Apply(ctx, graphdb.Write{Remove: []string{"d-a", "d-b"}, Documents: []graphdb.DocWrite{replaced}})
	require.NoError(t, err)
	snap := load(t, s)
	docs, nodes, concepts := ids(snap)
	assert.Equal(t, []string{"d-a", "d-c"}, docs)
	assert.Equal(t, []string{"n-a-0v2", "n-a-1v2", "n-a-2v2", "n-c-0"}, nodes)
	assert.Equal(t, []string{"c-1"}, concepts)
	assert.Equal(t, replaced.Doc, snap.Documents[0])
	about := 0
	for _, e := range snap.Edges {
		if e.Kind == model.EdgeAbout {
			about++
		}
	}
	assert.Equal(t, 4, about, "every remaining node keeps its concept")
}

func removeCascades(t *testing.T, s *graphdb.Store) {
	ctx := context.Background()
	_, err := s.Apply(ctx, graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept("c-1", ""), Concept("c-2", "c-1")},
		Documents: []graphdb.DocWrite{Doc("d-a", 2, "c-1", "", ""), Doc("d-b", 2, "c-2", "d-a", "")}})
	require.NoError(t, err)
	_, err = s.Apply(ctx, graphdb.Write{Remove: []string{"d-b", "c-2"}})
	require.NoError(t, err)
	snap := load(t, s)
	docs, nodes, concepts := ids(snap)
	assert.Equal(t, []string{"d-a"}, docs)
	assert.Equal(t, []string{"n-a-0", "n-a-1"}, nodes)
	assert.Equal(t, []string{"c-1"}, concepts)
	for _, e := range snap.Edges {
		assert.NotContains(t, []string{e.From, e.To}, "c-2", "no edge to a removed concept")
		assert.NotContains(t, e.From, "n-b", "no edge from a removed node")
	}
}

func touchKeepsEdges(t *testing.T, s *graphdb.Store) {
	ctx := context.Background()
	d := Doc("d-a", 2, "c-1", "", "")
	_, err := s.Apply(ctx, graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept("c-1", "")}, Documents: []graphdb.DocWrite{d}})
	require.NoError(t, err)
	before := load(t, s)
	n := d.Nodes[1]
	n.LastAccess, n.Pinned = t0.Add(time.Hour), true
	doc := d.Doc
	doc.Groups = []string{"reading"}
	_, err = s.Apply(ctx, graphdb.Write{Touch: []model.ContentNode{n}, TouchDocs: []model.Document{doc}})
	require.NoError(t, err)
	after := load(t, s)
	assert.Equal(t, before.Edges, after.Edges)
	assert.Equal(t, n, after.Nodes[1])
	assert.Equal(t, doc, after.Documents[0])
}

func missingTouchFailsWholly(t *testing.T, s *graphdb.Store) {
	ctx := context.Background()
	_, err := s.Apply(ctx, graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept("c-1", "")}})
	require.NoError(t, err)
	before := load(t, s)
	_, err = s.Apply(ctx, graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept("c-2", "")},
		Touch: []model.ContentNode{{ID: "n-missing"}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "n-missing")
	assert.Equal(t, before, load(t, s), "nothing of a failed write is kept")
}

// randomWritesMatchAModel applies seeded random writes (add, replace and
// remove documents, several at once) and checks after each that the store
// holds exactly what a plain map model says.
func randomWritesMatchAModel(t *testing.T, s *graphdb.Store) {
	ctx := context.Background()
	_, err := s.Apply(ctx, graphdb.Write{Concepts: []graphdb.ConceptWrite{Concept("c-1", ""), Concept("c-2", "c-1")}})
	require.NoError(t, err)
	model := map[string]graphdb.DocWrite{}
	rng := uint64(42)
	next := func(n int) int { // xorshift: the same sequence everywhere
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	for step := 0; step < 40; step++ {
		var w graphdb.Write
		touched := map[string]bool{}
		for k := 0; k < 1+next(4); k++ {
			id := fmt.Sprintf("d-%d", next(8))
			if touched[id] {
				continue
			}
			touched[id] = true
			if _, ok := model[id]; ok {
				w.Remove = append(w.Remove, id)
				delete(model, id)
			}
			if next(3) > 0 { // add or replace
				c := []string{"c-1", "c-2"}[next(2)]
				d := Doc(id, 1+next(3), c, "", fmt.Sprint("v", step))
				w.Documents = append(w.Documents, d)
				model[id] = d
			}
		}
		_, err := s.Apply(ctx, w)
		require.NoError(t, err, "step %d", step)
		snap := load(t, s)
		var wantDocs, wantNodes []string
		for id, d := range model {
			wantDocs = append(wantDocs, id)
			for _, n := range d.Nodes {
				wantNodes = append(wantNodes, n.ID)
			}
		}
		sort.Strings(wantDocs)
		sort.Strings(wantNodes)
		docs, nodes, _ := ids(snap)
		require.Equal(t, wantDocs, docs, "step %d", step)
		require.Equal(t, wantNodes, nodes, "step %d", step)
		edges := 0
		for _, d := range model {
			edges += len(d.Edges)
		}
		require.Len(t, snap.Edges, edges+1, "step %d: every edge of every document, and c-2 → c-1", step)
	}
}
