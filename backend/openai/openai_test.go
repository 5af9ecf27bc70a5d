package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
	"github.com/loomwork/loom/backend/openai"
	"github.com/loomwork/loom/backend/openai/openaitest"
)

func newClient(t *testing.T, url string, opts ...openai.Option) *openai.Client {
	t.Helper()
	c, err := openai.New(url, opts...)
	require.NoError(t, err)
	return c
}

// tools answers the chat's tool calls from a table and records them.
type tools struct {
	mu    sync.Mutex
	calls []string
}

func (f *tools) record(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *tools) SearchContext(_ context.Context, query, scope string, limit int) (chat.ToolResult, error) {
	f.record(fmt.Sprintf("search_context(%q, %q, %d)", query, scope, limit))
	return chat.ToolResult{Text: "[n7] Access tokens expire after one hour.", NodeIDs: []string{"n7"}}, nil
}

func (f *tools) Expand(_ context.Context, id, level string) (chat.ToolResult, error) {
	f.record("expand(" + id + ", " + level + ")")
	return chat.ToolResult{Text: "[" + id + "] the whole section"}, nil
}

func (f *tools) GetWindow(context.Context, string, int, int) (chat.ToolResult, error) {
	return chat.ToolResult{}, errors.New("not used")
}

func (f *tools) Catalog(context.Context) (chat.ToolResult, error) {
	f.record("catalog()")
	return chat.ToolResult{Text: "one collection"}, nil
}

func TestParseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                             openai.DefaultURL,
		"127.0.0.1:8080":               "http://127.0.0.1:8080/v1",
		"http://127.0.0.1:8000":        "http://127.0.0.1:8000/v1",
		"http://127.0.0.1:1234/v1/":    "http://127.0.0.1:1234/v1",
		"https://gpu.lan:8443/api/v1":  "https://gpu.lan:8443/api/v1",
		"http://[::1]:11434/v1":        "http://[::1]:11434/v1",
		" http://localhost:1234/v1 \n": "http://localhost:1234/v1",
	} {
		u, err := openai.ParseURL(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, u.String(), in)
	}
	for in, why := range map[string]string{
		"ftp://127.0.0.1:21":                 "want http://host:port/v1",
		"localhost":                          "give its port",
		"http://me:secret@127.0.0.1:1234/v1": "leave the user and password out",
		"http://127.0.0.1:1234/v1?key=x":     "without a query",
	} {
		_, err := openai.ParseURL(in)
		require.Error(t, err, in)
		assert.Equal(t, errs.Invalid, errs.CodeOf(err))
		assert.Contains(t, err.Error(), why)
		assert.NotContains(t, err.Error(), "secret", "a password never shows")
	}
}

// The stream's chunks come back as Ollama's: content piece by piece, then
// one final chunk with the finish reason and the usage; the request is the
// /v1 protocol's, asking for the usage, with no num_ctx.
func TestStreamPassesContentAndEndsWithTheCounts(t *testing.T) {
	for _, f := range []openaitest.Flavor{openaitest.LMStudio, openaitest.LlamaCpp, openaitest.VLLM, openaitest.Generic} {
		t.Run(fmt.Sprint(f), func(t *testing.T) {
			srv := openaitest.New(t, f, openaitest.WithChat(openaitest.Answer(812, "Tokens expire ", "after an hour ", "[n7].")))
			c := newClient(t, srv.URL)
			stream := true
			var got []api.ChatResponse
			err := c.Stream(context.Background(), &api.ChatRequest{Model: "qwen/qwen3-4b", Stream: &stream,
				Messages: []api.Message{{Role: "system", Content: "Cite node ids."}, {Role: "user", Content: "When do tokens expire?"}},
				Options:  map[string]any{"num_ctx": 8192}}, nil, func(r api.ChatResponse) { got = append(got, r) })
			require.NoError(t, err)
			require.Len(t, got, 4)
			var text strings.Builder
			for _, r := range got[:3] {
				assert.False(t, r.Done)
				text.WriteString(r.Message.Content)
			}
			assert.Equal(t, "Tokens expire after an hour [n7].", text.String())
			final := got[3]
			assert.True(t, final.Done)
			assert.Equal(t, "stop", final.DoneReason)
			assert.Equal(t, 812, final.PromptEvalCount)
			assert.Equal(t, 3, final.EvalCount)

			sent := srv.Chats()
			require.Len(t, sent, 1)
			assert.Equal(t, true, sent[0]["stream"])
			assert.Equal(t, map[string]any{"include_usage": true}, sent[0]["stream_options"])
			assert.NotContains(t, sent[0], "options", "num_ctx is Ollama's: these servers fix the window when they load the model")
			assert.Equal(t, []any{map[string]any{"role": "system", "content": "Cite node ids."}, map[string]any{"role": "user", "content": "When do tokens expire?"}}, sent[0]["messages"])
		})
	}
}

