package abstract

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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

// vocabulary numbers the terms of one document in the order they are
// first seen, so that a unit's terms are small integers and comparing two
// units never hashes a string.
type vocabulary struct {
	ids map[string]int32
	buf []byte  // the word being read, lower-cased
	all []int32 // the ids termIDs returned, one after the other
}

// termIDs returns the ids of the terms of s (see terms), in order, adding
// new terms to the vocabulary. ASCII text is read without allocating a word;
// other text goes through terms.
func (v *vocabulary) termIDs(s string) []int32 {
	if v.ids == nil {
		v.ids = map[string]int32{}
	}
	// The ids go to one arena for the whole document, not a slice each.
	start := len(v.all)
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, w := range terms(s) {
				v.all = append(v.all, v.id(w))
			}
			return v.all[start:len(v.all):len(v.all)]
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if !isASCIIWordByte(c) {
			i++
			continue
		}
		v.buf = v.buf[:0]
		for ; i < len(s) && isASCIIWordByte(s[i]); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			v.buf = append(v.buf, c)
		}
		if len(v.buf) < 2 || stopWords[string(v.buf)] {
			continue
		}
		v.all = append(v.all, v.idBytes(singularBytes(v.buf)))
	}
	return v.all[start:len(v.all):len(v.all)]
}

func isASCIIWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// singularBytes is singular on a lower-case ASCII word; it may return a
// prefix of w with "y" written over its last byte (w is scratch).
func singularBytes(w []byte) []byte {
	n := len(w)
	switch {
	case n > 4 && w[n-3] == 'i' && w[n-2] == 'e' && w[n-1] == 's':
		w[n-3] = 'y'
		return w[:n-2]
	case n > 3 && w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i':
		return w[:n-1]
	}
	return w
}

func (v *vocabulary) id(w string) int32 {
	id, ok := v.ids[w]
	if !ok {
		id = int32(len(v.ids))
		v.ids[w] = id
	}
	return id
}

func (v *vocabulary) idBytes(w []byte) int32 {
	if id, ok := v.ids[string(w)]; ok {
		return id
	}
	return v.id(string(w))
}

// termVector is a term-frequency vector: weights by term id, ids
// ascending, so that sums run in one fixed order and the scores come out
// the same on every run.
type termVector struct {
	ids     []int32
	weights []float64
	norm    float64
}

// vectorsOf counts the term ids of each unit, in two arenas for them all.
func vectorsOf(units [][]int32) []termVector {
	total, longest := 0, 0
	for _, ids := range units {
		total, longest = total+len(ids), max(longest, len(ids))
	}
	allIDs, allWeights := make([]int32, 0, total), make([]float64, 0, total)
	buf := make([]int32, longest)
	out := make([]termVector, len(units))
	for u, ids := range units {
		sorted := buf[:len(ids)]
		copy(sorted, ids)
		slices.Sort(sorted)
		start := len(allIDs)
		for i := 0; i < len(sorted); {
			j := i + 1
			for j < len(sorted) && sorted[j] == sorted[i] {
				j++
			}
			allIDs = append(allIDs, sorted[i])
			allWeights = append(allWeights, float64(j-i))
			i = j
		}
		tv := termVector{ids: allIDs[start:len(allIDs):len(allIDs)], weights: allWeights[start:len(allWeights):len(allWeights)]}
		for _, w := range tv.weights {
			tv.norm += w * w
		}
		tv.norm = math.Sqrt(tv.norm)
		out[u] = tv
	}
	return out
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

// overlap returns the share of the distinct terms of want that occur in
// have, 0 when want is empty.
func overlap(want, have []int32) float64 {
	distinct, hits := 0, 0
	for k, w := range want {
		if slices.Contains(want[:k], w) {
			continue
		}
		distinct++
		if slices.Contains(have, w) {
			hits++
		}
	}
	if distinct == 0 {
		return 0
	}
	return float64(hits) / float64(distinct)
}
