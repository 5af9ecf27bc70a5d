package main

import (
	"context"

	"github.com/loomwork/loom/backend/embed"
)

// selectEmbedder picks the embedder for --embedder mode (auto: Ollama when
// it answers and has the model, the offline one otherwise) and says why.
func selectEmbedder(ctx context.Context, mode, url, model string) (embed.Embedder, string, error) {
	m, err := embed.ParseMode(mode)
	if err != nil {
		return nil, "", usageErr("--embedder: %v", err)
	}
	e, choice, err := embed.Select(ctx, embed.SelectOptions{Mode: m, OllamaURL: url, OllamaModel: model})
	if err != nil {
		return nil, "", err
	}
	return e, choice.Reason, nil
}
