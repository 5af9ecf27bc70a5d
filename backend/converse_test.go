package backend

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

// ollamaFake is the fake Ollama for one tool-capable model, llama3.2. Its
// first reply of a turn asks for the search_context tool when tools are
// offered and askTool is set; then it streams an answer that cites the
// first node id it was given.
func ollamaFake(t *testing.T, askTool bool) *ollamatest.Server {
	t.Helper()
	return ollamatest.New(t, ollamatest.WithModels(ollamatest.Llama32()), ollamatest.WithChat(func(s *ollamatest.Stream) {
		req := s.Chat
		last := req.Messages[len(req.Messages)-1]
		if askTool && len(req.Tools) > 0 && last.Role == "user" {
			s.ToolCalls(ollamatest.ToolCall{Name: "search_context", Args: map[string]any{"query": "half-life of staleness", "limit": 2}})
			s.Done("stop", 300, 12)
			return
		}
		// Cite the first node id the system message or a tool result shows.
		cite := ""
		for _, m := range req.Messages {
			if id := blockHeaderID.FindString(m.Content); id != "" && cite == "" {
				cite = strings.TrimSpace(id)
			}
		}
		s.Content("Staleness decays ", "exponentially ", "with a half-life "+cite+".")
		s.Done("stop", 1200, 20)
	}))
}

// blockHeaderID is the id a block of a prompt or a tool's result opens
// with, in letters (model.PromptID).
var blockHeaderID = regexp.MustCompile(`(?m)^\[[a-z]{3,16}\] `)

func fakeClient(t *testing.T, srv *ollamatest.Server, opts ...chat.Option) *chat.Client {
	t.Helper()
	oc, err := ollama.New(srv.URL)
	require.NoError(t, err)
	return chat.New(oc, opts...)
}

func TestChatTurnSendsContextCallsToolsAndIndexesTheAnswer(t *testing.T) {
	wb, dir := ingested(t)
	f := ollamaFake(t, true)
	client := fakeClient(t, f)
	ctx := context.Background()

	var streamed strings.Builder
	var calls []chat.ToolCall
	turn, err := wb.Chat(ctx, client, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096,
		OnToken: func(s string) { streamed.WriteString(s) }, OnToolCall: func(c chat.ToolCall) { calls = append(calls, c) }})
	require.NoError(t, err)
	assert.Equal(t, turn.Answer, streamed.String(), "the answer streamed")
	assert.Regexp(t, `\[[a-z]{3,16}\]`, turn.Answer, "the answer cites a node id")

	sent := f.Chats()
	require.GreaterOrEqual(t, len(sent), 2, "a tool round, then the answer")
	first := sent[0]
	assert.EqualValues(t, 4096, first.Options["num_ctx"], "Ollama gets the window the budget assumed")
	require.NotEmpty(t, first.Messages)
	assert.Equal(t, "system", first.Messages[0].Role)
	assert.Contains(t, first.Messages[0].Content, "[Context loaded: ", "the manifest goes in the system message")
	assert.Equal(t, "How does staleness decay?", first.Messages[len(first.Messages)-1].Content)
	assert.NotEmpty(t, first.Tools, "a tool-capable model is offered the tools")
	var toolMsg *api.Message
	for i, m := range sent[1].Messages {
		if m.Role == "tool" {
			toolMsg = &sent[1].Messages[i]
		}
	}
	require.NotNil(t, toolMsg, "the tool result went back to the model")
	assert.Regexp(t, blockHeaderID, toolMsg.Content, "the tool result names its nodes by id")

	require.Len(t, calls, 1)
	assert.Equal(t, "search_context", calls[0].Name)
	assert.NotEmpty(t, calls[0].NodeIDs)
	require.Len(t, turn.Tools, 1)
	// Every node the turn names has its cite, for the page's links.
	require.NotEmpty(t, turn.Loaded)
	for _, id := range append(append([]string(nil), turn.Loaded...), calls[0].NodeIDs...) {
		assert.Regexp(t, `^(staleness\.txt|budget\.md|graphs\.md)\S* L\d+`, turn.Cites[id], "the turn cites %s", id)
	}
	for _, id := range calls[0].NodeIDs {
		assert.Equal(t, turn.Cites[id], calls[0].Cites[id], "a tool call carries the cites of what it returned")
	}
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
	assert.Equal(t, turn.Cites, again.Turns[0].Cites, "a stored turn keeps its cites")

	// The answer itself is cited by its question, and the viewer opens it.
	v, err := wb.Source(ctx, out.ID)
	require.NoError(t, err)
	assert.Equal(t, `answer "How does staleness decay?"`, v.Cite)
	assert.False(t, v.Document.File, "an answer is kept in the workspace, not in a file to open")
}

func TestChatHistoryCountsAgainstTheBudget(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	f := ollamaFake(t, false)
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
	sent := f.Chats()
	last := sent[len(sent)-1]
	var roles []string
	for _, m := range last.Messages {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"system", "user", "assistant", "user"}, roles, "the earlier turn is sent as history")
	assert.Equal(t, first.Answer, last.Messages[2].Content)
	assert.Less(t, second.Split.Window, first.Split.Window, "history takes room from the window the context is planned in")

	// A tiny history share drops the old turns and the prompt says so.
	third, err := wb.Chat(ctx, client, ChatRequest{Conversation: id, Question: "Anything else?", Model: "llama3.2", Window: 4096, HistoryShare: 0.001, NoIndex: true})
	require.NoError(t, err)
	assert.Equal(t, 2, third.HistoryDropped)
	sent = f.Chats()
	assert.Contains(t, sent[len(sent)-1].Messages[0].Content, "[Earlier conversation available but not loaded: 2 turns]")
}

func TestChatFailuresKeepWhatWasDone(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	ctx := context.Background()

	_, err := wb.Chat(ctx, fakeClient(t, ollamaFake(t, false)), ChatRequest{Question: "How does staleness decay?", Model: "nosuchmodel"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ollama pull nosuchmodel")

	oc, err := ollama.New(ollamatest.Closed(t)) // nothing listens there
	require.NoError(t, err)
	down := chat.New(oc)
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
	f := ollamaFake(t, false) // reports 1200 prompt tokens, more than tiktoken counts here
	calib := &chat.Calibration{}
	client := fakeClient(t, f, chat.WithCalibration(calib))
	ctx := context.Background()
	first, err := wb.Chat(ctx, client, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096, NoIndex: true})
	require.NoError(t, err)
	require.Greater(t, calib.Factor("llama3.2"), 1.0, "Ollama counted more than the estimate")
	second, err := wb.Chat(ctx, client, ChatRequest{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096, NoIndex: true, MaxToolRounds: -1})
	require.NoError(t, err)
	require.Zero(t, second.HistoryTurns, "a new conversation: no history")
	assert.Less(t, second.Split.Window, first.Split.Window, "the next plan shrinks by the calibration")
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
	oc, err := ollama.New(url)
	require.NoError(t, err)
	client := chat.New(oc)
	turn, err := wb.Chat(context.Background(), client, ChatRequest{Question: "How does staleness decay? Cite node ids.", Model: modelName, Window: 4096})
	require.NoError(t, err)
	assert.NotEmpty(t, turn.Answer)
	assert.Greater(t, turn.PromptEvalCount, 0)
}
