package assemble

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutputShare(t *testing.T) {
	tests := []struct {
		name       string
		complexity float64
		want       float64
	}{
		{"a trivial question keeps three quarters of the reserve", 0, 0.225},
		{"a middling question keeps the reserve", 0.5, 0.3},
		{"the most complex question keeps five quarters of the reserve", 1, 0.375},
		{"complexity above one is clamped", 7, 0.375},
		{"complexity below zero is clamped", -3, 0.225},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, OutputShare(0.3, tt.complexity), 1e-12)
		})
	}
}

func TestPlanSplitWithAWindow(t *testing.T) {
	tests := []struct {
		name       string
		complexity float64
		source     string
		wantShare  float64
		wantOutput int
		wantSource string
	}{
		{"complexity zero reserves 0.75 of the output share", 0, "", 0.225, 2250, "window"},
		{"complexity one reserves 1.25 of the output share", 1, "", 0.375, 3750, "window"},
		{"complexity one half reserves exactly the output share", 0.5, "", 0.3, 3000, "window"},
		{"a named source is kept", 0.5, "model llama3", 0.3, 3000, "model llama3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := PlanSplit(SplitRequest{Window: 10000, WindowSource: tt.source, System: 100, Question: 50, Reserve: 0.3, Complexity: tt.complexity})
			require.NoError(t, err)
			assert.Equal(t, 10000, s.Window)
			assert.Equal(t, tt.wantSource, s.WindowSource)
			assert.InDelta(t, tt.wantShare, s.OutputShare, 1e-9)
			assert.Equal(t, tt.wantOutput, s.Output)
			assert.Equal(t, 100, s.System)
			assert.Equal(t, 50, s.Question)
			assert.Equal(t, 10000-100-50-tt.wantOutput, s.Context, "context = window − system − question − output")
			assert.Equal(t, s.Context, s.Free, "nothing is loaded yet, so all of the context is free")
			assert.Zero(t, s.Manifest+s.Catalog+s.Loaded)
		})
	}
}

func TestPlanSplitWithOnlyABudget(t *testing.T) {
	t.Run("the window is what the budget implies at the output share", func(t *testing.T) {
		s, err := PlanSplit(SplitRequest{Budget: 2000, System: 100, Question: 50, Reserve: 0.3, Complexity: 0.5})
		require.NoError(t, err)
		assert.Equal(t, 2000, s.Context)
		assert.Equal(t, 3072, s.Window, "ceil((2000+100+50) / 0.7)")
		assert.Equal(t, 922, s.Output)
		assert.Equal(t, "budget", s.WindowSource)
		assert.Equal(t, s.Context, s.Free)
	})
	t.Run("a zero reserve gives a window with no output", func(t *testing.T) {
		s, err := PlanSplit(SplitRequest{Budget: 500, System: 10, Question: 5, Reserve: 0})
		require.NoError(t, err)
		assert.Equal(t, 515, s.Window)
		assert.Zero(t, s.Output)
	})
	t.Run("the output is never negative and roughly the share of the window", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for range 500 {
			// Reserves below 0.8 keep the scaled share below one; see
			// TestPlanSplitWithAHighValidReserve for the rest.
			req := SplitRequest{Budget: MinContext + r.IntN(100000), System: r.IntN(2000), Question: r.IntN(500),
				Reserve: r.Float64() * 0.79, Complexity: r.Float64()}
			s, err := PlanSplit(req)
			require.NoError(t, err, "%+v", req)
			assert.GreaterOrEqual(t, s.Output, 0, "%+v", req)
			assert.Equal(t, req.Budget, s.Context, "%+v", req)
			assert.InDelta(t, OutputShare(req.Reserve, req.Complexity)*float64(s.Window), float64(s.Output), 1.0, "%+v", req)
		}
	})
}

// A reserve that Validate accepts (output_reserve < 0.9) scaled by a
// complex question's 1.25× reaches a share of one or more.
func TestPlanSplitWithAHighValidReserve(t *testing.T) {
	cfg := DefaultConfig()
	cfg.OutputReserve = 0.85
	require.NoError(t, cfg.Validate(), "0.85 is a valid reserve")
	t.Run("a budget alone is always planned", func(t *testing.T) {
		s, err := PlanSplit(SplitRequest{Budget: 2000, System: 100, Question: 50, Reserve: cfg.OutputReserve, Complexity: 1})
		require.NoError(t, err)
		assert.Equal(t, 2000, s.Context)
		assert.GreaterOrEqual(t, s.Output, 0)
		assert.Greater(t, s.Window, s.Context)
	})
	t.Run("a large window never reserves all of itself for output", func(t *testing.T) {
		s, err := PlanSplit(SplitRequest{Window: 10000, System: 100, Question: 50, Reserve: cfg.OutputReserve, Complexity: 1})
		require.NoError(t, err)
		assert.Less(t, s.Output, s.Window)
		assert.GreaterOrEqual(t, s.Context, MinContext)
	})
}

