package search

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"
)

// A sketch is a low-dimensional copy of every row, kept beside the full
// rows of vectors with more than SketchMinDim dimensions, so that a query
// scans SketchDim floats a row instead of all of them: at 768 dimensions
// the full scan reads 150 MB for 50,000 rows and is bound by memory
// bandwidth (8–16 ms on two cores), the sketch scan 3.2 MB (the sketch
// rows as int8 codes with a scale each, the kernel of quant.go; float32
// sketch rows would be 13 MB, and the codes add under 1% to the
// estimates' error). ScoreAll scores every row on the sketch, then
// rescores the best rows exactly with the full rows: max(SketchRescore,
// rows/32) of them, 1,562 at 50,000 rows.
//
// The projection is PCA: the top SketchDim principal directions
// (uncentred, so the workspace's mean direction is among them) of an even
// sample of sketchSample rows, fitted when the sketch is built. PCA beats
// a fixed random projection because embeddings are not isotropic: it
// keeps the directions that carry most of the rows' energy and drops only
// the residual, where a random projection keeps a fraction of everything
// and aliases the rest in as noise. Measured by BenchmarkSketch on
// clustered data shaped like package embed/synthetic's (unit topic centres
// plus 0.6 unit noise, 50,000 rows of 768), with rows/32 rescored (the
// int8 codes measured the same to two digits: 0.0287 and 0.0094, 1.00
// and 0.958):
//
//	                 RMSE of the estimates    recall@10
//	topics           PCA      random          PCA    random
//	100 (500 rows)   0.029    0.035           1.00   1.00
//	20 (2,500 rows)  0.009    0.100           0.96   0.80
//
// The estimates matter beyond the rescored rows: the query path fuses
// every row's cosine with its keyword score. 96 dimensions halve PCA's
// error on 100 topics but cost half as much again to scan and build. A
// limit, stated plainly: when a query's cluster holds more rows than are
// rescored and its rows differ only by isotropic noise (which no 64-d
// projection keeps), the order within the cluster is partly lost (the
// 0.96 above; 0.72 with 512 rows rescored); real embeddings vary within a
// topic along shared directions, which PCA keeps.
//
// Building costs a fit (~100 ms: randomised subspace iteration on the
// sample) and a projection of every row (~190 ms at 50,000 rows on two
// cores; SSE dot products at ~6.5 multiply-adds a nanosecond, which gonum's
// Sgemm does not beat here). MarshalSketch and UnmarshalSketch let a
// workspace keep the sketch beside its vectors so that opening skips both.
const (
	// SketchMinDim: vectors of more dimensions than this get a sketch.
	// At 128 and below the full scan is already as small as a sketch.
	SketchMinDim = 128
	// SketchDim is the sketch's dimension.
	SketchDim = 64
	// SketchMinRows: below this many rows the full scan takes under ~3 ms
	// at 768 dimensions; the sketch would save about 2 ms a query there.
	SketchMinRows = 12_000
	// SketchRescore is the least number of rows, best by sketch, rescored
	// exactly (rows/32 when that is more).
	SketchRescore = 512

	// sketchSample rows are sampled (evenly over the slots) to fit the
	// projection; sketchPower subspace iterations refine the fit (measured:
	// 0 → 1 iteration cuts the error from 0.035 to 0.029 on 100 topics and
	// from 0.035 to 0.010 on 40; a second one or a sample of 2,048 gains
	// under 10% for twice the time).
	sketchSample     = 1024
	sketchOversample = 16
	sketchPower      = 1
	// sketchSeed fixes the starting subspace, so a fit is deterministic.
	sketchSeed = 0x5eed5ce7c4
)

