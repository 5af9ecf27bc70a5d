package assemble

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// node is a relevant candidate with a score and a detailed size.
func node(id string, score float64, tokens int) *Candidate {
	return &Candidate{ID: id, Ref: "doc.md#" + id, Title: "Section " + id, Source: "input", Score: score, Tokens: tokens, Relevant: true}
}

func ids(cs []*Candidate) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func levels(cs []*Candidate) map[string]Level {
	out := map[string]Level{}
	for _, c := range cs {
		out[c.ID] = c.Level
	}
	return out
}

// unit normalises v.
func unit(v ...float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	n := float32(math.Sqrt(s))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x / n
	}
	return out
}

func TestSelectNothingRelevant(t *testing.T) {
	a, b := node("a", 0.3, 100), node("b", 0.1234, 100)
	a.Relevant, b.Relevant = false, false
	sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 1000, Oversize: 0.5})

	assert.Equal(t, BranchNothing, sel.Branch)
	assert.Empty(t, sel.Loaded, "irrelevant nodes never load, even with room to spare")
	assert.Zero(t, sel.Relevant)
	assert.Zero(t, sel.NotLoaded)
	assert.Zero(t, sel.Used)
	assert.Equal(t, "below the relevance cut (score 0.30)", a.Reason)
	assert.Equal(t, "below the relevance cut (score 0.12)", b.Reason)
	assert.False(t, a.Loaded)
}

func TestSelectAllRelevantFit(t *testing.T) {
	for _, level := range []Level{"", Adaptive, Detailed} {
		t.Run(fmt.Sprintf("at level %q every relevant node loads in full", level), func(t *testing.T) {
			a, b := node("a", 0.9, 300), node("b", 0.8, 200)
			off := node("off", 0.2, 10)
			off.Relevant = false
			sel := Select([]*Candidate{a, b, off}, SelectOptions{Loadable: 500, Level: level, Oversize: 0.5})

			assert.Equal(t, BranchAllFit, sel.Branch)
			assert.Equal(t, []string{"a", "b"}, ids(sel.Loaded))
			assert.Equal(t, map[string]Level{"a": Detailed, "b": Detailed}, levels(sel.Loaded))
			assert.Equal(t, 500, sel.Used, "the budget may be used to the last token")
			assert.Equal(t, 2, sel.Relevant)
			assert.Zero(t, sel.NotLoaded)
			assert.Equal(t, 300, a.LoadedTokens)
			assert.Equal(t, "relevant; all relevant content fits the budget", a.Reason)
			assert.False(t, off.Loaded)
			assert.Contains(t, off.Reason, "below the relevance cut")
		})
	}
	t.Run("an oversized node loads in full when everything fits", func(t *testing.T) {
		a := node("a", 0.9, 900)
		a.SummaryTokens, a.SummaryCached = 50, true
		sel := Select([]*Candidate{a}, SelectOptions{Loadable: 1000, Oversize: 0.1})
		assert.Equal(t, BranchAllFit, sel.Branch)
		assert.Equal(t, Detailed, a.Level)
	})
}

func TestSelectAtAFixedLevelWhereAllFit(t *testing.T) {
	tests := []struct {
		name  string
		level Level
		want  map[string]int
	}{
		{"asking for summaries loads every summary", Summary, map[string]int{"a": 100, "b": 150}},
		{"asking for essences loads every essence", Essence, map[string]int{"a": 20, "b": 25}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := node("a", 0.9, 900), node("b", 0.8, 900)
			a.SummaryTokens, a.EssenceTokens = 100, 20
			b.SummaryTokens, b.EssenceTokens = 150, 25
			sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 500, Level: tt.level, Oversize: 0.5})

			assert.Equal(t, BranchAllFit, sel.Branch)
			require.Len(t, sel.Loaded, 2)
			for _, c := range sel.Loaded {
				assert.Equal(t, tt.level, c.Level)
				assert.Equal(t, tt.want[c.ID], c.LoadedTokens)
			}
			assert.Equal(t, tt.want["a"]+tt.want["b"], sel.Used)
		})
	}
	t.Run("a node with neither summary nor essence loads whole at the summary level", func(t *testing.T) {
		a, b := node("a", 0.9, 900), node("b", 0.8, 90)
		a.SummaryTokens = 100
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 5000, Level: Summary, Oversize: 0.5})

		assert.Equal(t, BranchAllFit, sel.Branch)
		assert.Equal(t, map[string]Level{"a": Summary, "b": Detailed}, levels(sel.Loaded))
		assert.Equal(t, 190, sel.Used)
	})
	t.Run("a node with neither summary nor essence loads whole at the essence level", func(t *testing.T) {
		a, b := node("a", 0.9, 900), node("b", 0.8, 90)
		a.EssenceTokens = 20
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 5000, Level: Essence, Oversize: 0.5})
		assert.Equal(t, map[string]Level{"a": Essence, "b": Detailed}, levels(sel.Loaded))
	})
	t.Run("a node barely larger than its essence is its own summary", func(t *testing.T) {
		a, b := node("a", 0.9, 900), node("b", 0.8, 40)
		a.SummaryTokens = 100
		b.EssenceTokens = 16 // 40 ≤ 2×16 + 8
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 5000, Level: Summary, Oversize: 0.5})
		assert.Equal(t, BranchAllFit, sel.Branch)
		assert.Equal(t, map[string]Level{"a": Summary, "b": Detailed}, levels(sel.Loaded))
	})
	t.Run("a large node with an essence but no summary is left out at the summary level and counted", func(t *testing.T) {
		a, b := node("a", 0.9, 900), node("b", 0.8, 900)
		a.SummaryTokens = 100
		b.EssenceTokens = 20
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 5000, Level: Summary, Oversize: 0.5})

		assert.Equal(t, BranchByScore, sel.Branch, "not every node offers a summary")
		assert.Equal(t, []string{"a"}, ids(sel.Loaded))
		assert.False(t, b.Loaded, "a fixed level never silently loads a large full text")
		assert.Equal(t, 1, sel.NotLoaded)
		assert.NotEmpty(t, b.Reason)
	})
	t.Run("a large node with a summary but no essence is left out at the essence level", func(t *testing.T) {
		a, b := node("a", 0.9, 900), node("b", 0.8, 900)
		a.EssenceTokens = 20
		b.SummaryTokens = 100
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 5000, Level: Essence, Oversize: 0.5})
		assert.Equal(t, BranchByScore, sel.Branch)
		assert.Equal(t, []string{"a"}, ids(sel.Loaded))
		assert.Equal(t, 1, sel.NotLoaded)
	})
}

