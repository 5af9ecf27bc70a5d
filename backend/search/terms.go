package search

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// englishAnalyzer is bleve's "en" analyzer assembled by hand, so that only
// the analysis packages are linked (not the registry-driven index). Every
// stage keeps no state between calls: the tokenizer makes fresh tokens, the
// filters rewrite those tokens in place and the stop-word map is only read,
// so one analyzer serves concurrent callers.
var englishAnalyzer = &analysis.DefaultAnalyzer{
	Tokenizer: unicode.NewUnicodeTokenizer(),
	TokenFilters: []analysis.TokenFilter{
		en.NewPossessiveFilter(),
		lowercase.NewLowerCaseFilter(),
		stop.NewStopTokensFilter(englishStopWords()),
		porter.NewPorterStemmer(),
	},
}

func englishStopWords() analysis.TokenMap {
	words := analysis.NewTokenMap()
	if err := words.LoadBytes(en.EnglishStopWords); err != nil {
		// The list is a constant compiled into bleve; failing to read it is a
		// broken build, not a runtime condition.
		panic("search: load English stop words: " + err.Error())
	}
	return words
}

// Terms analyses text into index terms, in text order with repeats kept:
// Unicode word segmentation, the English possessive ('s) stripped,
// lower-casing, English stop words dropped, Porter stemming. Index and query
// text must both go through Terms so that "Budgets" finds "budget's".
// Text with no words (punctuation, whitespace) gives no terms.
func Terms(text string) []string {
	tokens := englishAnalyzer.Analyze([]byte(text))
	if len(tokens) == 0 {
		return nil
	}
	terms := make([]string, 0, len(tokens))
	for _, token := range tokens {
		if len(token.Term) > 0 {
			terms = append(terms, string(token.Term))
		}
	}
	return terms
}
