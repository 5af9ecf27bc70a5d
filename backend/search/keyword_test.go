package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// budgetCorpus is the hand-computed corpus: N = 3, average length 3.
func budgetCorpus() *Keyword {
	k := NewKeyword(BM25{K1: 0.9, B: 0.4})
	k.Set(0, []string{"budget", "budget", "plan"})         // length 3
	k.Set(1, []string{"plan", "review"})                   // length 2
	k.Set(2, []string{"travel", "cost", "plan", "budget"}) // length 4
	return k
}

func TestKeywordBM25HandComputed(t *testing.T) {
	// score = ln(1 + (N-df+0.5)/(df+0.5)) · tf·1.9 / (tf + 0.9·(0.6 + 0.4·len/3))
	const (
		budgetIn0 = 0.615866824528895   // ln(1.6) · 2·1.9/(2 + 0.9)
		budgetIn2 = 0.44208262156777106 // ln(1.6) · 1.9/(1 + 1.02)
		reviewIn1 = 1.0469525734394831  // ln(8/3) · 1.9/(1 + 0.78)
		planIn0   = 0.13353139262452254 // ln(1 + 0.5/3.5) · 1.9/(1 + 0.9)
	)
	k := budgetCorpus()
	assert.Equal(t, 3, k.Len())

	hits := k.Search([]string{"budget"}, 10, nil)
	require.Len(t, hits, 2)
	assert.Equal(t, int32(0), hits[0].Slot)
	assert.InEpsilon(t, budgetIn0, hits[0].Score, 1e-6)
	assert.Equal(t, int32(2), hits[1].Slot)
	assert.InEpsilon(t, budgetIn2, hits[1].Score, 1e-6)

	hits = k.Search([]string{"review", "budget"}, 1, nil)
	require.Len(t, hits, 1)
	assert.Equal(t, int32(1), hits[0].Slot)
	assert.InEpsilon(t, reviewIn1, hits[0].Score, 1e-6)

	out := make([]float32, 4)
	best := k.ScoreAll([]string{"plan", "budget"}, out)
	assert.InEpsilon(t, planIn0+budgetIn0, out[0], 1e-6)
	assert.InEpsilon(t, budgetIn0+planIn0, best, 1e-6)
	assert.Zero(t, out[3], "a slot past the last document scores 0")

	doubled := k.Search([]string{"budget", "budget"}, 1, nil)
	assert.InEpsilon(t, 2*budgetIn0, doubled[0].Score, 1e-6, "a repeated query term counts per occurrence")
}

func TestKeywordRanking(t *testing.T) {
	k := NewKeyword(DefaultBM25)
	for slot := range int32(100) {
		k.Set(slot, []string{"common", "filler", fmt.Sprint("unique", slot)})
	}
	k.Set(100, []string{"common", "common", "common", "filler"})
	k.Set(101, []string{"rare", "filler", "filler"})
	k.Set(102, []string{"rare", "common", "filler"})

	hits := k.Search([]string{"common", "rare"}, 3, nil)
	require.Len(t, hits, 3)
	assert.Equal(t, int32(102), hits[0].Slot, "both terms")
	assert.Equal(t, int32(101), hits[1].Slot, "one rare term beats three of a common one")
	assert.Equal(t, int32(100), hits[2].Slot)
}

func TestKeywordSetReplaceRemoveAllow(t *testing.T) {
	k := budgetCorpus()

	k.Set(0, []string{"holiday"})
	assert.Equal(t, 3, k.Len(), "replacing keeps the count")
	assert.Equal(t, []int32{2}, slotsOf(k.Search([]string{"budget"}, 10, nil)), "the old text no longer matches")
	assert.Equal(t, []int32{0}, slotsOf(k.Search([]string{"holiday"}, 10, nil)))

	k.Remove(2)
	k.Remove(2) // twice is harmless
	k.Remove(99)
	assert.Equal(t, 2, k.Len())
	assert.Empty(t, k.Search([]string{"budget"}, 10, nil))
	out := make([]float32, k.Slots())
	assert.Zero(t, k.ScoreAll([]string{"budget", "travel"}, out))
	assert.Equal(t, []float32{0, 0, 0}, out)

	k.Set(2, []string{"plan"})
	assert.Equal(t, []int32{2, 1}, slotsOf(k.Search([]string{"plan"}, 10, nil)), "a reused slot matches its new text only (and, shorter, ranks first)")
	assert.Empty(t, k.Search([]string{"travel"}, 10, nil))

	odd := func(s int32) bool { return s%2 == 1 }
	assert.Equal(t, []int32{1}, slotsOf(k.Search([]string{"plan"}, 10, odd)))
	assert.Empty(t, k.Search([]string{"plan"}, 0, nil))
	assert.Empty(t, k.Search(nil, 10, nil))
	assert.Empty(t, k.Search([]string{"absent"}, 10, nil))
}

