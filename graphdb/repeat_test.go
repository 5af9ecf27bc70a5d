//go:build !js

package graphdb

import (
	"context"
	"testing"
	"time"

	"github.com/cayleygraph/cayley/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
)

// TestADocumentWrittenAgainKeepsOneCopyOfEachNode: a summary added to a
// stored document (the write the workspace makes for summaries made on
// demand) replaces the attributes of a node it names again instead of
// adding a second copy beside them — the copies a store held were read as
// two nodes of one id, which an export could not import. A store that
// holds such copies from before reads as one node each (the newest),
// counted in Repeated, and the next write of the node leaves one.
func TestADocumentWrittenAgainKeepsOneCopyOfEachNode(t *testing.T) {
	ctx := context.Background()
	w := sampleWrite(1, 2, 0)
	s, err := OpenBolt(newBolt(t, &w), BoltOptions{})
	require.NoError(t, err)
	defer s.Close()
	doc := w.Documents[0].Doc
	summary := model.ContentNode{ID: "n-sum", DocID: doc.ID, Ref: "000000.md#s0", ContentHash: "sha-sum", Kind: model.KindAnalysis,
		ContentType: "prose", Tokens: 20, Created: t0, LastAccess: t0, Source: "n-000000", Level: "summary"}
	derived := model.Edge{Kind: model.EdgeDerived, From: "n-sum", To: "n-000000", Weight: 1}
	for i := range 3 { // made again, by another process that had not seen it
		summary.Created = t0.Add(time.Duration(i) * time.Hour)
		_, err := s.Apply(ctx, Write{Documents: []DocWrite{{Doc: doc, Nodes: []model.ContentNode{summary}, Edges: []model.Edge{derived}}}})
		require.NoError(t, err)
	}
	snap, err := s.Load(ctx)
	require.NoError(t, err)
	assert.Len(t, snap.Nodes, 3, "the two nodes and one summary")
	assert.Zero(t, snap.Repeated)
	assert.Len(t, snap.Documents, 1)
	for _, n := range snap.Nodes {
		if n.ID == "n-sum" {
			assert.Equal(t, t0.Add(2*time.Hour), n.Created, "the last written")
		}
	}
	assert.True(t, oneEach(snap))

	// A store written before: an older copy beside the newest.
	old := summary
	old.Created = t0.Add(-time.Hour)
	require.NoError(t, s.kv.begin())
	require.NoError(t, s.commitBolt([]graph.Delta{{Quad: attrsQuad("n-sum", nodeAttrs{ContentNode: old}), Action: graph.Add}}))
	snap, err = s.Load(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, snap.Repeated)
	assert.Len(t, snap.Nodes, 3)
	assert.True(t, oneEach(snap), "an export imports")
	for _, n := range snap.Nodes {
		if n.ID == "n-sum" {
			assert.Equal(t, t0.Add(2*time.Hour), n.Created, "the newest copy")
		}
	}
	touched := summary
	touched.LastAccess = t0.Add(5 * time.Hour)
	_, err = s.Apply(ctx, Write{Touch: []model.ContentNode{touched}})
	require.NoError(t, err)
	snap, err = s.Load(ctx)
	require.NoError(t, err)
	assert.Zero(t, snap.Repeated, "a touch leaves one copy")
	assert.Len(t, snap.Nodes, 3)

	// A concept written again is replaced too, its related edges with it.
	c := w.Concepts[0]
	c.Concept.Description = "said again"
	c.Related = []model.Edge{{Kind: model.EdgeRelated, From: c.Concept.ID, To: "c-other", Weight: 0.9, Created: t0}}
	other := ConceptWrite{Concept: model.Concept{ID: "c-other", Name: "other", Created: t0}}
	_, err = s.Apply(ctx, Write{Concepts: []ConceptWrite{other, c}})
	require.NoError(t, err)
	snap, err = s.Load(ctx)
	require.NoError(t, err)
	assert.Zero(t, snap.Repeated)
	require.Len(t, snap.Concepts, len(w.Concepts)+1)
	var related []string
	for _, e := range snap.Edges {
		if e.Kind == model.EdgeRelated && e.From == c.Concept.ID {
			related = append(related, e.To)
		}
	}
	assert.Equal(t, []string{"c-other"}, related)
}

// oneEach reports whether every id of the snapshot's nodes is there once.
func oneEach(snap *Snapshot) bool {
	seen := map[string]bool{}
	for _, n := range snap.ToGraphJSON().ContentNodes {
		if seen[n.ID] {
			return false
		}
		seen[n.ID] = true
	}
	return true
}

// TestARemovedConceptLeavesNoEdge: a concept removed takes the edges to it
// along — the related edge another concept keeps in its attributes and
// the about edges of sections that remain — so the snapshot's edges are
// what the workspace facts count (a re-ingest that dropped a concept left
// the doctor saying the facts disagreed with the store).
func TestARemovedConceptLeavesNoEdge(t *testing.T) {
	ctx := context.Background()
	w := sampleWrite(2, 6, 0)
	s, err := OpenBolt(newBolt(t, &w), BoltOptions{})
	require.NoError(t, err)
	defer s.Close()
	before, err := s.Load(ctx)
	require.NoError(t, err)
	gone := "c-000001" // c-000002 is related to it, and sections are about it
	to := 0
	for _, e := range before.Edges {
		if e.To == gone {
			to++
		}
	}
	require.GreaterOrEqual(t, to, 2, "edges of both kinds point at it")

	_, err = s.Apply(ctx, Write{Remove: []string{gone}, Meta: before.Meta})
	require.NoError(t, err)
	after, err := s.Load(ctx)
	require.NoError(t, err)
	for _, e := range after.Edges {
		assert.NotEqual(t, gone, e.To, "%s %s → %s", e.Kind, e.From, e.To)
		assert.NotEqual(t, gone, e.From)
	}
	assert.Len(t, after.Edges, len(before.Edges)-to-1, "its own related edge went too")
	assert.Len(t, after.Concepts, len(before.Concepts)-1)
}
