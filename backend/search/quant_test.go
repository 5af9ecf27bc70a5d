package search

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quantInGo turns v's quantised copy on even where this machine has no
// SIMD kernel for it (the Go kernel then runs).
func quantInGo(v *Vectors) *Vectors {
	v.quantInGo = true
	return v
}

// withOutliers adds rows a quantiser could trip on: one huge coordinate,
// all coordinates equal, a zero row.
func withOutliers(rows [][]float32) [][]float32 {
	rows[1][3] = 1e4
	for j := range rows[2] {
		rows[2][j] = 1
	}
	clear(rows[5])
	return rows
}

func checkBounds(t *testing.T, v *Vectors, q []float32) {
	t.Helper()
	n := v.Slots()
	exact := make([]float32, n+2)
	v.ScoreAll(q, exact)
	est := make([]float32, n+2)
	for i := range est {
		est[i] = 7 // every element is written
	}
	bound, atLeast, ok := v.Estimate(q, est)
	require.True(t, ok)
	require.Len(t, bound, n)
	var sumBound, sumErr float64
	best, lowest := float32(-1), float32(-1)
	for i := range exact {
		b := float32(0) // past the last row: 0 in both
		if i < len(bound) {
			b = bound[i]
		}
		d := math.Abs(float64(est[i]) - float64(exact[i]))
		if d > float64(b) {
			t.Fatalf("slot %d: estimate %v, cosine %v: off by %.3g, bound %.3g", i, est[i], exact[i], d, b)
		}
		sumBound += float64(b)
		sumErr += d
		best, lowest = max(best, exact[i]), max(lowest, est[i]-b)
	}
	assert.Equal(t, lowest, atLeast, "the largest lower bound")
	assert.GreaterOrEqual(t, best, atLeast)
	// The bound is useful, not merely true: a few thousandths at 100-d.
	assert.Less(t, sumBound/float64(n), 0.02, "mean bound")
	assert.Less(t, sumErr/float64(n), sumBound/float64(n))

	// Cosines gives ScoreAll's values bit for bit.
	got := make([]float32, n+2)
	slots := []int32{0, 1, 2, 5, int32(n - 1), int32(n), int32(n + 1), int32(n / 2)}
	v.Cosines(q, slots, got)
	for _, s := range slots {
		assert.Equal(t, math.Float32bits(exact[s]), math.Float32bits(got[s]), "slot %d", s)
	}

	// SumCosine is the sum of ScoreAll's values.
	var sum float64
	for _, c := range exact {
		sum += float64(c)
	}
	assert.InDelta(t, sum, v.SumCosine(q), 1e-6*float64(n))
}

func TestEstimateBoundsHold(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const dim = 100
	rows, qs := clustered(11, QuantMinRows+500, 5, dim, 40, 0.6)
	rows = withOutliers(rows)
	v := quantInGo(NewVectors(dim))
	slots := make([]int32, len(rows))
	for i := range slots {
		slots[i] = int32(i)
	}
	v.SetRows(slots, rows)
	for _, q := range qs {
		checkBounds(t, v, q)
	}
	checkBounds(t, v, randomVector(r, dim))
	checkBounds(t, v, rows[9]) // a query equal to a row: cosine 1

	// The copy follows every change: a row replaced, removed, added past
	// the end, and a batch that replaces some rows twice.
	v.Set(7, randomVector(r, dim))
	v.Remove(8)
	v.Remove(8)
	v.Set(int32(len(rows)+3), randomVector(r, dim))
	v.SetRows([]int32{10, 11, 10, int32(len(rows) + 5)}, [][]float32{randomVector(r, dim), randomVector(r, dim), randomVector(r, dim), randomVector(r, dim)})
	checkBounds(t, v, randomVector(r, dim))

	// Reloaded vectors rebuild it.
	data, err := v.MarshalBinary()
	require.NoError(t, err)
	w := quantInGo(&Vectors{})
	require.NoError(t, w.UnmarshalBinary(data))
	checkBounds(t, w, randomVector(r, dim))
}

func TestEstimateOnlyWithACopy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	small := quantInGo(NewVectors(100))
	small.Set(0, randomVector(r, 100))
	est := make([]float32, 1)
	_, _, ok := small.Estimate(randomVector(r, 100), est)
	assert.False(t, ok, "too few rows")
	assert.InDelta(t, 0, small.SumCosine(make([]float32, 100)), 0)

	wide := quantInGo(NewVectors(SketchMinDim + 1))
	wide.Set(0, randomVector(r, SketchMinDim+1))
	_, _, ok = wide.Estimate(randomVector(r, SketchMinDim+1), est)
	assert.False(t, ok, "wide vectors have the sketch")
}

func TestQuantKernelMatchesGo(t *testing.T) {
	if quantKernel == nil {
		t.Skip("no SIMD kernel on this machine")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, stride := range []int{16, 112, 768} {
		rows := 37
		codes := make([]int8, rows*stride)
		for i := range codes {
			codes[i] = int8(r.IntN(255) - 127)
		}
		q, scale := make([]float32, stride), make([]float32, rows)
		for i := range q {
			q[i] = float32(r.NormFloat64())
		}
		for i := range scale {
			scale[i] = r.Float32()
		}
		want, got := make([]float32, rows), make([]float32, rows)
		dotsGo(q, codes, scale, want, stride)
		quantKernel(q, codes, scale, got, stride)
		for i := range want {
			assert.InDelta(t, want[i], got[i], 1e-4*math.Abs(float64(want[i]))+1e-3, "row %d of stride %d", i, stride)
		}
		quantKernel(q, codes, scale, got[:0], stride) // no rows: nothing read
	}
}

func BenchmarkEstimate(b *testing.B) {
	v := vectorsOf(100)
	v.Prepare()
	q := randomVector(rand.New(rand.NewPCG(1, 1)), 100)
	est := make([]float32, benchNodes)
	if _, _, ok := v.Estimate(q, est); !ok {
		b.Skip("no quantised copy on this machine")
	}
	for b.Loop() {
		v.Estimate(q, est)
	}
}
