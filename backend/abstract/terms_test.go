package abstract

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/tokens"
)

// names maps term ids back to the words they stand for.
func (v *vocabulary) names(ids []int32) []string {
	byID := make([]string, len(v.ids))
	for w, id := range v.ids {
		byID[id] = w
	}
	var out []string
	for _, id := range ids {
		out = append(out, byID[id])
	}
	return out
}

// randomText mixes words, stop words, plurals, digits, punctuation, capitals
// and (sometimes) non-ASCII letters.
func randomText(r *rand.Rand) string {
	parts := []string{"The", "nodes", "Queries", "query", "status", "bus", "analysis", "a", "I", "x1", "42",
		"e.g.", "chunk_id", "Budget:", "(loaded)", "ties", "IES", "lies", "class", "Ünïcode", "straße", "über",
		"ÉCOLE", "naïve", "—", "…", "don't", "it's", "U.S.", "ΣΊΣΥΦΟΣ", "日本語", "cats,", "dogs."}
	n := r.IntN(30)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString([]string{" ", "  ", "\n", ", ", "-", "/"}[r.IntN(6)])
		}
		p := parts[r.IntN(len(parts))]
		if r.IntN(8) == 0 {
			p = strings.ToUpper(p)
		}
		b.WriteString(p)
	}
	return b.String()
}

// TestTermIDsAreTerms checks the allocation-free reading of ASCII text
// against terms, word for word, on random text with and without non-ASCII
// letters, and that one word always gets one id.
func TestTermIDsAreTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var v vocabulary
	for range 5000 {
		s := randomText(r)
		ids := v.termIDs(s)
		require.Equal(t, terms(s), v.names(ids), "text %q", s)
	}
	assert.Len(t, v.ids, len(slices.Compact(slices.Sorted(func(yield func(int32) bool) {
		for _, id := range v.ids {
			if !yield(id) {
				return
			}
		}
	}))), "ids are distinct")
}

// stringScores is the sentence scoring as it was written first, over
// words as strings and maps, kept to check the integer version against.
func stringScores(e Extractive, d document) []float64 {
	vocab := map[string]int{}
	vector := func(words []string) termVector {
		counts := map[int]float64{}
		for _, w := range words {
			id, ok := vocab[w]
			if !ok {
				id = len(vocab)
				vocab[w] = id
			}
			counts[id]++
		}
		var tv termVector
		for id := range counts {
			tv.ids = append(tv.ids, int32(id))
		}
		slices.Sort(tv.ids)
		for _, id := range tv.ids {
			w := counts[int(id)]
			tv.weights = append(tv.weights, w)
			tv.norm += w * w
		}
		tv.norm = math.Sqrt(tv.norm)
		return tv
	}
	overlap := func(want, have []string) float64 {
		if len(want) == 0 {
			return 0
		}
		in, seen, hits := map[string]bool{}, map[string]bool{}, 0
		for _, w := range have {
			in[w] = true
		}
		for _, w := range want {
			if seen[w] {
				continue
			}
			seen[w] = true
			if in[w] {
				hits++
			}
		}
		return float64(hits) / float64(len(seen))
	}
	words := make([][]string, len(d.units))
	vectors := make([]termVector, len(d.units))
	for i, u := range d.units {
		words[i] = terms(u.scored())
		vectors[i] = vector(words[i])
	}
	return combine(d, centrality(vectors), terms(d.heading), terms(e.Query), words, overlap)
}

// TestScoresAsWrittenFirst: the integer-id scores equal the string-based
// ones bit for bit, on the reference sections, the bench corpus and random
// text, with and without a query.
func TestScoresAsWrittenFirst(t *testing.T) {
	texts := fixtureTexts(t)
	texts = append(texts, benchSections(200)...)
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		var b strings.Builder
		b.WriteString("# " + randomText(r) + "\n\n")
		for range 1 + r.IntN(6) {
			b.WriteString(randomText(r) + ". " + randomText(r) + "\n\n")
		}
		texts = append(texts, b.String())
	}
	for _, q := range []string{"", "How are nodes' queries loaded?", "Ünïcode über alles"} {
		e := Extractive{Query: q}
		for _, s := range texts {
			d := readMarkdown(s)
			if len(d.units) == 0 {
				continue
			}
			require.Equal(t, stringScores(e, d), e.scores(d), "query %q, text %q", q, s)
		}
	}
}

// TestMeasureCountsRenders: the sum of the units' counts (with the space
// before and the line break after each) is cl100k's count of the whole
// render, and a counter that is not Additive counts it whole,
// for random choices of units from the reference sections, the bench
// corpus and random markdown with lists, tables, code spans, quotes,
// numbers and non-ASCII text.
func TestMeasureCountsRenders(t *testing.T) {
	count := Counter(tokens.Default().Count)
	texts := fixtureTexts(t)
	texts = append(texts, benchSections(100)...)
	r := rand.New(rand.NewPCG(5, 6))
	blocks := []func() string{
		func() string { return randomText(r) + ". " + randomText(r) + "! 42 " + randomText(r) + "?" },
		func() string {
			return "- " + randomText(r) + "\n- `x := 1` " + randomText(r) + "\n  - 3.5 " + randomText(r)
		},
		func() string { return "| a | " + randomText(r) + " |\n| --- | --- |\n| 12 | (" + randomText(r) + ") |" },
		func() string { return "1. " + randomText(r) + "...\n2. \"" + randomText(r) + "\"" },
		func() string { return "> " + randomText(r) + " — " + randomText(r) + "'s 'quoted' text." },
	}
	for range 400 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(blocks[r.IntN(len(blocks))]() + "\n\n")
		}
		texts = append(texts, b.String())
	}
	checked := 0
	for _, s := range texts {
		d := readMarkdown(s)
		if len(d.units) == 0 {
			continue
		}
		m := newMeasure(count, d.units, true)
		if m.whole {
			continue // every render is counted whole: nothing to check
		}
		for range 20 {
			var chosen []int
			for i := range d.units {
				if r.IntN(3) == 0 {
					chosen = append(chosen, i)
				}
			}
			if len(chosen) == 0 {
				continue
			}
			require.Equal(t, count(render(d.units, chosen)), m.rendered(chosen), "units %v of %q", chosen, s)
			checked++
		}
	}
	assert.Greater(t, checked, 5000)
}

func TestWordCount(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range []string{"", "a b", "| x | y |", "  -- a1 \t b\n", "über naïve — ok", "x\u00a0y z"} {
		assert.Equal(t, wordCountUnicode(s), wordCount(s), "%q", s)
	}
	for range 3000 {
		s := randomText(r)
		require.Equal(t, wordCountUnicode(s), wordCount(s), "%q", s)
	}
}

// TestFieldsBoundTokens: cl100k gives every run of non-space characters a
// token at least, which lets an Additive summary skip counting a text that
// cannot fit; fieldCount counts those runs as strings.Fields does.
func TestFieldsBoundTokens(t *testing.T) {
	count := tokens.Default().Count
	r := rand.New(rand.NewPCG(13, 14))
	texts := benchSections(50)
	for range 3000 {
		texts = append(texts, randomText(r), plainish(r))
	}
	for _, s := range texts {
		n := len(strings.Fields(s))
		require.Equal(t, n, fieldCount(s, n+1), "%q", s)
		require.Equal(t, min(n, 3), fieldCount(s, 3), "%q", s)
		require.LessOrEqual(t, n, count(s), "%q", s)
	}
}
