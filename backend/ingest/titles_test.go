package ingest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTitleFromPassages(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Attention is all you need. We propose a new architecture.", "Attention is all you need"},
		{"  - Results on the test set?\nmore", "Results on the test set"},
		{"We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, dispensing with recurrence.", "We propose a new simple network architecture…"},
		{"Experiments on two machine translation tasks show these models to be superior in quality while being more parallelizable.", "Experiments on two machine translation tasks show these…"},
		{"As shown by J. Smith et al. in 2019, the effect holds.", "As shown by J. Smith et al. in…"},
		{"# comment: the training loop\nfor x in y:", "comment: the training loop"},
		{"\n\n", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, titleFrom(tt.text), tt.text)
	}
}

// A paper converted to text by hand: paragraphs without headings get titles
// of their own, so a manifest never lists N identical lines.
func TestPlainTextSectionsGetDistinctTitles(t *testing.T) {
	src := "Transformers replace recurrence with attention.\n\n" +
		"We train on WMT 2014 English-German, about 4.5 million sentence pairs, with byte-pair encoding of a shared vocabulary.\n\n" +
		"Transformers replace recurrence with attention.\n"
	// splitText groups short paragraphs: one section per paragraph here, to
	// see the titles side by side.
	secs := []Section{{Text: "Transformers replace recurrence with attention."},
		{Text: "We train on WMT 2014 English-German, about 4.5 million sentence pairs, with byte-pair encoding."},
		{Text: "Transformers replace recurrence with attention."},
		{Text: "x", HeadingPath: []string{"Kept"}}}
	titleSections(secs)
	var got []string
	for _, s := range secs {
		got = append(got, s.HeadingPath[0])
	}
	assert.Equal(t, []string{"Transformers replace recurrence with attention",
		"We train on WMT 2014 English-German…", "Transformers replace recurrence with attention (2)", "Kept"}, got)

	d := parseOne(t, "paper.txt", src)
	for _, s := range d.Sections {
		assert.NotEmpty(t, s.HeadingPath, "every text section has a title")
	}
}
