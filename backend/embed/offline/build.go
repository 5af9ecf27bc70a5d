package offline

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// TableInput is what BuildTable turns into a table. tools/mkembed fills it
// from the GloVe JSON; tests fill it with small synthetic vocabularies.
type TableInput struct {
	// Source describes the vectors' provenance; it is stored in the header.
	Source string
	// Words are unique, lower-case, and ordered most frequent first.
	Words []string
	// Vectors holds one vector per word, all of the same length.
	Vectors [][]float32
	// Prob is each word's estimated unigram probability p(w), in (0, 1].
	Prob []float32
	// SIFA is the SIF constant a in the weight a/(a+p(w)).
	SIFA float32
	// Sentences and SentenceLen size the sample of pseudo-sentences from
	// which the common component is estimated; zero means 20,000 and 20.
	Sentences, SentenceLen int
	// Seed makes the sample, and so the table, reproducible.
	Seed uint64
}

// TableStats reports what BuildTable measured.
type TableStats struct {
	// Bytes is the table's size.
	Bytes int
	// MeanQuantCosine and MinQuantCosine compare each word's int8 vector
	// with its float original.
	MeanQuantCosine, MinQuantCosine float64
	// CommonShare is the fraction of the pseudo-sentences' energy (sum of
	// squared lengths) that lies along the common component.
	CommonShare float64
	// Common is the common component, unit length.
	Common []float32
}

// BuildTable quantises the vectors to int8 with one scale per vector
// (v ≈ scale × q, scale = max|v|/127), estimates the common component, and
// encodes the table.
//
// The common component is the first principal direction (uncentred, as in
// the SIF paper's SVD) of SIF-weighted averages of pseudo-sentences: each is
// SentenceLen words drawn independently with probability p(w). Sampling by
// frequency stands in for a corpus we do not ship; the direction it finds
// is the one that frequent, topic-free words pull every sentence towards.
// It is computed on the quantised vectors through the same code that embeds
// at run time.
func BuildTable(in TableInput) ([]byte, TableStats, error) {
	var stats TableStats
	n := len(in.Words)
	switch {
	case n == 0:
		return nil, stats, errors.New("build table: no words")
	case len(in.Vectors) != n || len(in.Prob) != n:
		return nil, stats, fmt.Errorf("build table: %d words, %d vectors, %d probabilities", n, len(in.Vectors), len(in.Prob))
	case !(in.SIFA > 0 && in.SIFA < 1):
		return nil, stats, fmt.Errorf("build table: SIF constant a = %v, want (0,1)", in.SIFA)
	}
	dim := len(in.Vectors[0])
	if dim == 0 {
		return nil, stats, errors.New("build table: empty vectors")
	}
	t := &table{
		dim:    dim,
		sifA:   in.SIFA,
		source: in.Source,
		common: make([]float32, dim),
		words:  in.Words,
		prob:   in.Prob,
		scale:  make([]float32, n),
		q:      make([]int8, n*dim),
	}
	seen := make(map[string]bool, n)
	stats.MinQuantCosine = 1
	for i, v := range in.Vectors {
		w := in.Words[i]
		if seen[w] {
			return nil, stats, fmt.Errorf("build table: word %q appears twice", w)
		}
		seen[w] = true
		if len(v) != dim {
			return nil, stats, fmt.Errorf("build table: word %q has %d dimensions, want %d", w, len(v), dim)
		}
		if p := in.Prob[i]; !(p > 0 && p <= 1) {
			return nil, stats, fmt.Errorf("build table: word %q has probability %v", w, p)
		}
		var maxAbs float64
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, stats, fmt.Errorf("build table: word %q has a non-finite component", w)
			}
			maxAbs = max(maxAbs, math.Abs(float64(x)))
		}
		if maxAbs == 0 {
			continue // all-zero vector: scale 0, contributes nothing
		}
		scale := maxAbs / 127
		t.scale[i] = float32(scale)
		var dot, vv, qq float64
		for d, x := range v {
			q := math.Round(float64(x) / scale)
			t.q[i*dim+d] = int8(max(-127, min(127, q)))
			dq := float64(t.scale[i]) * q
			dot += float64(x) * dq
			vv += float64(x) * float64(x)
			qq += dq * dq
		}
		c := dot / math.Sqrt(vv*qq)
		stats.MeanQuantCosine += c
		stats.MinQuantCosine = min(stats.MinQuantCosine, c)
	}
	stats.MeanQuantCosine /= float64(n)

	common, share := commonComponent(newEmbedder(t), in)
	copy(t.common, common)
	stats.Common, stats.CommonShare = common, share

	b, err := encodeTable(t)
	if err != nil {
		return nil, stats, err
	}
	stats.Bytes = len(b)
	return b, stats, nil
}

// commonComponent estimates the first principal direction of pseudo-sentence
// vectors (see BuildTable) by power iteration on their 2nd-moment matrix.
func commonComponent(e *Embedder, in TableInput) ([]float32, float64) {
	sentences, length := in.Sentences, in.SentenceLen
	if sentences <= 0 {
		sentences = 20000
	}
	if length <= 0 {
		length = 20
	}
	dim := e.dim
	cum := make([]float64, len(in.Prob))
	var total float64
	for i, p := range in.Prob {
		total += float64(p)
		cum[i] = total
	}
	rng := rand.New(rand.NewPCG(in.Seed, 0x6c6f6f6d)) // "loom"
	moment := make([]float64, dim*dim)
	acc := make([]float32, dim)
	ids := make([]int32, length)
	var energy float64
	for range sentences {
		for k := range ids {
			ids[k] = int32(sort.SearchFloat64s(cum, rng.Float64()*total))
			ids[k] = min(ids[k], int32(len(cum)-1))
		}
		e.sum(acc, ids)
		for i, x := range acc {
			xi := float64(x) / float64(length)
			energy += xi * xi
			row := moment[i*dim : (i+1)*dim]
			for j, y := range acc {
				row[j] += xi * float64(y) / float64(length)
			}
		}
	}
	// Power iteration from a fixed start; the top eigenvalue of a sum of
	// outer products dominates strongly, so this converges quickly.
	u := make([]float64, dim)
	for i := range u {
		u[i] = 1 / math.Sqrt(float64(dim))
	}
	next := make([]float64, dim)
	var lambda float64
	for range 500 {
		for i := range next {
			var s float64
			for j, x := range moment[i*dim : (i+1)*dim] {
				s += x * u[j]
			}
			next[i] = s
		}
		lambda = math.Sqrt(dot64(next, next))
		if lambda == 0 {
			return make([]float32, dim), 0
		}
		delta := 0.0
		for i := range u {
			v := next[i] / lambda
			delta = max(delta, math.Abs(v-u[i]))
			u[i] = v
		}
		if delta < 1e-12 {
			break
		}
	}
	// Fix the sign so rebuilding gives the same bytes: the largest component
	// is positive.
	largest := 0
	for i, x := range u {
		if math.Abs(x) > math.Abs(u[largest]) {
			largest = i
		}
	}
	if u[largest] < 0 {
		for i := range u {
			u[i] = -u[i]
		}
	}
	out := make([]float32, dim)
	for i, x := range u {
		out[i] = float32(x)
	}
	return out, lambda / energy
}

func dot64(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
