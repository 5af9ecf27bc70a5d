package search

import (
	"fmt"
	"math"
	"sync"
)

// A quantised copy of the rows lets a query scan a quarter of the bytes
// and still rank exactly. At 50,000 rows of 100 dimensions the float32
// matrix is 20 MB; a query's full scan reads it from memory at ~11 GB/s
// (1.8 ms on two cores here, 0.7 ms only when it happens to sit in the
// last-level cache). The copy holds every row as int8 codes with one scale
// per row (5.6 MB) and, per row, a bound on how far the estimate it gives
// can be from the cosine ScoreAll computes:
//
//	|Estimate(q)[i] − ScoreAll(q)[i]| ≤ bound[i]
//
// for every unit query: the quantisation error's norm (Cauchy–Schwarz)
// plus the floating-point error of both computations. A caller ranks on
// the estimates, then asks Cosines for the exact value of every row whose
// bound could reach its cut: the result is the exact ranking (see the
// query's pool in package backend, and TestEstimateBoundsHold).
//
// The copy exists for vectors of at most SketchMinDim dimensions (larger
// ones have the sketch) from QuantMinRows rows, on machines with a SIMD
// kernel for it (AVX2 and FMA on amd64); elsewhere Estimate reports false
// and callers scan exactly.
const QuantMinRows = 12_000

// quantKernel computes out[r] = scale[r]·Σ_j q[j]·codes[r·stride+j] for
// r < len(out); nil when this machine has none that beats the float32
// scan (see quant_amd64.go).
var quantKernel func(q []float32, codes []int8, scale, out []float32, stride int)

// quant is the int8 copy of the rows.
type quant struct {
	stride int       // dim rounded up to a multiple of 16; the padding is zero
	codes  []int8    // slots × stride
	scale  []float32 // per slot: a row is scale·codes
	bound  []float32 // per slot: bound on |estimate − cosine|
	sum    []float64 // the sum of the present rows (dim values)
}

// dotsGo is the kernel in Go (tests, and any machine without SIMD when a
// test forces the copy on).
func dotsGo(q []float32, codes []int8, scale, out []float32, stride int) {
	for r := range out {
		row := codes[r*stride : (r+1)*stride]
		var s float32
		for j, c := range row {
			s += q[j] * float32(c)
		}
		out[r] = s * scale[r]
	}
}

func (v *Vectors) quantDue() bool {
	return v.q == nil && (quantKernel != nil || v.quantInGo) && v.dim <= SketchMinDim && v.live >= QuantMinRows
}

// Quantise builds the quantised copy now, whatever the number of rows and
// even without a SIMD kernel (then Estimate runs in Go): for callers that
// check the estimated path on a small workspace. Vectors of more than
// SketchMinDim dimensions get none.
func (v *Vectors) Quantise() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.q == nil && v.dim <= SketchMinDim {
		v.buildQuant()
	}
}

// buildQuant quantises every row. Callers hold v.mu exclusively.
func (v *Vectors) buildQuant() {
	q := &quant{stride: (v.dim + 15) &^ 15, sum: make([]float64, v.dim)}
	n := len(v.present)
	q.codes = make([]int8, n*q.stride)
	q.scale = make([]float32, n)
	q.bound = make([]float32, n)
	parallelRows(n, func(start, end int) {
		for slot := start; slot < end; slot++ {
			q.quantise(int32(slot), v.data[slot*v.dim:(slot+1)*v.dim])
		}
	})
	for slot, ok := range v.present {
		if ok {
			q.add(v.data[slot*v.dim:(slot+1)*v.dim], 1)
		}
	}
	v.q = q
}

// grow makes room for slots rows.
func (q *quant) grow(slots int) {
	if len(q.scale) >= slots {
		return
	}
	q.codes = append(q.codes, make([]int8, (slots-len(q.scale))*q.stride)...)
	q.bound = append(q.bound, make([]float32, slots-len(q.scale))...)
	q.scale = append(q.scale, make([]float32, slots-len(q.scale))...)
}

// add adds sign·row to the running sum of the present rows.
func (q *quant) add(row []float32, sign float64) {
	for j, x := range row {
		q.sum[j] += sign * float64(x)
	}
}

// quantise sets the codes, scale and bound of one slot from its row.
func (q *quant) quantise(slot int32, row []float32) {
	codes := q.codes[int(slot)*q.stride : (int(slot)+1)*q.stride]
	clear(codes)
	top := float64(absMax(row))
	if top == 0 || math.IsNaN(top) || math.IsInf(top, 0) {
		q.scale[slot], q.bound[slot] = 0, 0 // a zero row scores exactly 0
		return
	}
	scale := float32(top / 127)
	inv := float32(127 / top)
	var errSq, codeSq float64
	for j, x := range row {
		c := roundCode(x * inv)
		codes[j] = c
		d := float64(x) - float64(c)*float64(scale)
		errSq += d * d
		codeSq += float64(c) * float64(c)
	}
	// |estimate − exact| ≤ ‖q‖·‖row − scale·codes‖ (‖q‖ ≤ 1 + 2⁻²⁰ for a
	// float32 unit vector), plus the float32 rounding of the kernel's sum
	// (stride products, each term bounded through ‖scale·codes‖·‖q‖) and
	// of the final multiply, plus that of ScoreAll's own dot product
	// (dim terms of a product of unit vectors).
	const u = 1.0 / (1 << 23)
	b := math.Sqrt(errSq)*(1+1.0/(1<<20)) +
		float64(scale)*math.Sqrt(codeSq)*float64(q.stride+2)*u*1.01 +
		float64(len(row)+2)*u*1.01
	q.bound[slot] = float32(b * (1 + 1.0/(1<<20)))
	q.scale[slot] = scale
}

