package query

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/synthetic"
)

// idEmbedder is an embedder known by its id alone.
type idEmbedder struct {
	embed.Embedder
	id string
}

func (e idEmbedder) ID() string { return e.id }

// TestSentenceEncoder: the full encoder and a model server's embedding
// model rank with the encoder's settings; the offline table and the
// benchmarks' random vectors do not.
func TestSentenceEncoder(t *testing.T) {
	for id, want := range map[string]bool{
		"minilm/all-MiniLM-L6-v2-fp16":   true,
		"ollama/nomic-embed-text":        true,
		"openai/text-embedding-3-small":  true,
		"offline/minilm-l6-m2v-256":      false,
		embed.OfflinePrefix + "glove-6b": false,
		synthetic.ID:                     false,
	} {
		assert.Equal(t, want, sentenceEncoder(idEmbedder{id: id}), id)
	}
}
