package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func randomVector(r *rand.Rand, dim int) []float32 {
	vec := make([]float32, dim)
	for i := range vec {
		vec[i] = float32(r.NormFloat64())
	}
	return vec
}

// naiveCosine is the reference: float64 throughout, no normalisation ahead.
func naiveCosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func TestVectorsScoreAllMatchesNaiveCosine(t *testing.T) {
	// Force several workers even on a one-core machine, so the split path is
	// exercised wherever the test runs.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, dim := range []int{3, 100, 768} {
		for _, rows := range []int{1, 100, minRowsPerWorker*2 - 1, minRowsPerWorker*3 + 17} {
			t.Run(fmt.Sprintf("%dx%d", rows, dim), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(dim), uint64(rows)))
				v := NewVectors(dim)
				raw := make([][]float32, rows)
				for slot := range raw {
					raw[slot] = randomVector(r, dim)
					v.Set(int32(slot), raw[slot])
				}
				for slot := 0; slot < rows; slot += 7 {
					v.Remove(int32(slot))
				}
				q := randomVector(r, dim)
				out := make([]float32, rows+3)
				for i := range out {
					out[i] = 42 // every element must be overwritten
				}
				v.ScoreAll(q, out)
				for slot := range out {
					want := 0.0
					if slot < rows && slot%7 != 0 {
						want = naiveCosine(q, raw[slot])
					}
					require.InDelta(t, want, out[slot], 1e-5, "slot %d", slot)
				}
			})
		}
	}
}

func TestVectorsSetRemoveHasRow(t *testing.T) {
	v := NewVectors(3)
	assert.Equal(t, 3, v.Dim())
	assert.False(t, v.Has(0))
	assert.Nil(t, v.Row(0))
	assert.Nil(t, v.Row(-1))

	v.Set(2, []float32{3, 0, 4})
	assert.True(t, v.Has(2))
	assert.False(t, v.Has(0), "growing leaves the rows below absent")
	assert.Equal(t, 1, v.Len())
	assert.Equal(t, 3, v.Slots())
	assert.InDeltaSlice(t, []float32{0.6, 0, 0.8}, v.Row(2), 1e-7, "stored normalised")

	input := []float32{0, 2, 0}
	v.Set(2, input)
	assert.Equal(t, []float32{0, 2, 0}, input, "the caller's slice is not modified")
	assert.Equal(t, []float32{0, 1, 0}, v.Row(2), "set replaces")
	assert.Equal(t, 1, v.Len())

	v.Set(0, []float32{0, 0, 0})
	assert.True(t, v.Has(0))
	assert.Equal(t, []float32{0, 0, 0}, v.Row(0), "a zero vector stays zero")

	v.Remove(2)
	v.Remove(2)
	v.Remove(50)
	assert.False(t, v.Has(2))
	assert.Nil(t, v.Row(2))
	assert.Equal(t, 1, v.Len())
	out := []float32{9, 9, 9}
	v.ScoreAll([]float32{0, 1, 0}, out)
	assert.Equal(t, []float32{0, 0, 0}, out, "a removed row scores 0")

	assert.Panics(t, func() { v.Set(1, []float32{1, 2}) }, "wrong dimension")
	assert.Panics(t, func() { v.Set(-1, []float32{1, 2, 3}) }, "negative slot")
	assert.Panics(t, func() { v.ScoreAll([]float32{1}, out) }, "wrong query dimension")
	assert.Panics(t, func() { NewVectors(0) })
}

func TestVectorsSearch(t *testing.T) {
	v := NewVectors(2)
	v.Set(0, []float32{1, 0})
	v.Set(1, []float32{1, 1})
	v.Set(2, []float32{0, 1})
	v.Set(3, []float32{-1, 0})
	v.Set(4, []float32{2, 2}) // same direction as slot 1: a tie

	hits := v.Search([]float32{10, 10}, 10, nil)
	assert.Equal(t, []int32{1, 4, 0, 2}, slotsOf(hits), "ties by lower slot, orthogonal and opposite rows left out")
	assert.InDelta(t, 1, hits[0].Score, 1e-6)
	assert.InDelta(t, math.Sqrt2/2, hits[2].Score, 1e-6)

	assert.Equal(t, []int32{4, 0}, slotsOf(v.Search([]float32{1, 1}, 2, func(s int32) bool { return s != 1 })))
	assert.Empty(t, v.Search([]float32{1, 1}, 0, nil))
	assert.Empty(t, NewVectors(2).Search([]float32{1, 1}, 5, nil))
}

// TestVectorsSetRows matches Set one row at a time, bit for bit, with a
// slot given twice and rows large enough to be split across goroutines.
func TestVectorsSetRows(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	const dim = 96
	one, bulk := NewVectors(dim), NewVectors(dim)
	one.Set(3, randomVector(r, dim))
	bulk.Set(3, one.Row(3))
	var slots []int32
	var vecs [][]float32
	for i := range 6000 {
		slot := int32((i * 7919) % 6500)
		if i == 100 {
			slot = 12 // given again below
		}
		slots = append(slots, slot)
		vecs = append(vecs, randomVector(r, dim))
	}
	slots = append(slots, 12)
	vecs = append(vecs, randomVector(r, dim))
	for i, slot := range slots {
		one.Set(slot, vecs[i])
	}
	bulk.SetRows(slots, vecs)
	require.Equal(t, one.Len(), bulk.Len())
	require.Equal(t, one.Slots(), bulk.Slots())
	for slot := range int32(one.Slots()) {
		require.Equal(t, one.Row(slot), bulk.Row(slot), "slot %d", slot)
	}
}

func TestNormalise4MatchesNormalise(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	for _, dim := range []int{1, 3, 100, 768} {
		var dst, src, want [4][]float32
		for i := range 4 {
			src[i], dst[i], want[i] = randomVector(r, dim), make([]float32, dim), make([]float32, dim)
			for j := range src[i] {
				src[i][j] *= float32(r.ExpFloat64()) * 1e3 // uneven magnitudes
			}
		}
		clear(src[2]) // a zero row
		for i := range 4 {
			normalise(want[i], src[i])
		}
		normalise4(&dst, &src)
		require.Equal(t, want, dst, "dim %d", dim)
	}
}
