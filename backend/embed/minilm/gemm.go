package minilm

// The encoder's matrix products run on weights packed in panels of
// panelW columns: panel p holds columns [p·panelW, (p+1)·panelW) of the
// [in][out] matrix, row after row, so a kernel streams one panel
// contiguously while it keeps a block of blockRows rows of x times
// panelW columns of the output in registers. The last panel is padded
// with zero columns. Every output element is the bias plus the sum over
// k of x[i][k]·w[k][j], summed in k order whatever the block, panel or
// worker, so that a row's result does not depend on the rows beside it
// in a batch nor on how the work was split.
const (
	panelW    = 16
	blockRows = 6
)

// packed is a matrix in panels, with its bias padded to whole panels.
type packed struct {
	in, out int
	w, bias []float32 // [panels][in][panelW], [panels·panelW]
}

// pack packs the row-major [in][out] matrix wT and its bias.
func pack(wT, bias []float32, in, out int) packed {
	panels := (out + panelW - 1) / panelW
	p := packed{in: in, out: out, w: make([]float32, panels*in*panelW), bias: make([]float32, panels*panelW)}
	copy(p.bias, bias)
	for pi := 0; pi < panels; pi++ {
		dst := p.w[pi*in*panelW:]
		for k := 0; k < in; k++ {
			for t := 0; t < panelW; t++ {
				if j := pi*panelW + t; j < out {
					dst[k*panelW+t] = wT[k*out+j]
				}
			}
		}
	}
	return p
}

// matmul sets out ([n][w.out]) to x ([n][w.in]) times w plus its bias,
// the panels split among workers. tail is scratch for the last n mod
// blockRows rows, blockRows·w.in floats at least.
func matmul(out, x []float32, w packed, n int, tail []float32) {
	tail = tailRows(tail, x, w.in, w.in, n)
	parallelFor(len(w.bias)/panelW, 2, func(lo, hi int) {
		gemm(out, w.out, x, w.in, n, w.in, w.w, w.bias, lo, hi, w.out, tail)
	})
}

// tailRows copies the last n mod blockRows rows of x (k floats each, xs
// apart) into the front of buf, zero-padded to blockRows rows of k, and
// returns that part of buf; nil when n is a multiple of blockRows.
func tailRows(buf, x []float32, xs, k, n int) []float32 {
	full := n / blockRows * blockRows
	if full == n {
		return nil
	}
	buf = buf[:blockRows*k]
	clear(buf)
	for r := full; r < n; r++ {
		copy(buf[(r-full)*k:(r-full+1)*k], x[r*xs:r*xs+k])
	}
	return buf
}

// gemm sets columns [p0·panelW, min(p1·panelW, cols)) of out's n rows
// (os apart) to x's rows (k floats, xs apart) times panels p0 to p1 of w
// ([panels][k][panelW]) plus bias ([panels·panelW]). tail is tailRows's
// copy of x's last rows. A panel that reaches past cols is written
// through a block and cut.
func gemm(out []float32, os int, x []float32, xs, n, k int, w, bias []float32, p0, p1, cols int, tail []float32) {
	var block [blockRows * panelW]float32
	full := n / blockRows * blockRows
	for p := p0; p < p1; p++ {
		wp := w[p*k*panelW : (p+1)*k*panelW]
		bp := bias[p*panelW : (p+1)*panelW]
		j0 := p * panelW
		width := min(panelW, cols-j0)
		for i0 := 0; i0 < full; i0 += blockRows {
			if width == panelW {
				kernel(k, x[i0*xs:], xs, wp, bp, out[i0*os+j0:], os)
				continue
			}
			kernel(k, x[i0*xs:], xs, wp, bp, block[:], panelW)
			for r := 0; r < blockRows; r++ {
				copy(out[(i0+r)*os+j0:(i0+r)*os+j0+width], block[r*panelW:])
			}
		}
		if tail != nil {
			kernel(k, tail, k, wp, bp, block[:], panelW)
			for r := 0; r < n-full; r++ {
				copy(out[(full+r)*os+j0:(full+r)*os+j0+width], block[r*panelW:r*panelW+width])
			}
		}
	}
}

// kernelGo is the portable kernel: out[r][t] = bias[t] + Σk x[r][k]·w[k][t]
// for the blockRows rows r of x (row stride xs) and the panelW columns t
// of the panel w, out's rows os apart.
func kernelGo(k int, x []float32, xs int, w, bias, out []float32, os int) {
	w = w[:k*panelW]
	for r := 0; r < blockRows; r++ {
		xr := x[r*xs : r*xs+k]
		o := out[r*os : r*os+panelW]
		copy(o, bias[:panelW])
		for kk, a := range xr {
			wk := w[kk*panelW : kk*panelW+panelW]
			for t := range o {
				o[t] += a * wk[t]
			}
		}
	}
}
