package query

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSumMaxAndFuse(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{0, 1, fuseBlock - 1, fuseBlock, 3*fuseBlock + 17, 50_000} {
		cos := make([]float32, n)
		kw := make([]float32, n)
		for i := range cos {
			cos[i] = r.Float32()*2 - 1
			if r.IntN(10) == 0 {
				kw[i] = r.Float32() * 12
			}
		}
		var serial float64
		top := float32(-1)
		for _, c := range cos {
			serial += float64(c)
			top = max(top, c)
		}
		sum, m := sumMax(cos)
		assert.InDelta(t, serial, sum, 1e-9, "n=%d", n)
		assert.Equal(t, top, m, "n=%d", n)

		// The same sum whatever the core count (the floor must not depend
		// on the machine).
		prev := runtime.GOMAXPROCS(1)
		sum1, m1 := sumMax(cos)
		runtime.GOMAXPROCS(prev)
		assert.Equal(t, sum, sum1)
		assert.Equal(t, m, m1)

		floor, kwScale, vecScale := float32(sum/math.Max(1, float64(n))), float32(0.05), float32(1.7)
		fused := make([]float32, n)
		fuse(fused, kw, cos, kwScale, vecScale, floor)
		for i := range fused {
			want := kw[i] * kwScale
			if d := cos[i] - floor; d > 0 {
				want += d * vecScale
			}
			want = min(want, 1)
			require.Equal(t, want, fused[i], "slot %d of %d", i, n)
		}
	}
}

func BenchmarkFuse(b *testing.B) {
	const n = 50_000
	r := rand.New(rand.NewPCG(1, 1))
	kw, cos, fused := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range cos {
		cos[i] = r.Float32()
		kw[i] = r.Float32()
	}
	b.Run("sumMax", func(b *testing.B) {
		for b.Loop() {
			sumMax(cos)
		}
	})
	b.Run("fuse", func(b *testing.B) {
		for b.Loop() {
			fuse(fused, kw, cos, 0.1, 1.5, 0.5)
		}
	})
}
