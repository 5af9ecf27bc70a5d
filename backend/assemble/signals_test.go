package assemble

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompositeScore(t *testing.T) {
	all := Signals{Semantic: 0.8, Hop: 0.5, Staleness: 0.25, Size: 1, Provenance: 0.5, Density: 0, Trust: 1, Novelty: 0.1}
	tests := []struct {
		name    string
		signals Signals
		weights Weights
		want    float64
	}{
		{"zero weights fall back to semantic relevance", all, Weights{}, 0.8},
		{"negative weight sum falls back to semantic relevance", all, Weights{Semantic: -1, Hop: 0.5}, 0.8},
		{"novelty alone is no weight and falls back to semantic relevance", all, Weights{Novelty: 1}, 0.8},
		{"a single weight picks its signal", all, Weights{Hop: 3}, 0.5},
		{"weights that do not sum to one are normalised by their sum", all, Weights{Semantic: 2, Hop: 2}, (0.8 + 0.5) / 2},
		{"scaling every weight does not change the score", all, Weights{Semantic: 6, Staleness: 3, Trust: 1}, (6*0.8 + 3*0.25 + 1*1) / 10},
		{"every signal takes part", all, Weights{Semantic: 1, Hop: 1, Staleness: 1, Size: 1, Provenance: 1, Density: 1, Trust: 1},
			(0.8 + 0.5 + 0.25 + 1 + 0.5 + 0 + 1) / 7},
		{"novelty does not enter the composite", Signals{Semantic: 0.5, Novelty: 1}, Weights{Semantic: 1, Novelty: 1}, 0.5},
		{"signals above one are clamped to one", Signals{Semantic: 3, Hop: 2}, Weights{Semantic: 1, Hop: 1}, 1},
		{"signals below zero are clamped to zero", Signals{Semantic: -2, Hop: -1}, Weights{Semantic: 1, Hop: 1}, 0},
		{"all zero signals score zero", Signals{}, DefaultPresets[Answer], 0},
		{"all one signals score one under every preset", Signals{1, 1, 1, 1, 1, 1, 1, 1}, DefaultPresets[Verify], 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, tt.signals.Composite(tt.weights), 1e-12)
		})
	}
}

func TestSemanticMixing(t *testing.T) {
	tests := []struct {
		name                                string
		keyword, keywordMax, cos, cosMax, w float64
		want                                float64
	}{
		{"the best candidate on both scores one", 4, 4, 0.6, 0.6, 0.8, 1},
		{"keyword and cosine are each normalised to the best then mixed", 2, 4, 0.3, 0.6, 0.8, 0.8*0.5 + 0.2*0.5},
		{"keyword weight one ignores vectors", 1, 4, 0.6, 0.6, 1, 0.25},
		{"keyword weight zero ignores keywords", 4, 4, 0.15, 0.6, 0, 0.25},
		{"no keyword hit for this candidate still lets vectors count", 0, 4, 0.6, 0.6, 0.8, 0.2},
		{"no keyword evidence at all lets vectors alone decide", 0, 0, 0.3, 0.6, 0.8, 0.5},
		{"no keyword evidence and no vectors score zero", 0, 0, 0, 0, 0.8, 0},
		{"a negative cosine counts as no vector evidence", 4, 4, -0.5, 0.6, 0.5, 0.5},
		{"a negative cosine without keyword evidence scores zero", 0, 0, -0.5, 0.6, 0.5, 0},
		{"a missing best cosine counts as no vector evidence", 2, 4, 0.3, 0, 0.5, 0.25},
		{"scores above the stated best are clamped to one", 8, 4, 1.2, 0.6, 0.5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, Semantic(tt.keyword, tt.keywordMax, tt.cos, tt.cosMax, tt.w), 1e-12)
		})
	}
}

func TestHopSignal(t *testing.T) {
	tests := []struct {
		name    string
		hops    int
		maxHops int
		want    float64
	}{
		{"an unreachable node scores zero", -1, 3, 0},
		{"a node on a best concept scores one", 0, 3, 1},
		{"a node one edge away still scores one", 1, 3, 1},
		{"two edges away halves the signal", 2, 3, 0.5},
		{"three edges away halves it again", 3, 3, 0.25},
		{"beyond max hops scores zero", 4, 3, 0},
		{"far beyond max hops scores zero", 40, 3, 0},
		{"exactly at a small max hops still scores", 1, 1, 1},
		{"past a max hops of one scores zero", 2, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, HopSignal(tt.hops, tt.maxHops), 1e-12)
		})
	}
}

