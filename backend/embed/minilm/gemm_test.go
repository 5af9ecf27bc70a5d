package minilm

import (
	"math"
	"math/rand"
	"runtime"
	"slices"
	"testing"
)

func randoms(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// TestKernelMatchesGo checks the kernel this machine runs (the AVX2 and
// FMA one where the CPU has them) against the portable one, on rows
// further apart than k and on output rows further apart than a panel.
func TestKernelMatchesGo(t *testing.T) {
	t.Logf("AVX2 and FMA kernel: %v", hasFMA)
	r := rand.New(rand.NewSource(1))
	for _, k := range []int{1, 2, 7, 32, 384, 1536} {
		xs, os := k+3, panelW+5
		x, w, bias := randoms(r, blockRows*xs), randoms(r, k*panelW), randoms(r, panelW)
		got, want := make([]float32, blockRows*os), make([]float32, blockRows*os)
		kernel(k, x, xs, w, bias, got, os)
		kernelGo(k, x, xs, w, bias, want, os)
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 1e-5*math.Sqrt(float64(k)) {
				t.Fatalf("k %d, element %d: %g, portable %g", k, i, got[i], want[i])
			}
		}
		for i := range blockRows {
			for j := panelW; j < os; j++ {
				if got[i*os+j] != 0 {
					t.Fatalf("k %d: wrote past the panel, row %d column %d", k, i, j)
				}
			}
		}
	}
}

// TestMatmul checks matmul against float64 sums for row counts around the
// kernel's block and output widths that do and do not fill whole panels,
// and that a row's result is bit for bit the same alone, in a batch and
// whatever the number of workers.
func TestMatmul(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, dims := range [][2]int{{8, 13}, {13, 16}, {33, 40}, {384, 1536}, {1536, 384}} {
		in, od := dims[0], dims[1]
		wT, bias := randoms(r, in*od), randoms(r, od)
		w := pack(wT, bias, in, od)
		tail := make([]float32, blockRows*in)
		for _, n := range []int{1, 5, 6, 7, 13, 26} {
			x := randoms(r, n*in)
			out := make([]float32, n*od)
			matmul(out, x, w, n, tail)
			for i := range n {
				for j := range od {
					want := float64(bias[j])
					for k := range in {
						want += float64(x[i*in+k]) * float64(wT[k*od+j])
					}
					if math.Abs(float64(out[i*od+j])-want) > 1e-4*math.Sqrt(float64(in)) {
						t.Fatalf("%d×%d, n %d: out[%d][%d] = %g, want %g", in, od, n, i, j, out[i*od+j], want)
					}
				}
			}
			alone := make([]float32, od)
			for _, procs := range []int{1, 3} {
				old := runtime.GOMAXPROCS(procs)
				for i := range n {
					matmul(alone, x[i*in:(i+1)*in], w, 1, tail)
					if !slices.Equal(alone, out[i*od:(i+1)*od]) {
						t.Fatalf("%d×%d, n %d, GOMAXPROCS %d: row %d alone differs from the batch", in, od, n, procs, i)
					}
				}
				runtime.GOMAXPROCS(old)
			}
		}
	}
}

// TestGelu checks the interpolated GELU against the exact one, inside the
// table's span and beyond it.
func TestGelu(t *testing.T) {
	var worst float64
	for v := -12.0; v <= 12; v += 1.0 / 1024 / 3 {
		x := []float32{float32(v)}
		gelu(x)
		want := geluExact(float64(float32(v)))
		err := math.Abs(float64(x[0]) - want)
		if err > 1e-6*max(1, math.Abs(want)) {
			t.Fatalf("gelu(%g) = %g, exact %g", v, x[0], want)
		}
		worst = max(worst, err)
	}
	t.Logf("largest error %.2g", worst)
	nan := []float32{float32(math.NaN())}
	if gelu(nan); !math.IsNaN(float64(nan[0])) {
		t.Errorf("gelu(NaN) = %g", nan[0])
	}
}
