package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/require"
)

// fakeModel is one installed model of the fake Ollama.
type fakeModel struct {
	caps     []string
	arch     string
	ctxLen   int
	params   string // /api/show "parameters" text
	template string
	family   string
	size     int64
}

// script answers one /api/chat request by writing NDJSON.
type script func(s *ndjson, req api.ChatRequest)

// fakeOllama speaks the parts of Ollama's HTTP API chat uses (/api/tags,
// /api/show, /api/chat) with the real JSON shapes, status codes and
// NDJSON streaming. Each /api/chat request is answered by the next script;
// the last one repeats.
type fakeOllama struct {
	models  map[string]fakeModel
	scripts []script
	// showStatus, when set, is returned by /api/show for every model.
	showStatus int
	// silent lists paths ("/api/show") that accept the request and never
	// answer, as a stuck Ollama does.
	silent []string

	mu    sync.Mutex
	raw   []map[string]any // every /api/chat body, as JSON
	sent  []api.ChatRequest
	shows int
}

// standardModels is a typical installation: a tool-capable chat model, a
// chat model without tools, an embedding model, and a thinking model.
func standardModels() map[string]fakeModel {
	return map[string]fakeModel{
		"llama3.2:latest":         {caps: []string{"completion", "tools"}, arch: "llama", ctxLen: 131072, params: "stop \"<|eot_id|>\"", family: "llama", size: 2019393189},
		"gemma:2b":                {caps: []string{"completion"}, arch: "gemma", ctxLen: 8192, params: "num_ctx 4096\nrepeat_penalty 1", family: "gemma", size: 1678456656},
		"nomic-embed-text:latest": {caps: []string{"embedding"}, arch: "nomic-bert", ctxLen: 2048, params: "num_ctx 8192", family: "nomic-bert", size: 274302450},
		"qwen3:4b":                {caps: []string{"completion", "tools", "thinking"}, arch: "qwen3", ctxLen: 40960, family: "qwen3", size: 2497293918},
	}
}

func newFake(t *testing.T, scripts ...script) (*fakeOllama, *Client) {
	t.Helper()
	f := &fakeOllama{models: standardModels(), scripts: scripts}
	return f, newClientFor(t, f)
}

// newClientFor serves f on loopback and returns a client for it.
func newClientFor(t *testing.T, f *fakeOllama, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, append([]Option{WithIdleTimeout(5 * time.Second)}, opts...)...)
	require.NoError(t, err)
	return c
}

func (f *fakeOllama) lookup(name string) (fakeModel, bool) {
	for n, m := range f.models {
		if canonicalModel(n) == canonicalModel(name) {
			return m, true
		}
	}
	return fakeModel{}, false
}

func (f *fakeOllama) requests() ([]api.ChatRequest, []map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]api.ChatRequest(nil), f.sent...), append([]map[string]any(nil), f.raw...)
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if contains(f.silent, r.URL.Path) {
		// Read the body first: only then does the server notice the
		// client hanging up and end r.Context().
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done() // until the client gives up
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		var models []map[string]any
		for name, m := range f.models {
			models = append(models, map[string]any{
				"name": name, "model": name, "modified_at": "2026-01-02T15:04:05.123456789Z",
				"size": m.size, "digest": "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72",
				"details": map[string]any{"parent_model": "", "format": "gguf", "family": m.family,
					"families": []string{m.family}, "parameter_size": "3.2B", "quantization_level": "Q4_K_M"},
			})
		}
		writeJSON(w, http.StatusOK, map[string]any{"models": models})
	case r.Method == http.MethodPost && r.URL.Path == "/api/show":
		var req api.ShowRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		f.mu.Lock()
		f.shows++
		f.mu.Unlock()
		if f.showStatus != 0 {
			writeJSON(w, f.showStatus, map[string]string{"error": "unable to load model blob"})
			return
		}
		m, ok := f.lookup(req.Model)
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", req.Model)})
			return
		}
		info := map[string]any{"general.architecture": m.arch, "general.parameter_count": 3212749888,
			"general.file_type": 15, m.arch + ".embedding_length": 3072, m.arch + ".block_count": 28}
		if m.ctxLen > 0 {
			info[m.arch+".context_length"] = m.ctxLen
		}
		body := map[string]any{
			"license": "LLAMA 3.2 COMMUNITY LICENSE AGREEMENT", "modelfile": "FROM /models/blobs/sha256-dde5",
			"parameters": m.params, "template": m.template,
			"details": map[string]any{"parent_model": "", "format": "gguf", "family": m.family,
				"families": []string{m.family}, "parameter_size": "3.2B", "quantization_level": "Q4_K_M"},
			"model_info": info, "modified_at": "2026-01-02T15:04:05.123456789Z",
		}
		if m.caps != nil {
			body["capabilities"] = m.caps
		}
		writeJSON(w, http.StatusOK, body)
	case r.Method == http.MethodPost && r.URL.Path == "/api/chat":
		var raw map[string]any
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		if err := dec.Decode(&raw); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		b, _ := json.Marshal(raw)
		var req api.ChatRequest
		if err := json.Unmarshal(b, &req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		f.mu.Lock()
		f.raw = append(f.raw, raw)
		f.sent = append(f.sent, req)
		n := len(f.sent)
		f.mu.Unlock()
		m, ok := f.lookup(req.Model)
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", req.Model)})
			return
		}
		if len(req.Tools) > 0 && !contains(m.caps, "tools") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", req.Model)})
			return
		}
		if len(f.scripts) == 0 {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "no script"})
			return
		}
		sc := f.scripts[min(n, len(f.scripts))-1]
		w.Header().Set("Content-Type", "application/x-ndjson")
		sc(&ndjson{w: w, model: req.Model, ctx: r.Context()}, req)
	default:
		http.NotFound(w, r)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// ndjson writes Ollama's /api/chat stream, one flushed line per chunk.
