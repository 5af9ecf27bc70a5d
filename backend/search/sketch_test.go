package search

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/blas32"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clustered returns rows unit vectors shaped like package
// embed/synthetic's: normalise(centre(topic) + noise·n), n a unit Gaussian
// vector, over topics random unit centres; and queries more of the same
// (fresh noise, random topics).
func clustered(seed uint64, rows, queries, dim, topics int, noise float64) (data, qs [][]float32) {
	r := rand.New(rand.NewPCG(seed, 99))
	unitGaussian := func() []float64 {
		v := make([]float64, dim)
		var s float64
		for i := range v {
			v[i] = r.NormFloat64()
			s += v[i] * v[i]
		}
		for i := range v {
			v[i] /= math.Sqrt(s)
		}
		return v
	}
	centres := make([][]float64, topics)
	for t := range centres {
		centres[t] = unitGaussian()
	}
	point := func() []float32 {
		c, n := centres[r.IntN(topics)], unitGaussian()
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(c[i] + noise*n[i])
		}
		return v
	}
	for range rows {
		data = append(data, point())
	}
	for range queries {
		qs = append(qs, point())
	}
	return data, qs
}

// exactTop is the reference: float64 cosines, best first.
func exactTop(data [][]float32, q []float32, k int) []Hit {
	scores := make([]float32, len(data))
	for i, row := range data {
		scores[i] = float32(naiveCosine(q, row))
	}
	return TopK(scores, k, nil)
}

func recallAt(got, want []Hit) float64 {
	in := map[int32]bool{}
	for _, h := range want {
		in[h.Slot] = true
	}
	n := 0
	for _, h := range got {
		if in[h.Slot] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// exactScorer is the reference scan: every row normalised once, one
// float32 dot product each.
func exactScorer(data [][]float32) func(q []float32) []float32 {
	rows := make([][]float32, len(data))
	for i, r := range data {
		rows[i] = make([]float32, len(r))
		normalise(rows[i], r)
	}
	return func(q []float32) []float32 {
		unit := make([]float32, len(q))
		normalise(unit, q)
		out := make([]float32, len(rows))
		for i, r := range rows {
			out[i] = blas32.Dot(blas32.Vector{N: len(r), Inc: 1, Data: r}, blas32.Vector{N: len(r), Inc: 1, Data: unit})
		}
		return out
	}
}

func TestSketchRecoversTheExactTopTen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 20,000 768-d rows")
	}
	// 500 rows a topic, as in `loom bench` at 50,000 nodes.
	const rows, queries, topics = 20_000, 100, 40
	data, qs := clustered(3, rows, queries, 768, topics, 0.6)
	v := NewVectors(768)
	for slot, row := range data {
		v.Set(int32(slot), row)
	}
	assert.False(t, v.Prepared(), "a sketch is due")
	v.Prepare()
	require.NotNil(t, v.sk, "20,000 rows of 768 get a sketch")
	assert.True(t, v.Prepared())
	out, again := make([]float32, rows), make([]float32, rows)
	var recall, sumSquares float64
	estimated := 0
	exactScores := exactScorer(data)
	for _, q := range qs {
		v.ScoreAll(q, out)
		exact := exactScores(q)
		recall += recallAt(TopK(out, 10, nil), TopK(exact, 10, nil))

		rescored := v.scoreWithSketch(q, again)
		require.Equal(t, out, again, "ScoreAll runs on the sketch")
		require.Len(t, rescored, max(SketchRescore, rows/32))
		isRescored := map[int32]bool{}
		for _, s := range rescored {
			isRescored[s] = true
			if want := naiveCosine(q, data[s]); math.Abs(want-float64(out[s])) > 1e-5 {
				t.Fatalf("slot %d was rescored to %v, want its exact cosine %v", s, out[s], want)
			}
		}
		for slot := range out {
			if !isRescored[int32(slot)] {
				d := float64(out[slot] - exact[slot])
				sumSquares += d * d
				estimated++
			}
		}
	}
	recall /= queries
	rmse := math.Sqrt(sumSquares / float64(estimated))
	t.Logf("recall@10 %.4f; RMSE of the estimates %.4f", recall, rmse)
	assert.GreaterOrEqual(t, recall, 0.99)
	assert.Less(t, rmse, 0.02, "PCA estimates are close (measured 0.010)")
}

// scoreWithSketch is ScoreAll on the sketch path, also returning the rows
// it rescored.
func (v *Vectors) scoreWithSketch(q, out []float32) []int32 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	unit := make([]float32, len(q))
	normalise(unit, q)
	return v.scoreSketch(unit, out, len(out))
}

