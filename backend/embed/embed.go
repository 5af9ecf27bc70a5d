// Package embed turns text into vectors. Every vector Loom stores records the
// Embedder that made it (its ID), so a workspace can tell when it must re-embed.
//
// The offline embedder (a static table distilled from the sentence encoder
// all-MiniLM-L6-v2, no network at all) lives beside this file; an embedding
// model a local model server serves — Ollama (backend/ollama) or an
// OpenAI-compatible server such as LM Studio (backend/openai) — comes from
// its adapter as a Remote. Select picks the server's model when it answers
// and has it, and the offline embedder otherwise; a workspace keeps the
// embedder its vectors were made with until the person re-embeds it.
package embed

import (
	"context"
	"time"
)

// Embedder maps texts to unit-length vectors of a fixed dimension.
type Embedder interface {
	// ID names the embedder and its model, e.g. "offline/minilm-l6-m2v-256"
	// or "ollama/nomic-embed-text". Vectors from different IDs never mix.
	ID() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Remote is an embedding model on a server that may be down or lack the
// model, such as Ollama (backend/ollama's EmbedModel) or an
// OpenAI-compatible server (backend/openai's EmbedModel): Select checks it
// before choosing it.
type Remote interface {
	// Server names the server for the person ("Ollama", "LM Studio"), URL
	// is its address and Model the model's name.
	Server() string
	URL() string
	Model() string
	// ID is the ID the embedder will have once opened ("ollama/<model>",
	// "openai/<model>"): what a workspace embedded with it records.
	ID() string
	// Check reports, without embedding anything and within timeout,
	// whether the server answers and has the model; the error's code
	// (backend/errs) says which is not so, and its message what to do.
	Check(ctx context.Context, timeout time.Duration) error
	// Open checks the model and learns its dimension.
	Open(ctx context.Context) (Embedder, error)
}
