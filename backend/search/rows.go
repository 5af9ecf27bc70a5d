package search

import "gonum.org/v1/gonum/blas/blas32"

// rowsKernel computes out[i] = ⟨q, row slots[i] of data⟩ (rows of len(q)
// values): an AVX2 kernel that prefetches each next row where the CPU
// has it, else dotRowsGo.
var rowsKernel = dotRowsGo

// rowsSIMD reports that rowsKernel is the AVX2 kernel (for its test).
var rowsSIMD bool

func dotRowsGo(q, data []float32, slots []int32, out []float32) {
	dim := len(q)
	for i, s := range slots {
		out[i] = blas32.Dot(blas32.Vector{N: dim, Inc: 1, Data: data[int(s)*dim : (int(s)+1)*dim]},
			blas32.Vector{N: dim, Inc: 1, Data: q})
	}
}
