//go:build !js

package query

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/loomwork/loom/backend/synth"
	"github.com/loomwork/loom/backend/workspace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEstimatedPoolRanksExactly runs the same questions on two copies of
// one workspace, one scanning the float32 vectors and one ranking on the
// quantised copy's estimates (made exact where a bound could matter):
// every result — candidates, scores, signals, what loaded, the prompt —
// must be the same.
func TestEstimatedPoolRanksExactly(t *testing.T) {
	ctx := context.Background()
	corpus, exactDir := t.TempDir(), filepath.Join(t.TempDir(), "ws")
	require.NoError(t, synth.Generate(corpus, 1500, 3))
	// The quantised scan serves vectors of at most search.SketchMinDim
	// dimensions: the offline embedder cut to its first 96.
	small := narrowOffline(t, 96)
	ingestWith(t, exactDir, []workspace.Option{small}, corpus)
	estDir := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, os.CopyFS(estDir, os.DirFS(exactDir)))

	exact, est := openPipeline(t, exactDir, small), openPipeline(t, estDir, small)
	re, err := exact.ws.Search(ctx)
	require.NoError(t, err)
	r, err := est.ws.Search(ctx)
	require.NoError(t, err)
	r.Vectors.Quantise()
	require.Empty(t, r.Free, "every slot holds a node: the estimated path applies")
	probe := make([]float32, r.Vectors.Slots())
	_, _, ok := r.Vectors.Estimate(make([]float32, r.Vectors.Dim()), probe)
	require.True(t, ok)
	_, _, ok = re.Vectors.Estimate(make([]float32, re.Vectors.Dim()), probe)
	require.False(t, ok, "1,500 rows are below QuantMinRows: the other copy scans exactly")

	// The estimates spare work: one question makes only a few rows exact.
	e, err := est.ws.Embedder(ctx)
	require.NoError(t, err)
	qv, err := e.Embed(ctx, []string{synth.Questions(1, 3)[0]})
	require.NoError(t, err)
	p := newPool(est, r, synth.Questions(1, 3)[0], qv[0], QueryRequest{}, nil, StrategyLoom, est.ws.RankingConfig())
	require.NotNil(t, p.est)
	exactRows := 0
	for _, x := range p.est.exact {
		if x {
			exactRows++
		}
	}
	p.release()
	t.Logf("rows made exact: %d of %d", exactRows, len(probe))
	assert.Less(t, exactRows, len(probe)/4)

	questions := append(synth.Questions(60, 3), "what", "the of and", "zzzz unknown words")
	for _, req := range []QueryRequest{
		{Budget: 4000},
		{Budget: 1500, Level: "detailed", Candidates: 30},
		{Budget: 8000, Purpose: "explore", Candidates: 250},
	} {
		for _, q := range questions {
			req.Question = q
			a, err := exact.Query(ctx, req)
			require.NoError(t, err, q)
			b, err := est.Query(ctx, req)
			require.NoError(t, err, q)
			a.Timing, b.Timing = Timing{}, Timing{}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !assert.JSONEq(t, string(ja), string(jb), "question %q, budget %d", q, req.Budget) {
				return
			}
		}
	}
}

// TestPinnedNodeAboutASeedConceptIsKept: graph expansion considers every
// node about a seed concept but keeps only the best few; a pinned node
// among the others must still join the pool (it once did not: considering
// a node marked it as already in the pool).
func TestPinnedNodeAboutASeedConceptIsKept(t *testing.T) {
	ctx := context.Background()
	corpus, dir := t.TempDir(), t.TempDir()
	require.NoError(t, synth.Generate(corpus, 600, 5))
	ingestInto(t, dir, corpus)
	wb := openPipeline(t, dir)

	q := synth.Questions(1, 5)[0]
	req := QueryRequest{Question: q, Budget: 3000, Candidates: 5}
	res, err := wb.Query(ctx, req)
	require.NoError(t, err)
	require.NotEmpty(t, res.Seeds)
	in := map[string]bool{}
	for _, c := range res.Candidates {
		in[c.ID] = true
	}
	r, err := wb.ws.Search(ctx)
	require.NoError(t, err)
	var pin string
	for _, s := range res.Seeds {
		for _, sl := range r.ConceptSlots[s.ID] {
			if id := r.IDs[sl]; !in[id] {
				pin = id
			}
		}
	}
	require.NotEmpty(t, pin, "a node about a seed concept outside the pool")

	req.Pin = []string{pin}
	res, err = wb.Query(ctx, req)
	require.NoError(t, err)
	var got bool
	for _, c := range res.Candidates {
		if c.ID == pin {
			got = true
			assert.True(t, c.Pinned)
			assert.True(t, c.Loaded, "pinned nodes load first")
		}
	}
	assert.True(t, got, "the pinned node %s is a candidate", pin)
}
