package openai

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/errs"
)

// probeText is embedded once by Open to learn the model's dimension.
const probeText = "dimension probe"

// EmbedModel is an embedding model the server serves, not yet checked:
// embed.Select asks whether the server lists it (Check) before it opens it
// (Open). Make one with Client.EmbedModel.
type EmbedModel struct {
	c     *Client
	model string
}

var (
	_ embed.Remote   = (*EmbedModel)(nil)
	_ embed.Embedder = (*Embedder)(nil)
)

// EmbedModel names an embedding model of this server, as its model list
// names it (LM Studio: "text-embedding-nomic-embed-text-v1.5"). It makes no
// request.
func (c *Client) EmbedModel(name string) *EmbedModel {
	return &EmbedModel{c: c, model: strings.TrimSpace(name)}
}

// Server returns what to call the server.
func (m *EmbedModel) Server() string { return m.c.Name() }

// URL returns the server's address.
func (m *EmbedModel) URL() string { return m.c.URL() }

// Model returns the model's name as given.
func (m *EmbedModel) Model() string { return m.model }

// ID returns "openai/<model>", the ID of the embedder Open makes.
func (m *EmbedModel) ID() string { return "openai/" + m.model }

// Check reports, without embedding anything, whether the server answers
// and lists the model as one that can embed (a model the server says is a
// chat model is refused); it gives up after timeout (0: the model
// timeout).
func (m *EmbedModel) Check(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = m.c.cfg.model
	}
	return m.check(ctx, timeout)
}

func (m *EmbedModel) check(ctx context.Context, limit time.Duration) error {
	if m.model == "" {
		return m.c.modelMissing("", nil, nil)
	}
	models, err := m.c.list(ctx, nil, limit)
	if err != nil {
		return err
	}
	var names []string
	for _, info := range models {
		names = append(names, info.Name)
		if !strings.EqualFold(info.Name, m.model) {
			continue
		}
		if !info.Embedding && info.Knows(capEmbedding) {
			return m.c.fail(errs.OllamaModelMissing, m.model, nil, "%s at %s serves %s as a chat model, not an embedding model: pick an embedding model it lists", m.c.capitalised(), m.c.base, m.model)
		}
		return nil
	}
	return m.c.modelMissing(m.model, names, nil)
}

// Open checks the model and embeds a probe text to learn the dimension.
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

// Embedder embeds texts with one model of the server (embed.Embedder):
// each /v1/embeddings request carries a batch of texts, and every vector
// comes back scaled to unit length. It is safe for concurrent use.
type Embedder struct {
	c     *Client
	model string
	dim   int
}

// ID returns "openai/<model>".
func (e *Embedder) ID() string { return "openai/" + e.model }

// Dim returns the model's vector length, learned by Open.
func (e *Embedder) Dim() int { return e.dim }

// Model returns the model name as given.
func (e *Embedder) Model() string { return e.model }

// URL returns the server's address.
func (e *Embedder) URL() string { return e.c.URL() }

// Embed returns one unit vector per text, sending them in batches.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embed.InBatches(texts, e.c.cfg.batch, func(batch []string) ([][]float32, error) { return e.embedBatch(ctx, batch) })
}

// embeddings is the /v1/embeddings reply: one vector per input, each with
// its input's index.
type embeddings struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// embedBatch makes one /v1/embeddings request and checks and normalises
// its answer, putting the vectors in the order of the inputs. When e.dim
// is 0 (the probe) any consistent dimension is accepted.
func (e *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	what := fmt.Sprintf("embed %d texts with model %s", len(texts), e.model)
	if len(texts) == 1 {
		what = "embed 1 text with model " + e.model
	}
	var resp embeddings
	err := e.c.call(ctx, route{method: http.MethodPost, path: "/embeddings", what: what, model: e.model, limit: e.c.cfg.model,
		body: map[string]any{"model": e.model, "input": texts, "encoding_format": "float"}}, &resp)
	if err != nil {
		return nil, err
	}
	if len(resp.Data) != len(texts) {
		return nil, e.c.unusable(e.model, nil, "%d embeddings for %d inputs", len(resp.Data), len(texts))
	}
	sort.SliceStable(resp.Data, func(i, j int) bool { return resp.Data[i].Index < resp.Data[j].Index })
	vecs := make([][]float32, len(texts))
	for i, d := range resp.Data {
		if d.Index != i {
			return nil, e.c.unusable(e.model, nil, "embedding indexes that are not 0 to %d", len(texts)-1)
		}
		vecs[i] = d.Embedding
	}
	dim := e.dim
	if dim == 0 {
		if dim = len(vecs[0]); dim == 0 {
			return nil, e.c.unusable(e.model, nil, "empty embedding")
		}
	}
	if err := embed.Normalize(vecs, len(texts), dim); err != nil {
		return nil, e.c.unusable(e.model, nil, "%s", err)
	}
	return vecs, nil
}
