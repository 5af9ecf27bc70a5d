// Package chat runs Loom's conversation turns with a local model: the
// assembled context, the history and the question go out as a streamed
// chat request with num_ctx set to the window the budget assumed, and the
// model may call back for more context through four tools (search_context,
// expand, get_window, catalog) under strict bounds — a number of rounds, a
// share of the window for tool results, no repeated calls.
//
// The package knows nothing about the graph, nor about the wire: the caller
// assembles the system prompt and implements [Tools], and the model runs
// behind a [Server] — backend/ollama's Client, which streams from Ollama,
// or backend/openai's, which streams from an OpenAI-compatible server (LM
// Studio, llama.cpp's server, vLLM); each watches for silence and says what
// went wrong. The messages are Ollama's types (api.Message, api.ToolCall),
// which the OpenAI-compatible adapter translates. A server that does not say
// whether a model takes tools (ModelInfo.Unknown) is offered them, and a
// turn whose first request it refuses for them (errs.ModelNoTools) goes on
// without. A turn looks like this:
//
//	oc, err := ollama.New("http://127.0.0.1:11434")
//	c := chat.New(oc)
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
// Failures carry a code (backend/errs): the server's own (errs.OllamaNotRunning,
// errs.OllamaModelMissing, errs.OllamaBadStream, errs.OllamaTimeout, as an
// *ollama.Error or an *openai.Error), and errs.OllamaContextTooLong when the prompt would not
// fit the window, in which case nothing is sent. After each reply the
// client's [Calibration] learns, per model, how the server's
// prompt_eval_count compares with the caller's token count.
//
// See Example_turn for a complete program.
package chat

import (
	"context"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// Streamer streams the reply to one chat request.
type Streamer interface {
	// Stream sends req and passes each chunk of the reply to onChunk, in
	// order, up to and including the final one (Done). It returns nil
	// only once the final chunk has arrived; on a failure, onChunk has
	// seen whatever came before it. notify hears while the server is
	// silent (nil: the server's own notifier), never at the same time as
	// onChunk.
	Stream(ctx context.Context, req *api.ChatRequest, notify func(wait.Notice), onChunk func(api.ChatResponse)) error
}

// Describer says what a model is and can do.
type Describer interface {
	// Describe returns what the server knows of the model (its window,
	// tool support); notify as for Stream. A model the server does not
	// have is an error with code errs.OllamaModelMissing.
	Describe(ctx context.Context, model string, notify func(wait.Notice)) (ModelInfo, error)
}

// Server is what a Client needs of the model server: backend/ollama's and
// backend/openai's Clients implement it.
type Server interface {
	Streamer
	Describer
}

// Client runs turns against one Server. It is safe for concurrent use.
type Client struct {
	server Server
	calib  *Calibration

	mu     sync.Mutex
	models map[string]ModelInfo // by canonical name
}

// Option configures New.
type Option func(*options)

type options struct {
	calib *Calibration
}

// WithCalibration shares a Calibration (for example one loaded from disk)
// instead of starting a new one.
func WithCalibration(c *Calibration) Option { return func(o *options) { o.calib = c } }

// New returns a client that talks to the model through s.
func New(s Server, opts ...Option) *Client {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.calib == nil {
		o.calib = &Calibration{}
	}
	return &Client{server: s, calib: o.calib, models: map[string]ModelInfo{}}
}

// Calibration returns the client's token-count calibration, which Chat
// updates after every reply; persist it with encoding/json.
func (c *Client) Calibration() *Calibration { return c.calib }

// Model describes one model and remembers it: Chat looks a model's tool
// support up once per client.
func (c *Client) Model(ctx context.Context, name string) (ModelInfo, error) {
	return c.model(ctx, name, nil)
}

func (c *Client) model(ctx context.Context, name string, notify func(wait.Notice)) (ModelInfo, error) {
	info, err := c.server.Describe(ctx, name, notify)
	if err != nil {
		return ModelInfo{}, err
	}
	c.mu.Lock()
	c.models[canonicalModel(name)] = info
	c.mu.Unlock()
	return info, nil
}

// cachedModel returns what an earlier Model call learned, else asks.
func (c *Client) cachedModel(ctx context.Context, name string, notify func(wait.Notice)) (ModelInfo, error) {
	c.mu.Lock()
	info, ok := c.models[canonicalModel(name)]
	c.mu.Unlock()
	if ok {
		return info, nil
	}
	return c.model(ctx, name, notify)
}

// SameModel reports whether two names name the same model, as servers
// resolve them: any case, Ollama's ":latest" implied.
func SameModel(a, b string) bool { return canonicalModel(a) == canonicalModel(b) }

// canonicalModel is the name a server resolves: ":latest" implied, any case.
func canonicalModel(name string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(name), ":latest"))
}
