package ollama

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
	"github.com/loomwork/loom/backend/tokens"
)

// readFixture reads one of the sections the abstract package summarises in
// its own tests (backend/abstract/testdata).
func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "abstract", "testdata", name))
	require.NoError(t, err)
	return string(b)
}

// summarizer is a summariser for llama3.2 on the Ollama at url.
func summarizer(t *testing.T, url string, opts ...Option) *Summarizer {
	t.Helper()
	c, err := New(url, opts...)
	require.NoError(t, err)
	return &Summarizer{Client: c, Model: "llama3.2", Count: tokens.Default().Count}
}

func TestOllamaSummary(t *testing.T) {
	src := readFixture(t, "loading-decision-tree.md")
	count := tokens.Default().Count
	maxTokens := abstract.Target(abstract.Summary, count(src)) // 35 tokens: 23 words
	srv := ollamatest.New(t, ollamatest.WithGenerate(ollamatest.Answer(212,
		"Summary: \"Relevant nodes load by score until the budget is spent; the rest are listed in the manifest.\"")))
	s := summarizer(t, srv.URL)

	got, err := s.Summarize(context.Background(), src, abstract.Summary, maxTokens)
	require.NoError(t, err)
	assert.Equal(t, "Relevant nodes load by score until the budget is spent; the rest are listed in the manifest.", got)
	assert.Equal(t, "ollama/llama3.2", s.ID())

	sent := srv.Requests("/api/generate")
	require.Len(t, sent, 1)
	req := sent[0].JSON()
	assert.Equal(t, "llama3.2", req["model"])
	assert.Equal(t, false, req["stream"], "stream must be sent as false, not left out")
	prompt, _ := req["prompt"].(string)
	assert.Contains(t, prompt, "Summarise the following section in at most 23 words.")
	assert.Contains(t, prompt, "Output only the summary.")
	assert.Contains(t, prompt, strings.TrimSpace(src))
	assert.Equal(t, map[string]any{"num_predict": json.Number(strconv.Itoa(2 * maxTokens)), "temperature": json.Number("0")}, req["options"])
}

func TestOllamaEssence(t *testing.T) {
	src := readFixture(t, "concept-threshold.md")
	srv := ollamatest.New(t, ollamatest.WithGenerate(ollamatest.Answer(212,
		"**Essence:** New content joins every concept\nabove a 0.8 similarity threshold, or founds a new one.")))
	s := summarizer(t, srv.URL)

	got, err := s.Summarize(context.Background(), src, abstract.Essence, 30)
	require.NoError(t, err)
	assert.Equal(t, "New content joins every concept above a 0.8 similarity threshold, or founds a new one.", got)
	prompt, _ := srv.Requests("/api/generate")[0].JSON()["prompt"].(string)
	assert.Contains(t, prompt, "in one sentence of at most 20 words.")
	assert.Contains(t, prompt, "Output only the sentence.")
}

func TestOllamaCutsALongReply(t *testing.T) {
	count := tokens.Default().Count
	src := readFixture(t, "ranking-signals.md")
	first := "Content nodes are scored by weighted signals."
	second := "Semantic relevance and hop distance weigh most."
	third := "Staleness, content size, provenance and link density weigh less, and every weight can be tuned by the testing framework in section 8."
	srv := ollamatest.New(t, ollamatest.WithGenerate(ollamatest.Answer(212, first+" "+second+" "+third)))
	s := summarizer(t, srv.URL)

	maxTokens := count(first+" "+second) + 3
	got, err := s.Summarize(context.Background(), src, abstract.Summary, maxTokens)
	require.NoError(t, err)
	assert.Equal(t, first+" "+second, got, "cut at the last sentence that fits")

	got, err = s.Summarize(context.Background(), src, abstract.Summary, 6)
	require.NoError(t, err)
	assert.LessOrEqual(t, count(got), 6)
	assert.True(t, strings.HasSuffix(got, "…") && strings.HasPrefix(first, strings.TrimSuffix(got, "…")), "cut at a word: %q", got)
}

func TestOllamaStreamedReply(t *testing.T) {
	// A server (or proxy) that streams although asked not to: the chunks
	// are joined.
	src := readFixture(t, "ranking-signals.md")
	srv := ollamatest.New(t, ollamatest.WithGenerate(func(s *ollamatest.Stream) {
		s.Content("Nodes are", " scored by", " weighted signals.")
		s.Done("stop", 212, 3)
	}))
	got, err := summarizer(t, srv.URL).Summarize(context.Background(), src, abstract.Summary, 40)
	require.NoError(t, err)
	assert.Equal(t, "Nodes are scored by weighted signals.", got)
}

