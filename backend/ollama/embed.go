package ollama

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/embed"
)

// DefaultEmbedModel is the embedding model when none is named.
const DefaultEmbedModel = "nomic-embed-text"

// probeText is embedded once by Open to learn the model's dimension.
const probeText = "dimension probe"

// EmbedModel is an embedding model served by Ollama, not yet checked:
// embed.Select asks whether Ollama has it (Check) before it opens it
// (Open). Make one with Client.EmbedModel.
type EmbedModel struct {
	c     *Client
	model string
}

var (
	_ embed.Remote   = (*EmbedModel)(nil)
	_ embed.Embedder = (*Embedder)(nil)
)

// EmbedModel names an embedding model of this Ollama, such as
// nomic-embed-text or all-minilm; blank means DefaultEmbedModel. It makes
// no request.
func (c *Client) EmbedModel(name string) *EmbedModel {
	name = strings.TrimSpace(name)
	if name == "" {
		name = DefaultEmbedModel
	}
	return &EmbedModel{c: c, model: name}
}

// Server returns "Ollama".
func (m *EmbedModel) Server() string { return Name }

// URL returns Ollama's address.
func (m *EmbedModel) URL() string { return m.c.URL() }

// ID returns the ID the opened embedder has: "ollama/<model>", without an
// implied ":latest" tag.
func (m *EmbedModel) ID() string { return "ollama/" + baseName(m.model) }

// Model returns the model's name as given.
func (m *EmbedModel) Model() string { return m.model }

// Check reports, without embedding anything, whether Ollama answers and
// has the model; the error says which is not so. It makes one request
// (/api/tags), given up after timeout (0: the model timeout).
func (m *EmbedModel) Check(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = m.c.cfg.model
	}
	return m.check(ctx, timeout)
}

// Open checks that Ollama has the model and embeds a probe text to learn
// the dimension, so Dim is known before the first real call.
func (m *EmbedModel) Open(ctx context.Context) (embed.Embedder, error) {
	e, err := m.Embedder(ctx)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Embedder is Open with the concrete type.
func (m *EmbedModel) Embedder(ctx context.Context) (*Embedder, error) {
	if err := m.check(ctx, m.c.cfg.model); err != nil {
		return nil, err
	}
	e := &Embedder{c: m.c, model: m.model}
	vecs, err := e.embedBatch(ctx, []string{probeText})
	if err != nil {
		return nil, err
	}
	e.dim = len(vecs[0])
	return e, nil
}

func (m *EmbedModel) check(ctx context.Context, limit time.Duration) error {
	var list *api.ListResponse
	err := m.c.modelRequest(ctx, "list its models (looking for "+m.model+")", m.model, limit, func(ctx context.Context) (err error) {
		list, err = m.c.api.List(ctx)
		return err
	})
	if err != nil {
		return err
	}
	for _, listed := range list.Models {
		if sameModel(listed.Name, m.model) || sameModel(listed.Model, m.model) {
			return nil
		}
	}
	return m.c.modelMissing(m.model, nil)
}

// Embedder embeds texts with one Ollama model (embed.Embedder): each
// request carries a batch of texts, and every vector comes back scaled to
// unit length. It is safe for concurrent use.
type Embedder struct {
	c     *Client
	model string
	dim   int
}

// ID returns "ollama/<model>", without an implied ":latest" tag, so
// "nomic-embed-text" and "nomic-embed-text:latest" share vectors.
func (e *Embedder) ID() string { return "ollama/" + baseName(e.model) }

// Dim returns the model's vector length, learned by Open.
func (e *Embedder) Dim() int { return e.dim }

// Model returns the model name as given.
func (e *Embedder) Model() string { return e.model }

// URL returns Ollama's address.
func (e *Embedder) URL() string { return e.c.URL() }

// Embed returns one unit vector per text, sending them in batches.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embed.InBatches(texts, e.c.cfg.batch, func(batch []string) ([][]float32, error) { return e.embedBatch(ctx, batch) })
}

// embedBatch makes one /api/embed request and checks and normalises its
// answer. When e.dim is 0 (the probe) any consistent dimension is accepted.
func (e *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	what := fmt.Sprintf("embed %d texts with model %s", len(texts), e.model)
	if len(texts) == 1 {
		what = "embed 1 text with model " + e.model
	}
	var resp *api.EmbedResponse
	err := e.c.modelRequest(ctx, what, e.model, e.c.cfg.model, func(ctx context.Context) (err error) {
		resp, err = e.c.api.Embed(ctx, &api.EmbedRequest{Model: e.model, Input: texts})
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Embeddings) != len(texts) {
		return nil, e.c.unusable(e.model, nil, "%d embeddings for %d inputs", len(resp.Embeddings), len(texts))
	}
	dim := e.dim
	if dim == 0 {
		dim = len(resp.Embeddings[0])
		if dim == 0 {
			return nil, e.c.unusable(e.model, nil, "empty embedding")
		}
	}
	if err := e.c.checkVectors(e.model, resp.Embeddings, len(texts), dim); err != nil {
		return nil, err
	}
	return resp.Embeddings, nil
}

// modelRequest makes one request of an embedding or a summary under a
// watch: notices while Ollama is silent, and an error naming the server,
// the model and what was asked once it has been silent for limit. what
// completes "failed to …".
func (c *Client) modelRequest(ctx context.Context, what, model string, limit time.Duration, do func(context.Context) error) error {
	reqCtx, w := c.watch(ctx, what, model, limit, nil)
	err := do(reqCtx)
	w.Stop()
	switch {
	case err == nil:
		return nil
	case ctx.Err() == nil && w.GaveUp():
		return c.noAnswer(what, model, limit)
	}
	return c.classify(ctx, what, model, err, c.noAnswer(what, model, limit))
}

// checkVectors checks that vecs holds n finite, non-zero vectors of length
// dim, and scales each to unit length in place (embed.Normalize).
func (c *Client) checkVectors(model string, vecs [][]float32, n, dim int) error {
	if err := embed.Normalize(vecs, n, dim); err != nil {
		return c.unusable(model, nil, "%s", err)
	}
	return nil
}

// baseName is a model's name without an implied ":latest" tag, for IDs.
func baseName(name string) string { return strings.TrimSuffix(strings.TrimSpace(name), ":latest") }

// sameModel compares model names the way Ollama resolves them: the tag
// ":latest" is implied when there is none, and case does not matter.
func sameModel(a, b string) bool {
	return a != "" && strings.EqualFold(baseName(a), baseName(b))
}
