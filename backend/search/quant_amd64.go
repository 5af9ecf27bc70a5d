//go:build !purego

package search

import "golang.org/x/sys/cpu"

//go:noescape
func dotsInt8AVX2(q *float32, codes *int8, scale *float32, out *float32, rows int, stride int)

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		quantKernel = func(q []float32, codes []int8, scale, out []float32, stride int) {
			if rows := len(out); rows > 0 {
				_ = codes[rows*stride-1]
				_ = scale[rows-1]
				_ = q[stride-1]
				dotsInt8AVX2(&q[0], &codes[0], &scale[0], &out[0], rows, stride)
			}
		}
	}
}