func TestSelectByDescendingScore(t *testing.T) {
	t.Run("nodes load in score order until the budget runs out and smaller later nodes still fill in", func(t *testing.T) {
		a, b, c, d := node("a", 0.9, 600), node("b", 0.8, 600), node("c", 0.7, 200), node("d", 0.6, 300)
		sel := Select([]*Candidate{a, b, c, d}, SelectOptions{Loadable: 1000, Level: Detailed, Oversize: 1})

		assert.Equal(t, BranchByScore, sel.Branch)
		assert.Equal(t, []string{"a", "c"}, ids(sel.Loaded))
		assert.Equal(t, 800, sel.Used)
		assert.Equal(t, 4, sel.Relevant)
		assert.Equal(t, 2, sel.NotLoaded)
		assert.Equal(t, "relevant; loaded in descending score", a.Reason)
		assert.Equal(t, "relevant, but did not fit the budget (200 tokens left); listed in the manifest", b.Reason)
		assert.Equal(t, b.Reason, d.Reason)
		assert.Empty(t, b.Level)
		assert.Zero(t, b.LoadedTokens)
	})
	t.Run("candidates given out of order still load by score", func(t *testing.T) {
		a, b, c := node("a", 0.5, 400), node("b", 0.9, 400), node("c", 0.7, 400)
		sel := Select([]*Candidate{a, b, c}, SelectOptions{Loadable: 800, Level: Detailed, Oversize: 1})
		assert.Equal(t, []string{"b", "c"}, ids(sel.Loaded))
		assert.False(t, a.Loaded)
	})
	t.Run("a fixed summary level loads summaries by score", func(t *testing.T) {
		a, b, c := node("a", 0.9, 900), node("b", 0.8, 900), node("c", 0.7, 900)
		a.SummaryTokens, b.SummaryTokens, c.SummaryTokens = 300, 300, 150
		sel := Select([]*Candidate{a, b, c}, SelectOptions{Loadable: 500, Level: Summary, Oversize: 0.5})
		assert.Equal(t, BranchByScore, sel.Branch)
		assert.Equal(t, []string{"a", "c"}, ids(sel.Loaded))
		assert.Equal(t, map[string]Level{"a": Summary, "c": Summary}, levels(sel.Loaded))
		assert.Equal(t, 450, sel.Used)
	})
}

func TestSelectOversizedNodes(t *testing.T) {
	// One node of 800 tokens against a budget of 700 (so not all fits) and
	// an oversize share of 0.5 (so anything above 350 tokens is oversized).
	tests := []struct {
		name       string
		summary    int
		cached     bool
		chunks     int
		wantLevel  Level
		wantTokens int
		wantReason string
	}{
		{"a cached summary is preferred", 120, true, 300, Summary, 120, "oversized (800 tokens): loaded its summary"},
		{"chunks come next when no summary is cached", 100, false, 250, Chunks, 250, "oversized (800 tokens): loaded its best-matching chunks"},
		{"a cached flag without a summary size falls through to chunks", 0, true, 250, Chunks, 250, "oversized (800 tokens): loaded its best-matching chunks"},
		{"an uncached summary is the last resort", 150, false, 0, Summary, 150, "oversized (800 tokens): loaded a summary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := node("big", 0.9, 800)
			c.SummaryTokens, c.SummaryCached, c.ChunkTokens = tt.summary, tt.cached, tt.chunks
			sel := Select([]*Candidate{c}, SelectOptions{Loadable: 700, Level: Detailed, Oversize: 0.5})

			assert.Equal(t, BranchByScore, sel.Branch)
			require.True(t, c.Loaded)
			assert.Equal(t, tt.wantLevel, c.Level)
			assert.Equal(t, tt.wantTokens, c.LoadedTokens)
			assert.Equal(t, tt.wantTokens, sel.Used)
			assert.Equal(t, tt.wantReason, c.Reason)
			assert.Zero(t, sel.NotLoaded)
		})
	}
	t.Run("an oversized node with no other level loads in full when it fits", func(t *testing.T) {
		big, filler := node("big", 0.9, 600), node("filler", 0.5, 600)
		sel := Select([]*Candidate{big, filler}, SelectOptions{Loadable: 700, Level: Detailed, Oversize: 0.5})
		assert.Equal(t, []string{"big"}, ids(sel.Loaded))
		assert.Equal(t, Detailed, big.Level)
		assert.Equal(t, 1, sel.NotLoaded)
	})
	t.Run("an oversized node with no other level that does not fit is counted", func(t *testing.T) {
		big := node("big", 0.9, 800)
		sel := Select([]*Candidate{big}, SelectOptions{Loadable: 700, Level: Detailed, Oversize: 0.5})
		assert.Empty(t, sel.Loaded)
		assert.Equal(t, 1, sel.NotLoaded)
		assert.Contains(t, big.Reason, "did not fit the budget (700 tokens left)")
	})
	t.Run("a node at exactly the oversize limit is not oversized", func(t *testing.T) {
		at, filler := node("at", 0.9, 350), node("filler", 0.5, 400)
		at.SummaryTokens, at.SummaryCached = 50, true
		sel := Select([]*Candidate{at, filler}, SelectOptions{Loadable: 700, Level: Detailed, Oversize: 0.5})
		assert.Equal(t, BranchByScore, sel.Branch)
		assert.Equal(t, Detailed, at.Level)
	})
}

