// Package chat talks to a local Ollama (https://ollama.com) for Loom's chat:
// it lists the installed models with what each can do, and runs one turn of
// a conversation — the assembled context, the history and the question go
// out as a streamed /api/chat request with num_ctx set to the window the
// budget assumed, and the model may call back for more context through four
// tools (search_context, expand, get_window, catalog) under strict bounds.
//
// The package knows nothing about the graph: the caller assembles the system
// prompt and implements [Tools]. A turn looks like this:
//
//	c, err := chat.New("") // OLLAMA_HOST, else http://127.0.0.1:11434
//	info, err := c.Model(ctx, "llama3.2") // missing → "run `ollama pull llama3.2`"
//	res, err := c.Chat(ctx, chat.Turn{
//		Model:    "llama3.2",
//		Window:   info.ContextLength,
//		System:   systemPrompt, // instructions + manifest + loaded context
//		History:  earlier,
//		Question: "How do tokens expire?",
//		Tools:    workbenchTools, // nil: no tools
//		Count:    tokens.Default().Count,
//		OnToken:  func(s string) { fmt.Print(s) },
//		OnWait:   func(n wait.Notice) { fmt.Fprintln(os.Stderr, n) },
//	})
//	// On error res still holds the partial answer and every tool call.
//
// No wait is silent and none is endless (package wait): a request that
// hears nothing for 10 s says so through the notice callback (Turn.OnWait,
// else WithNotify), a silence of 30 s is reported as stalled — the model may
// be loading or stuck — and again every 30 s; a chat gives up after
// DefaultIdleTimeout (5 min) without a streamed chunk, /api/tags and
// /api/show after DefaultTimeout (30 s), with an *Error of kind ErrTimeout.
//
// Every failure is an [*Error] whose Kind (ErrUnreachable, ErrModelMissing,
// ErrServer, ErrMalformed, ErrDropped, ErrTimeout, ErrTooLong) callers can
// test with errors.Is, and whose message says what to do. After each reply
// the client's [Calibration] learns, per model, how Ollama's
// prompt_eval_count compares with the caller's token count.
//
// See Example_turn for a complete program.
package chat

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// Defaults for the options.
const (
	// DefaultTimeout bounds the short requests (/api/tags, /api/show).
	DefaultTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a chat may go without a single
	// streamed chunk. It covers loading the model and reading the prompt
	// before the first token, so it is generous; a long answer that keeps
	// streaming is never cut. The person hears of the silence long before
	// (after wait.DefaultNotice, and as stalled after wait.DefaultStall).
	DefaultIdleTimeout = 5 * time.Minute
)

// Client talks to one Ollama server. It is safe for concurrent use.
type Client struct {
	api     *api.Client
	base    *url.URL
	timeout time.Duration
	idle    time.Duration
	calib   *Calibration
	wait    wait.Options
	notify  func(wait.Notice)

	mu     sync.Mutex
	models map[string]ModelInfo // by canonical name, from /api/show
}

// Option configures New.
type Option func(*options)

type options struct {
	http    *http.Client
	timeout time.Duration
	idle    time.Duration
	calib   *Calibration
	wait    wait.Options
	notify  func(wait.Notice)
}

// WithHTTPClient sets the HTTP client (default: a new client with no
// timeout of its own; see WithTimeout and WithIdleTimeout). Its transport
// is wrapped, not replaced, so that a cut stream can be told from a
// malformed one.
func WithHTTPClient(h *http.Client) Option { return func(o *options) { o.http = h } }

// WithTimeout bounds each /api/tags and /api/show request (default 30 s).
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithIdleTimeout sets how long a chat request may wait for the next
// streamed chunk, the first one included (default 5 minutes).
func WithIdleTimeout(d time.Duration) Option { return func(o *options) { o.idle = d } }

// WithWait sets when a waiting request speaks up (default: a notice after
// 10 s of silence, stalled at 30 s and every 30 s after) and the clock it
// counts with; tests pass a waittest.Clock.
func WithWait(o wait.Options) Option { return func(opts *options) { opts.wait = o } }

// WithNotify receives the notices of every request this client makes
// (nil: none), unless a Turn sets its own OnWait. It is called from
// another goroutine than the caller's and should not block.
func WithNotify(f func(wait.Notice)) Option { return func(o *options) { o.notify = f } }

// WithCalibration shares a Calibration (for example one loaded from disk)
// instead of starting a new one.
func WithCalibration(c *Calibration) Option { return func(o *options) { o.calib = c } }

// New returns a client for the Ollama at baseURL. An empty baseURL means
// what the Ollama CLI uses: OLLAMA_HOST, else http://127.0.0.1:11434. As with
// OLLAMA_HOST, a bare "host" or "host:port" means http, port 11434 when none
// is given. New makes no request.
func New(baseURL string, opts ...Option) (*Client, error) {
	o := options{timeout: DefaultTimeout, idle: DefaultIdleTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if o.timeout <= 0 || o.idle <= 0 {
		return nil, fmt.Errorf("chat: timeouts must be more than 0 (got %v and %v)", o.timeout, o.idle)
	}
	base, err := ParseBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	h := &http.Client{}
	if o.http != nil {
		copied := *o.http
		h = &copied
	}
	h.Transport = &watchingTransport{next: h.Transport}
	if o.calib == nil {
		o.calib = &Calibration{}
	}
	return &Client{
		api: api.NewClient(base, h), base: base,
		timeout: o.timeout, idle: o.idle, calib: o.calib, wait: o.wait, notify: o.notify,
		models: map[string]ModelInfo{},
	}, nil
}

// URL returns the Ollama base URL the client talks to.
func (c *Client) URL() string { return c.base.String() }

// Calibration returns the client's token-count calibration, which Chat
// updates after every reply; persist it with encoding/json.
func (c *Client) Calibration() *Calibration { return c.calib }

// ParseBaseURL reads an Ollama address the way the Ollama client does:
// "" is $OLLAMA_HOST or http://127.0.0.1:11434, a bare host or host:port
// means http (port 11434 by default).
func ParseBaseURL(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return envconfig.Host(), nil
	}
	if !strings.Contains(s, "://") {
		hostport, path, _ := strings.Cut(s, "/")
		if _, _, err := net.SplitHostPort(hostport); err != nil {
			hostport = net.JoinHostPort(strings.Trim(hostport, "[]"), "11434")
		}
		s = "http://" + hostport + "/" + path
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("chat: Ollama address %q: %w", raw, err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "":
		return nil, fmt.Errorf("chat: Ollama address %q: want http://host:port", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u, nil
}

// canonicalModel is the name Ollama resolves: ":latest" implied, any case.
func canonicalModel(name string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(name), ":latest"))
}
