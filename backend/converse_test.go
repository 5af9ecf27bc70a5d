package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/model"
)

// ollamaFake speaks Ollama's /api/show and streaming /api/chat (NDJSON)
// for one tool-capable model. Its first reply of a turn asks for the
// search_context tool when tools are offered and askTool is set; then it
// streams an answer that cites the node ids it was given.
type ollamaFake struct {
	askTool bool
	mu      sync.Mutex
	sent    []api.ChatRequest
}

func (f *ollamaFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api/show":
		var req api.ShowRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		if strings.TrimSuffix(req.Model, ":latest") != "llama3.2" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":"model '%s' not found"}`, req.Model)
			return
		}
		fmt.Fprint(w, `{"modelfile":"FROM llama","parameters":"stop \"<|eot_id|>\"","template":"{{ .Prompt }}","details":{"format":"gguf","family":"llama","parameter_size":"3.2B","quantization_level":"Q4_K_M"},"model_info":{"general.architecture":"llama","llama.context_length":131072},"capabilities":["completion","tools"]}`)
	case "/api/chat":
		var req api.ChatRequest
		require.NoError(nil, json.NewDecoder(r.Body).Decode(&req))
		f.mu.Lock()
		f.sent = append(f.sent, req)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-ndjson")
		enc := json.NewEncoder(w)
		now := time.Now().UTC().Format(time.RFC3339Nano)
		last := req.Messages[len(req.Messages)-1]
		if f.askTool && len(req.Tools) > 0 && last.Role == "user" {
			_ = enc.Encode(map[string]any{"model": req.Model, "created_at": now, "message": map[string]any{"role": "assistant", "content": "",
				"tool_calls": []any{map[string]any{"function": map[string]any{"index": 0, "name": "search_context", "arguments": map[string]any{"query": "half-life of staleness", "limit": 2}}}}}, "done": false})
			_ = enc.Encode(map[string]any{"model": req.Model, "created_at": now, "message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop", "prompt_eval_count": 300, "eval_count": 12})
			return
		}
		// Cite the first node id the system message or a tool result shows.
		cite := ""
		for _, m := range req.Messages {
			if i := strings.Index(m.Content, "[n-"); i >= 0 && cite == "" {
				cite = m.Content[i : i+strings.Index(m.Content[i:], "]")+1]
			}
		}
		for _, piece := range []string{"Staleness decays ", "exponentially ", "with a half-life " + cite + "."} {
			_ = enc.Encode(map[string]any{"model": req.Model, "created_at": now, "message": map[string]any{"role": "assistant", "content": piece}, "done": false})
			if fl, ok := w.(http.Flusher); ok {
				fl.Flush()
			}
		}
		_ = enc.Encode(map[string]any{"model": req.Model, "created_at": now, "message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
			"total_duration": 1000, "prompt_eval_count": 900, "eval_count": 20})
	default:
		http.NotFound(w, r)
	}
}

func fakeClient(t *testing.T, f *ollamaFake) *chat.Client {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := chat.New(srv.URL)
	require.NoError(t, err)
	return c
}

func TestChatTurnSendsContextCallsToolsAndIndexesTheAnswer(t *testing.T) {
	wb, dir := ingested(t)
	f := &ollamaFake{askTool: true}
	client := fakeClient(t, f)
	ctx := context.Background()

	var streamed strings.Builder
	var calls []chat.ToolCall
	turn, err := wb.Chat(ctx, client, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096,
		OnToken: func(s string) { streamed.WriteString(s) }, OnToolCall: func(c chat.ToolCall) { calls = append(calls, c) }})
	require.NoError(t, err)
	assert.Equal(t, turn.Answer, streamed.String(), "the answer streamed")
	assert.Contains(t, turn.Answer, "[n-", "the answer cites a node id")

	require.GreaterOrEqual(t, len(f.sent), 2, "a tool round, then the answer")
	first := f.sent[0]
	assert.EqualValues(t, 4096, first.Options["num_ctx"], "Ollama gets the window the budget assumed")
	require.NotEmpty(t, first.Messages)
	assert.Equal(t, "system", first.Messages[0].Role)
	assert.Contains(t, first.Messages[0].Content, "[Context loaded: ", "the manifest goes in the system message")
	assert.Equal(t, "How does staleness decay?", first.Messages[len(first.Messages)-1].Content)
	assert.NotEmpty(t, first.Tools, "a tool-capable model is offered the tools")
	var toolMsg *api.Message
	for i, m := range f.sent[1].Messages {
		if m.Role == "tool" {
			toolMsg = &f.sent[1].Messages[i]
		}
	}
	require.NotNil(t, toolMsg, "the tool result went back to the model")
	assert.Contains(t, toolMsg.Content, "[n-")

	require.Len(t, calls, 1)
	assert.Equal(t, "search_context", calls[0].Name)
	assert.NotEmpty(t, calls[0].NodeIDs)
	require.Len(t, turn.Tools, 1)
	audit, err := wb.Audit()
	require.NoError(t, err)
	require.Len(t, audit, 1)
	assert.Equal(t, "search_context", audit[0].Call.Name)
	assert.Equal(t, turn.ID, audit[0].Turn)

	wb.WaitIndexing()
	convs, err := wb.Conversations()
	require.NoError(t, err)
	require.Len(t, convs, 1)
	conv, err := wb.Conversation(convs[0].ID)
	require.NoError(t, err)
	require.Len(t, conv.Turns, 1)
	require.NotEmpty(t, conv.Turns[0].AnswerNodes, "the answer became output nodes")
	require.NoError(t, wb.Close())

	// Reopened: the answer is an output node in the conversations
	// collection, linked to concepts, and the conversation is still there.
	wb = openBolt(t, dir)
	defer wb.Close()
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	var out *model.ContentNode
	for i := range g.ContentNodes {
		if g.ContentNodes[i].ID == conv.Turns[0].AnswerNodes[0] {
			out = &g.ContentNodes[i]
		}
	}
	require.NotNil(t, out)
	assert.Equal(t, model.KindOutput, out.Kind)
	about := 0
	for _, e := range g.Edges {
		if e.From == out.ID && e.Kind == model.EdgeAbout {
			about++
			assert.Equal(t, "output", e.Direction)
		}
	}
	assert.Greater(t, about, 0)
	again, err := wb.Conversation(conv.ID)
	require.NoError(t, err)
	assert.Equal(t, turn.Answer, again.Turns[0].Answer)
}

