package abstract

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// stopWords are left out of term vectors: they are in every sentence and
// say nothing about any.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at
		be because been before being below between both but by can could did do does doing down during
		each either few for from further had has have having he her here hers him his how however if in
		into is it its itself just may me might more most must my no nor not of off on once only or other
		our ours out over own same shall she should so some such than that the their theirs them then
		there these they this those through to too under until up upon us very via was we were what when
		where whether which while who whom why will with within without would yet you your yours`) {
		m[w] = true
	}
	return m
}()

// terms returns the content words of s: lower-cased runs of letters and
// digits, stop words and one-character words dropped, plurals folded to
// their singular ("nodes" → "node", "queries" → "query").
func terms(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len([]rune(w)) < 2 || stopWords[w] {
			continue
		}
		out = append(out, singular(w))
	}
	return out
}

func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") &&
		!strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// termVector is a term-frequency vector over a shared vocabulary: weights
// by term id, ids ascending, so that sums run in one fixed order and the
// scores come out the same on every run.
type termVector struct {
	ids     []int
	weights []float64
	norm    float64
}

// vocabulary numbers terms in the order they are first seen.
type vocabulary map[string]int

func (v vocabulary) vector(words []string) termVector {
	counts := map[int]float64{}
	for _, w := range words {
		id, ok := v[w]
		if !ok {
			id = len(v)
			v[w] = id
		}
		counts[id]++
	}
	var tv termVector
	for id := range counts {
		tv.ids = append(tv.ids, id)
	}
	slices.Sort(tv.ids)
	for _, id := range tv.ids {
		w := counts[id]
		tv.weights = append(tv.weights, w)
		tv.norm += w * w
	}
	tv.norm = math.Sqrt(tv.norm)
	return tv
}

// cosine returns the cosine similarity of two vectors, 0 if either is empty.
func cosine(a, b termVector) float64 {
	if a.norm == 0 || b.norm == 0 {
		return 0
	}
	dot := 0.0
	for i, j := 0, 0; i < len(a.ids) && j < len(b.ids); {
		switch {
		case a.ids[i] < b.ids[j]:
			i++
		case a.ids[i] > b.ids[j]:
			j++
		default:
			dot += a.weights[i] * b.weights[j]
			i++
			j++
		}
	}
	return dot / (a.norm * b.norm)
}

// overlap returns the share of the distinct words of want that occur in
// have, 0 when want is empty.
func overlap(want, have []string) float64 {
	if len(want) == 0 {
		return 0
	}
	in := map[string]bool{}
	for _, w := range have {
		in[w] = true
	}
	seen := map[string]bool{}
	hits := 0
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
