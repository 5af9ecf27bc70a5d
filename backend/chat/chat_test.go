package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

const manifest = "[Context loaded: 2 of 5 relevant nodes]\n[Node: OAuth token analysis | relevance: 0.92 | source: output]\n[Additional context available but not loaded: 3 nodes]"

func systemPrompt() string {
	return "Answer from the context below and cite node ids.\n\n" + manifest + "\n\n[n1] Tokens expire after 3600 seconds.\n[n2] Refresh tokens last 30 days."
}

func TestChatStreamsAndSendsTheTurn(t *testing.T) {
	srv, c := newFake(t, ollamatest.Answer(612, "Tokens ", "expire after ", "an hour [n1]."))
	var pieces []string
	history := []api.Message{{Role: "user", Content: "What is OAuth?"}, {Role: "assistant", Content: "An authorisation protocol."}}
	res, err := c.Chat(context.Background(), chat.Turn{
		Model: "gemma:2b", Window: 8192, System: systemPrompt(), History: history,
		Question: "How long do tokens last?", Count: words,
		OnToken: func(s string) { pieces = append(pieces, s) },
	})
	require.NoError(t, err)

	assert.Equal(t, []string{"Tokens ", "expire after ", "an hour [n1]."}, pieces)
	assert.Equal(t, "Tokens expire after an hour [n1].", res.Answer)
	assert.Equal(t, 612, res.PromptEvalCount)
	assert.Equal(t, 3, res.EvalCount)
	assert.Equal(t, "stop", res.DoneReason)
	assert.False(t, res.Truncated)
	assert.Equal(t, 1, res.Rounds)
	assert.Empty(t, res.ToolCalls)

	sent, raw := srv.Chats(), chatBodies(srv)
	require.Len(t, sent, 1)
	require.Len(t, res.Sent, 1)
	// What went over the wire.
	assert.Equal(t, true, raw[0]["stream"], "stream must be true")
	assert.Equal(t, json.Number("8192"), raw[0]["options"].(map[string]any)["num_ctx"])
	assert.NotContains(t, raw[0], "tools")
	msgs := sent[0].Messages
	require.Len(t, msgs, 4)
	assert.Equal(t, "system", msgs[0].Role)
	assert.Contains(t, msgs[0].Content, manifest)
	assert.Equal(t, history, msgs[1:3])
	assert.Equal(t, api.Message{Role: "user", Content: "How long do tokens last?"}, msgs[3])

	// The estimate is what Count said about those messages.
	want := 0
	for _, m := range msgs {
		want += chat.MessageOverhead + words(m.Content)
	}
	assert.Equal(t, want, res.EstimatedPromptTokens)
	assert.Equal(t, []api.Message{msgs[3], {Role: "assistant", Content: res.Answer}}, res.Messages)
}

func TestChatOffersToolsOnlyToToolModels(t *testing.T) {
	for _, tc := range []struct {
		model     string
		withTools bool
		offered   bool
	}{
		{"llama3.2", true, true},
		{"llama3.2:latest", true, true},
		{"gemma:2b", true, false}, // completion only
		{"llama3.2", false, false},
	} {
		t.Run(tc.model+map[bool]string{true: "+tools", false: ""}[tc.withTools], func(t *testing.T) {
			srv, c := newFake(t, ollamatest.Answer(300, "ok"))
			turn := chat.Turn{Model: tc.model, Window: 4096, System: systemPrompt(), Question: "q?", Count: words}
			if tc.withTools {
				turn.Tools = &fakeTools{}
			}
			res, err := c.Chat(context.Background(), turn)
			require.NoError(t, err)
			assert.Equal(t, tc.offered, res.ToolsOffered)
			sent, raw := srv.Chats(), chatBodies(srv)
			require.Len(t, sent, 1)
			if !tc.offered {
				assert.NotContains(t, raw[0], "tools")
				assert.NotContains(t, sent[0].Messages[0].Content, "search_context")
				if tc.withTools {
					require.Len(t, res.Notes, 1)
					assert.Contains(t, res.Notes[0], "does not support tool calling")
				}
				return
			}
			var names []string
			for _, tool := range sent[0].Tools {
				assert.Equal(t, "function", tool.Type)
				names = append(names, tool.Function.Name)
			}
			assert.Equal(t, []string{"search_context", "expand", "get_window", "catalog"}, names)
			sys := sent[0].Messages[0].Content
			assert.True(t, strings.HasPrefix(sys, systemPrompt()), "the caller's system prompt comes first")
			assert.Contains(t, sys, "cite the node ids")
			assert.Contains(t, sys, "at most 2 rounds")
		})
	}
}

