package abstract

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
	"github.com/loomwork/loom/backend/tokens"
)

// fakeOllama speaks Ollama's /api/generate as the real server does: one
// JSON object for "stream": false, NDJSON lines otherwise, and
// {"error": ...} bodies with the real status codes.
type fakeOllama struct {
	// reply answers each request; the default answers with summary.
	reply   func(w http.ResponseWriter, r *http.Request, req map[string]any)
	summary string

	mu       sync.Mutex
	requests []map[string]any // every request body, as sent on the wire
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/generate" {
		http.NotFound(w, r)
		return
	}
	var req map[string]any
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	if f.reply != nil {
		f.reply(w, r, req)
		return
	}
	writeJSON(w, http.StatusOK, generateResponse(req["model"], f.summary, true))
}

func (f *fakeOllama) sent() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.requests...)
}

// generateResponse is a final /api/generate object, counters and all.
func generateResponse(model any, response string, done bool) map[string]any {
	r := map[string]any{
		"model": model, "created_at": "2026-01-02T15:04:05.123456789Z",
		"response": response, "done": done,
	}
	if done {
		r["done_reason"] = "stop"
		r["context"] = []int{128006, 882, 128007}
		r["total_duration"] = 1843551042
		r["load_duration"] = 20561458
		r["prompt_eval_count"] = 212
		r["prompt_eval_duration"] = 148000000
		r["eval_count"] = 31
		r["eval_duration"] = 1654000000
	}
	return r
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// newOllama starts f on a loopback address and returns a summariser for
// llama3.2 that talks to it.
func newOllama(t *testing.T, f *fakeOllama) (*Ollama, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	base, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return &Ollama{Client: api.NewClient(base, srv.Client()), Model: "llama3.2", Count: tokens.Default().Count}, srv
}

func TestOllamaSummary(t *testing.T) {
	src := readFixture(t, "loading-decision-tree.md")
	count := tokens.Default().Count
	maxTokens := Target(Summary, count(src)) // 35 tokens: 23 words
	f := &fakeOllama{summary: "Summary: \"Relevant nodes load by score until the budget is spent; the rest are listed in the manifest.\""}
	o, _ := newOllama(t, f)

	got, err := o.Summarize(context.Background(), src, Summary, maxTokens)
	require.NoError(t, err)
	assert.Equal(t, "Relevant nodes load by score until the budget is spent; the rest are listed in the manifest.", got)
	assert.Equal(t, "ollama/llama3.2", o.ID())

	sent := f.sent()
	require.Len(t, sent, 1)
	req := sent[0]
	assert.Equal(t, "llama3.2", req["model"])
	assert.Equal(t, false, req["stream"], "stream must be sent as false, not left out")
	prompt, _ := req["prompt"].(string)
	assert.Contains(t, prompt, "Summarise the following section in at most 23 words.")
	assert.Contains(t, prompt, "Output only the summary.")
	assert.Contains(t, prompt, strings.TrimSpace(src))
	assert.Equal(t, map[string]any{"num_predict": float64(2 * maxTokens), "temperature": float64(0)}, req["options"])
}

func TestOllamaEssence(t *testing.T) {
	src := readFixture(t, "concept-threshold.md")
	f := &fakeOllama{summary: "**Essence:** New content joins every concept\nabove a 0.8 similarity threshold, or founds a new one."}
	o, _ := newOllama(t, f)

	got, err := o.Summarize(context.Background(), src, Essence, 30)
	require.NoError(t, err)
	assert.Equal(t, "New content joins every concept above a 0.8 similarity threshold, or founds a new one.", got)
	prompt, _ := f.sent()[0]["prompt"].(string)
	assert.Contains(t, prompt, "in one sentence of at most 20 words.")
	assert.Contains(t, prompt, "Output only the sentence.")
}

func TestOllamaCutsALongReply(t *testing.T) {
	count := tokens.Default().Count
	src := readFixture(t, "ranking-signals.md")
	first := "Content nodes are scored by weighted signals."
	second := "Semantic relevance and hop distance weigh most."
	third := "Staleness, content size, provenance and link density weigh less, and every weight can be tuned by the testing framework in section 8."
	f := &fakeOllama{summary: first + " " + second + " " + third}
	o, _ := newOllama(t, f)

	maxTokens := count(first+" "+second) + 3
	got, err := o.Summarize(context.Background(), src, Summary, maxTokens)
	require.NoError(t, err)
	assert.Equal(t, first+" "+second, got, "cut at the last sentence that fits")

	got, err = o.Summarize(context.Background(), src, Summary, 6)
	require.NoError(t, err)
	assert.LessOrEqual(t, count(got), 6)
	assert.True(t, strings.HasSuffix(got, "…") && strings.HasPrefix(first, strings.TrimSuffix(got, "…")), "cut at a word: %q", got)
}

func TestOllamaStreamedReply(t *testing.T) {
	// A server (or proxy) that streams although asked not to: the chunks
	// are joined.
	src := readFixture(t, "ranking-signals.md")
	f := &fakeOllama{reply: func(w http.ResponseWriter, _ *http.Request, req map[string]any) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		enc := json.NewEncoder(w)
		for _, chunk := range []string{"Nodes are", " scored by", " weighted signals."} {
			_ = enc.Encode(generateResponse(req["model"], chunk, false))
			w.(http.Flusher).Flush()
		}
		_ = enc.Encode(generateResponse(req["model"], "", true))
	}}
	o, _ := newOllama(t, f)
	got, err := o.Summarize(context.Background(), src, Summary, 40)
	require.NoError(t, err)
	assert.Equal(t, "Nodes are scored by weighted signals.", got)
}