// sketch is the projection of every row onto k orthonormal directions.
type sketch struct {
	k       int       // dimension
	rescore int       // rows rescored exactly per query; 0: rescoreFor's rule
	basis   []float32 // k rows of dim values: the directions, strongest first
	rows    []float32 // one row of k values per slot; zero for absent slots
	fitted  int       // live rows when the projection was fitted
	// The rows as int8 codes, one scale each (as in quant.go), which is
	// what a query scans: a quarter of the bytes (3.2 MB at 50,000 rows),
	// at the cost of ~0.3% more error in the estimates (BenchmarkSketch).
	cstride int // k rounded up to a multiple of 16
	codes   []int8
	cscale  []float32
}

// quantise sets the codes of slots [from, to) from their rows, growing
// the codes to cover slots slots.
func (sk *sketch) quantise(from, to, slots int) {
	if sk.cstride == 0 {
		sk.cstride = (sk.k + 15) &^ 15
	}
	if len(sk.cscale) < slots {
		sk.codes = append(sk.codes, make([]int8, (slots-len(sk.cscale))*sk.cstride)...)
		sk.cscale = append(sk.cscale, make([]float32, slots-len(sk.cscale))...)
	}
	for slot := from; slot < to; slot++ {
		row := sk.rows[slot*sk.k : (slot+1)*sk.k]
		codes := sk.codes[slot*sk.cstride : (slot+1)*sk.cstride]
		top := absMax(row)
		if !(top > 0) || math.IsInf(float64(top), 0) {
			clear(codes)
			sk.cscale[slot] = 0
			continue
		}
		inv := 127 / top
		for j, x := range row {
			codes[j] = roundCode(x * inv)
		}
		sk.cscale[slot] = top / 127
	}
}

// sketchDue reports whether the sketch should be (re)built: none yet and
// enough rows, or twice as many rows as it was fitted on. Callers hold
// v.mu.
func (v *Vectors) sketchDue() bool {
	if v.dim <= SketchMinDim || v.live < SketchMinRows {
		return false
	}
	return v.sk == nil || v.live >= 2*v.sk.fitted
}

// Prepare builds the sketch now if the vectors need one and it is missing
// or stale (ScoreAll would otherwise build it on the next query). It fits
// the projection on a sample of rows and projects every row; at 50,000
// rows of 768 dimensions that takes a few hundred milliseconds on two
// cores.
func (v *Vectors) Prepare() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.sketchDue() {
		v.buildSketch()
	}
	if v.quantDue() {
		v.buildQuant()
	}
	v.due.Store(false)
}

// prepareDue: Prepare has work to do.
func (v *Vectors) prepareDue() bool { return v.sketchDue() || v.quantDue() }

// Prepared reports whether ScoreAll runs at full speed: no sketch is due
// to be built or refitted.
func (v *Vectors) Prepared() bool { return !v.due.Load() }

// buildSketch fits the projection and projects every row. Callers hold
// v.mu exclusively.
func (v *Vectors) buildSketch() {
	sk := &sketch{k: SketchDim, fitted: v.live}
	sk.basis = fitPCA(v.sample(sketchSample), v.dim, sk.k, sketchPower)
	sk.rows = make([]float32, len(v.present)*sk.k)
	sk.quantise(0, 0, len(v.present))
	parallelRows(len(v.present), func(start, end int) {
		sk.project(v.data[start*v.dim:end*v.dim], sk.rows[start*sk.k:end*sk.k], end-start, v.dim)
		sk.quantise(start, end, len(v.present))
	})
	v.sk = sk
}

// sample copies up to m present rows, evenly spaced over the slots, into
// one matrix.
func (v *Vectors) sample(m int) []float32 {
	m = min(m, v.live)
	out := make([]float32, 0, m*v.dim)
	step := float64(v.live) / float64(m)
	next, seen := 0.0, 0
	for slot, ok := range v.present {
		if !ok {
			continue
		}
		if float64(seen) >= next && len(out) < m*v.dim {
			out = append(out, v.data[slot*v.dim:(slot+1)*v.dim]...)
			next += step
		}
		seen++
	}
	return out
}