func TestSelectAdaptiveKnapsack(t *testing.T) {
	t.Run("three summaries beat one detailed node", func(t *testing.T) {
		a, b, c := node("a", 0.9, 900), node("b", 0.85, 900), node("c", 0.8, 900)
		for _, x := range []*Candidate{a, b, c} {
			x.SummaryTokens = 200
		}
		sel := Select([]*Candidate{a, b, c}, SelectOptions{Loadable: 1000, Level: Adaptive, Oversize: 1})

		assert.Equal(t, BranchAdaptive, sel.Branch)
		assert.Equal(t, []string{"a", "b", "c"}, ids(sel.Loaded))
		assert.Equal(t, map[string]Level{"a": Summary, "b": Summary, "c": Summary}, levels(sel.Loaded))
		assert.Equal(t, 600, sel.Used)
		assert.Equal(t, "relevant; the adaptive knapsack chose summary (full text is 900 tokens)", a.Reason)
	})
	t.Run("one detailed node beats two summaries when the second node is weak", func(t *testing.T) {
		a, b := node("a", 0.9, 500), node("b", 0.2, 500)
		a.SummaryTokens, b.SummaryTokens = 300, 300
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 600, Level: Adaptive, Oversize: 1})

		assert.Equal(t, BranchAdaptive, sel.Branch)
		assert.Equal(t, []string{"a"}, ids(sel.Loaded))
		assert.Equal(t, Detailed, a.Level)
		assert.Equal(t, "relevant; the adaptive knapsack chose detailed", a.Reason)
		assert.False(t, b.Loaded)
		assert.Equal(t, 1, sel.NotLoaded)
	})
	t.Run("levels are mixed when that holds the most score", func(t *testing.T) {
		// Values are discounted by rank (b's by log2 3): a summary (0.54)
		// + b detailed (0.536) = 1.076 beats a detailed + b essence
		// (1.061) and both summaries (0.862).
		a, b := node("a", 0.9, 600), node("b", 0.85, 600)
		a.SummaryTokens, a.EssenceTokens = 100, 20
		b.SummaryTokens, b.EssenceTokens = 150, 20
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 700, Level: Adaptive, Oversize: 1})

		assert.Equal(t, []string{"a", "b"}, ids(sel.Loaded), "loaded in utility order")
		assert.Equal(t, map[string]Level{"a": Summary, "b": Detailed}, levels(sel.Loaded))
		assert.Equal(t, 700, sel.Used)
	})
	t.Run("an essence shorter than its header is not loaded", func(t *testing.T) {
		// b's essence (6 tokens) is shorter than its block header (10):
		// a block of it would be more frame than text. In 110 tokens a's
		// summary (90 with its header) would leave room for it (16), and
		// its value would count; it is not offered.
		a, b := node("a", 0.9, 300), node("b", 0.85, 300)
		for _, x := range []*Candidate{a, b} {
			x.Overhead = 10
		}
		a.SummaryTokens, a.EssenceTokens = 80, 30
		b.SummaryTokens, b.EssenceTokens = 80, 6
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 110, Level: Adaptive, Oversize: 1})
		assert.Equal(t, []string{"a"}, ids(sel.Loaded))
		assert.Equal(t, Summary, a.Level)
		assert.False(t, b.Loaded, "not b's 6-token essence beside a's summary")
		// Its summary is longer than its header: with room, both load so.
		sel = Select([]*Candidate{a, b}, SelectOptions{Loadable: 180, Level: Adaptive, Oversize: 1})
		assert.Equal(t, map[string]Level{"a": Summary, "b": Summary}, levels(sel.Loaded))
	})
	t.Run("the best node is not left out for many small ones", func(t *testing.T) {
		// Relevant scores are close: without the rank discount the sum
		// rewards the count of nodes, and thirty small ones (value 20.7)
		// beat the best node and twenty-four of them (17.5).
		best := node("best", 0.94, 333)
		cs := []*Candidate{best}
		for i := range 30 {
			cs = append(cs, node(fmt.Sprintf("small%02d", i), 0.69, 40))
		}
		sel := Select(cs, SelectOptions{Loadable: 1300, Level: Adaptive, Oversize: 1})

		assert.Equal(t, BranchAdaptive, sel.Branch)
		require.NotEmpty(t, sel.Loaded)
		assert.Equal(t, "best", sel.Loaded[0].ID)
		assert.Equal(t, Detailed, best.Level)
		for _, c := range cs[1:] { // the small ones left out are the last ranked
			if !c.Loaded {
				assert.Greater(t, c.ID, sel.Loaded[len(sel.Loaded)-1].ID)
			}
		}
	})
	t.Run("an oversized node is not offered in full when it has a smaller level", func(t *testing.T) {
		a, b := node("a", 0.9, 700), node("b", 0.1, 400)
		a.SummaryTokens = 100
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 1000, Level: Adaptive, Oversize: 0.5})
		assert.Equal(t, map[string]Level{"a": Summary, "b": Detailed}, levels(sel.Loaded))
	})
	t.Run("an oversized node without a smaller level is still offered in full", func(t *testing.T) {
		a, b := node("a", 0.9, 700), node("b", 0.1, 400)
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 1000, Level: Adaptive, Oversize: 0.5})
		assert.Equal(t, map[string]Level{"a": Detailed}, levels(sel.Loaded))
	})
	t.Run("chunks are a level the knapsack may choose", func(t *testing.T) {
		a, b := node("a", 0.9, 900), node("b", 0.8, 900)
		a.ChunkTokens, b.ChunkTokens = 400, 400
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 1000, Level: Adaptive, Oversize: 1})
		assert.Equal(t, map[string]Level{"a": Chunks, "b": Chunks}, levels(sel.Loaded))
	})
	t.Run("a budget too small for any level loads nothing", func(t *testing.T) {
		a, b := node("a", 0.9, 900), node("b", 0.8, 900)
		a.EssenceTokens, b.EssenceTokens = 60, 60
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 50, Level: Adaptive, Oversize: 1})
		assert.Equal(t, BranchAdaptive, sel.Branch)
		assert.Empty(t, sel.Loaded)
		assert.Equal(t, 2, sel.NotLoaded)
	})
	t.Run("large budgets are bucketed without exceeding them", func(t *testing.T) {
		var cs []*Candidate
		for i := range 30 {
			c := node(fmt.Sprintf("n%02d", i), 0.9-float64(i)*0.01, 3001+i*7)
			c.SummaryTokens, c.EssenceTokens = 401+i, 33
			cs = append(cs, c)
		}
		sel := Select(cs, SelectOptions{Loadable: 9999, Level: Adaptive, Oversize: 0.5})
		assert.Equal(t, BranchAdaptive, sel.Branch)
		assert.NotEmpty(t, sel.Loaded)
		assert.LessOrEqual(t, sel.Used, 9999)
	})
}

func TestKnapsackNeverExceedsItsCapacity(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 400 {
		var cs []*Candidate
		for j := range 1 + r.IntN(25) {
			c := randomCandidate(r, fmt.Sprintf("n%d", j))
			c.Relevant, c.Pinned = true, false
			cs = append(cs, c)
		}
		capacity := r.IntN(12000)
		picks := knapsack(cs, capacity, r.Float64()*float64(capacity), r.Float64())
		used, seen := 0, map[*Candidate]bool{}
		for _, p := range picks {
			require.False(t, seen[p.c], "case %d: a node is picked once", i)
			seen[p.c] = true
			cost := p.c.costAt(p.level)
			require.Positive(t, cost, "case %d: only offered levels are picked", i)
			used += cost
		}
		require.LessOrEqual(t, used, capacity, "case %d", i)
	}
}

