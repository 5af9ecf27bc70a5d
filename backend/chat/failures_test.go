package chat

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
)

// TestChatFailures covers each way a chat can fail: the error's kind and
// sentence, and that what arrived before the failure is kept.
func TestChatFailures(t *testing.T) {
	status := func(code int, body string) script {
		return func(s *ndjson, _ api.ChatRequest) {
			s.w.Header().Set("Content-Type", "application/json; charset=utf-8")
			s.w.WriteHeader(code)
			_, _ = s.w.Write([]byte(body))
		}
	}
	for _, tc := range []struct {
		name        string
		model       string
		script      script
		kind        error
		msg         []string // substrings of the error
		wantAnswer  string
		wantChunks0 bool
	}{
		{
			name: "model not installed", model: "llama9",
			kind: ErrModelMissing, msg: []string{"model llama9 is not installed", "run `ollama pull llama9`"},
		},
		{
			name: "HTTP 500 with an error", script: status(500, `{"error":"llama runner process has terminated: exit status 2"}`),
			kind: ErrServer, msg: []string{"HTTP 500", "llama runner process has terminated"},
		},
		{
			name: "HTTP 500 with an empty body", script: status(500, ""),
			kind: ErrServer, msg: []string{"HTTP 500", "Internal Server Error"},
		},
		{
			name: "HTTP 503 not JSON", script: status(503, "upstream busy\n"),
			kind: ErrServer, msg: []string{"HTTP 503", "upstream busy"},
		},
		{
			name: "malformed line mid-stream",
			script: func(s *ndjson, _ api.ChatRequest) {
				s.content("Tokens ", "expire ")
				s.raw("<html>502 Bad Gateway</html>\n")
				s.content("never seen")
			},
			kind: ErrMalformed, msg: []string{"Ollama sent a malformed reply", `"<html>502 Bad Gateway</html>"`, "after 2 chunks"},
			wantAnswer: "Tokens expire ",
		},
		{
			name: "chunk of the wrong shape",
			script: func(s *ndjson, _ api.ChatRequest) {
				s.content("Tokens ")
				s.raw(`{"model":"gemma:2b","message":"not an object","done":false}` + "\n")
			},
			kind: ErrMalformed, msg: []string{"Ollama sent a malformed reply"},
			wantAnswer: "Tokens ",
		},
		{
			name: "truncated last line",
			script: func(s *ndjson, _ api.ChatRequest) {
				s.content("Tokens ", "expire ")
				s.raw(`{"model":"gemma:2b","created_at":"2026-01-02T15:04:05Z","message":{"role":"assistant","content":"aft`)
			},
			kind: ErrMalformed, msg: []string{"Ollama sent a malformed reply", "not JSON"},
			wantAnswer: "Tokens expire ",
		},
		{
			name: "error sent mid-stream",
			script: func(s *ndjson, _ api.ChatRequest) {
				s.content("Tokens ")
				s.line(map[string]any{"error": "an error was encountered while running the model: unexpected EOF"})
			},
			kind: ErrServer, msg: []string{"stopped with an error while answering", "unexpected EOF"},
			wantAnswer: "Tokens ",
		},
		{
			name: "connection dropped mid-stream",
			script: func(s *ndjson, _ api.ChatRequest) {
				s.content("Tokens ", "expire ")
				panic(http.ErrAbortHandler) // the server closes the connection
			},
			kind: ErrDropped, msg: []string{"dropped in the middle of the reply", "after 2 chunks", "partial answer is kept"},
			wantAnswer: "Tokens expire ",
		},
		{
			name: "stream ends without a final chunk",
			script: func(s *ndjson, _ api.ChatRequest) {
				s.content("Tokens ", "expire ")
			},
			kind: ErrDropped, msg: []string{"dropped in the middle of the reply"},
			wantAnswer: "Tokens expire ",
		},
		{
			name:   "closed without answering",
			script: func(s *ndjson, _ api.ChatRequest) { s.w.WriteHeader(http.StatusOK) },
			kind:   ErrDropped, msg: []string{"closed the connection without answering"},
		},
		{
			name: "empty line",
			script: func(s *ndjson, _ api.ChatRequest) {
				s.content("a")
				s.raw("\n")
			},
			kind: ErrMalformed, msg: []string{"an empty line where a JSON chunk should be"},
			wantAnswer: "a",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := tc.model
			if model == "" {
				model = "gemma:2b"
			}
			_, c := newFake(t, tc.script)
			res, err := c.Chat(context.Background(), Turn{Model: model, Window: 4096, Question: "When do tokens expire?", Count: words})
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.kind)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, errorCodes[tc.kind], e.Code())
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
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, err := New(url)
	require.NoError(t, err)
	for _, tools := range []Tools{nil, &fakeTools{}} {
		res, err := c.Chat(context.Background(), Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: tools})
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrUnreachable)
		assert.Contains(t, err.Error(), "Ollama is not reachable at "+url+": start it with `ollama serve`")
		assert.NotNil(t, res)
	}
}

