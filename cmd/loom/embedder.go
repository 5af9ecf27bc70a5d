package main

import (
	"context"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
)

// selectEmbedder picks the embedder for --embedder mode and says why.
func selectEmbedder(ctx context.Context, mode, url, model string) (embed.Embedder, string, error) {
	e, err := offline.New()
	return e, "", err
}