func TestSelectPinned(t *testing.T) {
	t.Run("a pinned node loads first even when it is not relevant", func(t *testing.T) {
		a := node("a", 0.9, 200)
		p := node("p", 0.05, 100)
		p.Relevant, p.Pinned = false, true
		sel := Select([]*Candidate{a, p}, SelectOptions{Loadable: 1000, Oversize: 0.5})

		assert.Equal(t, []string{"p", "a"}, ids(sel.Loaded))
		assert.Equal(t, Detailed, p.Level)
		assert.Equal(t, "pinned: always loaded", p.Reason)
		assert.Equal(t, 2, sel.Relevant, "pinned nodes count as relevant for the manifest")
		assert.Equal(t, 300, sel.Used)
	})
	t.Run("a pinned node that is also relevant is counted once", func(t *testing.T) {
		p := node("p", 0.9, 100)
		p.Pinned = true
		sel := Select([]*Candidate{p}, SelectOptions{Loadable: 1000, Oversize: 0.5})
		assert.Equal(t, 1, sel.Relevant)
		assert.Equal(t, []string{"p"}, ids(sel.Loaded))
		assert.Equal(t, BranchNothing, sel.Branch, "no unpinned relevant node is left to decide on")
	})
	tests := []struct {
		name      string
		level     Level
		summary   int
		chunks    int
		essence   int
		wantLevel Level
	}{
		{"a pinned node too large in full falls back to its summary", Adaptive, 300, 200, 30, Summary},
		{"a pinned node falls back to chunks when its summary does not fit", Adaptive, 600, 200, 30, Chunks},
		{"a pinned node falls back to its essence when nothing larger fits", Detailed, 600, 0, 30, Essence},
		{"a pinned node at the summary level prefers its summary", Summary, 300, 0, 30, Summary},
		{"a pinned node at the summary level falls back to its essence", Summary, 600, 0, 30, Essence},
		{"a pinned node at the essence level loads its essence", Essence, 300, 200, 30, Essence},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := node("p", 0.5, 2000)
			p.Relevant, p.Pinned = false, true
			p.SummaryTokens, p.ChunkTokens, p.EssenceTokens = tt.summary, tt.chunks, tt.essence
			sel := Select([]*Candidate{p}, SelectOptions{Loadable: 500, Level: tt.level, Oversize: 0.5})

			require.True(t, p.Loaded)
			assert.Equal(t, tt.wantLevel, p.Level)
			assert.Equal(t, p.tokensAt(tt.wantLevel), p.LoadedTokens)
			assert.Equal(t, fmt.Sprintf("pinned: loaded as %s (full text is 2000 tokens)", tt.wantLevel), p.Reason)
			assert.Zero(t, sel.NotLoaded)
		})
	}
	t.Run("a pinned node at the summary level loads its summary even when the full text fits", func(t *testing.T) {
		p := node("p", 0.5, 100)
		p.Pinned, p.SummaryTokens = true, 40
		Select([]*Candidate{p}, SelectOptions{Loadable: 500, Level: Summary, Oversize: 0.5})
		assert.Equal(t, Summary, p.Level)
	})
	t.Run("a pinned node that fits in no form gets a reason and is counted", func(t *testing.T) {
		p := node("p", 0.5, 2000)
		p.Relevant, p.Pinned = false, true
		p.SummaryTokens = 900
		sel := Select([]*Candidate{p}, SelectOptions{Loadable: 500, Oversize: 0.5})

		assert.False(t, p.Loaded)
		assert.Equal(t, "pinned, but even its smallest form does not fit the 500 tokens left", p.Reason)
		assert.Equal(t, 1, sel.Relevant)
		assert.Equal(t, 1, sel.NotLoaded)
	})
	t.Run("a large pinned node at the essence level without an essence does not load", func(t *testing.T) {
		p := node("p", 0.5, 400)
		p.Pinned, p.SummaryTokens = true, 100
		sel := Select([]*Candidate{p}, SelectOptions{Loadable: 500, Level: Essence, Oversize: 0.5})
		assert.False(t, p.Loaded)
		assert.Equal(t, 1, sel.NotLoaded)
		assert.Contains(t, p.Reason, "pinned, but")
	})
	t.Run("a small pinned node with neither summary nor essence loads whole at a fixed level", func(t *testing.T) {
		for _, level := range []Level{Summary, Essence} {
			p := node("p", 0.5, 100)
			p.Relevant, p.Pinned = false, true
			sel := Select([]*Candidate{p}, SelectOptions{Loadable: 500, Level: level, Oversize: 0.5})
			assert.True(t, p.Loaded, "level %s", level)
			assert.Equal(t, Detailed, p.Level, "level %s", level)
			assert.Zero(t, sel.NotLoaded, "level %s", level)
		}
	})
	t.Run("pinned nodes take their room before relevant nodes", func(t *testing.T) {
		p, a := node("p", 0.1, 400), node("a", 0.9, 300)
		p.Relevant, p.Pinned = false, true
		sel := Select([]*Candidate{a, p}, SelectOptions{Loadable: 600, Level: Detailed, Oversize: 1})

		assert.Equal(t, []string{"p"}, ids(sel.Loaded))
		assert.False(t, a.Loaded)
		assert.Equal(t, "relevant, but did not fit the budget (200 tokens left); listed in the manifest", a.Reason)
	})
}

func TestSelectCountsWhatWasNotLoaded(t *testing.T) {
	p := node("p", 0.5, 2000)
	p.Relevant, p.Pinned = false, true
	a, b := node("a", 0.9, 300), node("b", 0.8, 300)
	off := node("off", 0.1, 10)
	off.Relevant = false
	sel := Select([]*Candidate{p, a, b, off}, SelectOptions{Loadable: 500, Level: Detailed, Oversize: 1})

	assert.Equal(t, []string{"a"}, ids(sel.Loaded))
	assert.Equal(t, 3, sel.Relevant, "two relevant and one pinned; the irrelevant node is not counted")
	assert.Equal(t, 2, sel.NotLoaded, "one relevant and one pinned node did not load")
	for _, c := range []*Candidate{p, a, b, off} {
		assert.NotEmpty(t, c.Reason, c.ID)
	}
}

func TestSelectChargesOverhead(t *testing.T) {
	t.Run("a node whose text fits but whose overhead does not is left out", func(t *testing.T) {
		a := node("a", 0.9, 100)
		a.Overhead = 20
		sel := Select([]*Candidate{a}, SelectOptions{Loadable: 110, Level: Detailed, Oversize: 1})
		assert.Equal(t, BranchByScore, sel.Branch)
		assert.Empty(t, sel.Loaded)
	})
	t.Run("a node fits when its text and overhead do", func(t *testing.T) {
		a := node("a", 0.9, 100)
		a.Overhead = 20
		sel := Select([]*Candidate{a}, SelectOptions{Loadable: 120, Level: Detailed, Oversize: 1})
		assert.Equal(t, BranchAllFit, sel.Branch)
		assert.Equal(t, 100, sel.Used, "Used counts text only")
	})
	t.Run("the overhead reduces what is left for later nodes", func(t *testing.T) {
		a, b := node("a", 0.9, 300), node("b", 0.8, 190)
		a.Overhead, b.Overhead = 20, 20
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 500, Level: Detailed, Oversize: 1})
		assert.Equal(t, []string{"a"}, ids(sel.Loaded))
		assert.Contains(t, b.Reason, "(180 tokens left)")
	})
	t.Run("the knapsack charges overhead too", func(t *testing.T) {
		a, b := node("a", 0.9, 500), node("b", 0.8, 500)
		a.Overhead, b.Overhead = 1, 1
		sel := Select([]*Candidate{a, b}, SelectOptions{Loadable: 1001, Level: Adaptive, Oversize: 1})
		assert.Equal(t, BranchAdaptive, sel.Branch)
		assert.Equal(t, []string{"a"}, ids(sel.Loaded))
	})
	t.Run("a pinned node's overhead is charged", func(t *testing.T) {
		p := node("p", 0.5, 100)
		p.Pinned, p.Overhead = true, 1
		sel := Select([]*Candidate{p}, SelectOptions{Loadable: 100, Oversize: 1})
		assert.Empty(t, sel.Loaded)
	})
}

