package synthetic

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func embedAll(t *testing.T, texts ...string) [][]float32 {
	t.Helper()
	v, err := New().Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, v, len(texts))
	return v
}

func TestEmbedIsDeterministicUnitAndSized(t *testing.T) {
	e := New()
	assert.Equal(t, ID, e.ID())
	assert.Equal(t, 768, e.Dim())
	a := embedAll(t, "storms at the port tags: topic03", "", "no marker at all")
	b := embedAll(t, "storms at the port tags: topic03", "", "no marker at all")
	assert.Equal(t, a, b, "same text, same vector, in a fresh embedder")
	for _, v := range a {
		require.Len(t, v, Dim)
		assert.InDelta(t, 1, math.Sqrt(dot(v, v)), 1e-5)
	}
}

func TestVectorsClusterByTopic(t *testing.T) {
	var same, other []float64
	for i := range 40 {
		v := embedAll(t,
			fmt.Sprintf("section %d tags: topic%02d", i, i%10),
			fmt.Sprintf("another section %d tags: topic%02d", i, i%10),
			fmt.Sprintf("elsewhere %d tags: topic%02d", i, 10+i%10))
		same = append(same, dot(v[0], v[1]))
		other = append(other, dot(v[0], v[2]))
	}
	for i := range same {
		assert.InDelta(t, 1/(1+Noise*Noise), same[i], 0.1, "one topic")
		assert.InDelta(t, 0, other[i], 0.15, "two topics")
	}
	// A text naming two topics lies between them.
	v := embedAll(t, "tags: topic01", "tags: topic02", "tags: topic01 topic02")
	assert.Greater(t, dot(v[2], v[0]), 0.4)
	assert.Greater(t, dot(v[2], v[1]), 0.4)
}

func TestMarkers(t *testing.T) {
	assert.Equal(t, []int{3, 17, 3}, Markers("tags: topic03 topic17, and topic3 again"))
	assert.Empty(t, Markers("topics and topical words, topic"))
	assert.Equal(t, []int{5}, Markers("(tags: topic05)"))
}

func TestEmbedHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New().Embed(ctx, []string{"a"})
	assert.ErrorIs(t, err, context.Canceled)
}