func TestKeywordEmptyDocumentAndEmptyTerms(t *testing.T) {
	k := NewKeyword(DefaultBM25)
	k.Set(0, nil)
	k.Set(1, []string{"", "word", ""})
	assert.Equal(t, 2, k.Len(), "an empty document is live")
	assert.Equal(t, []int32{1}, slotsOf(k.Search([]string{"word"}, 5, nil)))
	assert.Empty(t, k.Search([]string{""}, 5, nil))
}

func TestNewKeywordRejectsBadParameters(t *testing.T) {
	for _, p := range []BM25{{K1: -1, B: 0.5}, {K1: 1, B: 1.5}, {K1: 1, B: -0.1}} {
		assert.Panics(t, func() { NewKeyword(p) }, "%+v", p)
	}
	assert.NotPanics(t, func() { NewKeyword(BM25{K1: 0, B: 0}) })
	assert.Panics(t, func() { NewKeyword(DefaultBM25).Set(-1, nil) }, "negative slot")
}

func TestKeywordScoreAllShortOutput(t *testing.T) {
	k := budgetCorpus()
	full := make([]float32, 3)
	k.ScoreAll([]string{"budget"}, full)
	short := []float32{9, 9}
	best := k.ScoreAll([]string{"budget"}, short)
	assert.Equal(t, full[:2], short)
	assert.Equal(t, full[0], best)
}

// TestKeywordMatchesFreshIndex drives an index through random sets,
// replacements and removals (so through lazy deletion, compaction and slot
// reuse) and checks after each round that it answers exactly as an index
// built from scratch with the same live documents does.
func TestKeywordMatchesFreshIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	vocabulary := make([]string, 300)
	for i := range vocabulary {
		vocabulary[i] = fmt.Sprint("w", i)
	}
	zipf := rand.NewZipf(r, 1.2, 1, uint64(len(vocabulary)-1))
	randomDoc := func() []string {
		doc := make([]string, 1+r.IntN(30))
		for i := range doc {
			doc[i] = vocabulary[zipf.Uint64()]
		}
		return doc
	}
	const slots = 200
	live := map[int32][]string{}
	k := NewKeyword(DefaultBM25)
	for round := range 30 {
		for range 100 {
			slot := int32(r.IntN(slots))
			if r.IntN(3) == 0 {
				k.Remove(slot)
				delete(live, slot)
			} else {
				doc := randomDoc()
				k.Set(slot, doc)
				live[slot] = doc
			}
		}
		fresh := NewKeyword(DefaultBM25)
		for slot := range int32(slots) {
			if doc, ok := live[slot]; ok {
				fresh.Set(slot, doc)
			}
		}
		require.Equal(t, fresh.Len(), k.Len())
		for range 10 {
			query := randomDoc()
			query = query[:min(len(query), 1+r.IntN(5))]
			limit := 1 + r.IntN(20)
			require.Equal(t, fresh.Search(query, limit, nil), k.Search(query, limit, nil), "round %d query %v", round, query)
			want, got := make([]float32, slots), make([]float32, slots)
			require.Equal(t, fresh.ScoreAll(query, want), k.ScoreAll(query, got))
			require.Equal(t, want, got)
		}
		assert.LessOrEqual(t, 4*k.deadPostings, k.totalPostings, "compaction keeps dead postings at a quarter or less")
	}
}

