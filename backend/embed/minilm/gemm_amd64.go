package minilm

import "golang.org/x/sys/cpu"

// hasFMA says whether the AVX2 and FMA kernel can run here.
var hasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// kernel6x16 is kernelGo in AVX2 and FMA: x, w, bias and out point at the
// first element; xs and os are row strides in floats.
//
//go:noescape
func kernel6x16(k int, x *float32, xs int, w, bias, out *float32, os int)

func kernel(k int, x []float32, xs int, w, bias, out []float32, os int) {
	if !hasFMA {
		kernelGo(k, x, xs, w, bias, out, os)
		return
	}
	// The bounds the assembly relies on, checked once.
	_ = x[(blockRows-1)*xs+k-1]
	_ = w[k*panelW-1]
	_ = bias[panelW-1]
	_ = out[(blockRows-1)*os+panelW-1]
	kernel6x16(k, &x[0], xs, &w[0], &bias[0], &out[0], os)
}
