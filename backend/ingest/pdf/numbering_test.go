package pdf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseNumberReadsSectionNumbersAndNothingElse(t *testing.T) {
	tests := []struct {
		text, first string
		want        numbered
	}{
		{"1 Introduction", "1", numbered{number: "1", depth: 1, title: "Introduction"}},
		{"2.3 Results", "2.3", numbered{number: "2.3", depth: 2, title: "Results"}},
		{"3.2.1 Lexical Signals", "3.2.1", numbered{number: "3.2.1", depth: 3, title: "Lexical Signals"}},
		{"4. Experiments", "4. Experiments", numbered{number: "4", depth: 1, title: "Experiments"}},
		{"A.1 Proofs", "A.1", numbered{number: "A.1", depth: 2, letter: true, title: "Proofs"}},
		{"B Extra Results", "B", numbered{number: "B", depth: 1, letter: true, title: "Extra Results"}},
		{"IV. Evaluation", "IV. Evaluation", numbered{number: "IV", depth: 1, roman: true, title: "Evaluation"}},
		{"Appendix A: Proofs", "Appendix A: Proofs", numbered{number: "A", depth: 1, letter: true, title: "Proofs"}},
		// Not numbers: an article, a pronoun, a lowercase title, a year.
		{"A Study of Graphs", "A Study of Graphs", numbered{title: "A Study of Graphs"}},
		{"I Think So", "I Think So", numbered{title: "I Think So"}},
		{"3 apples fell", "3", numbered{title: "3 apples fell"}},
		{"Introduction", "Introduction", numbered{title: "Introduction"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, parseNumber(tt.text, tt.first), tt.text)
	}
}

func TestCaptionsAndReferenceHeadingsAreRecognised(t *testing.T) {
	for s, want := range map[string]bool{"Table 1: Recall": true, "Figure 12. A plot": true, "Fig. 3: x": true, "TABLE II. Results": true, "Table 1 summarises": false, "Tables are nice": false} {
		assert.Equal(t, want, captionStart.MatchString(s), s)
	}
	for s, want := range map[string]bool{"references": true, "bibliography": true, "reference": false, "related work": false} {
		assert.Equal(t, want, referencesHeading.MatchString(s), s)
	}
}