func TestOllamaSummaryThatFitsAsksNothing(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithGenerate(ollamatest.Answer(1, "unused")))
	got, err := summarizer(t, srv.URL).Summarize(context.Background(), "A short node.", abstract.Summary, 50)
	require.NoError(t, err)
	assert.Equal(t, "A short node.", got)
	assert.Empty(t, srv.Requests())
}

func TestOllamaSummaryFailures(t *testing.T) {
	src := readFixture(t, "loading-decision-tree.md")
	respond := func(status int, body string) []ollamatest.Option {
		return []ollamatest.Option{ollamatest.Respond("/api/generate", status, body)}
	}
	reply := func(r ollamatest.Reply) []ollamatest.Option { return []ollamatest.Option{ollamatest.WithGenerate(r)} }
	tests := []struct {
		name   string
		server []ollamatest.Option
		// closed: nothing listens (connection refused).
		closed  bool
		timeout time.Duration
		code    errs.Code
		msg     []string
	}{
		{
			name:   "model not installed",
			server: []ollamatest.Option{ollamatest.WithModels(ollamatest.Gemma2B())},
			code:   errs.OllamaModelMissing,
			msg:    []string{`summarise with ollama/llama3.2: model not found — run "ollama pull llama3.2"`},
		},
		{
			name:   "404 from something that is not Ollama",
			server: respond(http.StatusNotFound, "404 page not found\n"),
			code:   errs.OllamaBadStream,
			msg:    []string{"HTTP 404", "404 page not found", "is this address an Ollama server?"},
		},
		{
			name:   "server error",
			server: []ollamatest.Option{ollamatest.Fail("/api/generate", http.StatusInternalServerError, "llama runner process has terminated: signal: killed")},
			code:   errs.OllamaBadStream,
			msg:    []string{"summarise with ollama/llama3.2: Ollama failed with HTTP 500", "llama runner process has terminated"},
		},
		{
			name:   "garbage body",
			server: respond(http.StatusOK, "<html><body>It works!</body></html>\n"),
			code:   errs.OllamaBadStream,
			msg:    []string{"summarise with ollama/llama3.2: Ollama sent an error or an unreadable reply", "It works!"},
		},
		{
			name:   "wrong JSON types",
			server: respond(http.StatusOK, `{"model":"llama3.2","response":42,"done":true}`+"\n"),
			code:   errs.OllamaBadStream,
			msg:    []string{"not a generate response"},
		},
		{
			name: "error in the middle of a stream",
			server: reply(func(s *ollamatest.Stream) {
				s.Content("Nodes are")
				s.Error("an error was encountered while running the model: unexpected EOF")
			}),
			code: errs.OllamaBadStream,
			msg:  []string{"unexpected EOF"},
		},
		{
			name:   "stream that stops before done",
			server: reply(func(s *ollamatest.Stream) { s.Content("Nodes are") }),
			code:   errs.OllamaBadStream,
			msg:    []string{"the reply ended before Ollama said it was done"},
		},
		{
			name:   "empty reply",
			server: reply(ollamatest.Answer(212, "  \n ")),
			code:   errs.OllamaBadStream,
			msg:    []string{`the model replied with no text (done_reason "stop")`},
		},
		{
			name:   "empty body",
			server: respond(http.StatusOK, ""),
			code:   errs.OllamaBadStream,
			msg:    []string{"empty body"},
		},
		{
			name:   "connection refused",
			closed: true,
			code:   errs.OllamaNotRunning,
			msg:    []string{"summarise with ollama/llama3.2: Ollama is not reachable", "connection refused", "start it with `ollama serve`"},
		},
		{
			name:    "too slow",
			server:  []ollamatest.Option{ollamatest.Silent("/api/generate")}, // only the timeout can end the wait
			timeout: 50 * time.Millisecond,
			code:    errs.OllamaTimeout,
			msg:     []string{"did not answer within 50ms"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := ollamatest.Closed(t)
			if !tt.closed {
				url = ollamatest.New(t, tt.server...).URL
			}
			var opts []Option
			if tt.timeout > 0 {
				opts = append(opts, WithModelTimeout(tt.timeout))
			}
			s := summarizer(t, url, opts...)
			got, err := s.Summarize(context.Background(), src, abstract.Summary, 35)
			require.Error(t, err)
			assert.Empty(t, got)
			assert.Equal(t, tt.code, errs.CodeOf(err))
			var oe *Error
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "llama3.2", oe.Model)
			assert.Equal(t, url, oe.URL)
			for _, m := range tt.msg {
				assert.Contains(t, err.Error(), m)
			}

			// With a fallback the same failure gives the fallback's text.
			count := tokens.Default().Count
			s.Fallback = abstract.Extractive{Count: count}
			got, err = s.Summarize(context.Background(), src, abstract.Summary, 35)
			want, wantErr := abstract.Extractive{Count: count}.Summarize(context.Background(), src, abstract.Summary, 35)
			require.NoError(t, wantErr)
			assert.Equal(t, want, got)
			assert.ErrorIs(t, err, abstract.ErrFellBack)
			assert.Equal(t, tt.code, errs.CodeOf(err), "the cause stays visible")
			assert.Equal(t, abstract.ExtractiveID, abstract.MadeBy(s, err))
			assert.Contains(t, err.Error(), "(summarised with "+abstract.ExtractiveID+" instead)")
		})
	}
}

