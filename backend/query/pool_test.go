//go:build !js

package query

import (
	"context"
	"testing"

	"github.com/loomwork/loom/backend/assemble"
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
		p := newPool(wb, r, q, qv[0], QueryRequest{}, s, wb.ws.RankingConfig())
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