// Tool calls whose arguments arrive in pieces of a few bytes are put
// together, run by Loom's chat loop, and their results go back under the
// calls' ids; the model then answers.
func TestChatWithToolsThroughTheChatLoop(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(
		openaitest.CallTools(
			openaitest.ToolCall{ID: "call_search", Name: chat.ToolSearchContext, Args: `{"query":"token expiry","limit":3}`},
			openaitest.ToolCall{ID: "call_catalog", Name: chat.ToolCatalog, Args: `{}`},
		),
		openaitest.Answer(1400, "Access tokens expire after one hour ", "[n7]."),
	))
	oc := newClient(t, srv.URL)
	tl := &tools{}
	var calls []chat.ToolCall
	res, err := chat.New(oc).Chat(context.Background(), chat.Turn{Model: "qwen/qwen3-4b", Window: 8192,
		System: "Answer from the workspace.", Question: "How long do access tokens last?", Tools: tl,
		OnToolCall: func(c chat.ToolCall) { calls = append(calls, c) }})
	require.NoError(t, err)
	assert.True(t, res.ToolsOffered, "LM Studio says the model was trained for tool use")
	assert.Equal(t, "Access tokens expire after one hour [n7].", res.Answer)
	assert.Equal(t, []string{`search_context("token expiry", "", 3)`, "catalog()"}, tl.calls)
	require.Len(t, calls, 2)
	assert.Equal(t, map[string]any{"query": "token expiry", "limit": float64(3)}, calls[0].Args)
	assert.Equal(t, []string{"n7"}, calls[0].NodeIDs)
	assert.Equal(t, 2, res.Rounds)
	assert.Equal(t, 1400, res.PromptEvalCount)

	sent := srv.Chats()
	require.Len(t, sent, 2)
	defs, _ := sent[0]["tools"].([]any)
	require.NotEmpty(t, defs, "the tools went out")
	def := defs[0].(map[string]any)
	assert.Equal(t, "function", def["type"])
	assert.Equal(t, chat.ToolSearchContext, def["function"].(map[string]any)["name"])

	msgs := sent[1]["messages"].([]any)
	assistant := msgs[len(msgs)-3].(map[string]any)
	assert.Equal(t, "assistant", assistant["role"])
	tc := assistant["tool_calls"].([]any)
	require.Len(t, tc, 2)
	first := tc[0].(map[string]any)
	assert.Equal(t, "call_search", first["id"])
	assert.Equal(t, "function", first["type"])
	var args map[string]any
	require.NoError(t, json.Unmarshal([]byte(first["function"].(map[string]any)["arguments"].(string)), &args), "arguments go back as a JSON string")
	assert.Equal(t, map[string]any{"query": "token expiry", "limit": float64(3)}, args)
	result := msgs[len(msgs)-2].(map[string]any)
	assert.Equal(t, "tool", result["role"])
	assert.Equal(t, "call_search", result["tool_call_id"])
	assert.Contains(t, result["content"], "[n7] Access tokens expire")
	assert.Equal(t, "call_catalog", msgs[len(msgs)-1].(map[string]any)["tool_call_id"])
}

