package concepts

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func unit(v ...float32) []float32 {
	var n float32
	for _, x := range v {
		n += x * x
	}
	n = float32(math.Sqrt(float64(n)))
	for i := range v {
		v[i] /= n
	}
	return v
}

func TestLinkThresholdNearMissAndRelated(t *testing.T) {
	l := NewLinker(2, 0.8)
	l.Add("c-x", unit(1, 0))
	l.Add("c-y", unit(0, 1))
	l.Add("c-xy", unit(1, 0.9))

	links, best := l.Link(unit(1, 0.1))
	assert.Equal(t, []string{"c-x", "c-xy"}, ids(links), "every concept at or above the threshold, best first")
	assert.Equal(t, "c-x", best.ID)

	links, best = l.Link(unit(-1, -0.2))
	assert.Empty(t, links)
	assert.Equal(t, "c-y", best.ID, "near-miss is the best concept below the threshold")

	l.RelatedMin = 0.5
	assert.Equal(t, []string{"c-x", "c-y"}, ids(l.Related(unit(1, 0.9), "c-xy")))

	l.Remove(map[string]bool{"c-x": true})
	links, _ = l.Link(unit(1, 0))
	assert.Equal(t, []string{}, append([]string{}, ids(links)...))
	assert.Equal(t, 2, l.Len())
}

func ids(m []Match) []string {
	out := []string{}
	for _, x := range m {
		out = append(out, x.ID)
	}
	return out
}

func TestNames(t *testing.T) {
	text := "## 4.3 Concept Node Creation Threshold\n\nWhen new content is processed, the system generates an embedding and compares it against all existing concept nodes. If any existing concept node exceeds the similarity threshold, the content is linked."
	assert.Equal(t, "Concept Node Creation Threshold", Name("4.3 Concept Node Creation Threshold", text))
	name := Name("", "Vitamin D supplementation reduces fracture risk in elderly women. Vitamin D deficiency is common.")
	assert.Contains(t, name, "fracture risk")
	assert.Equal(t, "When new content is processed, the system generates an embedding and compares it against all existing concept nodes.", Describe(text))
	assert.NotEmpty(t, KeyPhrases(text, 3))
	assert.Empty(t, KeyPhrases("the and of", 3))
}

// Nearest returns what sorting every concept would: the k best by
// similarity, ties by the smaller id, for every k.
func TestNearestIsTheSortedPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []int{8, 100} {
		l := NewLinker(dim, 0.7)
		var vecs [][]float32
		for i := range 60 {
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32(r.IntN(3) - 1) // few distinct values: ties happen
			}
			vecs = append(vecs, v)
			l.Add(fmt.Sprintf("c-%02d", (i*37)%60), v)
		}
		l.Add("c-dup-b", vecs[0]) // equal similarity to c-00, ordered by id
		l.Add("c-dup-a", vecs[0])
		q := vecs[0]
		all := make([]Match, 0, l.Len())
		for i, id := range l.ids {
			all = append(all, Match{id, float64(Dot(q, l.vecs[i*dim:(i+1)*dim]))})
		}
		slices.SortFunc(all, func(a, b Match) int {
			if a.Sim != b.Sim {
				return cmp.Compare(b.Sim, a.Sim)
			}
			return cmp.Compare(a.ID, b.ID)
		})
		for _, k := range []int{0, 1, 2, 3, 5, 17, l.Len(), l.Len() + 4} {
			got := l.Nearest(q, k)
			want := all[:min(k, len(all))]
			if len(want) == 0 {
				want = nil
			}
			if !slices.Equal(got, want) {
				t.Fatalf("dim %d k %d:\n got %v\nwant %v", dim, k, got, want)
			}
		}
	}
	if got := NewLinker(4, 0.7).Nearest([]float32{1, 0, 0, 0}, 3); got != nil {
		t.Fatalf("empty linker: %v", got)
	}
}