// A failure in the second round keeps the first round's tool records and
// what streamed before it.
func TestChatFailureAfterToolsKeepsTheRecords(t *testing.T) {
	_, c := newFake(t,
		func(s *ndjson, _ api.ChatRequest) {
			s.content("Searching.")
			s.toolCalls(call{"search_context", map[string]any{"query": "expiry"}})
			s.done("stop", 500, 10)
		},
		func(s *ndjson, _ api.ChatRequest) {
			s.content("Tokens expire")
			panic(http.ErrAbortHandler)
		})
	tools := &fakeTools{results: map[string]ToolResult{ToolSearchContext: {Text: "[n7] one hour", NodeIDs: []string{"n7"}}}}
	res, err := c.Chat(context.Background(), Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: tools, Count: words})
	require.ErrorIs(t, err, ErrDropped)
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
	f := &fakeOllama{models: standardModels(), scripts: []script{func(s *ndjson, req api.ChatRequest) {
		s.content("Tokens ", "expire ")
		<-s.ctx.Done() // then nothing, as a stuck runner does, until the client gives up
	}}}
	clock := waittest.NewClock()
	c := newClientFor(t, f, WithIdleTimeout(DefaultIdleTimeout), WithWait(wait.Options{Clock: clock}))
	var notices []wait.Notice
	stop := func() {}
	res, err := c.Chat(context.Background(), Turn{Model: "gemma:2b", Window: 4096, Question: "q?",
		OnToken: func(s string) {
			if s == "expire " { // all that will come: let time run
				stop = clock.Drive(time.Second)
			}
		},
		OnWait: func(n wait.Notice) { notices = append(notices, n) },
	})
	stop()

	require.ErrorIs(t, err, ErrTimeout)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "timeout", e.Code())
	assert.Equal(t, "gemma:2b", e.Model)
	assert.Equal(t, c.URL(), e.URL)
	assert.Contains(t, err.Error(), "Ollama at "+c.URL()+" stalled in the middle of its reply: it sent nothing new for 5 min after 2 chunks (asked to answer with model gemma:2b), so Loom gave up; the partial answer is kept")
	assert.Equal(t, "Tokens expire ", res.Answer)

	require.NotEmpty(t, notices)
	assert.Equal(t, 10*time.Second, notices[0].Silent, "the first word comes at 10 s")
	assert.False(t, notices[0].Stalled)
	assert.True(t, notices[0].Midstream)
	require.Greater(t, len(notices), 1)
	stalled := notices[1]
	assert.Equal(t, 30*time.Second, stalled.Silent, "a stalled stream is reported at 30 s")
	assert.True(t, stalled.Stalled)
	assert.Equal(t, "Ollama at "+c.URL()+" has sent nothing new for 30 s in the middle of its reply (asked to answer with model gemma:2b): it may be stuck; giving up after 5 min of silence.", stalled.Message)
	assert.Equal(t, "gemma:2b", stalled.Model)
	assert.Equal(t, DefaultIdleTimeout, stalled.Limit)
	last := notices[len(notices)-1]
	assert.Equal(t, 4*time.Minute+30*time.Second, last.Silent, "reminders every 30 s until the limit")
	assert.Len(t, notices, 10)
}