// A server that does not say whether the model takes tools (vLLM) is
// offered them; when it refuses, the turn goes on without them.
func TestChatGoesOnWithoutToolsWhenTheServerRefusesThem(t *testing.T) {
	srv := openaitest.New(t, openaitest.VLLM, openaitest.WithModels(openaitest.Model{ID: "Qwen/Qwen3-4B", ContextLength: 32768}),
		openaitest.WithChat(openaitest.Answer(300, "One hour.")))
	oc := newClient(t, srv.URL)
	info, err := oc.Model(context.Background(), "Qwen/Qwen3-4B")
	require.NoError(t, err)
	assert.False(t, info.Knows("tools"))
	assert.Equal(t, 32768, info.ServerWindow, "vLLM's max_model_len is the window it runs with")

	res, err := chat.New(oc).Chat(context.Background(), chat.Turn{Model: "Qwen/Qwen3-4B", Window: 8192,
		System: "Answer.", Question: "How long?", Tools: &tools{}})
	require.NoError(t, err)
	assert.Equal(t, "One hour.", res.Answer)
	assert.False(t, res.ToolsOffered)
	require.NotEmpty(t, res.Notes)
	assert.Contains(t, res.Notes[0], "refused tools for model Qwen/Qwen3-4B")
	assert.Contains(t, res.Notes[0], "--enable-auto-tool-choice")
	sent := srv.Chats()
	require.Len(t, sent, 2)
	assert.NotNil(t, sent[0]["tools"])
	assert.Nil(t, sent[1]["tools"], "asked again without tools")
	system := sent[1]["messages"].([]any)[0].(map[string]any)
	assert.Equal(t, "Answer.", system["content"], "and without the tools' guide")
}

// Thinking (reasoning_content) comes back as thinking; a server that
// answers with one object instead of a stream is read too.
func TestStreamReadsThinkingAndWholeReplies(t *testing.T) {
	srv := openaitest.New(t, openaitest.LlamaCpp, openaitest.WithChat(func(s *openaitest.Stream) {
		s.Reasoning("The note ", "says one hour.")
		s.Content("One hour.")
		s.Finish("stop", 50, 7)
	}))
	oc := newClient(t, srv.URL)
	res, err := chat.New(oc).Chat(context.Background(), chat.Turn{Model: "qwen/qwen3-4b", Window: 4096, Question: "How long?"})
	require.NoError(t, err)
	assert.Equal(t, "The note says one hour.", res.Thinking)
	assert.Equal(t, "One hour.", res.Answer)
	assert.Equal(t, 50, res.PromptEvalCount)

	srv.Set(openaitest.WithChat(openaitest.CallTools(openaitest.ToolCall{Name: chat.ToolCatalog, Args: `{}`})))
	no := false
	var got []api.ChatResponse
	err = oc.Stream(context.Background(), &api.ChatRequest{Model: "qwen/qwen3-4b", Stream: &no, Messages: []api.Message{{Role: "user", Content: "q"}}},
		nil, func(r api.ChatResponse) { got = append(got, r) })
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.True(t, got[0].Done)
	require.Len(t, got[0].Message.ToolCalls, 1)
	assert.Equal(t, chat.ToolCatalog, got[0].Message.ToolCalls[0].Function.Name)
	assert.Equal(t, "call_a1000", got[0].Message.ToolCalls[0].ID)
}