func TestChatRunsToolsAndSendsResultsBack(t *testing.T) {
	srv, c := newFake(t,
		func(s *ollamatest.Stream) {
			s.Content("Let me look.")
			s.ToolCalls(call("search_context", map[string]any{"query": "token expiry", "scope": "docs", "limit": 3}),
				call("expand", map[string]any{"node_id": "n7", "level": "summary"}))
			s.Done("stop", 700, 25)
		},
		ollamatest.Answer(900, "Access tokens expire after one hour [n7]."),
	)
	tools := &fakeTools{results: map[string]chat.ToolResult{
		chat.ToolSearchContext: {Text: "[n7] Access tokens expire after one hour.\n[n9] Clock skew is 30s.", NodeIDs: []string{"n7", "n9"},
			Cites: map[string]string{"n7": "auth.md#expiry L4–9", "n9": "auth.md#skew L12", "n99": "not shown"}},
		chat.ToolExpand: {Text: "[n7] summary: one hour lifetime", NodeIDs: []string{"n7"}},
	}}
	var seen []chat.ToolCall
	res, err := c.Chat(context.Background(), chat.Turn{
		Model: "llama3.2", Window: 8192, System: systemPrompt(), Question: "When do tokens expire?",
		Tools: tools, Count: words, OnToolCall: func(tc chat.ToolCall) { seen = append(seen, tc) },
	})
	require.NoError(t, err)
	assert.Equal(t, []string{`search_context("token expiry", "docs", 3)`, `expand("n7", "summary")`}, tools.logged())

	require.Len(t, res.ToolCalls, 2)
	assert.Equal(t, seen, res.ToolCalls)
	sc := res.ToolCalls[0]
	assert.Equal(t, 1, sc.Round)
	assert.Equal(t, "search_context", sc.Name)
	assert.Equal(t, map[string]any{"query": "token expiry", "scope": "docs", "limit": float64(3)}, sc.Args)
	assert.Equal(t, []string{"n7", "n9"}, sc.NodeIDs)
	assert.Equal(t, map[string]string{"n7": "auth.md#expiry L4–9", "n9": "auth.md#skew L12"}, sc.Cites, "the cites of the nodes shown, for the page's links")
	assert.Nil(t, res.ToolCalls[1].Cites, "a result without cites gives none")
	assert.Equal(t, words("[n7] Access tokens expire after one hour.\n[n9] Clock skew is 30s."), sc.Tokens)
	assert.Empty(t, sc.Error)
	assert.Equal(t, []string{"n7"}, res.ToolCalls[1].NodeIDs)

	sent, raw := srv.Chats(), chatBodies(srv)
	require.Len(t, sent, 2)
	assert.Equal(t, 2, res.Rounds)
	second := sent[1].Messages
	// system, question, assistant with the calls, two tool results.
	require.Len(t, second, 5)
	assert.Equal(t, "assistant", second[2].Role)
	assert.Equal(t, "Let me look.", second[2].Content)
	require.Len(t, second[2].ToolCalls, 2)
	assert.Equal(t, "search_context", second[2].ToolCalls[0].Function.Name)
	for i, name := range []string{"search_context", "expand"} {
		m := second[3+i]
		assert.Equal(t, "tool", m.Role)
		assert.Equal(t, name, m.ToolName)
		assert.Equal(t, "call_"+string(rune('0'+i))+name, m.ToolCallID)
	}
	assert.Equal(t, "[n7] Access tokens expire after one hour.\n[n9] Clock skew is 30s.", second[3].Content)
	// Tool messages carry tool_name on the wire.
	wire := raw[1]["messages"].([]any)[3].(map[string]any)
	assert.Equal(t, "tool", wire["role"])
	assert.Equal(t, "search_context", wire["tool_name"])
	// Tools are still offered in round 2 (1 of 2 rounds used).
	assert.Len(t, sent[1].Tools, 4)
	assert.Equal(t, json.Number("8192"), raw[1]["options"].(map[string]any)["num_ctx"])

	assert.Equal(t, "Let me look.\n\nAccess tokens expire after one hour [n7].", res.Answer)
	assert.Equal(t, 900, res.PromptEvalCount)
	// The turn's new messages: question, assistant+calls, 2 tool results, answer.
	require.Len(t, res.Messages, 5)
	assert.Equal(t, "Access tokens expire after one hour [n7].", res.Messages[4].Content)
}

