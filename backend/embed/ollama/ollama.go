// Package ollama embeds text with an embedding model served by a local
// Ollama (https://ollama.com), such as nomic-embed-text or all-minilm, through
// Ollama's own Go client and its /api/embed endpoint.
//
//	e, err := ollama.New(ctx, ollama.WithModel("nomic-embed-text"))
//	if errors.Is(err, ollama.ErrUnreachable) { ... fall back to offline ... }
//	vecs, err := e.Embed(ctx, texts)
//
// New checks that the model is installed (/api/tags) and embeds a probe
// text to learn the dimension, so Dim is known before the first real call.
// Every vector is scaled to unit length. Failures are *Error values that say
// what to do ("start it with `ollama serve`", "run `ollama pull X`").
//
// No wait is silent and none is endless: each request runs under a
// wait.Watch, which tells WithNotify's callback after 10 s without an
// answer what Ollama is being asked and for how long Loom will wait, says
// "stalled" at 30 s and every 30 s after, and gives the request up after
// WithTimeout (default 2 minutes) with an *Error naming the server and the
// model.
package ollama

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// Defaults for the options.
const (
	DefaultModel     = "nomic-embed-text"
	DefaultBatchSize = 64
	DefaultTimeout   = 2 * time.Minute
)

// probeText is embedded once by New to learn the model's dimension.
const probeText = "dimension probe"

// Option configures New and Available.
type Option func(*config)

type config struct {
	base    *url.URL
	baseErr error
	model   string
	batch   int
	http    *http.Client
	timeout time.Duration
	wait    wait.Options
	notify  func(wait.Notice)
}

// WithBaseURL sets Ollama's address, e.g. "http://127.0.0.1:11434". As with
// OLLAMA_HOST, a bare "host" or "host:port" means http, on port 11434 when
// none is given. The default is what the Ollama client uses: OLLAMA_HOST,
// else http://127.0.0.1:11434.
func WithBaseURL(raw string) Option {
	return func(c *config) {
		s := strings.TrimSpace(raw)
		if s != "" && !strings.Contains(s, "://") {
			hostport, path, _ := strings.Cut(s, "/")
			if _, _, err := net.SplitHostPort(hostport); err != nil {
				hostport = net.JoinHostPort(strings.Trim(hostport, "[]"), "11434")
			}
			s = "http://" + hostport + "/" + path
		}
		u, err := url.Parse(s)
		switch {
		case err != nil:
			c.baseErr = fmt.Errorf("ollama base URL %q: %w", raw, err)
		case u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "":
			c.baseErr = fmt.Errorf("ollama base URL %q: want http://host:port", raw)
		default:
			u.Path = strings.TrimRight(u.Path, "/")
			c.base, c.baseErr = u, nil
		}
	}
}

// WithModel sets the embedding model (default nomic-embed-text).
func WithModel(name string) Option { return func(c *config) { c.model = name } }

// WithBatchSize sets how many texts go in one request (default 64).
func WithBatchSize(n int) Option { return func(c *config) { c.batch = n } }

// WithHTTPClient sets the HTTP client (default: a new client without its
// own timeout; see WithTimeout).
func WithHTTPClient(h *http.Client) Option { return func(c *config) { c.http = h } }

// WithTimeout bounds each request to Ollama (default 2 minutes: the first
// request may wait for the model to load): a request that has heard
// nothing for this long is given up.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithWait sets when a waiting request speaks up (default: after 10 s,
// stalled at 30 s and every 30 s after) and the clock it counts with;
// tests pass a waittest.Clock.
func WithWait(o wait.Options) Option { return func(c *config) { c.wait = o } }

// WithNotify receives a notice while a request waits on Ollama (nil: no
// notices). It is called from another goroutine and should not block.
func WithNotify(f func(wait.Notice)) Option { return func(c *config) { c.notify = f } }