func TestOllamaSummaryThatFitsAsksNothing(t *testing.T) {
	f := &fakeOllama{summary: "unused"}
	o, _ := newOllama(t, f)
	got, err := o.Summarize(context.Background(), "A short node.", Summary, 50)
	require.NoError(t, err)
	assert.Equal(t, "A short node.", got)
	assert.Empty(t, f.sent())
}

func TestOllamaFailures(t *testing.T) {
	src := readFixture(t, "loading-decision-tree.md")
	tests := []struct {
		name  string
		reply func(w http.ResponseWriter, r *http.Request, req map[string]any)
		// closed stops the server before the request: connection refused.
		closed  bool
		timeout time.Duration
		kind    error
		msg     []string
	}{
		{
			name: "model not installed",
			reply: func(w http.ResponseWriter, _ *http.Request, req map[string]any) {
				writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model %q not found, try pulling it first", req["model"])})
			},
			kind: ErrModelMissing,
			msg:  []string{`summarise with ollama/llama3.2: model not found — run "ollama pull llama3.2"`},
		},
		{
			name:  "404 from something that is not Ollama",
			reply: func(w http.ResponseWriter, r *http.Request, _ map[string]any) { http.NotFound(w, r) },
			kind:  ErrServer,
			msg:   []string{"HTTP 404", "404 page not found", "is this address an Ollama server?"},
		},
		{
			name: "server error",
			reply: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "llama runner process has terminated: signal: killed"})
			},
			kind: ErrServer,
			msg:  []string{"summarise with ollama/llama3.2: Ollama failed with HTTP 500", "llama runner process has terminated"},
		},
		{
			name: "garbage body",
			reply: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<html><body>It works!</body></html>\n"))
			},
			kind: ErrBadReply,
			msg:  []string{"summarise with ollama/llama3.2: Ollama sent an error or an unreadable reply", "It works!"},
		},
		{
			name: "wrong JSON types",
			reply: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				_, _ = w.Write([]byte(`{"model":"llama3.2","response":42,"done":true}` + "\n"))
			},
			kind: ErrBadReply,
			msg:  []string{"not a generate response"},
		},
		{
			name: "error in the middle of a stream",
			reply: func(w http.ResponseWriter, _ *http.Request, req map[string]any) {
				enc := json.NewEncoder(w)
				_ = enc.Encode(generateResponse(req["model"], "Nodes are", false))
				_ = enc.Encode(map[string]string{"error": "an error was encountered while running the model: unexpected EOF"})
			},
			kind: ErrBadReply,
			msg:  []string{"unexpected EOF"},
		},
		{
			name: "stream that stops before done",
			reply: func(w http.ResponseWriter, _ *http.Request, req map[string]any) {
				_ = json.NewEncoder(w).Encode(generateResponse(req["model"], "Nodes are", false))
			},
			kind: ErrBadReply,
			msg:  []string{"the reply ended before Ollama said it was done"},
		},
		{
			name: "empty reply",
			reply: func(w http.ResponseWriter, _ *http.Request, req map[string]any) {
				writeJSON(w, http.StatusOK, generateResponse(req["model"], "  \n ", true))
			},
			kind: ErrBadReply,
			msg:  []string{`the model replied with no text (done_reason "stop")`},
		},
		{
			name:  "empty body",
			reply: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) { w.WriteHeader(http.StatusOK) },
			kind:  ErrBadReply,
			msg:   []string{"empty body"},
		},
		{
			name:   "connection refused",
			closed: true,
			kind:   ErrUnreachable,
			msg:    []string{"summarise with ollama/llama3.2: Ollama is not reachable", "connection refused", "start it with `ollama serve`"},
		},
		{
			name: "too slow",
			reply: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
				<-r.Context().Done() // never answers: only the timeout can end the wait
			},
			timeout: 50 * time.Millisecond,
			kind:    ErrUnreachable,
			msg:     []string{"Ollama did not answer within 50ms"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, srv := newOllama(t, &fakeOllama{reply: tt.reply})
			o.Timeout = tt.timeout
			if tt.closed {
				srv.Close()
			}
			got, err := o.Summarize(context.Background(), src, Summary, 35)
			require.Error(t, err)
			assert.Empty(t, got)
			assert.ErrorIs(t, err, tt.kind)
			var oe *OllamaError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "llama3.2", oe.Model)
			for _, m := range tt.msg {
				assert.Contains(t, err.Error(), m)
			}

			// With a fallback the same failure gives the fallback's text.
			count := tokens.Default().Count
			o.Fallback = Extractive{Count: count}
			got, err = o.Summarize(context.Background(), src, Summary, 35)
			want, wantErr := Extractive{Count: count}.Summarize(context.Background(), src, Summary, 35)
			require.NoError(t, wantErr)
			assert.Equal(t, want, got)
			assert.ErrorIs(t, err, ErrFellBack)
			assert.ErrorIs(t, err, tt.kind, "the cause stays visible")
			assert.Equal(t, ExtractiveID, MadeBy(o, err))
			assert.Contains(t, err.Error(), "(summarised with extractive/v1 instead)")
		})
	}
}