func TestChatToolErrorsGoBackToTheModel(t *testing.T) {
	for _, tc := range []struct {
		name    string
		call    ollamatest.ToolCall
		wantErr string // in the record and the tool message
	}{
		{"unknown tool", call("delete_everything", map[string]any{}), `unknown tool "delete_everything"`},
		{"missing query", call("search_context", map[string]any{"scope": "docs"}), `missing argument "query"`},
		{"limit not a number", call("search_context", map[string]any{"query": "x", "limit": "lots"}), `argument "limit" must be a whole number`},
		{"limit fractional", call("search_context", map[string]any{"query": "x", "limit": 2.5}), `must be a whole number`},
		{"query not a string", call("search_context", map[string]any{"query": []any{"a"}}), `argument "query" must be a string, not an array`},
		{"bad level", call("expand", map[string]any{"node_id": "n1", "level": "verbose"}), `level "verbose" is not one of`},
		{"empty node id", call("get_window", map[string]any{"node_id": " "}), `node_id is empty`},
		{"negative radius", call("get_window", map[string]any{"node_id": "n1", "radius": -3}), `"radius" must be at least 1`},
		{"tool fails", call("search_context", map[string]any{"query": "boom"}), `index is closed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := newFake(t, ollamatest.CallTools(tc.call), ollamatest.Answer(500, "I could not find it."))
			tools := &fakeTools{search: func(q, _ string, _ int) (chat.ToolResult, error) {
				if q == "boom" {
					return chat.ToolResult{}, errors.New("index is closed")
				}
				return chat.ToolResult{Text: "[n1] x", NodeIDs: []string{"n1"}}, nil
			}}
			res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 8192, Question: "q?", Tools: tools, Count: words})
			require.NoError(t, err)
			assert.Equal(t, "I could not find it.", res.Answer)
			require.Len(t, res.ToolCalls, 1)
			assert.Contains(t, res.ToolCalls[0].Error, tc.wantErr)
			assert.Empty(t, res.ToolCalls[0].NodeIDs)
			sent := srv.Chats()
			require.Len(t, sent, 2)
			last := sent[1].Messages[len(sent[1].Messages)-1]
			assert.Equal(t, "tool", last.Role)
			assert.Equal(t, tc.call.Name, last.ToolName)
			assert.True(t, strings.HasPrefix(last.Content, "error: "), last.Content)
			assert.Contains(t, last.Content, tc.wantErr)
		})
	}
}

func TestChatArgumentsAreDefaultedAndClamped(t *testing.T) {
	for _, tc := range []struct {
		call ollamatest.ToolCall
		want string
	}{
		{call("search_context", map[string]any{"query": "x"}), `search_context("x", "", 5)`},
		{call("search_context", map[string]any{"query": "x", "scope": "all", "limit": "7"}), `search_context("x", "", 7)`},
		{call("search_context", map[string]any{"query": "x", "limit": 500}), `search_context("x", "", 20)`},
		{call("expand", map[string]any{"node_id": "[n3]"}), `expand("n3", "detailed")`},
		{call("expand", map[string]any{"node_id": "n3", "level": "Essence"}), `expand("n3", "essence")`},
		{call("get_window", map[string]any{"node_id": "n3"}), `get_window("n3", 0, 20)`},
		{call("get_window", map[string]any{"node_id": "n3", "center": 40, "radius": 1000}), `get_window("n3", 40, 200)`},
		{call("catalog", nil), `catalog()`},
	} {
		t.Run(tc.want, func(t *testing.T) {
			_, c := newFake(t, ollamatest.CallTools(tc.call), ollamatest.Answer(500, "done"))
			tools := &fakeTools{results: map[string]chat.ToolResult{}}
			_, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 8192, Question: "q?", Tools: tools, Count: words})
			require.NoError(t, err)
			assert.Equal(t, []string{tc.want}, tools.logged())
		})
	}
}

func TestChatStopsARepeatedCall(t *testing.T) {
	same := call("search_context", map[string]any{"query": "token expiry"})
	srv, c := newFake(t, ollamatest.CallTools(same), ollamatest.CallTools(same), ollamatest.Answer(800, "One hour [n7]."))
	tools := &fakeTools{results: map[string]chat.ToolResult{chat.ToolSearchContext: {Text: "[n7] one hour", NodeIDs: []string{"n7"}}}}
	res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 8192, Question: "q?", Tools: tools, Count: words, MaxToolRounds: 5})
	require.NoError(t, err)

	assert.Len(t, tools.logged(), 1, "the repeated call must not run again")
	require.Len(t, res.ToolCalls, 2)
	assert.Empty(t, res.ToolCalls[0].Error)
	assert.Contains(t, res.ToolCalls[1].Error, "repeated call")
	assert.Equal(t, 2, res.ToolCalls[1].Round)

	sent, raw := srv.Chats(), chatBodies(srv)
	require.Len(t, sent, 3)
	assert.NotContains(t, raw[2], "tools", "after a loop, the next request offers no tools")
	msgs := sent[2].Messages
	assert.Equal(t, api.Message{Role: "user", Content: chat.AnswerNow}, msgs[len(msgs)-1])
	assert.Equal(t, "tool", msgs[len(msgs)-2].Role)
	assert.Contains(t, msgs[len(msgs)-2].Content, "repeated call")
	assert.Equal(t, "One hour [n7].", res.Answer)
	assert.Contains(t, strings.Join(res.Notes, " "), "repeated a tool call")
}

func TestChatBoundsToolRounds(t *testing.T) {
	for _, tc := range []struct {
		max      int
		requests int
	}{{0, 3}, {1, 2}, {3, 4}} {
		t.Run("max "+string(rune('0'+tc.max)), func(t *testing.T) {
			n := 0
			// A model that always wants one more search.
			greedy := func(s *ollamatest.Stream) {
				if len(s.Chat.Tools) == 0 {
					s.Content("Final answer.")
					s.Done("stop", 900, 3)
					return
				}
				n++
				s.ToolCalls(call("search_context", map[string]any{"query": strings.Repeat("more ", n)}))
				s.Done("stop", 700, 10)
			}
			srv, c := newFake(t, greedy)
			tools := &fakeTools{results: map[string]chat.ToolResult{chat.ToolSearchContext: {Text: "[n1] text", NodeIDs: []string{"n1"}}}}
			res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 8192, Question: "q?", Tools: tools, Count: words, MaxToolRounds: tc.max})
			require.NoError(t, err)
			sent := srv.Chats()
			require.Len(t, sent, tc.requests)
			assert.Equal(t, tc.requests, res.Rounds)
			assert.Len(t, res.ToolCalls, tc.requests-1)
			assert.Empty(t, sent[len(sent)-1].Tools)
			last := sent[len(sent)-1].Messages
			assert.Equal(t, chat.AnswerNow, last[len(last)-1].Content)
			assert.Equal(t, "Final answer.", res.Answer)
		})
	}
}

func TestChatToolCallsWhenNoToolsWereOffered(t *testing.T) {
	// Some models emit tool calls after being told to answer.
	_, c := newFake(t, ollamatest.CallTools(call("search_context", map[string]any{"query": "a"})),
		ollamatest.CallTools(call("search_context", map[string]any{"query": "b"})))
	tools := &fakeTools{results: map[string]chat.ToolResult{chat.ToolSearchContext: {Text: "[n1] text", NodeIDs: []string{"n1"}}}}
	res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 8192, Question: "q?", Tools: tools, Count: words, MaxToolRounds: 1})
	require.NoError(t, err)
	assert.Len(t, tools.logged(), 1)
	require.Len(t, res.ToolCalls, 2)
	assert.Contains(t, res.ToolCalls[1].Error, "not run")
	assert.Contains(t, strings.Join(res.Notes, " "), "instead of answering")
}

func TestChatTruncatedByTheWindow(t *testing.T) {
	_, c := newFake(t, func(s *ollamatest.Stream) {
		s.Content("The first part of a long ", "answer")
		s.Done("length", 300, 3796)
	})
	res, err := c.Chat(context.Background(), chat.Turn{Model: "gemma:2b", Window: 4096, Question: "Tell me everything.", Count: words})
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	assert.Equal(t, "length", res.DoneReason)
	assert.Equal(t, "The first part of a long answer", res.Answer)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "cut off")
	assert.Contains(t, res.Notes[0], "end of the model's window (4096 tokens, num_ctx)")
}

// Ollama says "length" too when the model's num_predict stops the answer
// long before the window is full: the note says which limit it was.
func TestChatTruncatedByTheOutputLimit(t *testing.T) {
	_, c := newFake(t, func(s *ollamatest.Stream) {
		s.Content("The first part of a long ", "answer")
		s.Done("length", 300, 128)
	})
	res, err := c.Chat(context.Background(), chat.Turn{Model: "gemma:2b", Window: 4096, Question: "Tell me everything.", Count: words})
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "cut off after 128 tokens by the model's output limit (num_predict")
	assert.Contains(t, res.Notes[0], "428 of 4096 tokens used")
	assert.NotContains(t, res.Notes[0], "end of the model's window")
}

func TestChatThinking(t *testing.T) {
	srv, c := newFake(t,
		func(s *ollamatest.Stream) {
			s.Thinking("I should ", "search.")
			s.ToolCalls(call("catalog", map[string]any{}))
			s.Done("stop", 300, 10)
		},
		func(s *ollamatest.Stream) {
			s.Thinking("Now answer.")
			s.Content("Answer.")
			s.Done("stop", 400, 3)
		})
	var thought []string
	res, err := c.Chat(context.Background(), chat.Turn{Model: "qwen3:4b", Window: 8192, Question: "q?", Count: words,
		Tools:      &fakeTools{results: map[string]chat.ToolResult{chat.ToolCatalog: {Text: "[c1] OAuth (3 docs)", NodeIDs: []string{"c1"}}}},
		OnThinking: func(s string) { thought = append(thought, s) }})
	require.NoError(t, err)
	assert.Equal(t, []string{"I should ", "search.", "\n\nNow answer."}, thought)
	assert.Equal(t, "I should search.\n\nNow answer.", res.Thinking)
	assert.Equal(t, "Answer.", res.Answer)
	sent := srv.Chats()
	assert.Equal(t, "I should search.", sent[1].Messages[2].Thinking, "thinking goes back with the tool calls")
}

func TestChatCalibrates(t *testing.T) {
	// Ollama counts 1.5 times what the client estimates.
	var sentEstimate int
	srv := ollamatest.New(t, ollamatest.WithChat(func(s *ollamatest.Stream) {
		est := 0
		for _, m := range s.Chat.Messages {
			est += chat.MessageOverhead + words(m.Content)
		}
		sentEstimate = est
		s.Content("ok")
		s.Done("stop", est*3/2, 1)
	}))
	_, c := clientFor(t, srv, nil)
	turn := chat.Turn{Model: "gemma:2b", Window: 8192, System: strings.Repeat("context words ", 100), Question: "q?", Count: words}
	res, err := c.Chat(context.Background(), turn)
	require.NoError(t, err)
	assert.Equal(t, sentEstimate, res.EstimatedPromptTokens)
	assert.Equal(t, sentEstimate*3/2, res.PromptEvalCount)
	assert.InDelta(t, 1.5, c.Calibration().Factor("gemma:2b"), 0.01)
	assert.Equal(t, 1.0, c.Calibration().Factor("llama3.2"))
	assert.Equal(t, 1, c.Calibration().Samples("gemma:2b"))

	// A count at num_ctx means Ollama truncated the prompt: not a sample.
	srv.Set(ollamatest.WithChat(ollamatest.Answer(8190, "ok")))
	_, err = c.Chat(context.Background(), turn)
	require.NoError(t, err)
	assert.Equal(t, 1, c.Calibration().Samples("gemma:2b"))
}

func TestChatPromptLongerThanWindow(t *testing.T) {
	srv, c := newFake(t, ollamatest.Answer(10, "never"))
	res, err := c.Chat(context.Background(), chat.Turn{Model: "gemma:2b", Window: 100, System: strings.Repeat("word ", 200), Question: "q?", Count: words})
	require.Error(t, err)
	assert.Equal(t, errs.OllamaContextTooLong, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "window is 100 (num_ctx)")
	assert.NotNil(t, res)
	sent := srv.Chats()
	assert.Empty(t, sent, "nothing is sent")
}

func TestChatDropsToolsWhenTheyDoNotFit(t *testing.T) {
	long := strings.Repeat("word ", 550)
	for _, tc := range []struct {
		name    string
		system  string
		history []api.Message
		first   api.Message // the first message sent
	}{
		{"long system prompt", long, nil, api.Message{Role: "system", Content: long}},
		{"no system prompt, long history", "", []api.Message{{Role: "user", Content: long}}, api.Message{Role: "user", Content: long}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := newFake(t, ollamatest.Answer(600, "ok"))
			// About 560 of 640 tokens: the prompt fits, the tool definitions do not.
			res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 640, System: tc.system, History: tc.history,
				Question: "q?", Count: words, Tools: &fakeTools{}})
			require.NoError(t, err)
			assert.False(t, res.ToolsOffered)
			sent := srv.Chats()
			assert.Empty(t, sent[0].Tools)
			assert.Equal(t, tc.first, sent[0].Messages[0], "no tool guide without tools")
			assert.Contains(t, strings.Join(res.Notes, " "), "fills the window")
		})
	}
}

func TestChatValidatesTheTurn(t *testing.T) {
	_, c := newFake(t, ollamatest.Answer(10, "x"))
	for _, tc := range []struct {
		name string
		turn chat.Turn
		want string
	}{
		{"no model", chat.Turn{Window: 10, Question: "q"}, "no model"},
		{"no window", chat.Turn{Model: "gemma:2b", Question: "q"}, "Window"},
		{"no question", chat.Turn{Model: "gemma:2b", Window: 10, Question: " "}, "empty question"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := c.Chat(context.Background(), tc.turn)
			require.ErrorContains(t, err, tc.want)
			assert.NotNil(t, res)
		})
	}
}

func TestChatNotes(t *testing.T) {
	t.Run("prompt counted near the window", func(t *testing.T) {
		_, c := newFake(t, ollamatest.Answer(4000, "ok"))
		res, err := c.Chat(context.Background(), chat.Turn{Model: "gemma:2b", Window: 4096, Question: "q?", Count: words})
		require.NoError(t, err)
		require.Len(t, res.Notes, 1)
		assert.Contains(t, res.Notes[0], "may have dropped the oldest messages")
		assert.Equal(t, 0, c.Calibration().Samples("gemma:2b"), "a cut prompt teaches nothing")
	})
	t.Run("show fails: no tools, still answers", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.WithChat(ollamatest.Answer(300, "ok")),
			ollamatest.Fail("/api/show", http.StatusInternalServerError, "unable to load model blob"))
		_, c := clientFor(t, srv, nil)
		res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: &fakeTools{}})
		require.NoError(t, err)
		assert.False(t, res.ToolsOffered)
		assert.Equal(t, "ok", res.Answer)
		assert.Contains(t, strings.Join(res.Notes, " "), "could not say whether llama3.2 supports tool calling")
	})
	t.Run("tool calls in a reply cut by the window", func(t *testing.T) {
		_, c := newFake(t, func(s *ollamatest.Stream) {
			s.Content("Let me")
			s.ToolCalls(call("catalog", map[string]any{}))
			s.Done("length", 300, 3796)
		})
		tools := &fakeTools{}
		res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: tools})
		require.NoError(t, err)
		assert.True(t, res.Truncated)
		assert.Empty(t, tools.logged())
		require.Len(t, res.ToolCalls, 1)
		assert.Contains(t, res.ToolCalls[0].Error, "cut by the window")
	})
	t.Run("empty tool result", func(t *testing.T) {
		srv, c := newFake(t, ollamatest.CallTools(call("catalog", map[string]any{})), ollamatest.Answer(300, "nothing there"))
		_, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: &fakeTools{}})
		require.NoError(t, err)
		sent := srv.Chats()
		msgs := sent[1].Messages
		assert.Equal(t, "no results", msgs[len(msgs)-1].Content)
	})
}

// Chat asks the server once per model for its capabilities.
func TestChatCachesCapabilities(t *testing.T) {
	srv, c := newFake(t, ollamatest.Answer(300, "ok"))
	for range 3 {
		_, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: &fakeTools{}})
		require.NoError(t, err)
	}
	assert.Len(t, srv.Requests("/api/show"), 1)
}
