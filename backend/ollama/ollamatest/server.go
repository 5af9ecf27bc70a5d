// Package ollamatest is Loom's one fake Ollama: an httptest server on
// loopback that speaks Ollama's wire protocol as the real server (v0.17)
// does — /api/tags, /api/show, NDJSON streams from /api/chat and
// /api/generate (one JSON object when a request says "stream": false),
// /api/embed, and errors as {"error": "..."} bodies with Ollama's status
// codes, or as an error line in the middle of a stream.
//
// A test says which models are installed (context length, capabilities),
// scripts the chat and generate replies chunk by chunk (tool calls, a
// failure half-way, a stall, malformed lines, a dropped connection), and
// reads back every request the server got, so it can assert what went
// over the wire (num_ctx, tools, messages):
//
//	srv := ollamatest.New(t, ollamatest.WithChat(
//		ollamatest.CallTools(ollamatest.ToolCall{Name: "search_context", Args: map[string]any{"query": "expiry"}}),
//		ollamatest.Answer(900, "Tokens expire ", "after an hour [n7]."),
//	))
//	… talk to srv.URL …
//	sent := srv.Chats() // every /api/chat request, decoded
//
// Embeddings are a deterministic function of the text (Hashed: a hashed bag
// of words, unit length, in a configurable dimension). Failures: Closed (a
// URL where nothing listens), a model that is not installed (404 as Ollama
// answers), Fail and Respond (an HTTP error or any body for a path), Silent
// (requests that are taken and never answered), and the Stream methods for
// what goes wrong inside a stream. Nothing here sleeps or measures time: a
// silent or stalled server can only end when the client gives up, which
// tests drive with waittest.Clock. server_test.go shows each of these
// against Ollama's own client.
package ollamatest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"
)

// Server is a fake Ollama. Its options can be changed while it runs (Set);
// it is safe for concurrent requests.
type Server struct {
	// URL is the server's address, e.g. "http://127.0.0.1:43127".
	URL string
	srv *httptest.Server

	mu        sync.Mutex
	models    []Model
	replies   map[string][]Reply // by path: /api/chat, /api/generate
	answered  map[string]int     // scripted replies used, by path
	embedder  Embedder
	canned    map[string]canned // by path
	silent    map[string]bool
	silentAll bool
	hook      func(*http.Request)
	requests  []Request
}

// canned is a fixed answer to every request to a path.
type canned struct {
	status int
	body   string
}

// Option configures a Server.
type Option func(*Server)

// New starts a fake Ollama with the standard models (Standard) unless
// WithModels says otherwise; it is closed when the test ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{
		models:   Standard(),
		replies:  map[string][]Reply{},
		answered: map[string]int{},
		embedder: Hashed(DefaultEmbedDim),
		canned:   map[string]canned{},
		silent:   map[string]bool{},
	}
	s.Set(opts...)
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Closed returns the address of a server that has been closed: nothing
// listens there, as when Ollama is not running.
func Closed(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL
}

// Set changes the server's options; requests that arrive afterwards see
// them.
func (s *Server) Set(opts ...Option) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, opt := range opts {
		opt(s)
	}
}

// WithModels sets the installed models, replacing the standard ones.
func WithModels(models ...Model) Option {
	return func(s *Server) { s.models = append([]Model(nil), models...) }
}

// WithChat scripts /api/chat: each request is answered by the next reply,
// and the last one answers every request after it. Setting replies again
// starts from the first.
func WithChat(replies ...Reply) Option {
	return func(s *Server) { s.replies["/api/chat"], s.answered["/api/chat"] = replies, 0 }
}

// WithGenerate scripts /api/generate as WithChat does /api/chat.
func WithGenerate(replies ...Reply) Option {
	return func(s *Server) { s.replies["/api/generate"], s.answered["/api/generate"] = replies, 0 }
}

// WithEmbedder makes the vectors of /api/embed (default: Hashed in
// DefaultEmbedDim dimensions).
func WithEmbedder(e Embedder) Option { return func(s *Server) { s.embedder = e } }