// project writes the sketch of n rows of dim values into out (n rows of
// k values), one SSE dot product per row and direction: the row stays in
// L1 and the basis (k×dim) in L2, and this ran 2.5 times faster than
// gonum's Sgemm for 64×768 (7.5 µs a row on one core).
func (sk *sketch) project(rows, out []float32, n, dim int) {
	for i := range n {
		row := blas32.Vector{N: dim, Inc: 1, Data: rows[i*dim : (i+1)*dim]}
		for j := range sk.k {
			out[i*sk.k+j] = blas32.Dot(row, blas32.Vector{N: dim, Inc: 1, Data: sk.basis[j*dim : (j+1)*dim]})
		}
	}
}

// set writes the sketch of one (normalised) row, growing the sketch to
// cover slots slots.
func (sk *sketch) set(slot int32, row []float32, slots int) {
	if need := slots * sk.k; len(sk.rows) < need {
		sk.rows = append(sk.rows, make([]float32, need-len(sk.rows))...)
	}
	sk.project(row, sk.rows[int(slot)*sk.k:(int(slot)+1)*sk.k], 1, len(row))
	sk.quantise(int(slot), int(slot)+1, slots)
}

func (sk *sketch) remove(slot int32) {
	if end := (int(slot) + 1) * sk.k; end <= len(sk.rows) {
		clear(sk.rows[int(slot)*sk.k : end])
		sk.quantise(int(slot), int(slot)+1, int(slot)+1)
	}
}

// scoreSketch fills out[:rows] with sketch estimates, then rescores the
// best present rows by sketch exactly (rescoreFor), and returns those.
// Callers hold v.mu for reading.
func (v *Vectors) scoreSketch(unit, out []float32, rows int) []int32 {
	sk := v.sk
	q := make([]float32, sk.cstride) // zero past k, as the codes are
	blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: sk.k, Cols: v.dim, Stride: v.dim, Data: sk.basis},
		blas32.Vector{N: v.dim, Inc: 1, Data: unit}, 0, blas32.Vector{N: sk.k, Inc: 1, Data: q[:sk.k]})
	kernel := quantKernel
	if kernel == nil {
		kernel = dotsGo
	}
	parallelRows(rows, func(start, end int) {
		kernel(q, sk.codes[start*sk.cstride:end*sk.cstride], sk.cscale[start:end], out[start:end], sk.cstride)
	})
	best := v.bestBySketch(out[:rows], sk.rescoreFor(rows))
	exact := make([]float32, len(best))
	rescore := func(from, to int) {
		rowsKernel(unit, v.data, best[from:to], exact[from:to])
		for i, slot := range best[from:to] {
			out[slot] = exact[from+i]
		}
	}
	// The rescored rows are scattered (1,562 rows of 3 KB at 50,000
	// rows): up to four goroutines overlap their memory latency.
	parts := min(4, len(best)/256)
	if parts <= 1 || runtime.GOMAXPROCS(0) == 1 {
		rescore(0, len(best))
	} else {
		var wg sync.WaitGroup
		per := (len(best) + parts - 1) / parts
		for start := per; start < len(best); start += per {
			wg.Go(func() { rescore(start, min(len(best), start+per)) })
		}
		rescore(0, per)
		wg.Wait()
	}
	return best
}

// rescoreFor is how many rows to rescore out of rows.
func (sk *sketch) rescoreFor(rows int) int {
	if sk.rescore > 0 { // fixed (tests)
		return sk.rescore
	}
	return max(SketchRescore, rows/32)
}

