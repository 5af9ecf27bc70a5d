package backend

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
)

// ingestedFixture ingests the fixture notes into a bolt workspace, closes
// it (which writes both caches) and returns its folder.
func ingestedFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(context.Background(), []string{copyFixture(t)}, IngestOptions{})
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	return dir
}

// fixtureQuestions are asked before and after a cache is damaged.
var fixtureQuestions = []string{"how is the budget calculated", "graph traversal", "stale notes", "descending score loading"}

func askFixture(t *testing.T, dir string) []*QueryResult {
	t.Helper()
	wb := openBolt(t, dir)
	defer func() { require.NoError(t, wb.Close()) }()
	require.NoError(t, wb.Warm(context.Background()))
	var out []*QueryResult
	for _, q := range fixtureQuestions {
		res, err := wb.Query(context.Background(), QueryRequest{Question: q, Budget: 600, NoTouch: true})
		require.NoError(t, err)
		res.Timing = Timing{}
		out = append(out, res)
	}
	return out
}

// TestDamagedCachesAreRebuilt damages index.cache and search.cache in every
// way a crash or a disk could (truncated, a byte changed, emptied, another
// generation's file) and checks that the workspace answers exactly as
// before, reading the store and the texts, and writes good caches again.
func TestDamagedCachesAreRebuilt(t *testing.T) {
	dir := ingestedFixture(t)
	want := askFixture(t, dir)
	wb := openBolt(t, dir)
	indexPath, searchPath := wb.ws.IndexCachePath(), wb.ws.SearchCachePath()
	require.NoError(t, wb.Close())
	goodIndex, err := os.ReadFile(indexPath)
	require.NoError(t, err)
	goodSearch, err := os.ReadFile(searchPath)
	require.NoError(t, err)

	// A cache of an older generation, with its own valid checksums.
	staleIndex, staleSearch := bytes.Clone(goodIndex), bytes.Clone(goodSearch)
	wb = openBolt(t, dir)
	ix, concepts := index.LoadGraphCache(indexPath, wb.ws.Meta().Generation)
	require.NotNil(t, ix, "the good cache loads")
	require.NotNil(t, concepts)
	stale := wb.ws.Meta()
	stale.Generation--
	staleFile := t.TempDir() + "/index.cache"
	require.NoError(t, ix.SaveCache(staleFile, stale))
	staleIndex, err = os.ReadFile(staleFile)
	require.NoError(t, err)
	r := index.NewSearch(ix, 1)
	require.True(t, r.LoadCache(searchPath, wb.ws.Meta().Generation, ix))
	tmp := t.TempDir() + "/search.cache"
	require.NoError(t, r.SaveCache(tmp, wb.ws.Meta().Generation-1))
	staleSearch, err = os.ReadFile(tmp)
	require.NoError(t, err)
	require.False(t, r.LoadCache(tmp, wb.ws.Meta().Generation, ix), "another generation's search cache is stale")
	require.NoError(t, wb.Close())

	damage := map[string]func([]byte) []byte{
		"truncated":        func(b []byte) []byte { return b[:len(b)*2/3] },
		"empty":            func([]byte) []byte { return nil },
		"one byte changed": func(b []byte) []byte { b = bytes.Clone(b); b[len(b)/2] ^= 0x20; return b },
		"trailing byte":    func(b []byte) []byte { return append(bytes.Clone(b), 0) },
	}
	for name, f := range damage {
		for _, which := range []string{"index", "search", "both"} {
			t.Run(name+"/"+which, func(t *testing.T) {
				if which != "search" {
					require.NoError(t, os.WriteFile(indexPath, f(goodIndex), 0o644))
				}
				if which != "index" {
					require.NoError(t, os.WriteFile(searchPath, f(goodSearch), 0o644))
				}
				assert.Equal(t, want, askFixture(t, dir))
				assertCachesGood(t, dir)
			})
		}
	}
	t.Run("stale", func(t *testing.T) {
		require.NoError(t, os.WriteFile(indexPath, staleIndex, 0o644))
		require.NoError(t, os.WriteFile(searchPath, staleSearch, 0o644))
		assert.Equal(t, want, askFixture(t, dir))
		assertCachesGood(t, dir)
	})
}