func TestSketchFollowsSetAndRemove(t *testing.T) {
	data, qs := clustered(7, SketchMinRows, 3, 768, 50, 0.6)
	v := NewVectors(768)
	for slot, row := range data {
		v.Set(int32(slot), row)
	}
	out := make([]float32, SketchMinRows+10)
	v.ScoreAll(qs[0], out)
	require.NotNil(t, v.sk, "the first scan builds the sketch")

	// A row set after the build is in the sketch: the query itself, set
	// as a new row, must come first with cosine 1.
	v.Set(SketchMinRows+5, qs[1])
	v.ScoreAll(qs[1], out)
	top := TopK(out, 1, nil)
	require.Len(t, top, 1)
	assert.Equal(t, int32(SketchMinRows+5), top[0].Slot)
	assert.InDelta(t, 1, top[0].Score, 1e-5)

	// A removed row scores 0 and is never rescored.
	v.Remove(SketchMinRows + 5)
	v.ScoreAll(qs[1], out)
	assert.Zero(t, out[SketchMinRows+5])
	for _, s := range out[SketchMinRows:] {
		assert.Zero(t, s, "slots without a row score 0")
	}
}

func TestSketchOnlyForLargeHighDimensionalSets(t *testing.T) {
	for _, tt := range []struct {
		dim, rows int
		want      bool
	}{
		{SketchMinDim, SketchMinRows, false},
		{SketchMinDim + 1, SketchMinRows - 1, false},
		{SketchMinDim + 1, SketchMinRows, true},
	} {
		t.Run(fmt.Sprintf("%dx%d", tt.rows, tt.dim), func(t *testing.T) {
			v := NewVectors(tt.dim)
			row := make([]float32, tt.dim)
			row[0] = 1
			for slot := range tt.rows {
				v.Set(int32(slot), row)
			}
			v.Prepare()
			assert.Equal(t, tt.want, v.sk != nil)
		})
	}
}

func TestSketchMarshalRoundTrip(t *testing.T) {
	data, qs := clustered(11, SketchMinRows+100, 5, 256, 30, 0.6)
	v := NewVectors(256)
	for slot, row := range data {
		v.Set(int32(slot), row)
	}
	v.Remove(17)
	_, ok := v.MarshalSketch()
	assert.False(t, ok, "no sketch yet")
	v.Prepare()
	blob, ok := v.MarshalSketch()
	require.True(t, ok)

	// The same rows, loaded afresh (as on the next open), take the sketch
	// and score exactly as the original.
	w := NewVectors(256)
	for slot, row := range data {
		w.Set(int32(slot), row)
	}
	w.Remove(17)
	require.False(t, w.Prepared())
	require.NoError(t, w.UnmarshalSketch(blob))
	assert.True(t, w.Prepared(), "nothing left to build")
	want, got := make([]float32, len(data)), make([]float32, len(data))
	for _, q := range qs {
		v.ScoreAll(q, want)
		w.ScoreAll(q, got)
		require.Equal(t, want, got)
	}

	tests := []struct {
		name  string
		setup func(*Vectors) []byte
	}{
		{"another vector in a checked slot", func(x *Vectors) []byte {
			x.Set(int32(len(data)/sketchChecks*5), data[0])
			return blob
		}},
		{"a row removed", func(x *Vectors) []byte { x.Remove(0); return blob }},
		{"more slots", func(x *Vectors) []byte { x.Set(int32(len(data)), data[1]); return blob }},
		{"truncated", func(*Vectors) []byte { return blob[:len(blob)-4] }},
		{"not a sketch", func(*Vectors) []byte { return []byte("LOOMVECS\x01") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewVectors(256)
			for slot, row := range data {
				x.Set(int32(slot), row)
			}
			x.Remove(17)
			err := x.UnmarshalSketch(tt.setup(x))
			require.ErrorIs(t, err, ErrBadIndex)
			assert.Nil(t, x.sk, "left unchanged")
		})
	}
}

// randomOrthonormal is the alternative to PCA: k orthonormal directions
// from a fixed Gaussian draw.
func randomOrthonormal(dim, k int) []float32 {
	r := rand.New(rand.NewPCG(5, 5))
	z := make([]float32, dim*k)
	for i := range z {
		z[i] = float32(r.NormFloat64())
	}
	orthonormalise(z, dim, k)
	return transposeTop(z, dim, k, k, nil)
}

