package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

// lines makes n lines "[nI] w w w …" of width words each.
func lines(n, width int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "[n%d]%s\n", i, strings.Repeat(" w", width-1))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// The tool-token cap trims the first result and leaves nothing for the
// second, which gets "budget exhausted"; the turn then ends without tools.
func TestChatToolTokenCap(t *testing.T) {
	srv, c := newFake(t,
		ollamatest.CallTools(call("search_context", map[string]any{"query": "a"}), call("search_context", map[string]any{"query": "b"})),
		ollamatest.Answer(900, "Answer [n1]."))
	tools := &fakeTools{search: func(q, _ string, _ int) (chat.ToolResult, error) {
		ids := make([]string, 10)
		for i := range ids {
			ids[i] = fmt.Sprintf("n%d", i+1)
		}
		return chat.ToolResult{Text: lines(10, 10), NodeIDs: ids}, nil
	}}
	res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 8192, Question: "q?", Tools: tools, Count: words, MaxToolTokens: 55, MaxToolRounds: 5})
	require.NoError(t, err)
	require.Len(t, res.ToolCalls, 2)

	first := res.ToolCalls[0]
	assert.True(t, first.Trimmed)
	assert.LessOrEqual(t, first.Tokens, 55)
	assert.Equal(t, []string{"n1", "n2", "n3", "n4"}, first.NodeIDs, "only the ids the model saw")
	second := res.ToolCalls[1]
	assert.Equal(t, chat.BudgetExhausted, second.Error)
	assert.Empty(t, second.NodeIDs)

	sent := srv.Chats()
	require.Len(t, sent, 2)
	msgs := sent[1].Messages
	assert.Equal(t, chat.BudgetExhausted, msgs[len(msgs)-2].Content)
	assert.Equal(t, "tool", msgs[len(msgs)-2].Role)
	assert.Contains(t, msgs[len(msgs)-3].Content, "[trimmed to fit the budget: 4 of 10 lines shown]")
	assert.Equal(t, chat.AnswerNow, msgs[len(msgs)-1].Content)
	assert.Empty(t, sent[1].Tools)
	assert.Contains(t, strings.Join(res.Notes, " "), "budget for this turn ran out")
}

// With a generous cap, the window is what limits: every request, tool
// results included, stays within the window less the output margin.
func TestChatToolResultsStayInsideTheWindow(t *testing.T) {
	for _, factor := range []float64{1, 1.5} {
		t.Run(fmt.Sprint("calibration ", factor), func(t *testing.T) {
			srv := ollamatest.New(t, ollamatest.WithChat(
				ollamatest.CallTools(call("search_context", map[string]any{"query": "a"})),
				ollamatest.CallTools(call("search_context", map[string]any{"query": "b"})),
				ollamatest.Answer(900, "done"),
			))
			calib := &chat.Calibration{}
			if factor != 1 {
				calib.Observe("llama3.2", 1000, int(1000*factor))
			}
			_, c := clientFor(t, srv, []chat.Option{chat.WithCalibration(calib)})
			tools := &fakeTools{search: func(q, _ string, _ int) (chat.ToolResult, error) {
				return chat.ToolResult{Text: lines(200, 10), NodeIDs: []string{"n1"}}, nil
			}}
			const window = 2000
			res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: window, System: strings.Repeat("ctx ", 600), Question: "q?",
				Tools: tools, Count: words, MaxToolTokens: 100000, MaxToolRounds: 2})
			require.NoError(t, err)
			sent := srv.Chats()
			require.Len(t, sent, 3)
			for i, req := range sent {
				est := chat.ToolsTokens(req.Tools, words)
				for _, m := range req.Messages {
					est += chat.MessageTokens(m, words)
				}
				assert.LessOrEqual(t, calib.Scale("llama3.2", est), window-window/10, "request %d", i+1)
			}
			assert.True(t, res.ToolCalls[0].Trimmed)
			assert.Greater(t, res.ToolCalls[0].Tokens, 100)
		})
	}
}