type ndjson struct {
	w     http.ResponseWriter
	model string
	ctx   context.Context // the request's: done when the client goes
}

func (s *ndjson) line(v any) {
	b, _ := json.Marshal(v)
	s.raw(string(b) + "\n")
}

func (s *ndjson) raw(text string) {
	_, _ = s.w.Write([]byte(text))
	s.w.(http.Flusher).Flush()
}

func (s *ndjson) chunk(msg map[string]any) {
	msg["role"] = "assistant"
	if _, ok := msg["content"]; !ok {
		msg["content"] = ""
	}
	s.line(map[string]any{"model": s.model, "created_at": "2026-01-02T15:04:05.123456789Z", "message": msg, "done": false})
}

func (s *ndjson) content(pieces ...string) {
	for _, p := range pieces {
		s.chunk(map[string]any{"content": p})
	}
}

func (s *ndjson) thinking(pieces ...string) {
	for _, p := range pieces {
		s.chunk(map[string]any{"thinking": p})
	}
}

// call is one tool call as Ollama streams it.
type call struct {
	name string
	args map[string]any
}

func (s *ndjson) toolCalls(calls ...call) {
	var tc []map[string]any
	for i, c := range calls {
		tc = append(tc, map[string]any{"id": fmt.Sprintf("call_%d%s", i, c.name),
			"function": map[string]any{"index": i, "name": c.name, "arguments": c.args}})
	}
	s.chunk(map[string]any{"tool_calls": tc})
}

func (s *ndjson) done(reason string, promptEval, eval int) {
	s.line(map[string]any{"model": s.model, "created_at": "2026-01-02T15:04:06.123456789Z",
		"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": reason,
		"total_duration": 4883583458, "load_duration": 1334875, "prompt_eval_count": promptEval,
		"prompt_eval_duration": 342546000, "eval_count": eval, "eval_duration": 4535599000})
}

// answer streams pieces of content and a final "stop" chunk.
func answer(promptEval int, pieces ...string) script {
	return func(s *ndjson, _ api.ChatRequest) {
		s.content(pieces...)
		s.done("stop", promptEval, len(pieces))
	}
}

// callTools streams tool calls and a final chunk, as Ollama does. It
// reports no prompt_eval_count, so it teaches the calibration nothing.
func callTools(calls ...call) script {
	return func(s *ndjson, _ api.ChatRequest) {
		s.toolCalls(calls...)
		s.done("stop", 0, 20)
	}
}

// fakeTools is a Tools whose answers are canned and whose calls are logged.
type fakeTools struct {
	mu      sync.Mutex
	calls   []string
	search  func(query, scope string, limit int) (ToolResult, error)
	results map[string]ToolResult // by tool name, when search is nil
}

func (f *fakeTools) log(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *fakeTools) logged() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeTools) SearchContext(_ context.Context, query, scope string, limit int) (ToolResult, error) {
	f.log(fmt.Sprintf("search_context(%q, %q, %d)", query, scope, limit))
	if f.search != nil {
		return f.search(query, scope, limit)
	}
	return f.results[ToolSearchContext], nil
}

func (f *fakeTools) Expand(_ context.Context, nodeID, level string) (ToolResult, error) {
	f.log(fmt.Sprintf("expand(%q, %q)", nodeID, level))
	return f.results[ToolExpand], nil
}

func (f *fakeTools) GetWindow(_ context.Context, nodeID string, center, radius int) (ToolResult, error) {
	f.log(fmt.Sprintf("get_window(%q, %d, %d)", nodeID, center, radius))
	return f.results[ToolGetWindow], nil
}

func (f *fakeTools) Catalog(context.Context) (ToolResult, error) {
	f.log("catalog()")
	return f.results[ToolCatalog], nil
}

var _ Tools = (*fakeTools)(nil)

// words counts whitespace-separated words: a simple, exact counter.
func words(s string) int { return len(strings.Fields(s)) }