// WithEmbedDim makes /api/embed answer with Hashed vectors of dim
// dimensions.
func WithEmbedDim(dim int) Option { return WithEmbedder(Hashed(dim)) }

// Fail answers every request to path with an HTTP error status and
// Ollama's error body, {"error": message}.
func Fail(path string, status int, message string) Option {
	b, _ := json.Marshal(map[string]string{"error": message})
	return Respond(path, status, string(b)+"\n")
}

// Respond answers every request to path with status and body as they are
// (a body that starts with "{" is sent as JSON, any other as plain text):
// an HTML error page from a proxy, JSON of the wrong shape, an empty body.
// A status of 0 removes the canned answer.
func Respond(path string, status int, body string) Option {
	return func(s *Server) {
		if status == 0 {
			delete(s.canned, path)
			return
		}
		s.canned[path] = canned{status, body}
	}
}

// Silent makes the server take requests to the paths ("/api/embed") and
// never answer them, as a stuck Ollama does: the request ends only when the
// client gives up. No paths: every request.
func Silent(paths ...string) Option {
	return func(s *Server) {
		if len(paths) == 0 {
			s.silentAll = true
		}
		for _, p := range paths {
			s.silent[p] = true
		}
	}
}

// Hook is called with every request once it has been read and recorded,
// before it is answered; the answer follows when the hook returns, unless
// the request has ended meanwhile. Tests hold the server with it at a point
// of their choice (nil: no hook).
func Hook(f func(r *http.Request)) Option { return func(s *Server) { s.hook = f } }

// Request is one request the server got.
type Request struct {
	Method, Path string
	// Body is the request body as sent.
	Body []byte
}

// JSON decodes the body, numbers as json.Number so that a test can tell
// 8192 from 8192.0; nil when the body is not a JSON object.
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
		if len(paths) == 0 || contains(paths, r.Path) {
			out = append(out, r)
		}
	}
	return out
}

// Chats returns every /api/chat request, decoded.
func (s *Server) Chats() []api.ChatRequest {
	var out []api.ChatRequest
	for _, r := range s.Requests("/api/chat") {
		var req api.ChatRequest
		_ = json.Unmarshal(r.Body, &req)
		out = append(out, req)
	}
	return out
}

// EmbedInputs returns the texts of every /api/embed request.
func (s *Server) EmbedInputs() [][]string {
	var out [][]string
	for _, r := range s.Requests("/api/embed") {
		out = append(out, embedInput(r.Body))
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	// Reading the body first also lets the server notice the client
	// hanging up, which ends r.Context(): a silent or stalled request
	// waits on it.
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	hook := s.hook
	s.mu.Unlock()
	if hook != nil {
		hook(r)
		if r.Context().Err() != nil {
			return
		}
	}
	s.mu.Lock()
	silent := s.silentAll || s.silent[r.URL.Path]
	fixed, isCanned := s.canned[r.URL.Path]
	s.mu.Unlock()
	switch {
	case silent:
		<-r.Context().Done()
	case isCanned:
		writeRaw(w, fixed.status, fixed.body)
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		s.tags(w)
	case r.Method == http.MethodPost && r.URL.Path == "/api/show":
		s.show(w, body)
	case r.Method == http.MethodPost && (r.URL.Path == "/api/chat" || r.URL.Path == "/api/generate"):
		s.stream(w, r, body)
	case r.Method == http.MethodPost && r.URL.Path == "/api/embed":
		s.embed(w, body)
	default:
		// What Ollama's router (gin) answers for any other path.
		writeRaw(w, http.StatusNotFound, "404 page not found")
	}
}

// lookup finds an installed model the way Ollama resolves names: any case,
// ":latest" implied.
func (s *Server) lookup(name string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.models {
		if canonical(m.Name) == canonical(name) {
			return m, true
		}
	}
	return Model{}, false
}

func canonical(name string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(name), ":latest"))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]string{"error": message})
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

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
