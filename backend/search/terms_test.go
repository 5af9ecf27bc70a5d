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
