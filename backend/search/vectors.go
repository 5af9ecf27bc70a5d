package search

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

const (
	// minRowsPerWorker keeps small matrices on the calling goroutine: below
	// about 4k rows a scan takes tens of microseconds, and starting and
	// joining goroutines would eat the gain.
	minRowsPerWorker = 4096
	// maxWorkers caps the fan-out: the scan is bound by memory bandwidth,
	// which a few cores already saturate.
	maxWorkers = 4
)

// Vectors holds one embedder's vectors as L2-normalised rows of a single
// contiguous []float32, row i belonging to slot i, so that scoring a query
// against every node is one matrix-vector product.
//
// Vectors is safe for concurrent use: scoring shares a read lock, Set and
// Remove take it exclusively. Use NewVectors, or new(Vectors) followed by
// UnmarshalBinary.
type Vectors struct {
	mu      sync.RWMutex
	dim     int
	data    []float32 // len(present) rows of dim values; absent rows are zero
	present []bool    // by slot
	live    int
	sk      *sketch     // nil until built (see sketch.go)
	q       *quant      // nil until built (see quant.go)
	due     atomic.Bool // the sketch or the quantised copy should be built
	// quantInGo keeps the quantised copy where this machine has no SIMD
	// kernel for it (the Go kernel then runs): tests of the copy.
	quantInGo bool

	scratch sync.Pool // *[]float32 score buffers for Search

	// release frees adopted rows used in place (AdoptRows); cleanup calls
	// it when v is collected, unless Close did first.
	release func()
	cleanup runtime.Cleanup
}

// Close frees rows adopted in place now rather than when v is collected
// (a mapped file stays open until then: a workspace on a removable or
// read-only mount could not be unmounted). v must not be used afterwards.
func (v *Vectors) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.release == nil {
		return
	}
	v.cleanup.Stop()
	v.data, v.present, v.live, v.sk, v.q = nil, nil, 0, nil, nil
	release := v.release
	v.release = nil
	release()
}

// NewVectors returns an empty set of dim-dimensional vectors. dim must be
// positive.
func NewVectors(dim int) *Vectors {
	if dim <= 0 {
		panic(fmt.Sprintf("search: vector dimension %d", dim))
	}
	return &Vectors{dim: dim}
}

// Dim returns the vectors' dimension.
func (v *Vectors) Dim() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.dim
}

// Len returns the number of slots holding a vector.
func (v *Vectors) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.live
}

// Slots returns one past the highest slot ever set: the length a ScoreAll
// output needs to cover every row.
func (v *Vectors) Slots() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.present)
}

// Set stores a normalised copy of vec as the row of slot, growing the matrix
// as needed (amortised, like append). A zero vector is stored as zeros and
// scores 0 against everything. It panics if len(vec) is not Dim() or slot is
// negative: both are programming errors in the caller's slot mapping.
func (v *Vectors) Set(slot int32, vec []float32) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(vec) != v.dim {
		panic(fmt.Sprintf("search: vector of dimension %d set in a %d-dimensional Vectors", len(vec), v.dim))
	}
	if slot < 0 {
		panic(fmt.Sprintf("search: negative slot %d", slot))
	}
	if rows := len(v.present); int(slot) >= rows {
		grow := int(slot) + 1 - rows
		v.present = append(v.present, make([]bool, grow)...)
		v.data = append(v.data, make([]float32, grow*v.dim)...)
	}
	row := v.data[int(slot)*v.dim : (int(slot)+1)*v.dim]
	if v.q != nil && v.present[slot] {
		v.q.add(row, -1)
	}
	normalise(row, vec)
	if !v.present[slot] {
		v.present[slot] = true
		v.live++
	}
	if v.sk != nil {
		v.sk.set(slot, row, len(v.present))
	}
	if v.q != nil {
		v.q.grow(len(v.present))
		v.q.quantise(slot, row)
		v.q.add(row, 1)
	}
	v.due.Store(v.prepareDue())
}

