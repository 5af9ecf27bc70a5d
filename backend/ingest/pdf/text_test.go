package pdf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCleanTextUndoesLigaturesAccentsAndOddSpaces(t *testing.T) {
	tests := map[string]string{
		"ef\uFB01cient \uFB02ow o\uFB00er a\uFB03x ba\uFB04e": "efficient flow offer affix baffle",
		"K\u00A8uttler and Rockt\u00A8aschel":                 "Küttler and Rocktäschel",
		"caf\u00B4e":                                          "café",
		"a\u00A0b\u2009c  \t d":                               "a b c d",
		"non\u2011breaking soft\u00ADhyphen":                  "non-breaking soft-hyphen",
		"zero\u200Bwidth":                                     "zerowidth",
		"\u00A8 alone":                                        "\u00A8 alone",
	}
	for in, want := range tests {
		assert.Equal(t, want, cleanText(in), in)
	}
}

func TestJoinLinesUndoesOnlyTheHyphensOfBrokenWords(t *testing.T) {
	vocab := vocabulary{}
	vocab.add("a well-known trade-off that is well known")
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"the retrie-", "val of text"}, "the retrieval of text"},
		{[]string{"state-of-", "the-art methods"}, "state-of-the-art methods"},
		{[]string{"a trade-", "off we make"}, "a trade-off we make"}, // the document writes it with a hyphen

		{[]string{"the Euro-", "Asian pact"}, "the Euro-Asian pact"},
		{[]string{"pages 10-", "20 of it"}, "pages 10-20 of it"},
		{[]string{"one line", "and another"}, "one line and another"},
		{[]string{"ends with a dash -", "then more"}, "ends with a dash - then more"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, joinLines(tt.lines, vocab), "%q", tt.lines)
	}
}

func TestSentenceEnds(t *testing.T) {
	for s, want := range map[string]bool{"done.": true, "really?": true, "(see [3].)": true, "so:": true, "and then": false, "retrie-": false, "“quoted.”": true} {
		assert.Equal(t, want, endsSentence(s), s)
	}
}
