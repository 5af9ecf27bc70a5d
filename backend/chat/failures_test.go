package chat_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
)

// TestChatFailures covers each way a chat can fail: the error's code and
// sentence, and that what arrived before the failure is kept. (HTTP errors,
// error lines, malformed and dropped streams all carry
// errs.OllamaBadStream; their sentences tell them apart.)
func TestChatFailures(t *testing.T) {
	status := func(code int, body string) ollamatest.Reply {
		return func(s *ollamatest.Stream) { s.Status(code, body) }
	}
	for _, tc := range []struct {
		name       string
		model      string
		reply      ollamatest.Reply
		code       errs.Code
		msg        []string // substrings of the error
		wantAnswer string
	}{
		{
			name: "model not installed", model: "llama9",
			code: errs.OllamaModelMissing, msg: []string{"model llama9 is not installed", "run `ollama pull llama9`"},
		},
		{
			name: "HTTP 500 with an error", reply: status(500, `{"error":"llama runner process has terminated: exit status 2"}`),
			code: errs.OllamaBadStream, msg: []string{"HTTP 500", "llama runner process has terminated"},
		},
		{
			name: "HTTP 500 with an empty body", reply: status(500, ""),
			code: errs.OllamaBadStream, msg: []string{"HTTP 500", "Internal Server Error"},
		},
		{
			name: "HTTP 503 not JSON", reply: status(503, "upstream busy\n"),
			code: errs.OllamaBadStream, msg: []string{"HTTP 503", "upstream busy"},
		},
		{
			name: "malformed line mid-stream",
			reply: func(s *ollamatest.Stream) {
				s.Content("Tokens ", "expire ")
				s.Line("<html>502 Bad Gateway</html>")
				s.Content("never seen")
			},
			code: errs.OllamaBadStream, msg: []string{"Ollama sent a malformed reply", `"<html>502 Bad Gateway</html>"`, "after 2 chunks"},
			wantAnswer: "Tokens expire ",
		},
		{
			name: "chunk of the wrong shape",
			reply: func(s *ollamatest.Stream) {
				s.Content("Tokens ")
				s.Line(`{"model":"gemma:2b","message":"not an object","done":false}`)
			},
			code: errs.OllamaBadStream, msg: []string{"Ollama sent a malformed reply"},
			wantAnswer: "Tokens ",
		},
		{
			name: "truncated last line",
			reply: func(s *ollamatest.Stream) {
				s.Content("Tokens ", "expire ")
				s.Partial(`{"model":"gemma:2b","created_at":"2026-01-02T15:04:05Z","message":{"role":"assistant","content":"aft`)
			},
			code: errs.OllamaBadStream, msg: []string{"Ollama sent a malformed reply", "not JSON"},
			wantAnswer: "Tokens expire ",
		},
		{
			name: "error sent mid-stream",
			reply: func(s *ollamatest.Stream) {
				s.Content("Tokens ")
				s.Error("an error was encountered while running the model: unexpected EOF")
			},
			code: errs.OllamaBadStream, msg: []string{"stopped with an error while answering", "unexpected EOF"},
			wantAnswer: "Tokens ",
		},
		{
			name: "connection dropped mid-stream",
			reply: func(s *ollamatest.Stream) {
				s.Content("Tokens ", "expire ")
				s.Drop() // the server closes the connection
			},
			code: errs.OllamaBadStream, msg: []string{"dropped in the middle of the reply", "after 2 chunks", "partial answer is kept"},
			wantAnswer: "Tokens expire ",
		},
		{
			name: "stream ends without a final chunk",
			reply: func(s *ollamatest.Stream) {
				s.Content("Tokens ", "expire ")
			},
			code: errs.OllamaBadStream, msg: []string{"dropped in the middle of the reply"},
			wantAnswer: "Tokens expire ",
		},
		{
			name:  "closed without answering",
			reply: func(s *ollamatest.Stream) { s.Status(200, "") },
			code:  errs.OllamaBadStream, msg: []string{"closed the connection without answering"},
		},
		{
			name: "empty line",
			reply: func(s *ollamatest.Stream) {
				s.Content("a")
				s.Line("")
			},
			code: errs.OllamaBadStream, msg: []string{"an empty line where a JSON chunk should be"},
			wantAnswer: "a",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := tc.model
			if model == "" {
				model = "gemma:2b"
			}
			srv, c := newFake(t, tc.reply)
			res, err := c.Chat(context.Background(), chat.Turn{Model: model, Window: 4096, Question: "When do tokens expire?", Count: words})
			require.Error(t, err)
			assert.Equal(t, tc.code, errs.CodeOf(err))
			var e *ollama.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, srv.URL, e.URL)
			assert.Equal(t, model, e.Model)
			for _, m := range tc.msg {
				assert.Contains(t, err.Error(), m)
			}
			require.NotNil(t, res)
			assert.Equal(t, tc.wantAnswer, res.Answer)
			assert.Equal(t, 1, res.Rounds)
		})
	}
}

func TestChatUnreachable(t *testing.T) {
	url := ollamatest.Closed(t)
	oc, err := ollama.New(url)
	require.NoError(t, err)
	c := chat.New(oc)
	for _, tools := range []chat.Tools{nil, &fakeTools{}} {
		res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: tools})
		require.Error(t, err)
		assert.Equal(t, errs.OllamaNotRunning, errs.CodeOf(err))
		assert.Contains(t, err.Error(), "Ollama is not reachable at "+url+": start it with `ollama serve`")
		assert.NotNil(t, res)
	}
}