// A summariser whose Ollama never answers says so at 10 s, calls it stalled
// at 30 s and every 30 s after, and gives up at the default timeout even
// though none was set. The test clock moves only by ticks, and nothing can
// answer.
func TestOllamaSummariserSaysItIsWaitingAndGivesUp(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.Silent("/api/generate"))
	clock := waittest.NewClock()
	var notices []wait.Notice
	s := summarizer(t, srv.URL, WithWait(wait.Options{Clock: clock}), WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
	stop := clock.Drive(time.Second)
	got, err := s.Summarize(context.Background(), readFixture(t, "loading-decision-tree.md"), abstract.Essence, 30)
	stop()
	assert.Empty(t, got)
	assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err))
	assert.Equal(t, "summarise with ollama/llama3.2: Ollama at "+srv.URL+" did not answer within 2 min, so Loom gave up: is it running (`ollama serve`), and is model llama3.2 still loading (`ollama ps`)?", err.Error())
	require.Len(t, notices, 4, "10 s, 30 s, 1 min, 1 min 30 s")
	assert.Equal(t, "Waiting for Ollama at "+srv.URL+" to state the essence of a section with model llama3.2: nothing yet after 10 s; giving up after 2 min of silence.", notices[0].Message)
	assert.True(t, notices[1].Stalled)
	assert.Equal(t, DefaultModelTimeout, notices[1].Limit)
}

func TestOllamaCallerCancelsNoFallback(t *testing.T) {
	started := make(chan struct{})
	srv := ollamatest.New(t, ollamatest.Silent("/api/generate"), ollamatest.Hook(func(*http.Request) { close(started) }))
	s := summarizer(t, srv.URL)
	s.Fallback = abstract.Extractive{Count: s.Count}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	got, err := s.Summarize(ctx, readFixture(t, "loading-decision-tree.md"), abstract.Summary, 35)
	assert.Empty(t, got)
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, abstract.ErrFellBack)
}

func TestOllamaSummarizerMisconfigured(t *testing.T) {
	count := tokens.Default().Count
	src := readFixture(t, "loading-decision-tree.md")
	nowhere, err := New("http://127.0.0.1:9")
	require.NoError(t, err)
	tests := []struct {
		name string
		s    *Summarizer
		code errs.Code
		msg  string
	}{
		{"no client", &Summarizer{Model: "llama3.2", Count: count}, errs.OllamaNotRunning, "no Ollama client configured"},
		{"no model", &Summarizer{Client: nowhere, Count: count}, errs.OllamaModelMissing, "no model named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.s.Summarize(context.Background(), src, abstract.Essence, 30)
			assert.Equal(t, tt.code, errs.CodeOf(err))
			assert.ErrorContains(t, err, tt.msg)
		})
	}
	_, err = (&Summarizer{Model: "llama3.2"}).Summarize(context.Background(), src, abstract.Summary, 30)
	assert.ErrorContains(t, err, "summarise with ollama/llama3.2: no token Counter")
	_, err = (&Summarizer{Model: "llama3.2", Count: count}).Summarize(context.Background(), "\n", abstract.Summary, 30)
	assert.ErrorIs(t, err, abstract.ErrEmptyText)
}