func TestSelectResetsAnEarlierDecision(t *testing.T) {
	a := node("a", 0.9, 100)
	Select([]*Candidate{a}, SelectOptions{Loadable: 1000, Oversize: 1})
	require.True(t, a.Loaded)
	a.Relevant = false
	sel := Select([]*Candidate{a}, SelectOptions{Loadable: 1000, Oversize: 1})
	assert.Empty(t, sel.Loaded)
	assert.False(t, a.Loaded)
	assert.Empty(t, a.Level)
	assert.Zero(t, a.LoadedTokens)
}

func TestSelectNovelty(t *testing.T) {
	near := func() (a, dup, distinct *Candidate) {
		a, dup, distinct = node("a", 0.9, 400), node("dup", 0.89, 400), node("distinct", 0.85, 400)
		a.Vec, dup.Vec, distinct.Vec = unit(1, 0, 0), unit(1, 0.01, 0), unit(0, 1, 0)
		return
	}
	t.Run("a near-duplicate sinks below a distinct node of slightly lower score", func(t *testing.T) {
		a, dup, distinct := near()
		sel := Select([]*Candidate{a, dup, distinct}, SelectOptions{Loadable: 5000, Level: Detailed, Novelty: 0.5, Oversize: 1})
		assert.Equal(t, []string{"a", "distinct", "dup"}, ids(sel.Loaded))
		assert.InDelta(t, 1, a.Signals[Novelty], 1e-4)
		assert.InDelta(t, 1, distinct.Signals[Novelty], 1e-4)
		assert.InDelta(t, 0, dup.Signals[Novelty], 1e-3)
	})
	t.Run("a near-duplicate is the one left out when the budget is short", func(t *testing.T) {
		a, dup, distinct := near()
		sel := Select([]*Candidate{a, dup, distinct}, SelectOptions{Loadable: 800, Level: Detailed, Novelty: 0.5, Oversize: 1})
		assert.Equal(t, []string{"a", "distinct"}, ids(sel.Loaded))
		assert.False(t, dup.Loaded)
	})
	t.Run("without a novelty weight the near-duplicate keeps its place", func(t *testing.T) {
		a, dup, distinct := near()
		sel := Select([]*Candidate{a, dup, distinct}, SelectOptions{Loadable: 5000, Level: Detailed, Oversize: 1})
		assert.Equal(t, []string{"a", "dup", "distinct"}, ids(sel.Loaded))
		assert.InDelta(t, 0, dup.Signals[Novelty], 1e-3, "novelty is reported even when it does not weigh")
	})
	t.Run("a node without a vector is fully novel", func(t *testing.T) {
		a, b := node("a", 0.9, 10), node("b", 0.8, 10)
		a.Vec = unit(1, 0)
		Select([]*Candidate{a, b}, SelectOptions{Loadable: 100, Novelty: 1, Oversize: 1})
		assert.Equal(t, 1.0, b.Signals[Novelty])
	})
	t.Run("the adaptive knapsack prefers the distinct node", func(t *testing.T) {
		a, dup, distinct := near()
		sel := Select([]*Candidate{a, dup, distinct}, SelectOptions{Loadable: 800, Level: Adaptive, Novelty: 0.5, Oversize: 1})
		assert.Equal(t, []string{"a", "distinct"}, ids(sel.Loaded))
	})
	t.Run("the adaptive knapsack ignores redundancy when the novelty weight is zero", func(t *testing.T) {
		a, dup, distinct := near()
		sel := Select([]*Candidate{a, dup, distinct}, SelectOptions{Loadable: 800, Level: Adaptive, Novelty: 0, Oversize: 1})
		assert.Equal(t, []string{"a", "dup"}, ids(sel.Loaded), "0.9 + 0.89 beats 0.9 + 0.85 when redundancy is ignored")
	})
}

// randomCandidate makes a candidate with random sizes and levels offered.
func randomCandidate(r *rand.Rand, id string) *Candidate {
	c := &Candidate{
		ID: id, Ref: "doc.md#" + id, Title: "Title " + id, Source: []string{"input", "output", "analysis"}[r.IntN(3)],
		Tokens: 1 + r.IntN(3000), Score: round4(r.Float64()), Relevant: r.IntN(3) > 0, Pinned: r.IntN(10) == 0,
		Overhead: r.IntN(30),
	}
	if r.IntN(2) == 0 {
		c.SummaryTokens = 1 + r.IntN(max(1, c.Tokens/3))
		c.SummaryCached = r.IntN(2) == 0
	}
	if r.IntN(2) == 0 {
		c.EssenceTokens = 1 + r.IntN(40)
	}
	if r.IntN(3) == 0 {
		c.ChunkTokens = 1 + r.IntN(max(1, c.Tokens/2))
	}
	if r.IntN(2) == 0 {
		c.Vec = unit(float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64()))
	}
	return c
}

func TestSelectInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	allLevels := []Level{Adaptive, Detailed, Summary, Essence}
	for i := range 500 {
		var cs []*Candidate
		for j := range r.IntN(30) {
			cs = append(cs, randomCandidate(r, fmt.Sprintf("n%02d", j)))
		}
		o := SelectOptions{Loadable: r.IntN(10000), Level: allLevels[r.IntN(len(allLevels))], Oversize: r.Float64(), Novelty: r.Float64()}
		sel := Select(cs, o)

		name := fmt.Sprintf("case %d (%d candidates, %+v)", i, len(cs), o)
		cost, used, relevant, notLoaded, hasRelevant := 0, 0, 0, 0, false
		seenUnpinned := false
		for _, c := range sel.Loaded {
			require.True(t, c.Loaded, name)
			require.True(t, c.Relevant || c.Pinned, "%s: %s loaded without being relevant or pinned", name, c.ID)
			require.Positive(t, c.tokensAt(c.Level), "%s: %s loaded at a level it does not offer", name, c.ID)
			require.Equal(t, c.tokensAt(c.Level), c.LoadedTokens, name)
			if c.Pinned {
				require.False(t, seenUnpinned, "%s: pinned nodes load first", name)
			} else {
				seenUnpinned = true
			}
			switch {
			case (o.Level == Summary || o.Level == Essence) && c.Pinned:
				var allowed []Level
				for _, l := range fallbackLevels(o.Level) {
					allowed = append(allowed, levelFor(c, l))
				}
				require.Contains(t, allowed, c.Level, name)
			case o.Level == Summary || o.Level == Essence:
				// The asked level, or the full text of a node too small to
				// abstract (or its chunks when that full text is oversized).
				want := levelFor(c, o.Level)
				if want == Detailed && c.Level == Chunks {
					want = Chunks
				}
				require.Equal(t, want, c.Level, "%s: %s", name, c.ID)
			}
			cost += c.costAt(c.Level)
			used += c.LoadedTokens
		}
		require.LessOrEqual(t, cost, o.Loadable, "%s: the loaded nodes and their overhead fit the budget", name)
		require.Equal(t, used, sel.Used, name)
		for _, c := range cs {
			require.NotEmpty(t, c.Reason, "%s: %s has no reason", name, c.ID)
			require.Equal(t, c.Loaded, slices.Contains(sel.Loaded, c), name)
			if c.Relevant || c.Pinned {
				relevant++
				if !c.Loaded {
					notLoaded++
				}
			}
			hasRelevant = hasRelevant || (c.Relevant && !c.Pinned)
		}
		require.Equal(t, relevant, sel.Relevant, name)
		require.Equal(t, notLoaded, sel.NotLoaded, name)
		require.Equal(t, !hasRelevant, sel.Branch == BranchNothing, name)
	}
}

