package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Defaults for the options: the Ollama adapter's, for the same reasons.
const (
	// DefaultTimeout bounds a model list (and the extra routes it reads).
	DefaultTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a chat may go without a streamed
	// chunk, the first one included (the server may be loading the model
	// and reading the prompt).
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultModelTimeout bounds each embedding request (and the
	// embedder's check of its model).
	DefaultModelTimeout = 2 * time.Minute
	// DefaultBatchSize is how many texts go in one /v1/embeddings request.
	DefaultBatchSize = 64
)

// maxErrorBody is how much of an error reply is read.
const maxErrorBody = 64 << 10

// Client talks to one OpenAI-compatible server. It is safe for concurrent
// use.
type Client struct {
	http *http.Client
	base *url.URL // …/v1
	root *url.URL // the server's root, for LM Studio's and llama.cpp's own routes
	cfg  config

	mu     sync.Mutex
	flavor flavor // learnt from the model list
}

// Option configures New.
type Option func(*config)

type config struct {
	http    *http.Client
	key     string
	context int
	timeout time.Duration
	idle    time.Duration
	model   time.Duration
	batch   int
	wait    wait.Options
	notify  func(wait.Notice)
}

// WithHTTPClient sets the HTTP client (default: a new client with no
// timeout of its own: the limits below end silent requests).
func WithHTTPClient(h *http.Client) Option { return func(c *config) { c.http = h } }

// WithAPIKey sends key as a bearer token with every request ("": none).
// Local servers need none unless set up to (LM Studio's "Require API
// key", llama-server --api-key, vllm serve --api-key).
func WithAPIKey(key string) Option { return func(c *config) { c.key = key } }

// WithContextLength is the window to assume for a model whose server
// reports none (0: none; the chat's default applies).
func WithContextLength(n int) Option { return func(c *config) { c.context = n } }

// WithTimeout bounds each model list (default 30 s).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithIdleTimeout sets how long a chat may wait for the next streamed
// chunk, the first one included (default 5 minutes).
func WithIdleTimeout(d time.Duration) Option { return func(c *config) { c.idle = d } }

// WithModelTimeout bounds each embedding request and the embedder's check
// of its model (default 2 minutes).
func WithModelTimeout(d time.Duration) Option { return func(c *config) { c.model = d } }

// WithBatchSize sets how many texts go in one /v1/embeddings request
// (default 64).
func WithBatchSize(n int) Option { return func(c *config) { c.batch = n } }

// WithWait sets when a waiting request speaks up (package wait); tests
// pass a waittest.Clock.
func WithWait(o wait.Options) Option { return func(c *config) { c.wait = o } }

// WithNotify receives the notices of every request this client makes (nil:
// none), unless a call gives its own. It is called from another goroutine
// than the caller's and should not block.
func WithNotify(f func(wait.Notice)) Option { return func(c *config) { c.notify = f } }

// New returns a client for the server at addr, read by ParseURL ("" is
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
			return nil, errs.E(errs.Invalid, "openai: %s timeout %v, want more than 0", t.name, t.d)
		}
	}
	if cfg.batch <= 0 {
		return nil, errs.E(errs.Invalid, "openai: batch size %d, want at least 1", cfg.batch)
	}
	if cfg.context < 0 {
		return nil, errs.E(errs.Invalid, "openai: context length %d, want 0 (none) or more", cfg.context)
	}
	base, err := ParseURL(addr)
	if err != nil {
		return nil, err
	}
	h := cfg.http
	if h == nil {
		h = &http.Client{}
	}
	return &Client{http: h, base: base, root: root(base), cfg: cfg}, nil
}

var _ modelserver.Server = (*Client)(nil)

// URL returns the server's address (…/v1).
func (c *Client) URL() string { return c.base.String() }

// Provider returns modelserver.OpenAI.
func (c *Client) Provider() modelserver.Provider { return modelserver.OpenAI }

// Name returns what to call the server: "LM Studio", "llama.cpp's
// server", "vLLM" or "Ollama" once a model list has said which it is,
// else "the OpenAI-compatible server".
func (c *Client) Name() string { return c.currentFlavor().name() }

// EmbedRemote is EmbedModel as the embed package takes it.
func (c *Client) EmbedRemote(name string) embed.Remote { return c.EmbedModel(name) }

// MissingModel is the error for a model the server does not list.
func (c *Client) MissingModel(name string) error { return c.modelMissing(name, nil, nil) }

func (c *Client) currentFlavor() flavor {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.flavor
}

func (c *Client) setFlavor(f flavor) {
	c.mu.Lock()
	c.flavor = f
	c.mu.Unlock()
}

// watch starts a watch over one request (package wait).
func (c *Client) watch(ctx context.Context, what, model string, limit time.Duration, notify func(wait.Notice)) (context.Context, *wait.Watch) {
	if notify == nil {
		notify = c.cfg.notify
	}
	return wait.Start(ctx, c.cfg.wait, wait.Request{Server: c.Name(), URL: c.base.String(), Model: model, Task: what, Limit: limit, Notify: notify})
}

// route is one request.
type route struct {
	method string
	// path is under the address (/v1) or, with atRoot, under the server's
	// root.
	path   string
	atRoot bool
	body   any
	// what completes "failed to …"; model is the model involved ("").
	what, model string
	limit       time.Duration
	notify      func(wait.Notice)
}

// newRequest builds the HTTP request of r, with the key.
func (c *Client) newRequest(ctx context.Context, r route) (*http.Request, error) {
	u := *c.base
	if r.atRoot {
		u = *c.root
	}
	u.Path += r.path
	var body io.Reader
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, fmt.Errorf("openai: encode the request to %s: %w", r.what, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, err
	}
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.cfg.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.key)
	}
	return req, nil
}

// call makes one request that is not streamed, under a watch, and decodes
// its JSON reply into out. Every failure is an *Error, but the caller's own
// cancelled context, which comes back as it is.
func (c *Client) call(ctx context.Context, r route, out any) error {
	reqCtx, w := c.watch(ctx, r.what, r.model, r.limit, r.notify)
	defer w.Stop()
	resp, err := c.send(ctx, reqCtx, w, r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		w.Stop()
		return c.transportError(ctx, w, r, err)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return c.unusable(r.model, err, "a reply to %s that is not JSON of the expected shape: %s", r.what, describe(body))
	}
	return nil
}

// send makes the request r under the watch w (reqCtx is its context)
// and returns the reply of one the server took (status below 400), whose
// body the caller closes. A failure is an *Error, but the caller's own
// cancelled ctx, which comes back as it is.
func (c *Client) send(ctx, reqCtx context.Context, w *wait.Watch, r route) (*http.Response, error) {
	req, err := c.newRequest(reqCtx, r)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		w.Stop()
		return nil, c.transportError(ctx, w, r, err)
	}
	if resp.StatusCode >= http.StatusBadRequest {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, c.statusError(r, resp.StatusCode, body)
	}
	return resp, nil
}

// transportError explains a request that got no reply: the caller
// stopped it, the watch gave up on it, or nothing answers.
func (c *Client) transportError(ctx context.Context, w *wait.Watch, r route, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case w.GaveUp():
		return c.sentNothing(r.what, r.model, r.limit, 0)
	}
	return c.notRunning(r.model, err)
}
