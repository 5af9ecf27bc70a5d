package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lines makes n lines "[nI] w w w …" of width words each.
func lines(n, width int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "[n%d]%s\n", i, strings.Repeat(" w", width-1))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestFitText(t *testing.T) {
	long := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three twenty-four twenty-five twenty-six twenty-seven twenty-eight twenty-nine thirty thirty-one thirty-two thirty-three thirty-four thirty-five thirty-six thirty-seven thirty-eight thirty-nine forty"
	for _, tc := range []struct {
		name        string
		text        string
		allowed     int
		wantOK      bool
		wantTrimmed bool
		wantPrefix  string
		wantLines   int // whole lines kept (-1: do not check)
	}{
		{"fits", lines(3, 10), 30, true, false, lines(3, 10), 3},
		{"trimmed at a line", lines(10, 10), 55, true, true, lines(4, 10) + "\n[trimmed to fit the budget: 4 of 10 lines shown]", 4},
		{"too small to be useful", lines(10, 10), 10, false, true, "", -1},
		{"one long line cut at a word", long, 30, true, true, "one two three", -1},
		{"one long line with no spaces", strings.Repeat("x", 1000), 30, false, true, "", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			count := words
			if !strings.Contains(tc.text, " ") {
				count = estimateLen
			}
			kept, trimmed, ok := fitText(tc.text, tc.allowed, count)
			assert.Equal(t, tc.wantOK, ok)
			assert.Equal(t, tc.wantTrimmed, trimmed)
			if !ok {
				assert.Empty(t, kept)
				return
			}
			assert.LessOrEqual(t, count(kept), tc.allowed)
			assert.True(t, strings.HasPrefix(kept, tc.wantPrefix), kept)
			if tc.wantLines >= 0 && trimmed {
				assert.Equal(t, tc.wantPrefix, kept)
			}
		})
	}
}

func TestIDsShown(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ids        []string
		full, kept string
		want       []string
	}{
		{"all shown", []string{"n1", "n2"}, "[n1] a\n[n2] b", "[n1] a\n[n2] b", []string{"n1", "n2"}},
		{"trimmed away", []string{"n1", "n2"}, "[n1] a\n[n2] b", "[n1] a", []string{"n1"}},
		{"ids not in the text: keep all", []string{"x", "y"}, "a\nb", "a", []string{"x", "y"}},
		{"none", nil, "a", "a", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, idsShown(tc.ids, tc.full, tc.kept))
		})
	}
}

// The tool-token cap trims the first result and leaves nothing for the
// second, which gets "budget exhausted"; the turn then ends without tools.
func TestChatToolTokenCap(t *testing.T) {
	f, c := newFake(t,
		callTools(call{"search_context", map[string]any{"query": "a"}}, call{"search_context", map[string]any{"query": "b"}}),
		answer(900, "Answer [n1]."))
	tools := &fakeTools{search: func(q, _ string, _ int) (ToolResult, error) {
		ids := make([]string, 10)
		for i := range ids {
			ids[i] = fmt.Sprintf("n%d", i+1)
		}
		return ToolResult{Text: lines(10, 10), NodeIDs: ids}, nil
	}}
	res, err := c.Chat(context.Background(), Turn{Model: "llama3.2", Window: 8192, Question: "q?", Tools: tools, Count: words, MaxToolTokens: 55, MaxToolRounds: 5})
	require.NoError(t, err)
	require.Len(t, res.ToolCalls, 2)

	first := res.ToolCalls[0]
	assert.True(t, first.Trimmed)
	assert.LessOrEqual(t, first.Tokens, 55)
	assert.Equal(t, []string{"n1", "n2", "n3", "n4"}, first.NodeIDs, "only the ids the model saw")
	second := res.ToolCalls[1]
	assert.Equal(t, budgetExhausted, second.Error)
	assert.Empty(t, second.NodeIDs)

	sent, _ := f.requests()
	require.Len(t, sent, 2)
	msgs := sent[1].Messages
	assert.Equal(t, budgetExhausted, msgs[len(msgs)-2].Content)
	assert.Equal(t, "tool", msgs[len(msgs)-2].Role)
	assert.Contains(t, msgs[len(msgs)-3].Content, "[trimmed to fit the budget: 4 of 10 lines shown]")
	assert.Equal(t, answerNow, msgs[len(msgs)-1].Content)
	assert.Empty(t, sent[1].Tools)
	assert.Contains(t, strings.Join(res.Notes, " "), "budget for this turn ran out")
}

// With a generous cap, the window is what limits: every request, tool
// results included, stays within the window less the output margin.
func TestChatToolResultsStayInsideTheWindow(t *testing.T) {
	for _, factor := range []float64{1, 1.5} {
		t.Run(fmt.Sprint("calibration ", factor), func(t *testing.T) {
			f := &fakeOllama{models: standardModels()}
			f.scripts = []script{
				callTools(call{"search_context", map[string]any{"query": "a"}}),
				callTools(call{"search_context", map[string]any{"query": "b"}}),
				answer(900, "done"),
			}
			calib := &Calibration{}
			if factor != 1 {
				calib.Observe("llama3.2", 1000, int(1000*factor))
			}
			c := newClientFor(t, f, WithCalibration(calib))
			tools := &fakeTools{search: func(q, _ string, _ int) (ToolResult, error) {
				return ToolResult{Text: lines(200, 10), NodeIDs: []string{"n1"}}, nil
			}}
			const window = 2000
			res, err := c.Chat(context.Background(), Turn{Model: "llama3.2", Window: window, System: strings.Repeat("ctx ", 600), Question: "q?",
				Tools: tools, Count: words, MaxToolTokens: 100000, MaxToolRounds: 2})
			require.NoError(t, err)
			sent, _ := f.requests()
			require.Len(t, sent, 3)
			for i, req := range sent {
				est := toolsTokens(req.Tools, words)
				for _, m := range req.Messages {
					est += messageTokens(m, words)
				}
				assert.LessOrEqual(t, calib.Scale("llama3.2", est), window-window/10, "request %d", i+1)
			}
			assert.True(t, res.ToolCalls[0].Trimmed)
			assert.Greater(t, res.ToolCalls[0].Tokens, 100)
		})
	}
}

func TestMessageTokens(t *testing.T) {
	args := api.NewToolCallFunctionArguments()
	args.Set("query", "x")
	m := api.Message{Role: "assistant", Content: "a b", Thinking: "c", ToolCalls: []api.ToolCall{{Function: api.ToolCallFunction{Name: "search_context", Arguments: args}}}}
	assert.Equal(t, messageOverhead+2+1+1, messageTokens(m, words))
	assert.Equal(t, 0, toolsTokens(nil, words))
	assert.Positive(t, toolsTokens(Definitions(), estimateLen))
}
