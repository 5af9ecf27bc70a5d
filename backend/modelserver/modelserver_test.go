package modelserver_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/modelserver"
)

func TestParseProvider(t *testing.T) {
	for in, want := range map[string]modelserver.Provider{"": modelserver.Ollama, " Ollama ": modelserver.Ollama, "OPENAI": modelserver.OpenAI} {
		got, err := modelserver.ParseProvider(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	_, err := modelserver.ParseProvider("lmstudio")
	assert.ErrorContains(t, err, "want ollama or openai")
	assert.Equal(t, embed.ModeOpenAI, modelserver.OpenAI.EmbedMode())
	assert.Equal(t, embed.ModeOllama, modelserver.Ollama.EmbedMode())
}

// The embedding model a new workspace gets: nomic-embed-text, else the
// first embedding model by name; never a chat model.
func TestPickEmbedModel(t *testing.T) {
	models := []chat.ModelInfo{
		{Name: "llama3.2:latest", Completion: true},
		{Name: "mxbai-embed-large:latest", Embedding: true},
		{Name: "all-minilm:latest", Embedding: true},
		{Name: "nomic-embed-text:latest", Embedding: true},
	}
	assert.Equal(t, "nomic-embed-text:latest", modelserver.PickEmbedModel(models))
	assert.Equal(t, "all-minilm:latest", modelserver.PickEmbedModel(models[:3]), "the first by name")
	assert.Empty(t, modelserver.PickEmbedModel(models[:1]), "no embedding model")
	lms := []chat.ModelInfo{{Name: "qwen/qwen3-4b", Completion: true}, {Name: "text-embedding-nomic-embed-text-v1.5", Embedding: true}}
	assert.Equal(t, "text-embedding-nomic-embed-text-v1.5", modelserver.PickEmbedModel(lms))

	m, ok := modelserver.ModelOf("openai/text-embedding-nomic-embed-text-v1.5", modelserver.OpenAI)
	assert.True(t, ok)
	assert.Equal(t, "text-embedding-nomic-embed-text-v1.5", m)
	_, ok = modelserver.ModelOf("ollama/nomic-embed-text", modelserver.OpenAI)
	assert.False(t, ok)
}
