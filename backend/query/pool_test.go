//go:build !js

package query

import (
	"context"
	"fmt"
	"testing"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/synth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFusedScoresAreTheSemanticSignal: newPool's one-loop fusion computes
// assemble.SemanticRelevance for every slot, for each strategy's keyword weight.
func TestFusedScoresAreTheSemanticSignal(t *testing.T) {
	wb := ingestedFixture(t)
	ctx := context.Background()
	wb.ws.Lock()
	defer wb.ws.Unlock()
	r, err := wb.ws.Search(ctx)
	require.NoError(t, err)
	q := "How does staleness decay with time since last access?"
	qv, err := wb.ws.EmbedderNow().Embed(ctx, []string{q})
	require.NoError(t, err)
	for _, s := range Strategies {
		p := newPool(wb, r, q, qv[0], QueryRequest{}, nil, s, wb.ws.RankingConfig())
		for slot := range r.IDs {
			kw, kwMax := float64(p.kw[slot]), p.kwMax
			if p.kwW == 0 {
				kw, kwMax = 0, 0
			}
			want := assemble.SemanticRelevance(kw, kwMax, float64(p.cos[slot])-p.cosFloor, p.cosMax-p.cosFloor, p.kwW)
			assert.InDelta(t, want, p.semantic(int32(slot)), 1e-5, "%s slot %d", s, slot)
		}
		p.release()
	}
}

// TestOneHopConvention: a result's concept hop distances and its
// candidates' hops are one walk — seed concepts are 0, a section is one
// more than the nearest concept it is about — reaching HopReach, past the
// hop signal's MaxHops (whose signal is 0 beyond it).
func TestOneHopConvention(t *testing.T) {
	ctx := context.Background()
	corpus, dir := t.TempDir(), t.TempDir()
	require.NoError(t, synth.Generate(corpus, 300, 4))
	ingestInto(t, dir, corpus)
	p := openPipeline(t, dir)
	cfg := p.ws.Ranking()
	for _, q := range synth.Questions(20, 4) {
		res, err := p.Query(ctx, QueryRequest{Question: q, Budget: 3000, NoTouch: true})
		require.NoError(t, err)
		for _, s := range res.Seeds {
			assert.Equal(t, 0, res.ConceptHops[s.ID], "a seed is 0 hops away")
		}
		for _, h := range res.ConceptHops {
			assert.LessOrEqual(t, h, max(HopReach, cfg.MaxHops-1))
		}
		ix := p.ws.CurrentIndex()
		for _, c := range res.Candidates {
			want := -1
			for _, e := range ix.Out[c.ID] {
				if d, ok := res.ConceptHops[e.To]; ok && e.Kind == model.EdgeAbout && (want < 0 || d+1 < want) {
					want = d + 1
				}
			}
			assert.Equal(t, want, c.Hops, "%s: one more than its nearest concept", c.Ref)
			assert.Equal(t, assemble.HopSignal(c.Hops, cfg.MaxHops), c.Signals[assemble.Hop], c.Ref)
		}
	}
}

// TestTheHopWalkReachesHopReach: on a chain of related concepts the walk
// from a seed goes HopReach edges, past the hop signal's MaxHops (the
// graph's colouring shows 0 to 4+), and no farther.
func TestTheHopWalkReachesHopReach(t *testing.T) {
	adj := map[string][]string{}
	for i := range 10 {
		a, b := fmt.Sprintf("c%d", i), fmt.Sprintf("c%d", i+1)
		adj[a], adj[b] = append(adj[a], b), append(adj[b], a)
	}
	cfg := assemble.DefaultConfig()
	require.Less(t, cfg.MaxHops, HopReach)
	p := &pool{r: &index.Search{RelAdj: adj}, cfg: cfg, seeds: []ConceptHit{{ID: "c0"}}, dist: map[string]int{"c0": 0}}
	p.bfs()
	want := map[string]int{}
	for i := 0; i <= HopReach; i++ {
		want[fmt.Sprintf("c%d", i)] = i
	}
	assert.Equal(t, want, p.dist)
}
