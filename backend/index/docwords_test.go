package index

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
)

func TestPathWords(t *testing.T) {
	assert.Equal(t, "backend abstract ollama", PathWords("backend/abstract/ollama.go"))
	assert.Equal(t, "src my pkg web app test", PathWords("src/my_pkg/web-app.test.ts"))
	assert.Equal(t, "Makefile", PathWords("Makefile"))
}

// TestNodeTermsGiveDefinitionsTheirPath: a definition's keyword terms
// hold its file's path words; the file's own node and prose do not get
// them.
func TestNodeTermsGiveDefinitionsTheirPath(t *testing.T) {
	d := &model.Document{Path: "backend/abstract/ollama.go", Format: "code"}
	has := func(terms []string, w string) bool {
		for _, t := range terms {
			if t == w {
				return true
			}
		}
		return false
	}
	ollama := search.Terms("ollama")[0]
	def := &model.ContentNode{Ordinal: 1, HeadingPath: []string{"func generate"}, Symbol: &model.Symbol{Kind: "func", Name: "generate"}}
	assert.True(t, has(NodeTerms(def, d, "func generate() {}"), ollama))
	file := &model.ContentNode{Ordinal: 0, HeadingPath: []string{"package abstract"}, Symbol: &model.Symbol{Kind: "file", Name: "abstract"}}
	assert.False(t, has(NodeTerms(file, d, "package abstract"), ollama))
	note := &model.ContentNode{Ordinal: 1, HeadingPath: []string{"Intro"}}
	assert.False(t, has(NodeTerms(note, &model.Document{Path: "notes/ollama.md", Format: "markdown"}, "some words"), ollama))
}
