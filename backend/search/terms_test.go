package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"plural stems to singular", "budgets", []string{"budget"}},
		{"case folds", "BUDGET Budget", []string{"budget", "budget"}},
		{"stop words dropped", "the budget of a team and its plans", []string{"budget", "team", "plan"}},
		{"only stop words", "the and of to is it", nil},
		{"possessive stripped", "Alice's budget", []string{"alic", "budget"}},
		{"curly possessive stripped", "Alice’s budget", []string{"alic", "budget"}},
		{"punctuation only", "!!! ... --- ??? ()", nil},
		{"empty", "", nil},
		{"whitespace", " \n\t ", nil},
		{"accented latin kept", "Café Zürich Größe", []string{"café", "zürich", "größe"}},
		{"cyrillic lower-cased", "БЮДЖЕТ", []string{"бюджет"}},
		{"ideographs split per character", "東京", []string{"東", "京"}},
		{"identifiers and numbers kept whole", "node_id v2.5.7 3.14", []string{"node_id", "v2.5.7", "3.14"}},
		{"hyphens split words", "e-mail", []string{"e", "mail"}},
		{"camel case split into words", "ContextResult maxTokens", []string{"context", "result", "max", "token"}},
		{"snake case split into words", "total_tokens relevance_score_max", []string{"total", "token", "relev", "score", "max"}},
		{"an acronym ends before a capitalised word", "HTTPServer parseJSONBody", []string{"http", "server", "pars", "json", "bodi"}},
		{"split words are stemmed and stopped alone", "TheBudgets", []string{"budget"}},
		{"split only when every word has three letters", "mRNA scFv MyD88 node_id x_1 __init__ getX", []string{"mrna", "scfv", "myd88", "node_id", "x_1", "__init__", "getx"}},
		{"a word that grows when lower-cased leaves the next alone", "kappaȺ_value", Terms("kappaȺ value")},
		{"possessive after a split", "ContextQuery's fields", []string{"context", "queri", "field"}},
		{"porter stemming", "running runs connection connected", []string{"run", "run", "connect", "connect"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Terms(tt.text)
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestTermsSameForIndexAndQueryForms(t *testing.T) {
	assert.Equal(t, Terms("budget"), Terms("Budgets"))
	assert.Equal(t, Terms("budget"), Terms("budget's"))
	assert.NotEqual(t, Terms("budget"), Terms("budgetary"), "different words stay apart")
}