// BenchmarkSketch compares the PCA sketch with a random orthonormal
// projection on clustered data (recall@10 and the RMSE of the estimates)
// and times ScoreAll with each and with the full scan:
//
//	go test -run '^$' -bench Sketch -benchtime 100x ./backend/search/
func BenchmarkSketch(b *testing.B) {
	for _, shape := range []struct{ rows, topics int }{{50_000, 100}, {50_000, 20}} {
		data, qs := clustered(uint64(shape.topics), shape.rows, 50, 768, shape.topics, 0.6)
		v := NewVectors(768)
		for slot, row := range data {
			v.Set(int32(slot), row)
		}
		exact := make([][]float32, len(qs))
		exactScores := exactScorer(data)
		for i, q := range qs {
			exact[i] = exactScores(q)
		}
		v.Prepare()
		pca := v.sk
		random := &sketch{k: SketchDim, fitted: v.live, basis: randomOrthonormal(768, SketchDim), rows: make([]float32, len(pca.rows))}
		random.project(v.data, random.rows, len(v.present), v.dim)
		random.quantise(0, len(v.present), len(v.present))
		for _, kind := range []struct {
			name string
			sk   *sketch
		}{{"pca", pca}, {"random", random}, {"full", nil}} {
			b.Run(fmt.Sprintf("%dx768-%dtopics-%s", shape.rows, shape.topics, kind.name), func(b *testing.B) {
				v.sk = kind.sk
				out := make([]float32, shape.rows)
				var recall, sumSquares float64
				n := 0
				for q := range qs {
					v.ScoreAll(qs[q], out)
					recall += recallAt(TopK(out, 10, nil), TopK(exact[q], 10, nil))
					for s := range out {
						if d := float64(out[s] - exact[q][s]); d != 0 {
							sumSquares += d * d
							n++
						}
					}
				}
				for i := 0; b.Loop(); i++ {
					v.ScoreAll(qs[i%len(qs)], out)
				}
				b.ReportMetric(recall/float64(len(qs)), "recall@10")
				if n > 0 {
					b.ReportMetric(math.Sqrt(sumSquares/float64(n)), "rmse")
				}
			})
		}
	}
}

func TestKthLargest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 10, 100, 1000} {
		for _, distinct := range []int{2, 5, 1 << 20} {
			a := make([]float32, n)
			for i := range a {
				a[i] = float32(r.IntN(distinct)) - 1
			}
			sorted := slices.Clone(a)
			slices.Sort(sorted)
			slices.Reverse(sorted)
			for _, k := range []int{1, 2, n / 2, n} {
				if k < 1 || k > n {
					continue
				}
				require.Equal(t, sorted[k-1], kthLargest(slices.Clone(a), k), "n %d, %d values, k %d", n, distinct, k)
			}
		}
	}
}

func TestBestBySketch(t *testing.T) {
	v := NewVectors(2)
	for slot := range int32(8) {
		v.Set(slot, []float32{1, 0})
	}
	v.Remove(3)
	scores := []float32{-0.5, 0.2, 0.2, 0.9, 0.2, -0.1, 0.7, -0.9}
	assert.Equal(t, []int32{6}, v.bestBySketch(scores, 1), "the absent slot 3 is never chosen")
	assert.Equal(t, []int32{1, 2, 6}, v.bestBySketch(scores, 3), "ties go to the lower slots")
	assert.Equal(t, []int32{0, 1, 2, 4, 5, 6}, v.bestBySketch(scores, 6), "negative scores count too")
	assert.Len(t, v.bestBySketch(scores, 100), 7)
	assert.Empty(t, v.bestBySketch(scores, 0))
}

func TestBestBySketchMatchesASort(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	const rows = 20_000
	v := NewVectors(2)
	for slot := range int32(rows) {
		if slot%11 != 0 {
			v.Set(slot, []float32{1, 0})
		}
	}
	for _, distinct := range []int{50, 1 << 20} { // many ties, few ties
		scores := make([]float32, rows)
		for i := range scores {
			scores[i] = float32(r.IntN(distinct))/float32(distinct) - 0.5
		}
		for _, limit := range []int{1, 100, 625, 5000} {
			var want []int32
			for slot := range int32(rows) {
				if v.Has(slot) {
					want = append(want, slot)
				}
			}
			slices.SortStableFunc(want, func(a, b int32) int { return -cmp.Compare(scores[a], scores[b]) })
			want = want[:limit]
			slices.Sort(want)
			require.Equal(t, want, v.bestBySketch(scores, limit), "%d distinct, limit %d", distinct, limit)
		}
	}
}