// A summariser whose Ollama never answers says so at 10 s, calls it stalled
// at 30 s and every 30 s after, and gives up at the default timeout even
// though none was set (0 used to mean "wait for ever"). The test clock
// moves only by ticks, and nothing can answer.
func TestOllamaSummariserSaysItIsWaitingAndGivesUp(t *testing.T) {
	o, srv := newOllama(t, &fakeOllama{reply: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		<-r.Context().Done()
	}})
	clock := waittest.NewClock()
	var notices []wait.Notice
	o.URL, o.Wait, o.Notify = srv.URL, wait.Options{Clock: clock}, func(n wait.Notice) { notices = append(notices, n) }
	stop := clock.Drive(time.Second)
	got, err := o.Summarize(context.Background(), readFixture(t, "loading-decision-tree.md"), Essence, 30)
	stop()
	assert.Empty(t, got)
	require.ErrorIs(t, err, ErrUnreachable)
	assert.Equal(t, "summarise with ollama/llama3.2: Ollama at "+srv.URL+" did not answer within 2 min, so Loom gave up: is it running (`ollama serve`), and is model llama3.2 still loading (`ollama ps`)?", err.Error())
	require.Len(t, notices, 4, "10 s, 30 s, 1 min, 1 min 30 s")
	assert.Equal(t, "Waiting for Ollama at "+srv.URL+" to state the essence of a section with model llama3.2: nothing yet after 10 s; giving up after 2 min of silence.", notices[0].Message)
	assert.True(t, notices[1].Stalled)
	assert.Equal(t, DefaultTimeout, notices[1].Limit)
}

func TestOllamaCallerCancelsNoFallback(t *testing.T) {
	started := make(chan struct{})
	f := &fakeOllama{reply: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		close(started)
		<-r.Context().Done()
	}}
	o, _ := newOllama(t, f)
	o.Fallback = Extractive{Count: o.Count}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	got, err := o.Summarize(ctx, readFixture(t, "loading-decision-tree.md"), Summary, 35)
	assert.Empty(t, got)
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, ErrFellBack)
}

func TestOllamaMisconfigured(t *testing.T) {
	count := tokens.Default().Count
	src := readFixture(t, "loading-decision-tree.md")
	tests := []struct {
		name string
		o    *Ollama
		kind error
		msg  string
	}{
		{"no client", &Ollama{Model: "llama3.2", Count: count}, ErrUnreachable, "no Ollama client configured"},
		{"no model", &Ollama{Client: api.NewClient(&url.URL{Scheme: "http", Host: "127.0.0.1:9"}, http.DefaultClient), Count: count}, ErrModelMissing, "no model named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.o.Summarize(context.Background(), src, Essence, 30)
			assert.ErrorIs(t, err, tt.kind)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
	_, err := (&Ollama{Model: "llama3.2"}).Summarize(context.Background(), src, Summary, 30)
	assert.ErrorContains(t, err, "summarise with ollama/llama3.2: no token Counter")
	_, err = (&Ollama{Model: "llama3.2", Count: count}).Summarize(context.Background(), "\n", Summary, 30)
	assert.ErrorIs(t, err, ErrEmptyText)
}

func TestCleanReply(t *testing.T) {
	tests := []struct {
		name, in string
		level    Level
		want     string
	}{
		{"plain", "Nodes load by score.", Summary, "Nodes load by score."},
		{"thinking", "<think>\nThe user wants…\n</think>\n\nNodes load by score.", Summary, "Nodes load by score."},
		{"preamble", "Here is a summary of the section in 23 words:\n\nNodes load by score.", Summary, "Nodes load by score."},
		{"label", "Summary: Nodes load by score.", Summary, "Nodes load by score."},
		{"bold label", "**Summary:** Nodes load by score.", Summary, "Nodes load by score."},
		{"quoted", "\"Nodes load by score.\"", Summary, "Nodes load by score."},
		{"curly quotes", "“Nodes load by score.”", Essence, "Nodes load by score."},
		{"inner quotes stay", `"Load" nodes by "score".`, Summary, `"Load" nodes by "score".`},
		{"fenced", "```\nNodes load by score.\n```", Summary, "Nodes load by score."},
		{"summary keeps lines", "- Nodes load by score.\n- The rest is listed.", Summary, "- Nodes load by score.\n- The rest is listed."},
		{"essence is one line", "Nodes load\nby score.", Essence, "Nodes load by score."},
		{"label then quotes", "Essence: 'Nodes load by score.'", Essence, "Nodes load by score."},
		{"nothing left", "Summary:", Summary, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, cleanReply(tt.in, tt.level))
		})
	}
}
