package offline

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func tokens(text string) []string {
	var t tokenizer
	out := []string{}
	t.each(text, func(w []byte) { out = append(out, string(w)) })
	return out
}

func TestTokenizer(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", []string{}},
		{"punctuation only", " ,.;!? -- ' ", []string{}},
		{"lower-cases", "The Cat SAT", []string{"the", "cat", "sat"}},
		{"splits on punctuation", "cats,dogs;(birds)", []string{"cats", "dogs", "birds"}},
		{"keeps digits inside words", "p53 and mp3 in 1990", []string{"p53", "and", "mp3", "in", "1990"}},
		{"dots split abbreviations", "U.S. e.g.", []string{"u", "s", "e", "g"}},
		{"hyphen joins a compound", "well-known IL-6 levels", []string{"well-known", "il-6", "levels"}},
		{"dangling hyphens separate", "pre- and -post - x--y", []string{"pre", "and", "post", "x", "y"}},
		{"n't becomes not", "don't isn't", []string{"do", "not", "is", "not"}},
		{"irregular n't", "can't won't shan't ain't", []string{"can", "not", "will", "not", "shall", "not", "is", "not"}},
		{"clitics spelt out", "we're I've you'll she'd I'm", []string{"we", "are", "i", "have", "you", "will", "she", "would", "i", "am"}},
		{"possessive dropped", "the cell's membrane", []string{"the", "cell", "membrane"}},
		{"curly apostrophe", "don’t it’s", []string{"do", "not", "it"}},
		{"other apostrophes split", "o'brien rock'n'roll", []string{"o", "brien", "rock", "n", "roll"}},
		{"quotes are not apostrophes", "'quoted' words'", []string{"quoted", "words"}},
		{"unicode letters lower-cased", "Ärzte in MÜNCHEN café", []string{"ärzte", "in", "münchen", "café"}},
		{"unicode punctuation separates", "alpha—beta “gamma” δ", []string{"alpha", "beta", "gamma", "δ"}},
		{"unicode hyphen joins", "non‐linear", []string{"non-linear"}},
		{"combining marks stay in the word", "cafe\u0301s", []string{"cafe\u0301s"}},
		{"invalid utf-8 separates", "abc\xffdef", []string{"abc", "def"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tokens(tc.text))
		})
	}
}
