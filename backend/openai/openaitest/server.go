// Package openaitest is Loom's fake OpenAI-compatible server: an httptest
// server on loopback that speaks the /v1 protocol as local servers do —
// GET /v1/models, POST /v1/chat/completions streamed as server-sent events
// ("data: {chunk}" lines, a blank line after each, "data: [DONE]" at the
// end; tool calls as deltas whose arguments arrive in pieces), POST
// /v1/embeddings, and errors as OpenAI's {"error": {"message", "type",
// "code"}} bodies — and, as each one does, what it adds:
//
//   - LMStudio: owned_by "organization_owner", and GET /api/v1/models (or,
//     as LM Studio 0.3 does, only /api/v0/models) with each model's type,
//     tool training, vision and context lengths;
//   - LlamaCpp: owned_by "llamacpp", a "meta" with n_ctx_train, GET /props
//     with the window its slots run with (n_ctx) and its chat template's
//     tool support; usage in the chunk that finishes;
//   - VLLM: owned_by "vllm" and max_model_len;
//   - Generic: names only.
//
// A test says which models there are, scripts the chat replies chunk by
// chunk (content, thinking, tool calls split across chunks, a finish
// reason with usage, an error event, a dropped connection, a stall), and
// reads back every request:
//
//	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(
//		openaitest.CallTools(openaitest.ToolCall{Name: "search_context", Args: `{"query":"expiry"}`}),
//		openaitest.Answer(900, "Tokens expire ", "after an hour [n7]."),
//	))
//
// Embeddings are ollamatest.Vector of the text, so both fakes agree.
// Nothing here sleeps or measures time: a silent server ends only when the
// client gives up, which tests drive with waittest.Clock.
package openaitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

// Flavor is which server the fake plays.
type Flavor int

// The flavors.
const (
	Generic Flavor = iota
	LMStudio
	// LMStudio03 is LM Studio before its v1 REST API: /api/v0/models only.
	LMStudio03
	LlamaCpp
	VLLM
)

// Model is one model the server serves.
type Model struct {
	// ID as /v1/models lists it.
	ID string
	// Embedding: an embedding model (LM Studio's type "embedding"), not a
	// chat model.
	Embedding bool
	// Tools: trained for tool use (LM Studio), or a chat template that
	// supports tools (llama.cpp); a request with tools to a model without
	// is refused as llama.cpp and vLLM refuse it.
	Tools  bool
	Vision bool
	// ContextLength is the trained window (LM Studio's
	// max_context_length, llama.cpp's n_ctx_train, vLLM's max_model_len);
	// Loaded the window it is loaded with (LM Studio's loaded instance,
	// llama.cpp's n_ctx; 0: not loaded).
	ContextLength, Loaded int
	// Dim is the embedding length (default 16).
	Dim int
}

// Qwen3 is a chat model with tools, loaded with an 8k window of its 40k.
func Qwen3() Model {
	return Model{ID: "qwen/qwen3-4b", Tools: true, ContextLength: 40960, Loaded: 8192}
}

// Gemma3 is a chat model with vision and no tool training, not loaded.
func Gemma3() Model {
	return Model{ID: "google/gemma-3-1b", Vision: true, ContextLength: 32768}
}

// NomicEmbed is LM Studio's nomic-embed-text.
func NomicEmbed() Model {
	return Model{ID: "text-embedding-nomic-embed-text-v1.5", Embedding: true, ContextLength: 2048, Dim: 16}
}

// Standard is a typical LM Studio: two chat models and an embedding model.
func Standard() []Model { return []Model{Qwen3(), Gemma3(), NomicEmbed()} }

// Server is a fake OpenAI-compatible server. Its options can be changed
// while it runs (Set); it is safe for concurrent requests.
type Server struct {
	// URL is the server's /v1 address, e.g. "http://127.0.0.1:43127/v1";
	// Root is without /v1.
	URL, Root string
	srv       *httptest.Server

	mu       sync.Mutex
	flavor   Flavor
	models   []Model
	replies  []Reply
	answered int
	key      string
	canned   map[string]canned
	silent   map[string]bool
	requests []Request
}

type canned struct {
	status int
	body   string
}

// Option configures a Server.
type Option func(*Server)

// New starts a fake server of the flavor with the Standard models unless
// WithModels says otherwise; it is closed when the test ends.
func New(t testing.TB, f Flavor, opts ...Option) *Server {
	t.Helper()
	s := &Server{flavor: f, models: Standard(), canned: map[string]canned{}, silent: map[string]bool{}}
	s.Set(opts...)
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.Root, s.URL = s.srv.URL, s.srv.URL+"/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// Set changes the server's options.
func (s *Server) Set(opts ...Option) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, opt := range opts {
		opt(s)
	}
}

// WithModels sets the models served.
func WithModels(models ...Model) Option {
	return func(s *Server) { s.models = append([]Model(nil), models...) }
}

// WithChat scripts /v1/chat/completions: each request is answered by the
// next reply, the last one answering every request after it.
func WithChat(replies ...Reply) Option {
	return func(s *Server) { s.replies, s.answered = replies, 0 }
}