// absMax is the largest |x| of row (0 for none; NaN rows give 0 or a
// number, callers check).
func absMax(row []float32) float32 {
	var top float32
	for _, x := range row {
		if a := math.Float32frombits(math.Float32bits(x) &^ (1 << 31)); a > top {
			top = a
		}
	}
	return top
}

// roundCode rounds x (|x| ≤ 127, give or take rounding) to the nearest
// int8, halves away from zero, without a branch: x plus ±0.5 by x's sign,
// truncated. Any rounding would do (the bound is measured on the codes
// made); this one is fast (quantising 50,000 rows takes milliseconds).
func roundCode(x float32) int8 {
	half := math.Float32frombits(0x3f000000 | math.Float32bits(x)&0x80000000)
	return int8(max(-127, min(127, int32(x+half))))
}

// Estimate writes into est an estimate of the cosine between q and every
// row, for slots below len(est) (0 beyond the last row), and returns how
// far each may be from what ScoreAll gives — |est[s] − cosine| ≤
// bound[s], for s below len(est) and len(bound); absent rows are 0 in both
// with a bound of 0 — and the largest lower bound, max(est − bound): the
// best cosine is at least that. bound shares the copy's storage: do not
// modify it, nor keep it across a Set or Remove. ok is false, and nothing
// is written, when the vectors have no quantised copy: call ScoreAll.
// It panics if len(q) is not Dim().
func (v *Vectors) Estimate(q, est []float32) (bound []float32, atLeast float32, ok bool) {
	if v.due.Load() {
		v.Prepare()
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.q == nil {
		return nil, 0, false
	}
	v.checkDim(q)
	kernel := quantKernel
	if kernel == nil {
		kernel = dotsGo
	}
	qq := v.q
	unit := make([]float32, qq.stride)
	normalise(unit[:v.dim], q)
	rows := min(len(v.present), len(est))
	clear(est[rows:])
	var mu sync.Mutex
	atLeast = -1
	parallelRows(rows, func(start, end int) {
		kernel(unit, qq.codes[start*qq.stride:end*qq.stride], qq.scale[start:end], est[start:end], qq.stride)
		// The largest lower bound of the part, while it is in cache.
		e, b := est[start:end], qq.bound[start:end]
		best := float32(-1)
		for i, x := range e {
			if lo := x - b[i]; lo > best {
				best = lo
			}
		}
		mu.Lock()
		atLeast = max(atLeast, best)
		mu.Unlock()
	})
	if rows < len(est) && rows < len(qq.bound) {
		atLeast = max(atLeast, 0) // rows past the last are 0, exactly
	}
	return qq.bound[:rows:rows], atLeast, true
}

// SumCosine returns the sum of the cosines between q and the present rows,
// from the sum of the rows: the sum of ScoreAll's values up to float
// rounding (~1e-7 relative), at the cost of one dot product. Without a
// quantised copy it adds up ScoreAll's values.
func (v *Vectors) SumCosine(q []float32) float64 {
	v.mu.RLock()
	if v.q != nil {
		defer v.mu.RUnlock()
		v.checkDim(q)
		unit := make([]float32, v.dim)
		normalise(unit, q)
		var s float64
		for j, x := range unit {
			s += float64(x) * v.q.sum[j]
		}
		return s
	}
	v.mu.RUnlock()
	out := make([]float32, v.Slots())
	v.ScoreAll(q, out)
	var s float64
	for _, c := range out {
		s += float64(c)
	}
	return s
}

// Cosines writes into out[slot] the cosine between q and the row of each
// given slot, bit for bit what an exact ScoreAll writes there (0 for a
// slot with no row). Slots beyond len(out) are skipped.
func (v *Vectors) Cosines(q []float32, slots []int32, out []float32) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	v.checkDim(q)
	unit := make([]float32, v.dim)
	normalise(unit, q)
	for _, s := range slots {
		switch {
		case s < 0 || int(s) >= len(out):
		case int(s) >= len(v.present):
			out[s] = 0
		default:
			v.product(unit, out, int(s), int(s)+1) // as ScoreAll's scan does
		}
	}
}

// checkDim panics if q is not of the vectors' dimension. Callers hold v.mu.
func (v *Vectors) checkDim(q []float32) {
	if len(q) != v.dim {
		panic(fmt.Sprintf("search: query of dimension %d for %d-dimensional vectors", len(q), v.dim))
	}
}
