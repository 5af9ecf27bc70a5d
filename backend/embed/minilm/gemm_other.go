//go:build !amd64

package minilm

// hasFMA is false: only amd64 has the assembly kernel.
var hasFMA = false

func kernel(k int, x []float32, xs int, w, bias, out []float32, os int) {
	kernelGo(k, x, xs, w, bias, out, os)
}
