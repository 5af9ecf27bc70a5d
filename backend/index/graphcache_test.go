package index

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

func TestIndexCacheFieldsKnown(t *testing.T) {
	assert.True(t, indexCacheFieldsKnown, "a model type gained or lost a field: teach encodeIndexCache and decodeIndexCache "+
		"(and indexCacheFields) about it, or index.cache falls back to gob")
}

// sampleSnapshot is a graph with every field of every model type set.
func sampleSnapshot() *graphdb.Snapshot {
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s := &graphdb.Snapshot{Meta: model.Meta{Documents: 3, ContentNodes: 9, ConceptNodes: 2, Edges: 12, Tokens: 900, Embedder: "test/e", Generation: 7},
		DocNodes: map[string][]string{}}
	for d := 0; d < 3; d++ {
		did := fmt.Sprintf("d-%d", d)
		s.Documents = append(s.Documents, model.Document{ID: did, Key: "/notes/" + did + ".md", Path: did + ".md", Collection: "notes",
			Format: "markdown", Title: "Doc " + did, Hash: "h" + did, Bytes: 100 + d, Ingested: t0, Modified: t0.Add(-time.Hour), Groups: []string{"g", "h"}[:d%3]})
		prev := ""
		for i := 0; i < 3; i++ {
			nid := fmt.Sprintf("n-%d-%d", d, i)
			n := model.ContentNode{ID: nid, DocID: did, Ref: fmt.Sprintf("%s.md#s%d", did, i), Ancestors: []string{did + ".md"},
				HeadingPath: []string{"Doc", fmt.Sprint("S", i)}, LineStart: i * 10, LineEnd: i*10 + 9, Ordinal: i, Part: i % 2, Parts: 2,
				ContentHash: "sha-" + nid, Kind: model.KindInput, ContentType: "prose", Complexity: 0.25, Tokens: 100 + i,
				Created: t0, LastAccess: t0.Add(time.Hour), Provenance: "ingest", Parent: prev, NearMiss: "c-1", NearMissSim: 0.7,
				Pinned: i == 1, Source: "", Level: ""}
			if d == 1 {
				n.Symbol = &model.Symbol{Kind: "func", Name: fmt.Sprint("F", i), Signature: "func F()", Methods: []string{"M"}, Exported: true, Hash: "abc", Start: 3, End: 9}
			}
			if i == 2 {
				n.Kind, n.Source, n.Level = model.KindAnalysis, prev, "summary"
				s.Edges = append(s.Edges, model.Edge{Kind: model.EdgeDerived, From: nid, To: prev, Weight: 1})
			} else if prev != "" {
				s.Edges = append(s.Edges, model.Edge{Kind: model.EdgeParent, From: nid, To: prev, Weight: 1})
			}
			s.Edges = append(s.Edges, model.Edge{Kind: model.EdgeAbout, From: nid, To: fmt.Sprintf("c-%d", i%2), Weight: 0.8, Direction: "input", Created: t0})
			s.Nodes = append(s.Nodes, n)
			s.DocNodes[did] = append(s.DocNodes[did], nid)
			prev = nid
		}
	}
	s.Concepts = []model.Concept{{ID: "c-0", Name: "zero", Description: "about zero", Created: t0, Seed: "n-0-0"},
		{ID: "c-1", Name: "one", Description: "about one", Created: t0.Add(time.Second), Seed: "n-0-1"}}
	s.Edges = append(s.Edges, model.Edge{Kind: model.EdgeRelated, From: "c-1", To: "c-0", Weight: 0.6, Created: t0},
		model.Edge{Kind: model.EdgeLinks, From: "n-1-0", To: "d-0", Weight: 1})
	s.Sort()
	return s
}

// TestIndexCacheMatchesGob: the flat index cache gives the index the gob
// cache gave, field for field, and refuses every damage.
func TestIndexCacheMatchesGob(t *testing.T) {
	snap := sampleSnapshot()
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(cacheFile{Generation: 7, Snapshot: snap}))
	var viaGob cacheFile
	require.NoError(t, gob.NewDecoder(&buf).Decode(&viaGob))
	want := FromSnapshot(viaGob.Snapshot)

	b, err := encodeIndexCache(snap, 7)
	require.NoError(t, err)
	got, concepts, err := decodeIndexCache(b, 7)
	require.NoError(t, err)
	assert.Equal(t, viaGob.Snapshot.Concepts, concepts)
	assert.Equal(t, want.Docs, got.Docs)
	assert.Equal(t, want.DocByKey, got.DocByKey)
	assert.Equal(t, want.DocNodes, got.DocNodes)
	assert.Equal(t, want.Nodes, got.Nodes)
	assert.Equal(t, want.Concepts, got.Concepts)
	assert.Equal(t, want.Out, got.Out)
	assert.Equal(t, want.AboutCount, got.AboutCount)
	assert.Equal(t, snap.Meta, got.Saved, "the workspace facts ride along")
	again, err := encodeIndexCache(got.Snapshot(snap.Meta), 7)
	require.NoError(t, err)
	assert.Equal(t, b, again, "a decoded index encodes to the same bytes")

	_, _, err = decodeIndexCache(b, 8)
	assert.ErrorIs(t, err, errBadIndexCache, "another generation is stale")
	_, _, err = decodeIndexCache(b, AnyGeneration)
	assert.NoError(t, err, "a reader beside a writer takes any generation")
	for n := 0; n < len(b); n += 1 + n/32 {
		_, _, err := decodeIndexCache(b[:n], 7)
		require.ErrorIs(t, err, errBadIndexCache, "truncated to %d bytes", n)
	}
	for i := 0; i < len(b); i += 1 + i/32 {
		bad := bytes.Clone(b)
		bad[i] ^= 0x04
		_, _, err := decodeIndexCache(bad, 7)
		require.ErrorIs(t, err, errBadIndexCache, "byte %d changed", i)
	}
}
