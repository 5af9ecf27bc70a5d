// Package embed turns text into vectors. Every vector Loom stores records the
// Embedder that made it (its ID), so a workspace can tell when it must re-embed.
//
// Two implementations live beside this file: ollama (any embedding model served
// by a local Ollama) and offline (GloVe word vectors with SIF weighting, no
// network at all). Select picks Ollama when it answers and has the model, and
// the offline embedder otherwise.
package embed

import "context"

// Embedder maps texts to unit-length vectors of a fixed dimension.
type Embedder interface {
	// ID names the embedder and its model, e.g. "offline/glove-6b-100d-sif"
	// or "ollama/nomic-embed-text". Vectors from different IDs never mix.
	ID() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
