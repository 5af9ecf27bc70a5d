package minilm_test

import (
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/minilm"
)

// Embedder satisfies embed.Embedder. The check lives in a test so that
// package minilm does not import package embed, which imports the offline
// embedder, which uses minilm's tokenizer.
var _ embed.Embedder = minilm.Embedder{}
