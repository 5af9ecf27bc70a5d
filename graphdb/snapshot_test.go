package graphdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// sampleWrite is a graph with every kind of quad: documents with sections
// (parent, links, derived and about edges), concepts with related edges.
// Node and concept ids start at first, so that writes can be combined.
func sampleWrite(docs, nodesPerDoc, first int) Write {
	var w Write
	nc := docs*nodesPerDoc/8 + 1
	for c := 0; c < nc; c++ {
		id := fmt.Sprintf("c-%06d", first+c)
		cw := ConceptWrite{Concept: model.Concept{ID: id, Name: "concept " + id, Description: "about " + id, Created: t0.Add(time.Duration(c) * time.Second),
			Seed: fmt.Sprintf("n-%06d", first)}}
		if c > 0 {
			cw.Related = []model.Edge{{Kind: model.EdgeRelated, From: id, To: fmt.Sprintf("c-%06d", first+c-1), Weight: 0.5 + float64(c%7)/100, Created: t0}}
		}
		w.Concepts = append(w.Concepts, cw)
	}
	n := first
	for d := 0; d < docs; d++ {
		did := fmt.Sprintf("d-%06d", first+d)
		dw := DocWrite{Doc: model.Document{ID: did, Key: did, Path: fmt.Sprintf("/notes/%06d.md", first+d), Collection: "notes", Format: "markdown",
			Title: "Doc " + did, Hash: "h" + did, Bytes: 1000 + d, Ingested: t0, Groups: []string{"g"}}}
		var prev string
		for i := 0; i < nodesPerDoc; i++ {
			nid := fmt.Sprintf("n-%06d", n)
			n++
			node := model.ContentNode{ID: nid, DocID: did, Ref: fmt.Sprintf("%06d.md#s%d", first+d, i), HeadingPath: []string{"Doc", fmt.Sprint("S", i)},
				LineStart: i * 10, LineEnd: i*10 + 9, Ordinal: i, Parts: 1, ContentHash: "sha-" + nid, Kind: model.KindInput,
				ContentType: "prose", Complexity: 0.25 + float64(i%5)/10, Tokens: 100 + i, Created: t0, LastAccess: t0, Provenance: "ingest " + did, Parent: prev}
			if i%5 == 4 {
				node.Kind, node.Source, node.Level = model.KindAnalysis, prev, "summary"
				dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeDerived, From: nid, To: prev, Weight: 1})
			} else if prev != "" {
				dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeParent, From: nid, To: prev, Weight: 1})
			}
			if i == 1 && d > 0 {
				dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeLinks, From: nid, To: fmt.Sprintf("d-%06d", first+d-1), Weight: 1})
			}
			dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeAbout, From: nid, To: fmt.Sprintf("c-%06d", first+(n-first)%nc),
				Weight: 0.7 + float64(i%3)/10, Direction: "input", Created: t0})
			dw.Nodes = append(dw.Nodes, node)
			prev = nid
		}
		w.Documents = append(w.Documents, dw)
	}
	w.Meta = model.Meta{Documents: docs, ContentNodes: n - first, ConceptNodes: nc, Embedder: "test/e"}
	return w
}

// allQuads lists every stored quad as sorted N-Quads.
func allQuads(t testing.TB, s *Store) []string {
	t.Helper()
	ctx := context.Background()
	it := s.qs.QuadsAllIterator()
	defer it.Close()
	var out []string
	for it.Next(ctx) {
		out = append(out, s.qs.Quad(it.Result()).NQuad())
	}
	require.NoError(t, it.Err())
	sort.Strings(out)
	return out
}

func TestSnapshotRoundTripIsExact(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "graph.snapshot")
	s, err := OpenSnapshot(path)
	require.NoError(t, err)
	assert.Equal(t, "memory", s.Backend())
	assert.Equal(t, path, s.SnapshotPath())
	_, err = os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing is written before the first commit")

	// Several commits: additions, a touch, a document touch, a removal.
	_, err = s.Apply(ctx, sampleWrite(4, 6, 0))
	require.NoError(t, err)
	_, err = s.Apply(ctx, sampleWrite(2, 3, 1000))
	require.NoError(t, err)
	before, err := s.Load(ctx)
	require.NoError(t, err)
	touched := before.Nodes[2]
	touched.LastAccess = t0.Add(time.Hour)
	doc := before.Documents[1]
	doc.Groups = []string{"g", "h"}
	_, err = s.Apply(ctx, Write{Touch: []model.ContentNode{touched}, TouchDocs: []model.Document{doc}, Meta: before.Meta})
	require.NoError(t, err)
	meta, err := s.Apply(ctx, Write{Remove: []string{"d-001000"}, Meta: before.Meta})
	require.NoError(t, err)
	assert.Equal(t, int64(4), meta.Generation)

	want := allQuads(t, s)
	wantSnap, err := s.Load(ctx)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s2, err := OpenSnapshot(path)
	require.NoError(t, err)
	defer s2.Close()
	assert.Equal(t, want, allQuads(t, s2), "the reopened store holds exactly the same quads")
	got, err := s2.Load(ctx)
	require.NoError(t, err)
	assert.Equal(t, wantSnap, got)
	m, err := s2.Meta(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(4), m.Generation, "the generation survives (the index caches are keyed by it)")

	// Writing on continues the generation.
	meta, err = s2.Apply(ctx, Write{Remove: []string{"d-000003"}, Meta: m})
	require.NoError(t, err)
	assert.Equal(t, int64(5), meta.Generation)
}

