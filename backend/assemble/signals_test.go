package assemble

import (
	"encoding/json"
	"errors"
	"testing"

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
		{"all zero signals score zero", Signals{}, DefaultPresets()[Answer], 0},
		{"all one signals score one under every preset", Signals{1, 1, 1, 1, 1, 1, 1, 1}, DefaultPresets()[Verify], 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, tt.signals.Composite(tt.weights), 1e-12)
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
		{"map is accepted", "map", Map},
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
			assert.Contains(t, err.Error(), "detailed, summary, essence, adaptive or map")
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
			assert.Contains(t, DefaultPresets(), p)
		}
		assert.Len(t, DefaultPresets(), len(Purposes))
	})
}

// TestSignalRegistry: the signals' IDs run 0, 1, 2, … without gaps, their
// names are unique, and Signals and Weights read and write JSON by name in
// ID order (the order the page draws them in).
func TestSignalRegistry(t *testing.T) {
	all := AllSignals()
	require.NotEmpty(t, all)
	seen := map[string]bool{}
	for i, s := range all {
		assert.Equal(t, SignalID(i), s.ID(), "signal %s", s.Name())
		assert.False(t, seen[s.Name()], "two signals named %s", s.Name())
		seen[s.Name()] = true
		for _, p := range Purposes {
			assert.GreaterOrEqual(t, s.Weight(p), 0.0, "%s's weight for %s", s.Name(), p)
		}
	}
	assert.Equal(t, []string{"semantic", "hop", "staleness", "size", "provenance", "density", "trust", "novelty"}, SignalNames())

	t.Run("signals write by name in ID order", func(t *testing.T) {
		b, err := json.Marshal(Signals{Semantic: 0.8, Hop: 0.5, Staleness: 0.25, Size: 1, Provenance: 0.5, Trust: 1, Novelty: 0.125})
		require.NoError(t, err)
		assert.Equal(t, `{"semantic":0.8,"hop":0.5,"staleness":0.25,"size":1,"provenance":0.5,"density":0,"trust":1,"novelty":0.125}`, string(b))
	})
	t.Run("weights read back what they wrote", func(t *testing.T) {
		w := DefaultPresets()[Explore]
		b, err := json.Marshal(w)
		require.NoError(t, err)
		var back Weights
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, w, back)
	})
	t.Run("weights left out read as zero", func(t *testing.T) {
		var w Weights
		require.NoError(t, json.Unmarshal([]byte(`{"semantic":1,"trust":0.5}`), &w))
		assert.Equal(t, Weights{Semantic: 1, Trust: 0.5}, w)
	})
}
