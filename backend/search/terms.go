package search

import (
	"unicode/utf8"

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
		identifierFilter{},
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

// identifierFilter replaces a compound identifier by its words, so that
// "ContextResult", "maxTokens" and "total_tokens" are found by "context
// result", "max tokens" and "total tokens" (and by themselves, since a
// question goes through the same analysis). Words break at underscores, at
// a lower-case letter followed by an upper-case one, and before the last
// capital of a run followed by a lower-case letter ("HTTPServer"). A token
// is split only when every word has at least three letters, so that names
// like "mRNA", "scFv" or "MyD88" stay whole.
type identifierFilter struct{}

func (identifierFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	var out analysis.TokenStream
	for i, tok := range input {
		words := identifierWords(tok.Term)
		if words == nil {
			if out != nil {
				out = append(out, tok)
			}
			continue
		}
		if out == nil {
			out = append(make(analysis.TokenStream, 0, len(input)+len(words)), input[:i]...)
		}
		for _, w := range words {
			out = append(out, &analysis.Token{Term: w, Start: tok.Start, End: tok.End, Position: tok.Position, Type: tok.Type})
		}
	}
	if out == nil {
		return input
	}
	return out
}

// identifierWords returns the words of a compound identifier, or nil when
// term is not one (see identifierFilter). The words share term's memory,
// each capped at its own end so that a filter growing one in place (the
// stemmer may) cannot write over the next.
func identifierWords(term []byte) [][]byte {
	var words [][]byte
	start := 0
	flush := func(end int) bool {
		if end > start {
			if utf8.RuneCount(term[start:end]) < 3 {
				return false
			}
			words = append(words, term[start:end:end])
		}
		start = end
		return true
	}
	for j := 0; j < len(term); j++ {
		c := term[j]
		switch {
		case c == '_':
			if !flush(j) {
				return nil
			}
			start = j + 1
		case j > start && isUpper(c) && isLower(term[j-1]):
			if !flush(j) {
				return nil
			}
		case j > start && isUpper(c) && j+1 < len(term) && isLower(term[j+1]) && isUpper(term[j-1]):
			if !flush(j) {
				return nil
			}
		}
	}
	if !flush(len(term)) || len(words) < 2 {
		return nil
	}
	return words
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