// WithAPIKey makes the server refuse requests without this bearer token,
// as LM Studio with "Require API key", llama-server --api-key and vllm
// serve --api-key do.
func WithAPIKey(key string) Option { return func(s *Server) { s.key = key } }

// Respond answers every request to path (as "/v1/models" or "/props")
// with status and body as they are; status 0 removes it.
func Respond(path string, status int, body string) Option {
	return func(s *Server) {
		if status == 0 {
			delete(s.canned, path)
			return
		}
		s.canned[path] = canned{status, body}
	}
}

// Silent makes the server take requests to the paths and never answer
// them; the request ends when the client gives up.
func Silent(paths ...string) Option {
	return func(s *Server) {
		for _, p := range paths {
			s.silent[p] = true
		}
	}
}

// Request is one request the server got.
type Request struct {
	Method, Path string
	// Authorization is the header as sent.
	Authorization string
	Body          []byte
}

// JSON decodes the body (numbers as json.Number); nil when it is not a
// JSON object.
func (r Request) JSON() map[string]any {
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

// Requests returns the requests the server got, in order: all of them, or
// those to the paths given.
func (s *Server) Requests(paths ...string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.requests {
		if len(paths) == 0 || slices.Contains(paths, r.Path) {
			out = append(out, r)
		}
	}
	return out
}

// Chats returns every chat request's body, decoded.
func (s *Server) Chats() []map[string]any {
	var out []map[string]any
	for _, r := range s.Requests("/v1/chat/completions") {
		out = append(out, r.JSON())
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Body: body})
	fixed, isCanned := s.canned[r.URL.Path]
	silent, key, flavor := s.silent[r.URL.Path], s.key, s.flavor
	s.mu.Unlock()
	switch {
	case silent:
		<-r.Context().Done()
		return
	case isCanned:
		writeRaw(w, fixed.status, fixed.body)
		return
	case key != "" && r.Header.Get("Authorization") != "Bearer "+key:
		writeError(w, http.StatusUnauthorized, "Invalid API Key", "authentication_error", nil)
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		s.listModels(w)
	case r.Method == http.MethodGet && r.URL.Path == "/api/v1/models" && flavor == LMStudio:
		s.lmStudioV1(w)
	case r.Method == http.MethodGet && r.URL.Path == "/api/v0/models" && (flavor == LMStudio || flavor == LMStudio03):
		s.lmStudioV0(w)
	case r.Method == http.MethodGet && r.URL.Path == "/props" && flavor == LlamaCpp:
		s.props(w)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		s.chat(w, r, body)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/embeddings":
		s.embeddings(w, body)
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf("Unexpected endpoint or method. (%s %s)", r.Method, r.URL.Path), "invalid_request_error", nil)
	}
}

// lookup finds a model by its id (any case).
func (s *Server) lookup(id string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.models {
		if strings.EqualFold(m.ID, id) {
			return m, true
		}
	}
	return Model{}, false
}

func (s *Server) snapshot() (Flavor, []Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flavor, append([]Model(nil), s.models...)
}

// missing answers a request for a model the server does not serve, as
// each server words it.
func (s *Server) missing(w http.ResponseWriter, id string) {
	f, _ := s.snapshot()
	switch f {
	case VLLM:
		writeJSON(w, http.StatusNotFound, map[string]any{"object": "error", "message": fmt.Sprintf("The model `%s` does not exist.", id),
			"type": "NotFoundError", "param": nil, "code": 404})
	case LlamaCpp:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("model '%s' not found", id), "invalid_request_error", nil)
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf("Model \"%s\" not found. Please specify a valid model.", id), "invalid_request_error", "model_not_found")
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes OpenAI's error body.
func writeError(w http.ResponseWriter, status int, message, kind string, code any) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": message, "type": kind, "param": nil, "code": code}})
}

func writeRaw(w http.ResponseWriter, status int, body string) {
	if strings.HasPrefix(body, "{") {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// embeddings answers POST /v1/embeddings.
func (s *Server) embeddings(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
		Input any    `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error(), "invalid_request_error", nil)
		return
	}
	m, ok := s.lookup(req.Model)
	if !ok {
		s.missing(w, req.Model)
		return
	}
	var inputs []string
	switch in := req.Input.(type) {
	case string:
		inputs = []string{in}
	case []any:
		for _, v := range in {
			text, ok := v.(string)
			if !ok {
				writeError(w, http.StatusBadRequest, "'input' must be a string or an array of strings", "invalid_request_error", nil)
				return
			}
			inputs = append(inputs, text)
		}
	default:
		writeError(w, http.StatusBadRequest, "'input' must be a string or an array of strings", "invalid_request_error", nil)
		return
	}
	dim := m.Dim
	if dim == 0 {
		dim = 16
	}
	data := make([]map[string]any, len(inputs))
	for i, text := range inputs {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": ollamatest.Vector(text, dim)}
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]any{"prompt_tokens": 4 * len(inputs), "total_tokens": 4 * len(inputs)}})
}