func TestPlanSplitWithBothWindowAndBudget(t *testing.T) {
	t.Run("a budget that fits a small window leaves the rest of the window for output", func(t *testing.T) {
		s, err := PlanSplit(SplitRequest{Window: 2500, WindowSource: "window", Budget: 2000, System: 100, Question: 50, Reserve: 0.3, Complexity: 0.5})
		require.NoError(t, err)
		assert.Equal(t, 2500, s.Window)
		assert.Equal(t, 2000, s.Context)
		assert.Equal(t, 350, s.Output)
		assert.Equal(t, "window", s.WindowSource)
	})
	t.Run("the window is never larger than the given one", func(t *testing.T) {
		s, err := PlanSplit(SplitRequest{Window: 8000, WindowSource: "model m", Budget: 2000, System: 100, Question: 50, Reserve: 0.3, Complexity: 0.5})
		require.NoError(t, err)
		assert.LessOrEqual(t, s.Window, 8000)
		assert.Equal(t, 2000, s.Context)
		assert.GreaterOrEqual(t, s.Output, 0)
		assert.Equal(t, "model m", s.WindowSource)
	})
	t.Run("a budget that does not fit the window is refused", func(t *testing.T) {
		_, err := PlanSplit(SplitRequest{Window: 2000, WindowSource: "window", Budget: 1950, System: 100, Question: 10, Reserve: 0.3})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "1950")
		assert.Contains(t, err.Error(), "2000-token window")
	})
}

func TestPlanSplitRefusals(t *testing.T) {
	tests := []struct {
		name string
		req  SplitRequest
		want []string
	}{
		{"neither a window nor a budget is refused", SplitRequest{System: 10, Question: 10, Reserve: 0.3}, []string{"no budget", "--budget", "--window"}},
		{"a budget below the minimum context is refused", SplitRequest{Budget: MinContext - 1, Reserve: 0.3}, []string{"47 tokens", "raise --budget or --window"}},
		{"a window that leaves too little context is refused", SplitRequest{Window: 200, System: 100, Question: 50, Reserve: 0.3, Complexity: 0.5}, []string{"-10 tokens", "raise --budget or --window"}},
		{"a window eaten by the system prompt is refused", SplitRequest{Window: 1000, System: 950, Reserve: 0.3}, []string{"raise --budget or --window"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := PlanSplit(tt.req)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	t.Run("a budget of exactly the minimum context is accepted", func(t *testing.T) {
		s, err := PlanSplit(SplitRequest{Budget: MinContext, Reserve: 0.3})
		require.NoError(t, err)
		assert.Equal(t, MinContext, s.Context)
	})
}

func TestPlanSplitPartsAddUp(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 1000 {
		req := SplitRequest{System: r.IntN(3000), Question: r.IntN(1000), Reserve: r.Float64() * 0.89, Complexity: r.Float64()*1.4 - 0.2}
		switch i % 3 {
		case 0:
			req.Window = r.IntN(200000)
		case 1:
			req.Budget = r.IntN(50000)
		default:
			req.Window, req.Budget = r.IntN(200000), r.IntN(50000)
		}
		s, err := PlanSplit(req)
		if err != nil {
			continue
		}
		require.Equal(t, s.Window, s.System+s.Question+s.Output+s.Context, "%+v → %+v", req, s)
		require.GreaterOrEqual(t, s.Output, 0, "%+v", req)
		require.GreaterOrEqual(t, s.Context, MinContext, "%+v", req)
		require.Equal(t, s.Context, s.Manifest+s.Catalog+s.Loaded+s.Free, "%+v", req)
		if req.Window > 0 {
			require.LessOrEqual(t, s.Window, req.Window, "%+v", req)
		}
	}
}

func TestBudgetLimits(t *testing.T) {
	t.Run("without a window the default maximum", func(t *testing.T) {
		assert.Equal(t, Limits{MinBudget: MinContext, MaxBudget: DefaultMaxBudget}, BudgetLimits(0, 60, 0.3))
	})
	t.Run("a window less the system prompt and the largest reservation, in steps of 64", func(t *testing.T) {
		// 32768 − 60 − ⌈0.375 × 32768⌉ = 20420 → 20416
		assert.Equal(t, 20416, BudgetLimits(32768, 60, 0.3).MaxBudget)
	})
	t.Run("a window too small for anything still offers the minimum", func(t *testing.T) {
		assert.Equal(t, MinContext, BudgetLimits(100, 60, 0.3).MaxBudget)
	})
	t.Run("the maximum fits any question's split of that window", func(t *testing.T) {
		for _, window := range []int{2048, 8192, 32768, 131072} {
			l := BudgetLimits(window, 60, 0.3)
			for _, complexity := range []float64{0, 0.5, 1} {
				s, err := PlanSplit(SplitRequest{Window: window, Budget: l.MaxBudget, System: 60, Question: 12, Reserve: 0.3, Complexity: complexity})
				require.NoError(t, err, "window %d", window)
				assert.LessOrEqual(t, s.Window, window)
				assert.GreaterOrEqual(t, float64(s.Output)/float64(s.Window), OutputShare(0.3, complexity)-0.01,
					"the answer keeps its room (window %d, complexity %g)", window, complexity)
			}
		}
	})
}