// TestRelevanceDoesNotDependOnTheBudget: the size signal (1 − tokens /
// budget) is part of the score, so a large node's score rises with the
// budget; whether it is relevant is decided at RelevanceBudget, whatever
// the question's budget, so that a node relevant at one budget is relevant
// at twice it (and recall cannot fall as the budget grows). The ranking
// itself still prefers small nodes under the question's own budget.
func TestRelevanceDoesNotDependOnTheBudget(t *testing.T) {
	w := Weights{Semantic: 1, Size: 1}
	cfg := Config{RelevanceCut: 0.8}
	at := func(budget int) map[string]bool {
		var cs []*Candidate
		for _, n := range []struct {
			id     string
			tokens int
			sem    float64
		}{{"small", 100, 1}, {"large", 3000, 1}, {"weak", 100, 0.3}} {
			cs = append(cs, &Candidate{ID: n.id, Ref: n.id, Tokens: n.tokens, Signals: Signals{Semantic: n.sem, Size: SizeSignal(n.tokens, budget)}})
		}
		Rank(cs, w, cfg)
		out := map[string]bool{}
		for _, c := range cs {
			out[c.ID] = c.Relevant
			assert.InDelta(t, (c.Signals[Semantic]+SizeSignal(c.Tokens, budget))/2, c.Score, 1e-4, "the score takes the size at the question's budget")
		}
		return out
	}
	// Scored at its own budget, "large" would be below 0.8 × the best at
	// 4,000 tokens ((1 + 0.25) / 2 against 0.99) and above it at 16,000.
	want := at(RelevanceBudget)
	assert.Equal(t, map[string]bool{"small": true, "large": false, "weak": false}, want)
	for _, budget := range []int{1000, 2000, 4000, 8000, 16000, 32000} {
		assert.Equal(t, want, at(budget), "budget %d", budget)
	}
}