// A failure in the second round keeps the first round's tool records and
// what streamed before it.
func TestChatFailureAfterToolsKeepsTheRecords(t *testing.T) {
	_, c := newFake(t,
		func(s *ollamatest.Stream) {
			s.Content("Searching.")
			s.ToolCalls(call("search_context", map[string]any{"query": "expiry"}))
			s.Done("stop", 500, 10)
		},
		func(s *ollamatest.Stream) {
			s.Content("Tokens expire")
			s.Drop()
		})
	tools := &fakeTools{results: map[string]chat.ToolResult{chat.ToolSearchContext: {Text: "[n7] one hour", NodeIDs: []string{"n7"}}}}
	res, err := c.Chat(context.Background(), chat.Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: tools, Count: words})
	require.Equal(t, errs.OllamaBadStream, errs.CodeOf(err))
	require.ErrorContains(t, err, "dropped in the middle of the reply")
	require.Len(t, res.ToolCalls, 1)
	assert.Equal(t, []string{"n7"}, res.ToolCalls[0].NodeIDs)
	assert.Equal(t, "Searching.\n\nTokens expire", res.Answer)
	assert.Equal(t, 2, res.Rounds)
	assert.Len(t, res.Sent, 2)
	// The partial answer is in the turn's messages too.
	assert.Equal(t, "Tokens expire", res.Messages[len(res.Messages)-1].Content)
}

// A stream that stops in the middle and never resumes is reported at 10 s,
// as stalled at 30 s and every 30 s after, and given up at the idle
// timeout with a typed error; the partial answer is kept. The clock moves
// only once both chunks are in, so nothing here depends on timing.
func TestChatReportsAStalledStreamAndGivesUpAtTheIdleTimeout(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithChat(func(s *ollamatest.Stream) {
		s.Content("Tokens ", "expire ")
		s.Stall() // then nothing, as a stuck runner does, until the client gives up
	}))
	clock := waittest.NewClock()
	oc, c := clientFor(t, srv, nil, ollama.WithIdleTimeout(ollama.DefaultIdleTimeout), ollama.WithWait(wait.Options{Clock: clock}))
	var notices []wait.Notice
	stop := func() {}
	res, err := c.Chat(context.Background(), chat.Turn{Model: "gemma:2b", Window: 4096, Question: "q?",
		OnToken: func(s string) {
			if s == "expire " { // all that will come: let time run
				stop = clock.Drive(time.Second)
			}
		},
		OnWait: func(n wait.Notice) { notices = append(notices, n) },
	})
	stop()

	assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err))
	var e *ollama.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "gemma:2b", e.Model)
	assert.Equal(t, oc.URL(), e.URL)
	assert.Contains(t, err.Error(), "Ollama at "+oc.URL()+" stalled in the middle of its reply: it sent nothing new for 5 min after 2 chunks (asked to answer with model gemma:2b), so Loom gave up; the partial answer is kept")
	assert.Equal(t, "Tokens expire ", res.Answer)

	require.NotEmpty(t, notices)
	assert.Equal(t, 10*time.Second, notices[0].Silent, "the first word comes at 10 s")
	assert.False(t, notices[0].Stalled)
	assert.True(t, notices[0].Midstream)
	require.Greater(t, len(notices), 1)
	stalled := notices[1]
	assert.Equal(t, 30*time.Second, stalled.Silent, "a stalled stream is reported at 30 s")
	assert.True(t, stalled.Stalled)
	assert.Equal(t, "Ollama at "+oc.URL()+" has sent nothing new for 30 s in the middle of its reply (asked to answer with model gemma:2b): it may be stuck; giving up after 5 min of silence.", stalled.Message)
	assert.Equal(t, "gemma:2b", stalled.Model)
	assert.Equal(t, ollama.DefaultIdleTimeout, stalled.Limit)
	last := notices[len(notices)-1]
	assert.Equal(t, 4*time.Minute+30*time.Second, last.Silent, "reminders every 30 s until the limit")
	assert.Len(t, notices, 10)
}

// Nothing at all: the model may be loading. The client's own notifier
// hears of it when the turn sets none.
func TestChatReportsOllamaSendingNothingAndGivesUp(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.Silent("/api/chat"))
	clock := waittest.NewClock()
	var notices []wait.Notice
	oc, c := clientFor(t, srv, nil, ollama.WithIdleTimeout(2*time.Minute), ollama.WithWait(wait.Options{Clock: clock}),
		ollama.WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
	stop := clock.Drive(time.Second) // nothing will ever arrive
	res, err := c.Chat(context.Background(), chat.Turn{Model: "gemma:2b", Window: 4096, Question: "q?"})
	stop()

	assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "Ollama at "+oc.URL()+" sent nothing for 2 min when asked to answer with model gemma:2b, so Loom gave up: is it running (`ollama serve`), and is model gemma:2b still loading (`ollama ps`)?")
	assert.Empty(t, res.Answer)
	require.Len(t, notices, 4, "10 s, 30 s, 1 min, 1 min 30 s")
	assert.Equal(t, "Waiting for Ollama at "+oc.URL()+" to answer with model gemma:2b: nothing yet after 10 s; giving up after 2 min of silence.", notices[0].Message)
	assert.Equal(t, "Ollama at "+oc.URL()+" has sent nothing for 30 s since it was asked to answer with model gemma:2b: the model may be loading or stuck; giving up after 2 min of silence.", notices[1].Message)
}

func TestChatCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	_, c := newFake(t, func(s *ollamatest.Stream) {
		s.Content("Tokens ")
		s.Stall()
	})
	res, err := c.Chat(ctx, chat.Turn{Model: "gemma:2b", Window: 4096, Question: "q?", OnToken: func(string) { cancel() }})
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
	assert.Equal(t, "Tokens ", res.Answer)
}