func newConfig(opts []Option) (*config, error) {
	c := &config{model: DefaultModel, batch: DefaultBatchSize, timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(c)
	}
	if c.baseErr != nil {
		return nil, c.baseErr
	}
	if c.base == nil {
		c.base = envconfig.Host()
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	c.model = strings.TrimSpace(c.model)
	switch {
	case c.model == "":
		return nil, fmt.Errorf("ollama: empty model name")
	case c.batch <= 0:
		return nil, fmt.Errorf("ollama: batch size %d, want at least 1", c.batch)
	case c.timeout <= 0:
		return nil, fmt.Errorf("ollama: timeout %v, want more than 0", c.timeout)
	}
	return c, nil
}

func (c *config) client() *api.Client { return api.NewClient(c.base, c.http) }

// Embedder embeds texts with one Ollama model. It is safe for concurrent use.
type Embedder struct {
	cfg    *config
	client *api.Client
	dim    int
}

// New connects to Ollama, checks that the model is installed, and embeds a
// probe text to learn the dimension.
func New(ctx context.Context, opts ...Option) (*Embedder, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	client := c.client()
	if err := c.checkModel(ctx, client); err != nil {
		return nil, err
	}
	e := &Embedder{cfg: c, client: client}
	vecs, err := e.embedBatch(ctx, []string{probeText})
	if err != nil {
		return nil, err
	}
	e.dim = len(vecs[0])
	return e, nil
}

// Available reports, without embedding anything, whether Ollama answers at
// the configured address and has the model; the error says which is not so.
// It makes one request to /api/tags; give ctx a short deadline when probing.
func Available(ctx context.Context, opts ...Option) error {
	c, err := newConfig(opts)
	if err != nil {
		return err
	}
	return c.checkModel(ctx, c.client())
}

// BaseURL returns the address that opts resolve to, for messages.
func BaseURL(opts ...Option) string {
	c, err := newConfig(opts)
	if err != nil {
		return "(invalid URL)"
	}
	return c.base.String()
}

func (c *config) checkModel(ctx context.Context, client *api.Client) error {
	var list *api.ListResponse
	err := c.request(ctx, "list its models (looking for "+c.model+")", func(ctx context.Context) (err error) {
		list, err = client.List(ctx)
		return err
	})
	if err != nil {
		return err
	}
	for _, m := range list.Models {
		if sameModel(m.Name, c.model) || sameModel(m.Model, c.model) {
			return nil
		}
	}
	return c.modelMissing(nil)
}

// sameModel compares model names the way Ollama resolves them: the tag
// ":latest" is implied when there is none, and case does not matter.
func sameModel(a, b string) bool {
	return a != "" && strings.EqualFold(canonicalModel(a), canonicalModel(b))
}

func canonicalModel(name string) string { return strings.TrimSuffix(name, ":latest") }

// ID returns "ollama/<model>", without an implied ":latest" tag, so
// "nomic-embed-text" and "nomic-embed-text:latest" share vectors.
func (e *Embedder) ID() string { return "ollama/" + canonicalModel(e.cfg.model) }

// Dim returns the model's vector length, learned by New.
func (e *Embedder) Dim() int { return e.dim }

// Model returns the model name as configured.
func (e *Embedder) Model() string { return e.cfg.model }

// URL returns Ollama's base URL.
func (e *Embedder) URL() string { return e.cfg.base.String() }

// Embed returns one unit vector per text, sending them in batches.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.batch {
		batch := texts[start:min(start+e.cfg.batch, len(texts))]
		vecs, err := e.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// embedBatch makes one /api/embed request and checks and normalises its
// answer. When e.dim is 0 (the probe) any consistent dimension is accepted.
func (e *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	c := e.cfg
	what := fmt.Sprintf("embed %d texts with model %s", len(texts), c.model)
	if len(texts) == 1 {
		what = "embed 1 text with model " + c.model
	}
	var resp *api.EmbedResponse
	err := c.request(ctx, what, func(ctx context.Context) (err error) {
		resp, err = e.client.Embed(ctx, &api.EmbedRequest{Model: c.model, Input: texts})
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Embeddings) != len(texts) {
		return nil, c.badResponse(nil, "%d embeddings for %d inputs", len(resp.Embeddings), len(texts))
	}
	dim := e.dim
	if dim == 0 {
		dim = len(resp.Embeddings[0])
		if dim == 0 {
			return nil, c.badResponse(nil, "empty embedding")
		}
	}
	if err := c.checkVectors(resp.Embeddings, len(texts), dim); err != nil {
		return nil, err
	}
	return resp.Embeddings, nil
}

// request makes one request under a watch: notices while Ollama is
// silent, and an error naming the server, the model and what was asked
// once it has been silent for c.timeout. what completes "failed to …".
func (c *config) request(ctx context.Context, what string, do func(context.Context) error) error {
	reqCtx, w := wait.Start(ctx, c.wait, wait.Request{URL: c.base.String(), Model: c.model, Task: what, Limit: c.timeout, Notify: c.notify})
	err := do(reqCtx)
	w.Stop()
	switch {
	case err == nil:
		return nil
	case ctx.Err() == nil && w.GaveUp():
		return c.gaveUp(what, nil)
	}
	return c.classify(ctx, what, err)
}

// checkVectors checks that vecs holds n finite, non-zero vectors of length
// dim, and scales each to unit length in place.
func (c *config) checkVectors(vecs [][]float32, n, dim int) error {
	if len(vecs) != n {
		return c.badResponse(nil, "%d embeddings for %d inputs", len(vecs), n)
	}
	for i, v := range vecs {
		if len(v) != dim {
			return c.badResponse(nil, "embedding %d has %d dimensions, want %d", i, len(v), dim)
		}
		var ss float64
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return c.badResponse(nil, "embedding %d contains %v", i, x)
			}
			ss += float64(x) * float64(x)
		}
		if ss == 0 {
			return c.badResponse(nil, "embedding %d is all zeros", i)
		}
		inv := 1 / math.Sqrt(ss)
		for d, x := range v {
			v[d] = float32(float64(x) * inv)
		}
	}
	return nil
}
