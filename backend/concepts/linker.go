// Package concepts decides which concept nodes a piece of content belongs to
// (seed §4.3: link to every concept at or above the similarity threshold,
// else found a new concept, and remember the best near-miss) and gives
// concepts readable names from key phrases.
package concepts

import (
	"slices"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// Match is a concept and its cosine similarity to a vector.
type Match struct {
	ID  string
	Sim float64
}

// Linker holds the concept vectors of one embedder in one contiguous slice.
type Linker struct {
	// Threshold links content to a concept (seed: 0.8, per embedder).
	Threshold float64
	// MaxLinks caps how many concepts one node links to (the best ones).
	MaxLinks int
	// RelatedMin and RelatedK bound the concept↔concept edges a new
	// concept gets: its K nearest concepts with cosine ≥ RelatedMin.
	RelatedMin float64
	RelatedK   int

	dim  int
	ids  []string
	vecs []float32
}

// NewLinker makes an empty linker for unit vectors of dimension dim.
func NewLinker(dim int, threshold float64) *Linker {
	return &Linker{Threshold: threshold, MaxLinks: 8, RelatedMin: threshold - 0.15, RelatedK: 5, dim: dim}
}

// Len is the number of concepts.
func (l *Linker) Len() int { return len(l.ids) }

// Add registers a concept vector (unit length).
func (l *Linker) Add(id string, vec []float32) {
	l.ids = append(l.ids, id)
	l.vecs = append(l.vecs, vec...)
}

// Remove drops concepts by id.
func (l *Linker) Remove(drop map[string]bool) {
	ids, vecs := l.ids[:0], l.vecs[:0]
	for i, id := range l.ids {
		if drop[id] {
			continue
		}
		ids = append(ids, id)
		vecs = append(vecs, l.vecs[i*l.dim:(i+1)*l.dim]...)
	}
	l.ids, l.vecs = ids, vecs
}

// Sim is the cosine similarity of vec to concept id (false: no such
// concept).
func (l *Linker) Sim(vec []float32, id string) (float64, bool) {
	i := slices.Index(l.ids, id)
	if i < 0 {
		return 0, false
	}
	return float64(Dot(vec, l.vecs[i*l.dim:(i+1)*l.dim])), true
}

// Link returns the concepts vec belongs to (all at or above Threshold, best
// first, at most MaxLinks) and the best concept overall, which is the
// near-miss when links is empty.
func (l *Linker) Link(vec []float32) (links []Match, best Match) {
	best.Sim = -2
	for i, id := range l.ids {
		s := float64(Dot(vec, l.vecs[i*l.dim:(i+1)*l.dim]))
		if s > best.Sim {
			best = Match{id, s}
		}
		if s >= l.Threshold {
			links = append(links, Match{id, s})
		}
	}
	sortMatches(links)
	if l.MaxLinks > 0 && len(links) > l.MaxLinks {
		links = links[:l.MaxLinks]
	}
	if best.Sim == -2 {
		best = Match{}
	}
	return links, best
}

// Related returns the RelatedK nearest concepts to vec with cosine ≥
// RelatedMin, excluding self.
func (l *Linker) Related(vec []float32, self string) []Match {
	var out []Match
	for i, id := range l.ids {
		if id == self {
			continue
		}
		if s := float64(Dot(vec, l.vecs[i*l.dim:(i+1)*l.dim])); s >= l.RelatedMin {
			out = append(out, Match{id, s})
		}
	}
	sortMatches(out)
	if len(out) > l.RelatedK {
		out = out[:l.RelatedK]
	}
	return out
}

// Nearest returns the k concepts nearest vec, best first, whatever their
// similarity (the query path's seed concepts).
//
// It runs once per question over every concept (368 × 768 floats at 50k
// sections), so the similarities come from one SIMD matrix-vector product
// rather than Dot's scalar loop: the same values up to float rounding.
func (l *Linker) Nearest(vec []float32, k int) []Match {
	if k <= 0 || len(l.ids) == 0 {
		return nil
	}
	sims := make([]float32, len(l.ids))
	if len(vec) >= l.dim {
		blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: len(l.ids), Cols: l.dim, Stride: l.dim, Data: l.vecs[:len(l.ids)*l.dim]},
			blas32.Vector{N: l.dim, Inc: 1, Data: vec[:l.dim]}, 0, blas32.Vector{N: len(sims), Inc: 1, Data: sims})
	} else {
		for i := range l.ids {
			sims[i] = Dot(vec, l.vecs[i*l.dim:(i+1)*l.dim])
		}
	}
	// The k best by a bounded insertion: sorting all the concepts (with a
	// string comparison per step) cost as much as the product.
	out := make([]Match, 0, min(k, len(l.ids))+1)
	for i, id := range l.ids {
		m := Match{id, float64(sims[i])}
		if len(out) == k && !better(m, out[k-1]) {
			continue
		}
		at := len(out)
		for at > 0 && better(m, out[at-1]) {
			at--
		}
		out = slices.Insert(out, at, m)
		if len(out) > k {
			out = out[:k]
		}
	}
	return out
}

// better orders matches best first: higher similarity, then the smaller id.
func better(a, b Match) bool {
	if a.Sim != b.Sim {
		return a.Sim > b.Sim
	}
	return a.ID < b.ID
}

func sortMatches(m []Match) {
	sort.Slice(m, func(i, j int) bool { return better(m[i], m[j]) })
}

// Dot is the inner product (the cosine of unit vectors), unrolled by four.
func Dot(a, b []float32) float32 {
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