// SetRows stores normalised copies of vecs[i] as the rows of slots[i], as
// Set would one after the other, but growing the matrix once and
// normalising on up to GOMAXPROCS goroutines (filling 50,000 rows of 768
// dimensions is otherwise a tenth of a second). It panics like Set.
func (v *Vectors) SetRows(slots []int32, vecs [][]float32) {
	if len(slots) != len(vecs) {
		panic(fmt.Sprintf("search: %d slots for %d vectors", len(slots), len(vecs)))
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	top := int32(-1)
	for i, slot := range slots {
		if len(vecs[i]) != v.dim {
			panic(fmt.Sprintf("search: vector of dimension %d set in a %d-dimensional Vectors", len(vecs[i]), v.dim))
		}
		if slot < 0 {
			panic(fmt.Sprintf("search: negative slot %d", slot))
		}
		top = max(top, slot)
	}
	if rows := len(v.present); int(top) >= rows {
		n := int(top) + 1
		present, data := make([]bool, n), make([]float32, n*v.dim)
		copy(present, v.present)
		copy(data, v.data)
		v.present, v.data = present, data
	}
	// A slot given twice keeps its last vector, as with Set.
	last := make(map[int32]int)
	seen := make([]bool, len(v.present))
	for i, slot := range slots {
		if seen[slot] {
			last[slot] = i
		}
		seen[slot] = true
	}
	if v.q != nil { // take the rows being replaced out of the sum
		clear(seen)
		for _, slot := range slots {
			if v.present[slot] && !seen[slot] {
				v.q.add(v.data[int(slot)*v.dim:(int(slot)+1)*v.dim], -1)
			}
			seen[slot] = true
		}
		clear(seen)
	}
	fill := func(from, to int) {
		var dst, src [4][]float32
		k := 0
		for i := from; i < to; i++ {
			slot := slots[i]
			if j, ok := last[slot]; ok && j != i {
				continue
			}
			dst[k], src[k] = v.data[int(slot)*v.dim:(int(slot)+1)*v.dim], vecs[i]
			if k++; k == 4 {
				normalise4(&dst, &src)
				k = 0
			}
		}
		for i := range k {
			normalise(dst[i], src[i])
		}
	}
	workers := min(runtime.GOMAXPROCS(0), maxWorkers, max(1, len(slots)*v.dim/(1<<18)))
	var wg sync.WaitGroup
	per := (len(slots) + workers - 1) / workers
	for start := per; start < len(slots); start += per {
		wg.Go(func() { fill(start, min(start+per, len(slots))) })
	}
	fill(0, min(per, len(slots)))
	wg.Wait()
	for _, slot := range slots {
		if !v.present[slot] {
			v.present[slot] = true
			v.live++
		}
		if v.sk != nil {
			v.sk.set(slot, v.data[int(slot)*v.dim:(int(slot)+1)*v.dim], len(v.present))
		}
	}
	if v.q != nil {
		v.q.grow(len(v.present))
		for _, slot := range slots {
			if !seen[slot] {
				row := v.data[int(slot)*v.dim : (int(slot)+1)*v.dim]
				v.q.quantise(slot, row)
				v.q.add(row, 1)
			}
			seen[slot] = true
		}
	}
	v.due.Store(v.prepareDue())
}

// normalise writes src/‖src‖ into dst, or zeros when src is zero. The norm
// is summed in float64 so that long rows come out at unit length to float32
// precision.
func normalise(dst, src []float32) {
	var sum float64
	for _, x := range src {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		clear(dst)
		return
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range src {
		dst[i] = float32(float64(x) * inv)
	}
}

// normalise4 is normalise of four rows of one length, bit for bit: each
// row's sum of squares is still added in order, but the four sums are
// independent, so the processor overlaps them (one float64 sum is bound
// by the latency of its additions).
func normalise4(dst, src *[4][]float32) {
	a, b, c, d := src[0], src[1], src[2], src[3]
	n := len(a)
	b, c, d = b[:n], c[:n], d[:n]
	var sa, sb, sc, sd float64
	for i := range n {
		xa, xb, xc, xd := float64(a[i]), float64(b[i]), float64(c[i]), float64(d[i])
		sa += xa * xa
		sb += xb * xb
		sc += xc * xc
		sd += xd * xd
	}
	for r, sum := range [4]float64{sa, sb, sc, sd} {
		out, in := dst[r][:n], src[r]
		if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
			clear(out)
			continue
		}
		inv := 1 / math.Sqrt(sum)
		for i, x := range in {
			out[i] = float32(float64(x) * inv)
		}
	}
}

// Remove zeroes the row of slot and marks it absent.
func (v *Vectors) Remove(slot int32) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if slot < 0 || int(slot) >= len(v.present) || !v.present[slot] {
		return
	}
	if v.q != nil {
		v.q.add(v.data[int(slot)*v.dim:(int(slot)+1)*v.dim], -1)
		v.q.quantise(slot, v.data[int(slot)*v.dim : (int(slot)+1)*v.dim][:0])
	}
	clear(v.data[int(slot)*v.dim : (int(slot)+1)*v.dim])
	v.present[slot] = false
	v.live--
	if v.sk != nil {
		v.sk.remove(slot)
	}
}

