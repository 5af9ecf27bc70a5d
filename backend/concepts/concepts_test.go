package concepts

import (
	"math"
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