func TestRank(t *testing.T) {
	semanticOnly := Weights{Semantic: 1}
	open := Config{} // no cut at all: every candidate with a positive best is relevant
	t.Run("candidates are sorted by descending score", func(t *testing.T) {
		cs := []*Candidate{
			{ID: "a", Ref: "a", Signals: Signals{Semantic: 0.5}},
			{ID: "b", Ref: "b", Signals: Signals{Semantic: 0.9}},
			{ID: "c", Ref: "c", Signals: Signals{Semantic: 0.7}},
		}
		Rank(cs, semanticOnly, open)
		assert.Equal(t, []string{"b", "c", "a"}, ids(cs))
		assert.Equal(t, []float64{0.9, 0.7, 0.5}, []float64{cs[0].Score, cs[1].Score, cs[2].Score})
	})
	t.Run("scores are rounded to four decimals", func(t *testing.T) {
		cs := []*Candidate{{ID: "a", Signals: Signals{Semantic: 0.123456}}}
		Rank(cs, semanticOnly, open)
		assert.Equal(t, 0.1235, cs[0].Score)
	})
	t.Run("ties are broken by reference then by id", func(t *testing.T) {
		cs := []*Candidate{
			{ID: "z", Ref: "b.md#x", Signals: Signals{Semantic: 0.5}},
			{ID: "y", Ref: "a.md#x", Signals: Signals{Semantic: 0.5}},
			{ID: "b", Ref: "c.md", Signals: Signals{Semantic: 0.5}},
			{ID: "a", Ref: "c.md", Signals: Signals{Semantic: 0.5}},
			{ID: "top", Ref: "z.md", Signals: Signals{Semantic: 0.6}},
		}
		Rank(cs, semanticOnly, open)
		assert.Equal(t, []string{"top", "y", "z", "a", "b"}, ids(cs))
	})
	t.Run("scores that differ below the fourth decimal tie", func(t *testing.T) {
		cs := []*Candidate{
			{ID: "b", Ref: "b", Signals: Signals{Semantic: 0.50004}},
			{ID: "a", Ref: "a", Signals: Signals{Semantic: 0.50001}},
		}
		Rank(cs, semanticOnly, open)
		assert.Equal(t, []string{"a", "b"}, ids(cs))
	})

	// Semantic and hop weigh alike, so score = (semantic + hop) / 2 and the
	// cuts on score and on semantic relevance can be told apart.
	even := Weights{Semantic: 1, Hop: 1}
	cuts := []struct {
		name string
		cfg  Config
		in   []Signals
		want []bool // relevance in rank order
	}{
		{"the relevance cut drops scores below its share of the best",
			Config{RelevanceCut: 0.5},
			[]Signals{{Semantic: 1, Hop: 1}, {Semantic: 1, Hop: 0}, {Semantic: 0.8, Hop: 0}},
			[]bool{true, true, false}},
		{"the semantic cut drops semantic relevance below its share of the best",
			Config{SemanticCut: 0.5},
			[]Signals{{Semantic: 1, Hop: 1}, {Semantic: 0.5, Hop: 1}, {Semantic: 0.4, Hop: 1}},
			[]bool{true, true, false}},
		{"the minimum semantic relevance drops weak matches whatever their score",
			Config{MinSemantic: 0.3},
			[]Signals{{Semantic: 0.35, Hop: 1}, {Semantic: 0.3, Hop: 1}, {Semantic: 0.25, Hop: 1}},
			[]bool{true, true, false}},
		{"the relevant set is capped at max relevant in rank order",
			Config{MaxRelevant: 2},
			[]Signals{{Semantic: 0.9}, {Semantic: 0.8}, {Semantic: 0.7}, {Semantic: 0.6}},
			[]bool{true, true, false, false}},
		{"a zero max relevant does not cap",
			Config{},
			[]Signals{{Semantic: 0.9}, {Semantic: 0.1}, {Semantic: 0.01}},
			[]bool{true, true, true}},
		{"nothing is relevant when every score is zero",
			Config{},
			[]Signals{{}, {}},
			[]bool{false, false}},
		{"the default cuts keep the close and drop the far",
			DefaultConfig(),
			[]Signals{{Semantic: 1, Hop: 1}, {Semantic: 0.9, Hop: 0.5}, {Semantic: 0.3, Hop: 1}, {Semantic: 0.1, Hop: 0}},
			[]bool{true, true, false, false}},
	}
	for _, tt := range cuts {
		t.Run(tt.name, func(t *testing.T) {
			var cs []*Candidate
			for i, s := range tt.in {
				cs = append(cs, &Candidate{ID: fmt.Sprintf("n%d", i), Ref: fmt.Sprintf("r%d", i), Signals: s})
			}
			Rank(cs, even, tt.cfg)
			got := make([]bool, len(cs))
			for i, c := range cs {
				got[i] = c.Relevant
			}
			assert.Equal(t, tt.want, got)
		})
	}
	t.Run("the background cut follows the curve: a steep one keeps its head, a flat one keeps more", func(t *testing.T) {
		// 40 candidates: a head of scores, then a background of 0.5.
		curve := func(head ...float64) []*Candidate {
			var cs []*Candidate
			for i := range 40 {
				sem := 0.5
				if i < len(head) {
					sem = head[i]
				}
				cs = append(cs, &Candidate{ID: fmt.Sprintf("n%02d", i), Ref: fmt.Sprintf("r%02d", i), Signals: Signals{Semantic: sem}})
			}
			return cs
		}
		relevant := func(cs []*Candidate) int {
			n := 0
			for _, c := range cs {
				if c.Relevant {
					n++
				}
			}
			return n
		}
		cfg := Config{RelevanceCut: 0.5, BackgroundCut: 0.35}
		sem := Weights{Semantic: 1}
		steep := curve(1, 0.75, 0.7, 0.6, 0.55)
		Rank(steep, sem, cfg)
		assert.InDelta(t, 0.5, Background(steep), 1e-9)
		assert.Equal(t, 3, relevant(steep), "the cut is 0.5 + 0.35 × 0.5 = 0.675: 1, 0.75 and 0.7 stand out; 0.6 and 0.55 do not")
		flat := curve(1, 0.97, 0.95, 0.93, 0.9, 0.9, 0.88)
		Rank(flat, sem, cfg)
		assert.Equal(t, 7, relevant(flat), "every section near the best is relevant, however many")
		without := curve(1, 0.75, 0.7, 0.6, 0.55)
		Rank(without, sem, Config{RelevanceCut: 0.5})
		assert.Equal(t, 40, relevant(without), "the share of the best alone keeps the whole background")
	})
	t.Run("the relevant set ends at a clear drop after its first two", func(t *testing.T) {
		sem := Weights{Semantic: 1}
		refs := func(cs []*Candidate) []string {
			var out []string
			for _, c := range cs {
				if c.Relevant {
					out = append(out, c.Ref)
				}
			}
			return out
		}
		cs := []*Candidate{
			{ID: "a", Ref: "a", Signals: Signals{Semantic: 0.95}},
			{ID: "b", Ref: "b", Signals: Signals{Semantic: 0.9}},
			{ID: "c", Ref: "c", Signals: Signals{Semantic: 0.88}},
			{ID: "d", Ref: "d", Signals: Signals{Semantic: 0.72}}, // a drop of 0.16
			{ID: "e", Ref: "e", Signals: Signals{Semantic: 0.7}},
		}
		Rank(cs, sem, Config{RelevanceCut: 0.5, GapCut: 0.12})
		assert.Equal(t, []string{"a", "b", "c"}, refs(cs))
		Select(cs, SelectOptions{Loadable: 1000, Level: Detailed})
		assert.Equal(t, "after a clear drop in relevance (score 0.72)", cs[3].Reason, "the candidate table says why")
		Rank(cs, sem, Config{RelevanceCut: 0.5})
		assert.Equal(t, []string{"a", "b", "c", "d", "e"}, refs(cs), "0 turns the rule off")
		Rank(cs, sem, Config{RelevanceCut: 0.5, GapCut: 0.2})
		assert.Len(t, refs(cs), 5, "no drop of 0.2")

		// The drop after the best alone does not end the set: two stay.
		second := []*Candidate{
			{ID: "a", Ref: "a", Signals: Signals{Semantic: 0.95}},
			{ID: "b", Ref: "b", Signals: Signals{Semantic: 0.7}},
			{ID: "c", Ref: "c", Signals: Signals{Semantic: 0.69}},
			{ID: "d", Ref: "d", Signals: Signals{Semantic: 0.55}},
		}
		Rank(second, sem, Config{RelevanceCut: 0.5, GapCut: 0.12})
		assert.Equal(t, []string{"a", "b", "c"}, refs(second), "the largest drop after the second, 0.14, ends it")

		// The drop is in relevance (the size signal at RelevanceBudget),
		// not in the score at the question's budget.
		sized := []*Candidate{
			{ID: "a", Ref: "a", Tokens: 100, Signals: Signals{Semantic: 1}},
			{ID: "b", Ref: "b", Tokens: 100, Signals: Signals{Semantic: 0.95}},
			{ID: "c", Ref: "c", Tokens: 4000, Signals: Signals{Semantic: 0.95}},
		}
		Rank(sized, Weights{Semantic: 1, Size: 1}, Config{RelevanceCut: 0.3, GapCut: 0.2})
		assert.Equal(t, []string{"a", "b"}, refs(sized), "c's size at 4,096 tokens drops it by %.2f", sized[1].Relevance-sized[2].Relevance)
	})
	t.Run("with fewer candidates than BackgroundFrom there is no background", func(t *testing.T) {
		cs := []*Candidate{{ID: "a", Ref: "a", Score: 1}, {ID: "b", Ref: "b", Score: 0.2}}
		assert.Zero(t, Background(cs))
	})
	t.Run("a candidate that is relevant by its score but not by the cap is not counted against the cap", func(t *testing.T) {
		cs := []*Candidate{
			{ID: "a", Ref: "a", Signals: Signals{Semantic: 1, Hop: 1}},
			{ID: "b", Ref: "b", Signals: Signals{Semantic: 0.1, Hop: 1}}, // below min semantic
			{ID: "c", Ref: "c", Signals: Signals{Semantic: 0.9, Hop: 0}},
		}
		Rank(cs, even, Config{MinSemantic: 0.5, MaxRelevant: 2})
		assert.Equal(t, []string{"a", "b", "c"}, ids(cs))
		assert.Equal(t, []bool{true, false, true}, []bool{cs[0].Relevant, cs[1].Relevant, cs[2].Relevant})
	})
}