func TestStaleness(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	half := 30 * 24 * time.Hour
	tests := []struct {
		name     string
		last     time.Time
		halfLife time.Duration
		want     float64
	}{
		{"a node accessed just now scores one", now, half, 1},
		{"a node one half-life old scores a half", now.Add(-half), half, 0.5},
		{"a node two half-lives old scores a quarter", now.Add(-2 * half), half, 0.25},
		{"a node half a half-life old scores one over root two", now.Add(-half / 2), half, 0.7071067811865476},
		{"a node never accessed scores a neutral half", time.Time{}, half, 0.5},
		{"an access time in the future scores one", now.Add(time.Hour), half, 1},
		{"a non-positive half-life scores a neutral half", now.Add(-half), 0, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, Staleness(tt.last, now, tt.halfLife), 1e-9)
		})
	}
}

func TestSizeSignal(t *testing.T) {
	tests := []struct {
		name           string
		tokens, budget int
		want           float64
	}{
		{"an empty node leaves the whole budget", 0, 1000, 1},
		{"a node of a quarter of the budget scores three quarters", 250, 1000, 0.75},
		{"a node as large as the budget scores zero", 1000, 1000, 0},
		{"a node larger than the budget is clamped to zero", 3000, 1000, 0},
		{"no budget scores zero", 10, 0, 0},
		{"a negative budget scores zero", 10, -5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, SizeSignal(tt.tokens, tt.budget), 1e-12)
		})
	}
}

func TestDensity(t *testing.T) {
	tests := []struct {
		name          string
		touched, best float64
		want          float64
	}{
		{"the best candidate's share scores one", 0.75, 0.75, 1},
		{"half the best candidate's share scores a half", 0.25, 0.5, 0.5},
		{"no concept near the question scores zero", 0, 0.5, 0},
		{"no candidate near any concept scores zero", 0, 0, 0},
		{"more than the stated best is clamped to one", 1, 0.8, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, Density(tt.touched, tt.best), 1e-12)
		})
	}
}

func TestCosine(t *testing.T) {
	t.Run("identical unit vectors have cosine one", func(t *testing.T) {
		assert.InDelta(t, 1, cosine([]float32{0.6, 0.8}, []float32{0.6, 0.8}), 1e-6)
	})
	t.Run("orthogonal vectors have cosine zero", func(t *testing.T) {
		assert.InDelta(t, 0, cosine([]float32{1, 0}, []float32{0, 1}), 1e-9)
	})
	t.Run("a missing vector has cosine zero", func(t *testing.T) {
		assert.Zero(t, cosine(nil, []float32{1, 0}))
	})
	t.Run("vectors of different lengths have cosine zero", func(t *testing.T) {
		assert.Zero(t, cosine([]float32{1}, []float32{1, 0}))
	})
}

func TestParseLevel(t *testing.T) {
	good := []struct {
		name string
		in   string
		want Level
	}{
		{"an empty level is adaptive", "", Adaptive},
		{"detailed is accepted", "detailed", Detailed},
		{"summary is accepted", "summary", Summary},
		{"essence is accepted", "essence", Essence},
		{"adaptive is accepted", "adaptive", Adaptive},
	}
	for _, tt := range good {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseLevel(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	bad := []struct {
		name string
		in   string
	}{
		{"an unknown word is refused", "verbose"},
		{"chunks is chosen by the selector, not asked for", "chunks"},
		{"levels are lower case", "Detailed"},
		{"surrounding space is not trimmed", " summary"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseLevel(tt.in)
			require.Error(t, err)
			assert.Empty(t, got)
			assert.Contains(t, err.Error(), tt.in)
			assert.Contains(t, err.Error(), "detailed, summary, essence or adaptive")
			var usage *usageError
			assert.True(t, errors.As(err, &usage), "a bad level is a usage error, not a failure")
		})
	}
}

func TestParsePurpose(t *testing.T) {
	good := []struct {
		name string
		in   string
		want Purpose
	}{
		{"an empty purpose is answer", "", Answer},
		{"answer is accepted", "answer", Answer},
		{"verify is accepted", "verify", Verify},
		{"explore is accepted", "explore", Explore},
		{"decide is accepted", "decide", Decide},
		{"create is accepted", "create", Create},
		{"purposes are case-insensitive", "VeRiFy", Verify},
	}
	for _, tt := range good {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePurpose(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	for _, in := range []string{"summarise", "answers", " answer", "adaptive"} {
		t.Run("the unknown purpose "+in+" is refused with the list of purposes", func(t *testing.T) {
			got, err := ParsePurpose(in)
			require.Error(t, err)
			assert.Empty(t, got)
			assert.Contains(t, err.Error(), "answer, verify, explore, decide or create")
		})
	}
	t.Run("every listed purpose has a default preset", func(t *testing.T) {
		for _, p := range Purposes {
			assert.Contains(t, DefaultPresets, p)
		}
		assert.Len(t, DefaultPresets, len(Purposes))
	})
}
