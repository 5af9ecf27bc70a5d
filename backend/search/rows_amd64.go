//go:build !purego

package search

import "golang.org/x/sys/cpu"

//go:noescape
func dotRowsAVX2(q *float32, base *float32, slots *int32, out *float32, n int, dim int)

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		rowsSIMD = true
		rowsKernel = func(q, data []float32, slots []int32, out []float32) {
			dim := len(q)
			if len(slots) == 0 || dim%32 != 0 {
				dotRowsGo(q, data, slots, out)
				return
			}
			_ = out[len(slots)-1]
			for _, s := range slots { // the kernel reads each row whole
				_ = data[(int(s)+1)*dim-1]
			}
			dotRowsAVX2(&q[0], &data[0], &slots[0], &out[0], len(slots), dim)
		}
	}
}