// bestBySketch returns the limit present slots with the highest scores,
// whatever their sign (unlike TopK), ties to the lower slot, in slot
// order. One pass over the scores keeps those at or above a cut taken
// from an even sample of them (set low enough that, with high
// probability, more than limit rows pass), and a quickselect finds the
// exact limit-th among those few; should too few pass, it selects among
// all. At 50,000 rows this takes about 0.1 ms, against 1 ms for a
// quickselect over every score and more for a heap.
func (v *Vectors) bestBySketch(scores []float32, limit int) []int32 {
	if limit <= 0 {
		return nil
	}
	const sampleSize = 4096
	stride := max(1, len(scores)/sampleSize)
	buf, _ := bestScratch.Get().(*bestBuffers)
	if buf == nil {
		buf = new(bestBuffers)
	}
	defer bestScratch.Put(buf)
	sample := buf.sample[:0]
	for i := 0; i < len(scores); i += stride {
		if v.present[i] {
			sample = append(sample, scores[i])
		}
	}
	buf.sample = sample
	kept := buf.kept[:0]
	defer func() { buf.kept = kept[:0] }()
	// Rank of the cut in the sample: limit's share of the rows, doubled,
	// plus a margin for small samples.
	if rank := 2*limit*len(sample)/max(1, len(scores)) + 16; rank < len(sample) {
		cut := kthLargest(sample, rank)
		for i, s := range scores {
			if s >= cut && v.present[i] {
				kept = append(kept, scored{int32(i), s})
			}
		}
	}
	if len(kept) < limit { // the sample misled, or limit is most rows
		kept = kept[:0]
		for i, s := range scores {
			if v.present[i] {
				kept = append(kept, scored{int32(i), s})
			}
		}
		if len(kept) <= limit {
			out := make([]int32, len(kept))
			for i, k := range kept {
				out[i] = k.slot
			}
			return out
		}
	}
	values := buf.values[:0]
	for _, k := range kept {
		values = append(values, k.score)
	}
	buf.values = values
	cut := kthLargest(values, limit)
	ties := limit
	for _, k := range kept {
		if k.score > cut {
			ties--
		}
	}
	out := make([]int32, 0, limit)
	for _, k := range kept { // in slot order, so ties go to the lower slots
		if k.score > cut || (k.score == cut && ties > 0) {
			if k.score == cut {
				ties--
			}
			out = append(out, k.slot)
		}
	}
	return out
}

// bestBuffers are bestBySketch's scratch (~70 KB at 50,000 rows),
// reused from question to question.
type bestBuffers struct {
	sample, values []float32
	kept           []scored
}

type scored struct {
	slot  int32
	score float32
}

var bestScratch sync.Pool