func TestSnapshotCorruptFileIsAnError(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "graph.snapshot")
	s, err := OpenSnapshot(path)
	require.NoError(t, err)
	_, err = s.Apply(ctx, sampleWrite(3, 4, 0))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	full, err := os.ReadFile(path)
	require.NoError(t, err)

	for name, b := range map[string][]byte{
		"truncated": full[:len(full)/2],
		"empty":     {},
		"garbage":   []byte("\x00\x01not json"),
		"version":   []byte(`{"version": 99}`),
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, b, 0o644))
			_, err := OpenSnapshot(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path)
			assert.Contains(t, err.Error(), "truncated or corrupt")
			// A failed open does not hold the file.
			require.NoError(t, os.WriteFile(path, full, 0o644))
			s, err := OpenSnapshot(path)
			require.NoError(t, err)
			require.NoError(t, s.Close())
		})
	}
}

func TestSnapshotOneStorePerFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "graph.snapshot")
	s, err := OpenSnapshot(path)
	require.NoError(t, err)
	_, err = OpenSnapshot(path)
	assert.ErrorContains(t, err, "already open")
	require.NoError(t, s.Close())
	s, err = OpenSnapshot(path)
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// A write whose snapshot cannot be saved is undone in memory too: memory
// and file keep agreeing, as with a failed bolt transaction.
func TestSnapshotFailedSaveUndoesTheWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "graph.snapshot")
	s, err := OpenSnapshot(path)
	require.NoError(t, err)
	defer s.Close()
	w := sampleWrite(3, 4, 0)
	_, err = s.Apply(ctx, w)
	require.NoError(t, err)
	want := allQuads(t, s)
	file, err := os.ReadFile(path)
	require.NoError(t, err)

	// A folder where the temporary file goes makes the save fail.
	require.NoError(t, os.Mkdir(path+".tmp", 0o755))
	before, err := s.Load(ctx)
	require.NoError(t, err)
	touched := before.Nodes[0]
	touched.LastAccess = t0.Add(time.Hour)
	// Re-adding a stored document (ignored by the store) must survive the
	// undo, as must the removed document and the touched node.
	_, err = s.Apply(ctx, Write{Remove: []string{"d-000001"}, Documents: []DocWrite{w.Documents[0]},
		Touch: []model.ContentNode{touched}, Concepts: sampleWrite(1, 1, 500).Concepts, Meta: before.Meta})
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.Equal(t, want, allQuads(t, s))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, file, after)

	require.NoError(t, os.Remove(path+".tmp"))
	meta, err := s.Apply(ctx, Write{Remove: []string{"d-000001"}, Meta: before.Meta})
	require.NoError(t, err)
	assert.Equal(t, int64(2), meta.Generation)
}

// BenchmarkSnapshotSave measures the rewrite after a commit at about 5k
// content nodes (Load, encode, write, sync, rename); BenchmarkSnapshotOpen
// the load on open.
func BenchmarkSnapshotSave(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "graph.snapshot")
	s, err := OpenSnapshot(path)
	require.NoError(b, err)
	defer s.Close()
	_, err = s.Apply(ctx, sampleWrite(250, 20, 0))
	require.NoError(b, err)
	for b.Loop() {
		s.mu.Lock()
		err := s.saveSnapshot(ctx)
		s.mu.Unlock()
		require.NoError(b, err)
	}
	st, err := os.Stat(path)
	require.NoError(b, err)
	b.ReportMetric(float64(st.Size())/1e6, "MB")
}

func BenchmarkSnapshotOpen(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "graph.snapshot")
	s, err := OpenSnapshot(path)
	require.NoError(b, err)
	_, err = s.Apply(ctx, sampleWrite(250, 20, 0))
	require.NoError(b, err)
	require.NoError(b, s.Close())
	for b.Loop() {
		s, err := OpenSnapshot(path)
		require.NoError(b, err)
		require.NoError(b, s.Close())
	}
}
