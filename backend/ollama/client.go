package ollama

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Defaults for the options.
const (
	// DefaultTimeout bounds the short requests: a model list (/api/tags)
	// and a model's description (/api/show).
	DefaultTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a chat may go without a single
	// streamed chunk. It covers loading the model and reading the prompt
	// before the first token, so it is generous; a long answer that keeps
	// streaming is never cut. The person hears of the silence long before
	// (after wait.DefaultNotice, and as stalled after wait.DefaultStall).
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultModelTimeout bounds each request of an embedding or a summary
	// (and the embedder's check of its model): the first may wait for the
	// model to load.
	DefaultModelTimeout = 2 * time.Minute
	// DefaultBatchSize is how many texts go in one /api/embed request.
	DefaultBatchSize = 64
)

// Client talks to one Ollama server through Ollama's own Go client. It is
// safe for concurrent use.
type Client struct {
	api  *api.Client
	base *url.URL
	cfg  config
}

// Option configures New.
type Option func(*config)

type config struct {
	http    *http.Client
	timeout time.Duration
	idle    time.Duration
	model   time.Duration
	batch   int
	wait    wait.Options
	notify  func(wait.Notice)
}

// WithHTTPClient sets the HTTP client (default: a new client with no
// timeout of its own: the limits below end silent requests). Its transport
// is wrapped, not replaced, so that a cut stream can be told from a
// malformed one.
func WithHTTPClient(h *http.Client) Option { return func(c *config) { c.http = h } }

// WithTimeout bounds each model list and model description (default 30 s).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithIdleTimeout sets how long a chat may wait for the next streamed
// chunk, the first one included (default 5 minutes).
func WithIdleTimeout(d time.Duration) Option { return func(c *config) { c.idle = d } }

// WithModelTimeout bounds each request of an embedding or a summary, and
// the embedder's check of its model (default 2 minutes).
func WithModelTimeout(d time.Duration) Option { return func(c *config) { c.model = d } }

// WithBatchSize sets how many texts go in one /api/embed request (default
// 64).
func WithBatchSize(n int) Option { return func(c *config) { c.batch = n } }

// WithWait sets when a waiting request speaks up (default: a notice after
// 10 s of silence, stalled at 30 s and every 30 s after) and the clock it
// counts with; tests pass a waittest.Clock.
func WithWait(o wait.Options) Option { return func(c *config) { c.wait = o } }

// WithNotify receives the notices of every request this client makes (nil:
// none), unless a call gives its own. It is called from another goroutine
// than the caller's and should not block.
func WithNotify(f func(wait.Notice)) Option { return func(c *config) { c.notify = f } }

// New returns a client for the Ollama at addr, read by ParseURL ("" is
// DefaultURL). It makes no request.
func New(addr string, opts ...Option) (*Client, error) {
	cfg := config{timeout: DefaultTimeout, idle: DefaultIdleTimeout, model: DefaultModelTimeout, batch: DefaultBatchSize}
	for _, opt := range opts {
		opt(&cfg)
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"request", cfg.timeout}, {"idle", cfg.idle}, {"model", cfg.model}} {
		if t.d <= 0 {
			return nil, errs.E(errs.Invalid, "ollama: %s timeout %v, want more than 0", t.name, t.d)
		}
	}
	if cfg.batch <= 0 {
		return nil, errs.E(errs.Invalid, "ollama: batch size %d, want at least 1", cfg.batch)
	}
	base, err := ParseURL(addr)
	if err != nil {
		return nil, err
	}
	h := &http.Client{}
	if cfg.http != nil {
		copied := *cfg.http
		h = &copied
	}
	h.Transport = &watchingTransport{next: h.Transport}
	return &Client{api: api.NewClient(base, h), base: base, cfg: cfg}, nil
}

// Name is what the person calls this server.
const Name = "Ollama"

var _ modelserver.Server = (*Client)(nil)

// URL returns the Ollama address the client talks to.
func (c *Client) URL() string { return c.base.String() }

// Name returns "Ollama" (modelserver.Server).
func (c *Client) Name() string { return Name }

// Provider returns modelserver.Ollama.
func (c *Client) Provider() modelserver.Provider { return modelserver.Ollama }

// EmbedRemote is EmbedModel as the embed package takes it
// (modelserver.Server).
func (c *Client) EmbedRemote(name string) embed.Remote { return c.EmbedModel(name) }

// MissingModel is the error for a model Ollama does not have: it says to
// run `ollama pull <name>`.
func (c *Client) MissingModel(name string) error { return c.modelMissing(name, nil) }

// watch starts a watch over one request: notices while Ollama is silent
// (to notify, else the client's notifier), and the request cancelled once
// it has been silent for limit.
func (c *Client) watch(ctx context.Context, what, model string, limit time.Duration, notify func(wait.Notice)) (context.Context, *wait.Watch) {
	if notify == nil {
		notify = c.cfg.notify
	}
	return wait.Start(ctx, c.cfg.wait, wait.Request{URL: c.base.String(), Model: model, Task: what, Limit: limit, Notify: notify})
}
