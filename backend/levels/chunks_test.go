package levels

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/search"
)

func words(s string) int { return len(strings.Fields(s)) }

func TestBestChunks(t *testing.T) {
	const section = "## Edges\n\n" +
		"Every content node links to the concepts it is about, weighted by cosine similarity.\n\n" +
		"```\n# not a heading: inside a fence\n```\n\n" +
		"A concept node is linked to its neighbours by related edges."
	terms := search.Terms("How are concept nodes and content nodes linked?")

	t.Run("the matching paragraphs, in their order", func(t *testing.T) {
		got := BestChunks(section, terms, 40, words)
		assert.Equal(t, "Every content node links to the concepts it is about, weighted by cosine similarity.\n\n…\n\n"+
			"A concept node is linked to its neighbours by related edges.", got)
	})
	t.Run("a paragraph that shares no word with the question is left out, however small", func(t *testing.T) {
		got := BestChunks(section, terms, 22, words) // room for one matching paragraph and the fence
		assert.Equal(t, "Every content node links to the concepts it is about, weighted by cosine similarity.", got)
		assert.NotContains(t, got, "fence")
		assert.NotContains(t, got, "## Edges")
	})
	t.Run("when no matching paragraph fits, the best one's head", func(t *testing.T) {
		got := BestChunks(section, terms, 6, words)
		assert.True(t, strings.HasPrefix(got, "Every content node"), got)
		assert.True(t, strings.HasSuffix(got, "…"), got)
		assert.LessOrEqual(t, words(got), 6)
	})
	t.Run("when no paragraph matches, the text's head", func(t *testing.T) {
		got := BestChunks(section, search.Terms("What is a tokenizer?"), 6, words)
		assert.True(t, strings.HasPrefix(got, "## Edges"), got)
		assert.LessOrEqual(t, words(got), 6)
	})
}