// assertCachesGood: both caches load at the workspace's generation.
func assertCachesGood(t *testing.T, dir string) {
	t.Helper()
	wb := openBolt(t, dir)
	defer wb.Close()
	ix, _ := index.LoadGraphCache(wb.ws.IndexCachePath(), wb.ws.Meta().Generation)
	require.NotNil(t, ix, "index.cache was rewritten")
	assert.True(t, index.NewSearch(ix, 1).LoadCache(wb.ws.SearchCachePath(), wb.ws.Meta().Generation, ix), "search.cache was rewritten")
}

// TestRebuildGraphOrder: the concept graph's lists come out in the order
// of the straightforward walk over sorted source ids.
func TestRebuildGraphOrder(t *testing.T) {
	ctx := context.Background()
	wb := openBolt(t, ingestedFixture(t))
	defer wb.Close()
	wb.ws.Lock()
	r, err := wb.ws.Search(ctx)
	wb.ws.Unlock()
	require.NoError(t, err)
	relAdj, concept, conceptSlots := map[string][]string{}, map[string][]string{}, map[string][]int32{}
	ids := make([]string, 0, len(r.Graph.Out))
	for id := range r.Graph.Out {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, from := range ids {
		for _, e := range r.Graph.Out[from] {
			switch e.Kind {
			case model.EdgeRelated:
				relAdj[e.From] = append(relAdj[e.From], e.To)
				relAdj[e.To] = append(relAdj[e.To], e.From)
			case model.EdgeAbout:
				concept[e.To] = append(concept[e.To], e.From)
				if sl, ok := r.Slot[e.From]; ok {
					conceptSlots[e.To] = append(conceptSlots[e.To], sl)
				}
			}
		}
	}
	require.NotEmpty(t, concept)
	assert.Equal(t, relAdj, r.RelAdj)
	assert.Equal(t, concept, r.Concept)
	assert.Equal(t, conceptSlots, r.ConceptSlots)
}

// TestRowsCache: Close writes the vectors' rows cache; a reopened
// workspace maps it instead of reading the vector log, and answers exactly
// as it does without it. A missing, damaged, stale or foreign cache (the
// same slot table, other vectors) is not used, the answers are the same,
// and Close writes a good one again.
func TestRowsCache(t *testing.T) {
	ctx := context.Background()
	dir := ingestedFixture(t)
	wb := openBolt(t, dir)
	require.NoError(t, wb.Warm(ctx))
	path, key := wb.ws.RowsCachePath(), wb.ws.CurrentSearch().TableKey()
	assert.Equal(t, string(key), wb.ws.RowsCacheKey(), "the ingest's cache was adopted")
	vecs := wb.ws.CurrentSearch().Vectors
	require.NoError(t, wb.Close())
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(good, key))

	want := askFixture(t, dir)
	require.NoError(t, os.Remove(path))
	assert.Equal(t, want, askFixture(t, dir), "without the cache")
	adopted := func() bool {
		wb := openBolt(t, dir)
		defer wb.Close()
		require.NoError(t, wb.Warm(ctx))
		return wb.ws.RowsCacheKey() != ""
	}
	require.True(t, adopted(), "Close wrote it again")
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, good, got)

	// Other vectors in the same slots, with good checksums: caught by the
	// spot check against the log.
	foreign := search.NewVectors(vecs.Dim())
	r := rand.New(rand.NewPCG(1, 2))
	for s := range int32(vecs.Slots()) {
		if vecs.Has(s) {
			v := make([]float32, vecs.Dim())
			for i := range v {
				v[i] = float32(r.NormFloat64())
			}
			foreign.Set(s, v)
		}
	}
	var buf bytes.Buffer
	buf.Write(good[:rowsHeader])
	require.NoError(t, foreign.WriteRows(&buf))

	staleKey := bytes.Clone(key)
	staleKey[len(staleKey)-1] ^= 1
	damage := map[string][]byte{
		"one byte changed": func() []byte { b := bytes.Clone(good); b[len(b)/2] ^= 0x20; return b }(),
		"truncated":        good[:len(good)*2/3],
		"header only":      good[:rowsHeader],
		"empty":            nil,
		"another table":    append(append(bytes.Clone(staleKey), good[len(staleKey):rowsHeader]...), good[rowsHeader:]...),
		"other vectors":    buf.Bytes(),
	}
	for name, b := range damage {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, b, 0o644))
			assert.False(t, adopted(), "a bad cache is not adopted")
			require.NoError(t, os.WriteFile(path, b, 0o644))
			assert.Equal(t, want, askFixture(t, dir))
			assert.True(t, adopted(), "and is written again")
		})
	}
}

const rowsHeader = index.RowsHeader