// Has reports whether slot holds a vector.
func (v *Vectors) Has(slot int32) bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return slot >= 0 && int(slot) < len(v.present) && v.present[slot]
}

// Row returns the normalised vector of slot, or nil if it has none. The
// slice shares the matrix's storage: do not modify it, do not keep it
// across a Set or Remove of the same slot, and, when the rows were adopted
// from a mapped file (AdoptRows), not past v's life.
func (v *Vectors) Row(slot int32) []float32 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if slot < 0 || int(slot) >= len(v.present) || !v.present[slot] {
		return nil
	}
	start := int(slot) * v.dim
	return v.data[start : start+v.dim : start+v.dim]
}

// ScoreAll writes the cosine similarity between q and every row into out
// (0 for absent rows and for slots beyond the last row); rows beyond
// len(out) are not scored. q need not be normalised. It panics if len(q) is
// not Dim().
//
// The product runs through gonum's Sgemv, whose inner dot product is SIMD
// assembly on amd64 (pure Go on other targets, WebAssembly included), with
// the rows split across up to four goroutines for large matrices.
//
// Above SketchMinDim dimensions and SketchMinRows rows, the scan runs on
// the sketch (see sketch.go; built here on first need unless Prepare built
// it): out then holds exact cosines for the max(SketchRescore, rows/32)
// rows best by sketch, which hold the true best rows with high
// probability, and sketch estimates (the cosine within the sketch's
// subspace, off by 0.01–0.03 RMS on clustered data) for the others.
func (v *Vectors) ScoreAll(q []float32, out []float32) {
	if v.due.Load() {
		v.Prepare()
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	v.checkDim(q)
	unit := make([]float32, len(q))
	normalise(unit, q)
	rows := min(len(v.present), len(out))
	clear(out[rows:])
	if v.sk != nil {
		v.scoreSketch(unit, out, rows)
		return
	}
	workers := min(runtime.GOMAXPROCS(0), maxWorkers, rows/minRowsPerWorker)
	if workers <= 1 {
		v.product(unit, out, 0, rows)
		return
	}
	var wg sync.WaitGroup
	per := (rows + workers - 1) / workers
	for start := per; start < rows; start += per {
		wg.Go(func() { v.product(unit, out, start, min(start+per, rows)) })
	}
	v.product(unit, out, 0, per)
	wg.Wait()
}

// product writes rows [start, end) times unit into out[start:end].
func (v *Vectors) product(unit, out []float32, start, end int) {
	if start >= end {
		return
	}
	a := blas32.General{
		Rows:   end - start,
		Cols:   v.dim,
		Stride: v.dim,
		Data:   v.data[start*v.dim : end*v.dim],
	}
	x := blas32.Vector{N: v.dim, Inc: 1, Data: unit}
	y := blas32.Vector{N: end - start, Inc: 1, Data: out[start:end]}
	blas32.Gemv(blas.NoTrans, 1, a, x, 0, y)
}

// Search returns the limit rows most similar to q by cosine, best first,
// ties broken by the lower slot. Rows with a similarity of 0 or below are
// never returned, nor, when allow is non-nil, slots it rejects. allow is
// called without the lock held.
func (v *Vectors) Search(q []float32, limit int, allow func(int32) bool) []Hit {
	if limit <= 0 {
		return nil
	}
	slots := v.Slots()
	buf, _ := v.scratch.Get().(*[]float32)
	if buf == nil || len(*buf) < slots {
		scores := make([]float32, slots+slots/8)
		buf = &scores
	}
	scores := (*buf)[:slots]
	v.ScoreAll(q, scores)
	hits := TopK(scores, limit, allow)
	v.scratch.Put(buf)
	return hits
}
