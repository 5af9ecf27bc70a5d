package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRowsKernel: the rows kernel agrees with blas32.Dot within float32
// rounding on scattered rows of several widths, in any order, with
// repeats (at 100 dimensions, not a multiple of 32, through its fallback).
func TestRowsKernel(t *testing.T) {
	if !rowsSIMD {
		t.Skip("no SIMD kernel on this machine: rowsKernel is dotRowsGo")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{32, 64, 100, 768, 1024} {
		data := make([]float32, 300*dim)
		for i := range data {
			data[i] = float32(r.NormFloat64())
		}
		q := make([]float32, dim)
		for i := range q {
			q[i] = float32(r.NormFloat64())
		}
		for _, n := range []int{0, 1, 2, 7, 300} {
			slots := make([]int32, n)
			for i := range slots {
				slots[i] = int32(r.IntN(300))
			}
			if n > 2 {
				slots[1] = slots[0]
			}
			got, want := make([]float32, n), make([]float32, n)
			rowsKernel(q, data, slots, got)
			dotRowsGo(q, data, slots, want)
			for i := range want {
				require.InDelta(t, want[i], got[i], 1e-4*math.Sqrt(float64(dim)), "dim %d row %d", dim, slots[i])
			}
		}
	}
}

// BenchmarkRowsKernel: 1,562 scattered rows of 768 out of 50,000, as the
// sketch rescores at 50,000 rows.
func BenchmarkRowsKernel(b *testing.B) {
	const rows, dim, n = 50_000, 768, 1562
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]float32, rows*dim)
	for i := range data {
		data[i] = float32(r.NormFloat64())
	}
	q := data[:dim]
	slots := make([]int32, n)
	for i := range slots {
		slots[i] = int32(r.IntN(rows))
	}
	slices.Sort(slots)
	out := make([]float32, n)
	for _, k := range []struct {
		name string
		f    func(q, data []float32, slots []int32, out []float32)
	}{{"gonum", dotRowsGo}, {"kernel", rowsKernel}} {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				k.f(q, data, slots, out)
			}
		})
	}
}