func TestSelectLoadsNearCandidatesOnlyBeyondTheRelevanceBudget(t *testing.T) {
	near := func(id string, score float64, tokens int) *Candidate {
		c := node(id, score, tokens)
		c.Relevant, c.Near = false, true
		return c
	}
	cands := func() []*Candidate {
		far := node("far", 0.1, 10)
		far.Relevant = false // below the background: never loads
		big := near("big", 0.4, 900)
		big.SummaryTokens = 80
		return []*Candidate{node("a", 0.9, 300), node("b", 0.8, 200), near("n1", 0.6, 400), near("n2", 0.5, 300), big, near("n3", 0.3, 100), far}
	}
	t.Run("none within the relevance budget", func(t *testing.T) {
		cs := cands()
		sel := Select(cs, SelectOptions{Loadable: 5000, Oversize: 0.5})
		assert.Equal(t, []string{"a", "b"}, ids(sel.Loaded))
		assert.Contains(t, cs[2].Reason, "below the relevance cut")
	})
	t.Run("in rank order, within what the context has beyond it", func(t *testing.T) {
		cs := cands()
		sel := Select(cs, SelectOptions{Loadable: 5000, Oversize: 0.5, Beyond: 800})
		assert.Equal(t, []string{"a", "b", "n1", "n2", "big"}, ids(sel.Loaded), "n1 and n2 take 700; the large one's summary takes 80 of the 100 left")
		assert.Equal(t, map[string]Level{"a": Detailed, "b": Detailed, "n1": Detailed, "n2": Detailed, "big": Summary}, levels(sel.Loaded))
		assert.Equal(t, "near the question (score 0.60): loaded in the budget beyond the 4096 tokens relevance is judged at", cs[2].Reason)
		assert.Equal(t, "near the question (score 0.40): loaded in the budget beyond the 4096 tokens relevance is judged at, as summary (full text is 900 tokens)", cs[4].Reason)
		assert.False(t, cs[5].Loaded, "n3 does not fit the 20 tokens left")
		assert.False(t, cs[6].Loaded, "what is not near never loads")
		assert.Equal(t, 2, sel.Relevant, "near candidates are not counted as relevant")
		assert.Equal(t, 3, sel.Near)
		assert.Zero(t, sel.NotLoaded)
	})
	t.Run("never in what the relevant need", func(t *testing.T) {
		cs := cands()
		sel := Select(cs, SelectOptions{Loadable: 550, Level: Detailed, Oversize: 1, Beyond: 800})
		assert.Equal(t, []string{"a", "b"}, ids(sel.Loaded), "the relevant take the budget; only 50 tokens are left")
		cs = cands()
		sel = Select(cs, SelectOptions{Loadable: 400, Level: Detailed, Oversize: 1, Beyond: 800})
		assert.Equal(t, []string{"a"}, ids(sel.Loaded), "a relevant node left out: nothing near loads in its place")
		assert.Equal(t, 1, sel.NotLoaded)
	})
}

func TestRankMarksTheCandidatesNearTheQuestion(t *testing.T) {
	// 14 candidates: the background is the median of the 11th to the 14th
	// (0.35 and 0.30: 0.325).
	var cs []*Candidate
	for i, s := range []float64{1, 0.9, 0.6, 0.5, 0.5, 0.45, 0.45, 0.4, 0.4, 0.4, 0.35, 0.35, 0.3, 0.3} {
		cs = append(cs, &Candidate{ID: fmt.Sprintf("n%02d", i), Ref: fmt.Sprintf("r%02d", i), Signals: Signals{Semantic: s}})
	}
	Rank(cs, Weights{Semantic: 1}, Config{RelevanceCut: 0.8})
	var relevant, near []string
	for _, c := range cs {
		if c.Relevant {
			relevant = append(relevant, c.ID)
		}
		if c.Near {
			near = append(near, c.ID)
		}
	}
	assert.Equal(t, []string{"n00", "n01"}, relevant)
	assert.Equal(t, []string{"n02", "n03", "n04", "n05", "n06", "n07", "n08", "n09", "n10", "n11"}, near, "above the background and not relevant")
}

func TestRankHoldsCodeToItsOwnRules(t *testing.T) {
	// Relevance 1, 0.9, 0.8, … 0.6 in rank order; the prose cut is 0.72,
	// the code cut 0.66, and a definition outside the best one's file needs
	// 0.85 when that file holds two of the first ten.
	def := func(id, file string, s float64) *Candidate {
		return &Candidate{ID: id, Ref: file + "#" + id, Document: file, Definition: true, Signals: Signals{Semantic: s}}
	}
	prose := func(id, doc string, s float64) *Candidate {
		return &Candidate{ID: id, Ref: doc + "#" + id, Document: doc, Signals: Signals{Semantic: s}}
	}
	cfg := Config{RelevanceCut: 0.72, CodeCut: 0.66, OtherFileCut: 0.85}
	relevant := func(cs []*Candidate) []string {
		var out []string
		for _, c := range cs {
			if c.Relevant {
				out = append(out, c.ID)
			}
		}
		return out
	}

	t.Run("the best definition's file at the code cut, other files above OtherFileCut", func(t *testing.T) {
		cs := []*Candidate{def("a", "own.py", 1), def("b", "other.py", 0.9), def("c", "other.py", 0.8), def("d", "own.py", 0.7), def("e", "own.py", 0.64)}
		Rank(cs, Weights{Semantic: 1}, cfg)
		assert.Equal(t, []string{"a", "b", "d"}, relevant(cs), "c is in another file under 0.85; d in the best one's file over 0.66; e under it")
		assert.True(t, cs[2].Near, "a definition the rule leaves out is still near the question")
	})
	t.Run("prose keeps the relevance cut in a workspace with code", func(t *testing.T) {
		cs := []*Candidate{def("a", "own.py", 1), def("b", "own.py", 0.9), prose("p", "README.md", 0.8), prose("q", "README.md", 0.7), def("d", "own.py", 0.69)}
		Rank(cs, Weights{Semantic: 1}, cfg)
		assert.Equal(t, []string{"a", "b", "p", "d"}, relevant(cs), "README's 0.7 is under 0.72 and not held to the file rule")
	})
	t.Run("no file of its own when the best file holds one of the first ten", func(t *testing.T) {
		cs := []*Candidate{def("a", "one.py", 1), def("b", "two.py", 0.8), def("c", "three.py", 0.7)}
		Rank(cs, Weights{Semantic: 1}, cfg)
		assert.Equal(t, []string{"a", "b", "c"}, relevant(cs), "spread over three files: the code cut alone")
	})
	t.Run("zero turns the rules off", func(t *testing.T) {
		cs := []*Candidate{def("a", "own.py", 1), def("b", "other.py", 0.8), def("c", "own.py", 0.7)}
		Rank(cs, Weights{Semantic: 1}, Config{RelevanceCut: 0.72})
		assert.Equal(t, []string{"a", "b"}, relevant(cs), "the relevance cut for code too")
	})
}

func TestOwnFile(t *testing.T) {
	def := func(file string) *Candidate { return &Candidate{Document: file, Definition: true} }
	prose := &Candidate{Document: "README.md"}
	assert.Equal(t, "a.go", ownFile([]*Candidate{prose, def("a.go"), def("b.go"), def("a.go")}), "the best definition's file, prose before it or not")
	assert.Empty(t, ownFile([]*Candidate{def("a.go"), def("b.go"), def("c.go")}), "one of the first ten in it")
	assert.Empty(t, ownFile([]*Candidate{prose, prose}), "no definitions")
	var far []*Candidate
	far = append(far, def("a.go"))
	for range OwnFileOf - 1 {
		far = append(far, def("b.go"))
	}
	far = append(far, def("a.go"))
	assert.Empty(t, ownFile(far), "the second beyond the first ten does not count")
}