func TestStreamFailures(t *testing.T) {
	closed := ollamatest.Closed(t)
	cases := []struct {
		name    string
		url     string
		flavor  openaitest.Flavor
		reply   openaitest.Reply
		model   string
		opts    []openaitest.Option
		code    errs.Code
		text    []string
		partial string
	}{
		{name: "nothing listens", url: closed + "/v1", code: errs.OllamaNotRunning,
			text: []string{"nothing answers at " + closed + "/v1", "lms server start", "llama-server", "vllm serve"}},
		{name: "a model LM Studio does not have", flavor: openaitest.LMStudio, model: "mistral-7b", code: errs.OllamaModelMissing,
			text: []string{"model mistral-7b is not available", "lms get mistral-7b"}},
		{name: "a model vLLM does not serve", flavor: openaitest.VLLM, model: "mistral-7b", code: errs.OllamaModelMissing,
			text: []string{"model mistral-7b is not available", "vllm serve mistral-7b", "does not exist"}},
		{name: "a key is wanted", flavor: openaitest.LlamaCpp, opts: []openaitest.Option{openaitest.WithAPIKey("s3cret")}, code: errs.OllamaBadStream,
			text: []string{"wants an API key (HTTP 401: Invalid API Key)", "Settings"}},
		{name: "the connection drops mid-answer", flavor: openaitest.LMStudio, code: errs.OllamaBadStream, partial: "Tokens expire ",
			reply: func(s *openaitest.Stream) { s.Content("Tokens expire "); s.Drop() },
			text:  []string{"dropped in the middle of the reply (after 1 chunks)", "the partial answer is kept"}},
		{name: "an error event mid-answer", flavor: openaitest.VLLM, code: errs.OllamaBadStream, partial: "Tokens ",
			reply: func(s *openaitest.Stream) { s.Content("Tokens "); s.ErrorEvent("CUDA out of memory") },
			text:  []string{"stopped with an error while answering: CUDA out of memory"}},
		{name: "a chunk that is not JSON", flavor: openaitest.Generic, code: errs.OllamaBadStream,
			reply: func(s *openaitest.Stream) { s.Event("<html>proxy error</html>") },
			text:  []string{"a chunk that is not JSON", "proxy error"}},
		{name: "a prompt longer than the loaded window", flavor: openaitest.LlamaCpp, code: errs.OllamaContextTooLong,
			reply: func(s *openaitest.Stream) {
				s.Status(400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`)
			},
			text: []string{"refused a prompt longer than the window", "larger context length"}},
		{name: "an address that is not such a server", flavor: openaitest.Generic, opts: []openaitest.Option{openaitest.Respond("/v1/chat/completions", 404, "404 page not found")},
			code: errs.OllamaBadStream, text: []string{"has no route /chat/completions", "ending in /v1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if url == "" {
				srv := openaitest.New(t, tc.flavor, append(tc.opts, openaitest.WithChat(tc.reply))...)
				url = srv.URL
			}
			model := tc.model
			if model == "" {
				model = "qwen/qwen3-4b"
			}
			oc := newClient(t, url)
			_, _ = oc.Models(context.Background()) // as a chat does first: the server says which it is
			stream := true
			var text strings.Builder
			err := oc.Stream(context.Background(), &api.ChatRequest{Model: model, Stream: &stream, Messages: []api.Message{{Role: "user", Content: "q"}}},
				nil, func(r api.ChatResponse) { text.WriteString(r.Message.Content) })
			require.Error(t, err)
			assert.Equal(t, tc.code, errs.CodeOf(err), "%v", err)
			for _, want := range tc.text {
				assert.Contains(t, err.Error(), want)
			}
			assert.Equal(t, tc.partial, text.String())
		})
	}
}

// The key goes out as a bearer token and is never in a message.
func TestTheAPIKeyIsSentAndNeverShown(t *testing.T) {
	srv := openaitest.New(t, openaitest.LlamaCpp, openaitest.WithModels(openaitest.Model{ID: "model.gguf", ContextLength: 4096, Loaded: 4096}),
		openaitest.WithAPIKey("s3cret"), openaitest.WithChat(openaitest.Answer(10, "ok")))
	good := newClient(t, srv.URL, openai.WithAPIKey("s3cret"))
	_, err := good.Models(context.Background())
	require.NoError(t, err)
	for _, r := range srv.Requests() {
		assert.Equal(t, "Bearer s3cret", r.Authorization, r.Path)
	}
	bad := newClient(t, srv.URL, openai.WithAPIKey("wrong-key"))
	_, err = bad.Models(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "refused the API key")
	assert.NotContains(t, err.Error(), "wrong-key")
}

// A silent server is given up after the idle timeout, with notices that
// name it, first at 10 s.
func TestStreamGivesUpOnASilentServer(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(func(s *openaitest.Stream) { s.Content("Tokens "); s.Stall() }))
	clock := waittest.NewClock()
	var notices []wait.Notice
	oc := newClient(t, srv.URL, openai.WithIdleTimeout(time.Minute), openai.WithWait(wait.Options{Clock: clock}))
	_, err := oc.Models(context.Background()) // learns that it is LM Studio
	require.NoError(t, err)
	stop := func() {}
	stream := true
	err = oc.Stream(context.Background(), &api.ChatRequest{Model: "qwen/qwen3-4b", Stream: &stream, Messages: []api.Message{{Role: "user", Content: "q"}}},
		func(n wait.Notice) { notices = append(notices, n) },
		func(api.ChatResponse) { stop = clock.Drive(time.Second) }) // all that will come: let time run
	stop()
	assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err), "%v", err)
	assert.Contains(t, err.Error(), "LM Studio at "+srv.URL+" stalled in the middle of its reply")
	require.NotEmpty(t, notices)
	assert.Equal(t, "LM Studio at "+srv.URL+" has paused for 10 s in the middle of its reply (asked to answer with model qwen/qwen3-4b); giving up after 1 min of silence.", notices[0].Message)
}

// The caller's cancellation is its own error, with what came kept.
func TestStreamStopsWhenTheCallerCancels(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(func(s *openaitest.Stream) { s.Content("Tokens "); s.Stall() }))
	oc := newClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := chat.New(oc).Chat(ctx, chat.Turn{Model: "qwen/qwen3-4b", Window: 4096, Question: "q", OnToken: func(string) { cancel() }})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "Tokens ", res.Answer)
}

func TestModelsWithCapabilities(t *testing.T) {
	byName := func(models []chat.ModelInfo) map[string]chat.ModelInfo {
		out := map[string]chat.ModelInfo{}
		for _, m := range models {
			out[m.Name] = m
		}
		return out
	}
	t.Run("LM Studio", func(t *testing.T) {
		srv := openaitest.New(t, openaitest.LMStudio)
		oc := newClient(t, srv.URL)
		models, err := oc.Models(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "LM Studio", oc.Name())
		m := byName(models)
		qwen := m["qwen/qwen3-4b"]
		assert.True(t, qwen.Completion && qwen.Tools && !qwen.Embedding && !qwen.Vision)
		assert.Equal(t, 40960, qwen.ContextLength)
		assert.Equal(t, 8192, qwen.ServerWindow, "the loaded instance's context length")
		assert.Empty(t, qwen.Unknown)
		gemma := m["google/gemma-3-1b"]
		assert.True(t, gemma.Vision && !gemma.Tools)
		assert.Zero(t, gemma.ServerWindow, "not loaded")
		nomic := m["text-embedding-nomic-embed-text-v1.5"]
		assert.True(t, nomic.Embedding && !nomic.Completion && !nomic.Tools)
		assert.Empty(t, nomic.Unknown)
		assert.Equal(t, []string{"/v1/models", "/api/v1/models"}, paths(srv.Requests()))
	})
	t.Run("LM Studio 0.3", func(t *testing.T) {
		srv := openaitest.New(t, openaitest.LMStudio03)
		models, err := newClient(t, srv.URL).Models(context.Background())
		require.NoError(t, err)
		m := byName(models)
		assert.True(t, m["google/gemma-3-1b"].Vision, "type vlm")
		assert.True(t, m["text-embedding-nomic-embed-text-v1.5"].Embedding, "type embeddings")
		assert.Equal(t, []string{"tools"}, m["qwen/qwen3-4b"].Unknown, "0.3 did not say which models take tools")
		assert.Equal(t, []string{"/v1/models", "/api/v1/models", "/api/v0/models"}, paths(srv.Requests()))
	})
	t.Run("llama.cpp", func(t *testing.T) {
		srv := openaitest.New(t, openaitest.LlamaCpp, openaitest.WithModels(openaitest.Model{ID: "../models/Qwen3-4B-Q4_K_M.gguf", Tools: true, ContextLength: 40960, Loaded: 16384}))
		oc := newClient(t, srv.URL)
		models, err := oc.Models(context.Background())
		require.NoError(t, err)
		require.Len(t, models, 1)
		assert.Equal(t, "llama.cpp's server", oc.Name())
		assert.Equal(t, 40960, models[0].ContextLength, "n_ctx_train")
		assert.Equal(t, 16384, models[0].ServerWindow, "/props n_ctx")
		assert.True(t, models[0].Tools, "its template supports tool calls")
		assert.ElementsMatch(t, []string{"completion", "embedding"}, models[0].Unknown)
	})
	t.Run("a server that lists names only, with a context length set", func(t *testing.T) {
		srv := openaitest.New(t, openaitest.Generic, openaitest.WithModels(openaitest.Model{ID: "local-model"}))
		models, err := newClient(t, srv.URL, openai.WithContextLength(12288)).Models(context.Background())
		require.NoError(t, err)
		require.Len(t, models, 1)
		assert.Equal(t, 12288, models[0].ServerWindow)
		assert.ElementsMatch(t, []string{"completion", "tools", "embedding", "vision"}, models[0].Unknown)
		assert.Equal(t, []string{"/v1/models"}, paths(srv.Requests()), "no route of another server is asked")
	})
	t.Run("a model that is not there names those that are", func(t *testing.T) {
		srv := openaitest.New(t, openaitest.LlamaCpp, openaitest.WithModels(openaitest.Model{ID: "qwen.gguf", ContextLength: 4096, Loaded: 4096}))
		_, err := newClient(t, srv.URL).Model(context.Background(), "llama3.2")
		assert.Equal(t, errs.OllamaModelMissing, errs.CodeOf(err))
		assert.Contains(t, err.Error(), "model llama3.2 is not available from llama.cpp's server at "+srv.URL+" (it lists qwen.gguf)")
		assert.Contains(t, err.Error(), "llama-server -m FILE.gguf")
	})
}

func paths(rs []openaitest.Request) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Path)
	}
	return out
}

func TestEmbeddings(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio)
	oc := newClient(t, srv.URL, openai.WithBatchSize(2))
	m := oc.EmbedModel("text-embedding-nomic-embed-text-v1.5")
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", m.ID())
	require.NoError(t, m.Check(context.Background(), time.Second))
	e, err := m.Embedder(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 16, e.Dim())
	assert.Equal(t, m.ID(), e.ID())
	texts := []string{"access tokens expire", "refresh tokens last", "scopes", "audiences", "access tokens expire"}
	vecs, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, vecs, len(texts))
	for i, v := range vecs {
		assert.InDeltaSlice(t, ollamatest.Vector(texts[i], 16), v, 1e-6, "vector %d in its input's place", i)
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		assert.InDelta(t, 1, math.Sqrt(ss), 1e-5)
	}
	embeds := srv.Requests("/v1/embeddings")
	require.Len(t, embeds, 4, "the probe, then three batches of at most two")
	assert.Equal(t, "float", embeds[1].JSON()["encoding_format"])

	err = oc.EmbedModel("qwen/qwen3-4b").Check(context.Background(), time.Second)
	assert.Equal(t, errs.OllamaModelMissing, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "serves qwen/qwen3-4b as a chat model, not an embedding model")
	_, err = oc.EmbedModel("bge-m3").Open(context.Background())
	assert.Equal(t, errs.OllamaModelMissing, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "lms get bge-m3")
}

// A reply of the wrong size or with a broken vector is refused, naming
// the server.
func TestEmbeddingsRefuseBrokenReplies(t *testing.T) {
	for name, body := range map[string]string{
		"too few":           `{"object":"list","data":[]}`,
		"NaN-free but zero": `{"object":"list","data":[{"index":0,"embedding":[0,0,0]}]}`,
		"not JSON":          `upstream timed out`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := openaitest.New(t, openaitest.Generic, openaitest.WithModels(openaitest.Model{ID: "bge"}),
				openaitest.Respond("/v1/embeddings", http.StatusOK, body))
			_, err := newClient(t, srv.URL).EmbedModel("bge").Open(context.Background())
			require.Error(t, err)
			assert.Equal(t, errs.OllamaBadStream, errs.CodeOf(err), "%v", err)
			assert.Contains(t, err.Error(), "The OpenAI-compatible server at "+srv.URL+" returned an unusable response")
		})
	}
}

// A reply cut by a limit is explained in the server's own terms, not
// Ollama's num_ctx and num_predict.
func TestCutOffNotesNameTheServersLimits(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(
		func(s *openaitest.Stream) {
			s.Content("The first part ", "of a long answer")
			s.Finish("length", 300, 128) // far from the window: the output limit
		},
		func(s *openaitest.Stream) {
			s.Content("The first part ", "of a long answer")
			s.Finish("length", 300, 3796) // the window is full
		}))
	oc := newClient(t, srv.URL)
	_, err := oc.Model(context.Background(), "qwen/qwen3-4b") // as the app does before a chat: the server has said what it is
	require.NoError(t, err)
	turn := chat.Turn{Model: "qwen/qwen3-4b", Window: 4096, Question: "Tell me everything."}
	res, err := chat.New(oc).Chat(context.Background(), turn)
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "cut off after 128 tokens by the model's output limit (the most tokens LM Studio lets it write)")
	assert.Contains(t, res.Notes[0], "raise that limit in LM Studio")
	assert.NotContains(t, res.Notes[0], "num_predict")

	res, err = chat.New(oc).Chat(context.Background(), turn)
	require.NoError(t, err)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "end of the model's window (4096 tokens, the context length LM Studio loaded it with)")
	assert.NotContains(t, res.Notes[0], "num_ctx")
}
