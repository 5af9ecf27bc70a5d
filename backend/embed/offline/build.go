package offline

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// BuildInput is what Build turns into a table.
type BuildInput struct {
	// ID is the embedder's ID, stored in the table (ID for Loom's own).
	ID string
	// Source describes the vectors' provenance; it is stored in the table.
	Source string
	// Vocab is the tokenizer's vocabulary by id, and Unk, Prefix and
	// MaxWordChars its settings (minilm.Tokenizer).
	Vocab        []string
	Unk, Prefix  string
	MaxWordChars int
	// IDs are the token ids that get a row; Vectors holds their vectors,
	// row-major [len(IDs)][dim]. Every other token gets weight 0.
	IDs     []int32
	Vectors []float32
	// Dims is the length of the table's vectors: the rows are centred and
	// projected on their first Dims principal components. 0 keeps every
	// dimension (still centred).
	Dims int
	// Weight is each row's weight in a text's sum (see SIFWeights); nil
	// weighs every row 1.
	Weight []float32
}

// BuildStats reports what Build measured.
type BuildStats struct {
	// Bytes is the table's size.
	Bytes int
	// Variance is the share of the centred rows' variance that the kept
	// components hold (1 when Dims keeps them all).
	Variance float64
	// MeanQuantCosine and MinQuantCosine compare each row's int8 vector
	// with its float original.
	MeanQuantCosine, MinQuantCosine float64
}

// Build centres the rows, projects them on their first Dims principal
// components, quantises each to int8 with its own scale and encodes the
// table. The same input gives the same bytes.
func Build(in BuildInput) ([]byte, BuildStats, error) {
	var stats BuildStats
	n := len(in.IDs)
	if n == 0 {
		return nil, stats, errors.New("build offline table: no rows")
	}
	if len(in.Vectors)%n != 0 {
		return nil, stats, fmt.Errorf("build offline table: %d floats for %d rows", len(in.Vectors), n)
	}
	H := len(in.Vectors) / n
	dims := in.Dims
	if dims <= 0 {
		dims = H
	}
	if dims > H {
		return nil, stats, fmt.Errorf("build offline table: %d dimensions asked of %d", dims, H)
	}
	if in.Weight != nil && len(in.Weight) != n {
		return nil, stats, fmt.Errorf("build offline table: %d weights for %d rows", len(in.Weight), n)
	}
	proj, variance := principal(in.Vectors, n, H, dims)
	stats.Variance = variance

	t := &table{
		dim:          dims,
		maxWordChars: in.MaxWordChars,
		id:           in.ID,
		unk:          in.Unk,
		prefix:       in.Prefix,
		source:       in.Source,
		tokens:       in.Vocab,
		weight:       make([]float32, len(in.Vocab)),
		scale:        make([]float32, len(in.Vocab)),
		q:            make([]int8, len(in.Vocab)*dims),
	}
	stats.MinQuantCosine = 1
	for k, id := range in.IDs {
		if id < 0 || int(id) >= len(in.Vocab) {
			return nil, stats, fmt.Errorf("build offline table: token id %d outside the vocabulary of %d", id, len(in.Vocab))
		}
		if t.weight[id] != 0 {
			return nil, stats, fmt.Errorf("build offline table: token id %d appears twice", id)
		}
		w := float32(1)
		if in.Weight != nil {
			w = in.Weight[k]
		}
		if !(w > 0) || math.IsInf(float64(w), 0) {
			return nil, stats, fmt.Errorf("build offline table: token %q has weight %v", in.Vocab[id], w)
		}
		t.weight[id] = w
		v := proj[k*dims : (k+1)*dims]
		var maxAbs float64
		for _, x := range v {
			maxAbs = max(maxAbs, math.Abs(x))
		}
		if maxAbs == 0 {
			continue
		}
		scale := maxAbs / 127
		t.scale[id] = float32(scale)
		q := t.q[int(id)*dims : (int(id)+1)*dims]
		var dot, vv, qq float64
		for d, x := range v {
			r := math.Round(x / scale)
			q[d] = int8(max(-127, min(127, r)))
			dq := float64(t.scale[id]) * r
			dot += x * dq
			vv += x * x
			qq += dq * dq
		}
		c := dot / math.Sqrt(vv*qq)
		stats.MeanQuantCosine += c
		stats.MinQuantCosine = min(stats.MinQuantCosine, c)
	}
	stats.MeanQuantCosine /= float64(n)
	b, err := encodeTable(t)
	if err != nil {
		return nil, stats, err
	}
	stats.Bytes = len(b)
	return b, stats, nil
}

// principal centres the n rows of x ([n][H]) and returns them projected on
// the first dims eigenvectors of their covariance ([n][dims]), each
// eigenvector's sign fixed so that its largest component is positive, and
// the share of the variance the projection keeps.
func principal(x []float32, n, H, dims int) ([]float64, float64) {
	mean := make([]float64, H)
	for i := range n {
		for d, v := range x[i*H : (i+1)*H] {
			mean[d] += float64(v)
		}
	}
	for d := range mean {
		mean[d] /= float64(n)
	}
	cov := make([]float64, H*H)
	row := make([]float64, H)
	for i := range n {
		for d, v := range x[i*H : (i+1)*H] {
			row[d] = float64(v) - mean[d]
		}
		for a := range H {
			ra := row[a]
			c := cov[a*H : (a+1)*H]
			for b := a; b < H; b++ {
				c[b] += ra * row[b]
			}
		}
	}
	for a := range H {
		for b := a; b < H; b++ {
			cov[a*H+b] /= float64(n)
			cov[b*H+a] = cov[a*H+b]
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(H, cov), true) {
		panic("offline: eigendecomposition of the covariance failed")
	}
	values := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	var total, kept float64
	for _, v := range values {
		total += v
	}
	// Components in descending order of variance.
	comp := make([][]float64, dims)
	for k := range dims {
		col := H - 1 - k
		kept += values[col]
		c := make([]float64, H)
		largest := 0
		for d := range H {
			c[d] = vecs.At(d, col)
			if math.Abs(c[d]) > math.Abs(c[largest]) {
				largest = d
			}
		}
		if c[largest] < 0 {
			for d := range c {
				c[d] = -c[d]
			}
		}
		comp[k] = c
	}
	out := make([]float64, n*dims)
	for i := range n {
		for d, v := range x[i*H : (i+1)*H] {
			row[d] = float64(v) - mean[d]
		}
		for k, c := range comp {
			var s float64
			for d, v := range row {
				s += v * c[d]
			}
			out[i*dims+k] = s
		}
	}
	share := 1.0
	if total > 0 {
		share = kept / total
	}
	return out, share
}

// SIFWeights returns a/(a+p) for each probability p: the smooth inverse
// frequency weight of Arora, Liang and Ma (2017), which Model2Vec applies
// to its distilled rows.
func SIFWeights(p []float64, a float64) []float32 {
	w := make([]float32, len(p))
	for i, x := range p {
		w[i] = float32(a / (a + x))
	}
	return w
}

// ZipfByRank returns the probabilities Zipf's law gives n items ranked
// 0, 1, …, n-1 by frequency: p(r) ∝ 1/(r+2), summing to 1 (Model2Vec's
// estimate when only the order is known).
func ZipfByRank(n int) []float64 {
	p := make([]float64, n)
	var sum float64
	for r := range p {
		p[r] = 1 / float64(r+2)
		sum += p[r]
	}
	for r := range p {
		p[r] /= sum
	}
	return p
}