func TestChatHistoryCountsAgainstTheBudget(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	f := &ollamaFake{}
	client := fakeClient(t, f)
	ctx := context.Background()
	first, err := wb.Chat(ctx, client, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096, NoIndex: true})
	require.NoError(t, err)
	convs, err := wb.Conversations()
	require.NoError(t, err)
	id := convs[0].ID

	second, err := wb.Chat(ctx, client, ChatRequest{Conversation: id, Question: "And the budget?", Model: "llama3.2", Window: 4096, NoIndex: true})
	require.NoError(t, err)
	assert.Equal(t, 1, second.HistoryTurns)
	last := f.sent[len(f.sent)-1]
	var roles []string
	for _, m := range last.Messages {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"system", "user", "assistant", "user"}, roles, "the earlier turn is sent as history")
	assert.Equal(t, first.Answer, last.Messages[2].Content)
	assert.Less(t, second.Budget.Window, first.Budget.Window, "history takes room from the window the context is planned in")

	// A tiny history share drops the old turns and the prompt says so.
	third, err := wb.Chat(ctx, client, ChatRequest{Conversation: id, Question: "Anything else?", Model: "llama3.2", Window: 4096, HistoryShare: 0.001, NoIndex: true})
	require.NoError(t, err)
	assert.Equal(t, 2, third.HistoryDropped)
	assert.Contains(t, f.sent[len(f.sent)-1].Messages[0].Content, "[Earlier conversation available but not loaded: 2 turns]")
}

func TestChatFailuresKeepWhatWasDone(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	ctx := context.Background()

	_, err := wb.Chat(ctx, fakeClient(t, &ollamaFake{}), ChatRequest{Question: "How does staleness decay?", Model: "nosuchmodel"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ollama pull nosuchmodel")

	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens here any more
	down, err := chat.New(srv.URL)
	require.NoError(t, err)
	_, err = wb.Chat(ctx, down, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ollama serve")

	_, err = wb.Chat(ctx, down, ChatRequest{Question: "How?", Model: ""})
	require.Error(t, err)
	_, err = wb.Chat(ctx, down, ChatRequest{Question: "How?", Model: "llama3.2", Conversation: "conv-nosuch"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no conversation")
}

func TestChatCalibratesTheBudgetPerModel(t *testing.T) {
	wb, dir := ingested(t)
	f := &ollamaFake{} // reports 900 prompt tokens, more than tiktoken counts here
	calib := &chat.Calibration{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	client, err := chat.New(srv.URL, chat.WithCalibration(calib))
	require.NoError(t, err)
	ctx := context.Background()
	first, err := wb.Chat(ctx, client, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096, NoIndex: true})
	require.NoError(t, err)
	require.Greater(t, calib.Factor("llama3.2"), 1.0, "Ollama counted more than the estimate")
	second, err := wb.Chat(ctx, client, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096, NoIndex: true, MaxToolRounds: -1})
	require.NoError(t, err)
	require.Zero(t, second.HistoryTurns, "a new conversation: no history")
	assert.Less(t, second.Budget.Window, first.Budget.Window, "the next plan shrinks by the calibration")
	require.NoError(t, wb.Close())

	wb = openBolt(t, dir)
	defer wb.Close()
	again := &chat.Calibration{}
	require.NoError(t, wb.LoadCalibration(again))
	assert.InDelta(t, calib.Factor("llama3.2"), again.Factor("llama3.2"), 1e-9, "calibration persists per workspace")
}

// TestChatWithARealOllama runs a turn against the Ollama at LOOM_OLLAMA_URL
// (model LOOM_OLLAMA_CHAT_MODEL, default llama3.2) when set.
func TestChatWithARealOllama(t *testing.T) {
	url := os.Getenv("LOOM_OLLAMA_URL")
	if url == "" {
		t.Skip("LOOM_OLLAMA_URL is not set: no real Ollama to talk to (set it, e.g. http://127.0.0.1:11434, to run this test)")
	}
	modelName := os.Getenv("LOOM_OLLAMA_CHAT_MODEL")
	if modelName == "" {
		modelName = "llama3.2"
	}
	wb, _ := ingested(t)
	defer wb.Close()
	client, err := chat.New(url)
	require.NoError(t, err)
	turn, err := wb.Chat(context.Background(), client, ChatRequest{Question: "How does staleness decay? Cite node ids.", Model: modelName, Window: 4096})
	require.NoError(t, err)
	assert.NotEmpty(t, turn.Answer)
	assert.Greater(t, turn.PromptEvalCount, 0)
}
