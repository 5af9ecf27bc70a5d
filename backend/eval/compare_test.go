package eval

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMeanSE(t *testing.T) {
	m, se := MeanSE([]float64{1, 2, 3, 4})
	assert.InDelta(t, 2.5, m, 1e-12)
	assert.InDelta(t, math.Sqrt(5.0/3)/2, se, 1e-12, "sample sd / √n")
	m, se = MeanSE([]float64{0.7})
	assert.InDelta(t, 0.7, m, 1e-12)
	assert.Zero(t, se, "one value has no spread to speak of")
	m, se = MeanSE(nil)
	assert.Zero(t, m)
	assert.Zero(t, se)
}

func TestPairMatchesQueriesByID(t *testing.T) {
	a := &Report{Strategy: "loom", PerQuery: []QueryReport{{ID: "q1", Recall: 1}, {ID: "q2", Recall: 0.5}, {ID: "q3", Recall: 1}}}
	b := &Report{Strategy: "bm25", PerQuery: []QueryReport{{ID: "q3", Recall: 0}, {ID: "q1", Recall: 0.5}}} // another order, one missing
	p := pair(a, b, "recall")
	assert.Equal(t, Paired{A: "loom", B: "bm25", Metric: "recall", Mean: 0.75, SE: 0.25}, p)
}

func TestWriteTableMarksDifferencesBeyondTwoStandardErrors(t *testing.T) {
	c := &Comparison{Corpus: "notes", Budget: 2000, Queries: 3,
		Reports: []*Report{{Strategy: "loom", Precision: 0.6}, {Strategy: "bm25", Precision: 0.2}},
		Paired:  []Paired{{A: "loom", B: "bm25", Metric: "precision", Mean: 0.4, SE: 0.1}, {A: "loom", B: "bm25", Metric: "recall", Mean: -0.05, SE: 0.04}}}
	var b bytes.Buffer
	c.WriteTable(&b)
	out := b.String()
	assert.Contains(t, out, "notes · budget 2000 · 3 queries")
	assert.Regexp(t, `\n  loom +0\.600 `, out)
	assert.Regexp(t, `\n  bm25 +0\.200 `, out)
	assert.Contains(t, out, "precision +0.400 ± 0.100*")
	assert.Contains(t, out, "recall -0.050 ± 0.040 ")
}