// kthLargest returns the k-th largest of a (1 ≤ k ≤ len(a)), reordering
// a: quickselect with Hoare partitioning around a median of three. a must
// hold no NaN (rows and queries are normalised, which zeroes NaN).
func kthLargest(a []float32, k int) float32 {
	target := k - 1 // its index in descending order
	lo, hi := 0, len(a)-1
	for lo < hi {
		x, y, z := a[lo], a[lo+(hi-lo)/2], a[hi]
		pivot := max(min(x, y), min(max(x, y), z)) // the median
		i, j := lo, hi
		for i <= j {
			for a[i] > pivot {
				i++
			}
			for a[j] < pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		// Now a[lo..j] ≥ pivot ≥ a[i..hi], and a[j+1..i-1] = pivot.
		switch {
		case target <= j:
			hi = j
		case target >= i:
			lo = i
		default:
			return a[target]
		}
	}
	return a[target]
}

// parallelRows runs f over [0, rows) in up to maxWorkers contiguous
// pieces, on the calling goroutine alone for small inputs.
func parallelRows(rows int, f func(start, end int)) {
	workers := min(runtime.GOMAXPROCS(0), maxWorkers, rows/minRowsPerWorker)
	if workers <= 1 {
		f(0, rows)
		return
	}
	var wg sync.WaitGroup
	per := (rows + workers - 1) / workers
	for start := per; start < rows; start += per {
		wg.Go(func() { f(start, min(start+per, rows)) })
	}
	f(0, per)
	wg.Wait()
}

// fitPCA returns k orthonormal directions (k rows of dim values, strongest
// first) spanning approximately the top-k principal subspace (uncentred)
// of the m×dim sample X: randomised subspace iteration (Halko, Martinsson
// and Tropp 2011, algorithm 4.4) on XᵀX from a fixed Gaussian start with
// sketchOversample extra directions, then Rayleigh–Ritz to order them.
// The large products run in float32 through BLAS; the small ones in
// float64.
func fitPCA(x []float32, dim, k, power int) []float32 {
	m := len(x) / dim
	l := min(k+sketchOversample, dim)
	X := blas32.General{Rows: m, Cols: dim, Stride: dim, Data: x}
	z := make([]float32, dim*l) // dim×l, the subspace
	r := rand.New(rand.NewPCG(sketchSeed, uint64(dim)))
	for i := range z {
		z[i] = float32(r.NormFloat64())
	}
	y := make([]float32, m*l)
	Z := blas32.General{Rows: dim, Cols: l, Stride: l, Data: z}
	Y := blas32.General{Rows: m, Cols: l, Stride: l, Data: y}
	orthonormalise(z, dim, l)
	for range power {
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, X, Z, 0, Y) // Y = X Z
		blas32.Gemm(blas.Trans, blas.NoTrans, 1, X, Y, 0, Z)   // Z = Xᵀ Y
		orthonormalise(z, dim, l)
	}
	// Rayleigh–Ritz: the eigenvectors W of (XZ)ᵀ(XZ) rotate Z onto the
	// principal directions within its span, ordered by their variance.
	blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, X, Z, 0, Y)
	gram := make([]float32, l*l)
	blas32.Gemm(blas.Trans, blas.NoTrans, 1, Y, Y, 0, blas32.General{Rows: l, Cols: l, Stride: l, Data: gram})
	g := mat.NewSymDense(l, nil)
	for i := range l {
		for j := i; j < l; j++ {
			g.SetSym(i, j, float64(gram[i*l+j]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(g, true) {
		// Cannot happen for a finite symmetric matrix; keep Z's order.
		return transposeTop(z, dim, l, k, nil)
	}
	var w mat.Dense
	eig.VectorsTo(&w)
	values := eig.Values(nil) // ascending
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return values[order[a]] > values[order[b]] })
	return transposeTop(z, dim, l, k, func(i, c int) float64 { return w.At(i, order[c]) })
}

// transposeTop returns the first k columns of Z·W (dim×l times l×l; W the
// identity when nil) as k rows of dim values, each normalised.
func transposeTop(z []float32, dim, l, k int, w func(i, c int) float64) []float32 {
	out := make([]float32, k*dim)
	col := make([]float64, dim)
	for c := range k {
		for d := range dim {
			if w == nil {
				col[d] = float64(z[d*l+c])
				continue
			}
			var s float64
			for i := range l {
				s += float64(z[d*l+i]) * w(i, c)
			}
			col[d] = s
		}
		var norm float64
		for _, x := range col {
			norm += x * x
		}
		if norm == 0 {
			continue
		}
		inv := 1 / math.Sqrt(norm)
		for d, x := range col {
			out[c*dim+d] = float32(x * inv)
		}
	}
	return out
}

// orthonormalise makes the l columns of the rows×l row-major matrix a
// orthonormal (modified Gram–Schmidt, twice for float32 safety, in
// float64). A column that vanishes is replaced by a unit vector not in the
// span of the others.
func orthonormalise(a []float32, rows, l int) {
	cols := make([][]float64, l)
	for c := range cols {
		cols[c] = make([]float64, rows)
		for r := range rows {
			cols[c][r] = float64(a[r*l+c])
		}
	}
	for c := range cols {
		for range 2 {
			for p := range c {
				var dot float64
				for r := range rows {
					dot += cols[p][r] * cols[c][r]
				}
				for r := range rows {
					cols[c][r] -= dot * cols[p][r]
				}
			}
		}
		var norm float64
		for _, x := range cols[c] {
			norm += x * x
		}
		if norm < 1e-20 { // a degenerate sample: the direction stays zero
			clear(cols[c])
			continue
		}
		inv := 1 / math.Sqrt(norm)
		for r := range cols[c] {
			cols[c][r] *= inv
		}
	}
	for c := range cols {
		for r := range rows {
			a[r*l+c] = float32(cols[c][r])
		}
	}
}

const (
	sketchMagic   = "LOOMSKCH"
	sketchVersion = 1
	// sketchChecks rows are projected again when a sketch is decoded, to
	// catch one that was made for other rows.
	sketchChecks = 32
)

// MarshalSketch encodes the sketch, if there is one (ok is false
// otherwise), for a cache beside the vectors:
//
//	"LOOMSKCH" version dim k fitted slots (uvarints)
//	the basis, k×dim float32 little-endian
//	the sketch rows, slots×k float32 little-endian
//
// It is valid only for the same rows in the same slots; the caller keys
// the cache to them (UnmarshalSketch spot-checks).
func (v *Vectors) MarshalSketch() (data []byte, ok bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	sk := v.sk
	if sk == nil {
		return nil, false
	}
	slots := len(v.present)
	b := make([]byte, 0, 64+4*(len(sk.basis)+slots*sk.k))
	b = append(b, sketchMagic...)
	for _, u := range []int{sketchVersion, v.dim, sk.k, sk.fitted, slots} {
		b = binary.AppendUvarint(b, uint64(u))
	}
	for _, x := range sk.basis {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	for _, x := range sk.rows[:slots*sk.k] {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b, true
}

// UnmarshalSketch installs a sketch from MarshalSketch if it fits these
// vectors: same dimension and slots, and the sketch rows of an even sample
// of present rows match their projection. On error (wrapping ErrBadIndex)
// v is unchanged.
func (v *Vectors) UnmarshalSketch(data []byte) error {
	d := decoder{b: data}
	d.magic(sketchMagic, sketchVersion)
	dim, k, fitted, slots := int(d.uvarint()), int(d.uvarint()), int(d.uvarint()), int(d.uvarint())
	if d.err != nil {
		return fmt.Errorf("unmarshal sketch: %w", d.err)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if dim != v.dim || slots != len(v.present) || k <= 0 || k > dim {
		return fmt.Errorf("unmarshal sketch: %w", badIndex("a %d-d sketch of %d slots of %d-d vectors, not of %d slots of %d-d", k, slots, dim, len(v.present), v.dim))
	}
	if len(d.b) != 4*(k*dim+slots*k) {
		return fmt.Errorf("unmarshal sketch: %w", badIndex("%d bytes for a %d×%d basis and %d×%d rows", len(d.b), k, dim, slots, k))
	}
	floats := make([]float32, k*dim+slots*k)
	for i := range floats {
		floats[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.b[4*i:]))
	}
	sk := &sketch{k: k, fitted: fitted, basis: floats[: k*dim : k*dim], rows: floats[k*dim:]}
	got := make([]float32, k)
	step := max(1, slots/sketchChecks)
	for slot := 0; slot < slots; slot += step {
		want := sk.rows[slot*k : (slot+1)*k]
		if !v.present[slot] {
			for _, x := range want {
				if x != 0 {
					return fmt.Errorf("unmarshal sketch: %w", badIndex("slot %d has no vector but a sketch", slot))
				}
			}
			continue
		}
		sk.project(v.data[slot*dim:(slot+1)*dim], got, 1, dim)
		for j := range got {
			if math.Abs(float64(got[j]-want[j])) > 1e-4 {
				return fmt.Errorf("unmarshal sketch: %w", badIndex("slot %d: the sketch was made for another vector", slot))
			}
		}
	}
	sk.quantise(0, 0, slots)
	parallelRows(slots, func(start, end int) { sk.quantise(start, end, slots) })
	v.sk = sk
	v.due.Store(v.prepareDue())
	return nil
}