// TestKeywordGenerationWrap rewrites one slot more than 65,536 times in an
// index large enough that the dead-posting threshold never triggers a
// compaction, so only the wrap guard keeps the first text from reviving.
func TestKeywordGenerationWrap(t *testing.T) {
	k := NewKeyword(DefaultBM25)
	filler := make([]string, 100)
	for i := range filler {
		filler[i] = fmt.Sprint("filler", i)
	}
	for slot := int32(1); slot <= 3000; slot++ {
		k.Set(slot, filler)
	}
	k.Set(0, []string{"first"})
	for range 70000 {
		k.Set(0, []string{"later"})
		if k.docs[0].gen == 1 {
			require.Empty(t, k.Search([]string{"first"}, 5, nil), "generation wrapped back to the first text's")
		}
	}
	assert.Empty(t, k.Search([]string{"first"}, 5, nil))
	assert.Equal(t, []int32{0}, slotsOf(k.Search([]string{"later"}, 5, nil)))
}

func slotsOf(hits []Hit) []int32 {
	slots := make([]int32, len(hits))
	for i, h := range hits {
		slots[i] = h.Slot
	}
	return slots
}

// TestAddScaledMatchesDense: AddScaled leaves exactly what a dense ScoreAll
// and a scaled add over every slot leave, and returns the new maximum
// among the slots it changed.
func TestAddScaledMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	k := churnedKeyword(r)
	for range 40 {
		base := make([]float32, k.Slots()+3)
		for i := range base {
			if r.IntN(3) == 0 {
				base[i] = float32(r.Float64() * 4)
			}
		}
		query := randomTerms(r, 1+r.IntN(5))
		scale := float32(0.1 + r.Float64())
		want, got := append([]float32(nil), base...), append([]float32(nil), base...)
		out := make([]float32, len(base))
		k.ScoreAll(query, out)
		wantBest := float32(0)
		for i := range want {
			want[i] += scale * out[i]
			if out[i] > 0 {
				wantBest = max(wantBest, want[i])
			}
		}
		best := k.AddScaled(query, scale, got)
		require.Equal(t, want, got, "query %v", query)
		require.Equal(t, wantBest, best)
	}
	assert.Zero(t, k.AddScaled([]string{"absent-term"}, 1, make([]float32, k.Slots())))
}

// TestKeywordScoreAllSplitMatchesSerial: with long posting lists ScoreAll
// scores the two halves of the slots on two goroutines; every score must be
// the one the serial scan gives, bit for bit (slots re-set out of order,
// so lists are not sorted by slot and hold stale postings).
func TestKeywordScoreAllSplitMatchesSerial(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	r := rand.New(rand.NewPCG(7, 8))
	vocab := make([]string, 300)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	doc := func() []string {
		terms := make([]string, 5+r.IntN(40))
		for i := range terms {
			terms[i] = vocab[int(float64(len(vocab))*math.Pow(r.Float64(), 3))] // skewed: long lists
		}
		return terms
	}
	k := NewKeyword(DefaultBM25)
	const slots = 12_000
	for s := range int32(slots) {
		k.Set(s, doc())
	}
	for range 2000 {
		k.Set(int32(r.IntN(slots)), doc())
	}
	for range 200 {
		k.Remove(int32(r.IntN(slots)))
	}
	for _, q := range [][]string{{"w0", "w1", "w2"}, {"w3", "w250", "w0", "w0"}, {"w299"}, {"w1", "nope"}} {
		query := k.resolve(q)
		postings := 0
		for _, qt := range query {
			postings += len(k.postingsOf(qt.id))
		}
		want := make([]float32, slots)
		k.scoreInto(query, want, nil)
		got := make([]float32, slots)
		best := k.ScoreAll(q, got)
		require.Equal(t, want, got, "query %v (%d postings)", q, postings)
		top := float32(0)
		for _, x := range want {
			top = max(top, x)
		}
		assert.Equal(t, top, best)
	}
	query := k.resolve([]string{"w0", "w1"})
	n := 0
	for _, qt := range query {
		n += len(k.postingsOf(qt.id))
	}
	assert.GreaterOrEqual(t, n, parallelPostings, "the test reaches the split")
}