// Nothing at all: the model may be loading. The client's own notifier
// hears of it when the turn sets none.
func TestChatReportsOllamaSendingNothingAndGivesUp(t *testing.T) {
	f := &fakeOllama{models: standardModels(), silent: []string{"/api/chat"}}
	clock := waittest.NewClock()
	var notices []wait.Notice
	c := newClientFor(t, f, WithIdleTimeout(2*time.Minute), WithWait(wait.Options{Clock: clock}),
		WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
	stop := clock.Drive(time.Second) // nothing will ever arrive
	res, err := c.Chat(context.Background(), Turn{Model: "gemma:2b", Window: 4096, Question: "q?"})
	stop()

	require.ErrorIs(t, err, ErrTimeout)
	assert.Contains(t, err.Error(), "Ollama at "+c.URL()+" sent nothing for 2 min when asked to answer with model gemma:2b, so Loom gave up: is it running (`ollama serve`), and is model gemma:2b still loading (`ollama ps`)?")
	assert.Empty(t, res.Answer)
	require.Len(t, notices, 4, "10 s, 30 s, 1 min, 1 min 30 s")
	assert.Equal(t, "Waiting for Ollama at "+c.URL()+" to answer with model gemma:2b: nothing yet after 10 s; giving up after 2 min of silence.", notices[0].Message)
	assert.Equal(t, "Ollama at "+c.URL()+" has sent nothing for 30 s since it was asked to answer with model gemma:2b: the model may be loading or stuck; giving up after 2 min of silence.", notices[1].Message)
}

// /api/show and /api/tags are short requests: a word at 10 s, then the
// request timeout.
func TestModelInfoSaysItIsWaitingAndGivesUp(t *testing.T) {
	for _, tc := range []struct {
		name, path, what string
		call             func(*Client) error
	}{
		{"show", "/api/show", "describe model llama3.2", func(c *Client) error {
			_, err := c.Model(context.Background(), "llama3.2")
			return err
		}},
		{"tags", "/api/tags", "list models", func(c *Client) error {
			_, err := c.Models(context.Background())
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeOllama{models: standardModels(), silent: []string{tc.path}}
			clock := waittest.NewClock()
			var notices []wait.Notice
			c := newClientFor(t, f, WithWait(wait.Options{Clock: clock}), WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
			stop := clock.Drive(time.Second)
			err := tc.call(c)
			stop()
			require.ErrorIs(t, err, ErrTimeout)
			assert.Contains(t, err.Error(), "Ollama at "+c.URL()+" sent nothing for 30 s when asked to "+tc.what+", so Loom gave up")
			require.Len(t, notices, 1, "a word at 10 s; the limit comes at the stall mark")
			assert.Equal(t, "Waiting for Ollama at "+c.URL()+" to "+tc.what+": nothing yet after 10 s; giving up after 30 s of silence.", notices[0].Message)
		})
	}
}

func TestChatCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	_, c := newFake(t, func(s *ndjson, _ api.ChatRequest) {
		s.content("Tokens ")
		<-s.ctx.Done()
	})
	res, err := c.Chat(ctx, Turn{Model: "gemma:2b", Window: 4096, Question: "q?", OnToken: func(string) { cancel() }})
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
	assert.Equal(t, "Tokens ", res.Answer)
}

func TestDescribeLine(t *testing.T) {
	long := strings.Repeat("x", 200)
	assert.Equal(t, "an empty line where a JSON chunk should be", describeLine(""))
	assert.Equal(t, `a chunk that is not JSON: "oops"`, describeLine("oops"))
	assert.Contains(t, describeLine(long), "(200 bytes)")
}
