package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
)

// Ways the fake Ollama can misbehave.
const (
	// stalls: /api/chat streams its first piece, then nothing more.
	stalls = "stalls"
	// silent: every request is taken and never answered.
	silent = "silent"
)

// fakeOllama answers /api/tags, /api/show and a streaming /api/chat the
// way Ollama does (NDJSON), for one model without tool support; mode is
// "", stalls or silent.
func fakeOllama(t *testing.T, mode ...string) (*httptest.Server, *[]api.ChatRequest) {
	t.Helper()
	var sent []api.ChatRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(mode, silent) {
			// Read the body first: only then does the server notice the
			// client hanging up and end r.Context().
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
			return
		}
		switch r.URL.Path {
		case "/api/tags":
			fmt.Fprint(w, `{"models":[{"name":"gemma:2b","model":"gemma:2b","modified_at":"2026-01-01T00:00:00Z","size":1678456656,"digest":"x","details":{"format":"gguf","family":"gemma","parameter_size":"2B","quantization_level":"Q4_0"}}]}`)
		case "/api/show":
			fmt.Fprint(w, `{"parameters":"num_ctx 4096","template":"{{ .Prompt }}","details":{"family":"gemma"},"model_info":{"general.architecture":"gemma","gemma.context_length":8192},"capabilities":["completion"]}`)
		case "/api/chat":
			var req api.ChatRequest
			_ = json.NewDecoder(r.Body).Decode(&req)
			sent = append(sent, req)
			enc := json.NewEncoder(w)
			now := time.Now().UTC().Format(time.RFC3339Nano)
			for _, p := range []string{"Access times ", "decay exponentially."} {
				_ = enc.Encode(map[string]any{"model": req.Model, "created_at": now, "message": map[string]any{"role": "assistant", "content": p}, "done": false})
				if slices.Contains(mode, stalls) {
					w.(http.Flusher).Flush()
					_, _ = io.Copy(io.Discard, r.Body) // so that the server notices the client hanging up
					<-r.Context().Done()               // a runner that is stuck until the client gives up
					return
				}
			}
			_ = enc.Encode(map[string]any{"model": req.Model, "created_at": now, "message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop", "prompt_eval_count": 700, "eval_count": 9})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &sent
}

func TestChatOneShotAndInteractive(t *testing.T) {
	ws := ingestFixture(t)
	srv, sent := fakeOllama(t)
	out, errOut, err := runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL, "--model", "gemma:2b", "--show-prompt", "-m", "How does staleness decay?")
	require.NoError(t, err, errOut)
	assert.Equal(t, "Access times decay exponentially.\n", out, "tokens stream to stdout")
	assert.Contains(t, errOut, "--- system message")
	assert.Contains(t, errOut, "[Context loaded: ")
	require.Len(t, *sent, 1)
	assert.EqualValues(t, 8192, (*sent)[0].Options["num_ctx"])
	assert.Empty(t, (*sent)[0].Tools, "a model without tool support is offered none")

	out, _, err = runCLI(t, "chat", "--workspace", ws, "--list")
	require.NoError(t, err)
	assert.Contains(t, out, "1 turns")
	assert.Contains(t, out, "How does staleness decay?")
	id := strings.Fields(out)[0]

	stdin = strings.NewReader("And the budget?\n\n/quit\nnever asked\n")
	defer func() { stdin = os.Stdin }()
	_, errOut, err = runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL, "--model", "gemma:2b", "--conversation", id)
	require.NoError(t, err, errOut)
	require.Len(t, *sent, 2)
	msgs := (*sent)[1].Messages
	require.Len(t, msgs, 4, "system, the earlier question and answer, the new question")
	assert.Equal(t, "How does staleness decay?", msgs[1].Content)

	out, _, err = runCLI(t, "models", "--ollama-url", srv.URL)
	require.NoError(t, err)
	assert.Contains(t, out, "gemma:2b")
	assert.Contains(t, out, "8192 tokens")

	_, _, err = runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", "http://127.0.0.1:9", "-m", "hello there")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ollama serve")
}

// useTestClock makes every request to Ollama count time on a clock the
// test drives, for the rest of the test.
func useTestClock(t *testing.T) *waittest.Clock {
	t.Helper()
	clock := waittest.NewClock()
	waitOptions = wait.Options{Clock: clock}
	t.Cleanup(func() { waitOptions = wait.Options{} })
	return clock
}

// watchedBuffer is a buffer that closes seen once it holds want.
type watchedBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

func (b *watchedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	had := strings.Contains(b.buf.String(), b.want)
	n, err := b.buf.Write(p)
	if !had && strings.Contains(b.buf.String(), b.want) {
		close(b.seen)
	}
	return n, err
}

func (b *watchedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// loom chat against an Ollama that stops in the middle of its answer: the
// person hears of it at 10 s and as stalled at 30 s, and the turn ends at
// the idle timeout with the partial answer kept. The test clock moves only
// once the first piece is on stdout, so the timeout is the only way out.
func TestChatReportsAStalledStream(t *testing.T) {
	ws := ingestFixture(t)
	srv, _ := fakeOllama(t, stalls)
	clock := useTestClock(t)
	stdout := &watchedBuffer{want: "Access times ", seen: make(chan struct{})}
	var stderr bytes.Buffer
	done := make(chan error)
	go func() {
		done <- run(context.Background(), []string{"chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL,
			"--model", "gemma:2b", "-m", "How does staleness decay?"}, stdout, &stderr)
	}()
	<-stdout.seen
	stop := clock.Drive(time.Second)
	err := <-done
	stop()

	require.Error(t, err)
	assert.Contains(t, err.Error(), "Ollama at "+srv.URL+" stalled in the middle of its reply: it sent nothing new for 5 min after 1 chunk (asked to answer with model gemma:2b), so Loom gave up; the partial answer is kept")
	assert.Equal(t, "Access times \n", stdout.String())
	errOut := stderr.String()
	assert.Contains(t, errOut, "\nloom: Ollama at "+srv.URL+" has paused for 10 s in the middle of its reply (asked to answer with model gemma:2b); giving up after 5 min of silence.\n")
	assert.Contains(t, errOut, "\nloom: Ollama at "+srv.URL+" has sent nothing new for 30 s in the middle of its reply (asked to answer with model gemma:2b): it may be stuck; giving up after 5 min of silence.\n")

	out, _, err := runCLI(t, "chat", "--workspace", ws, "--list")
	require.NoError(t, err)
	assert.Contains(t, out, "1 turns", "the turn is saved with its partial answer")
}

// loom ingest --embedder ollama against a server that takes the connection
// and never answers: a word at 10 s, then an error naming the server and
// the model at the documented 2 minutes.
func TestIngestWithASilentOllamaSaysSoAndGivesUp(t *testing.T) {
	srv, _ := fakeOllama(t, silent)
	clock := useTestClock(t)
	stop := clock.Drive(time.Second) // nothing will ever answer
	_, errOut, err := runCLI(t, "ingest", "--workspace", t.TempDir(), "--embedder", "ollama", "--ollama-url", srv.URL, "--quiet", "../../testdata/fixture/notes")
	stop()
	require.Error(t, err)
	assert.Equal(t, 2, exitCode(err))
	assert.Contains(t, err.Error(), "Ollama at "+srv.URL+" did not answer within 2 min when asked to list its models (looking for nomic-embed-text), so Loom gave up")
	assert.Contains(t, errOut, "loom: Waiting for Ollama at "+srv.URL+" to list its models (looking for nomic-embed-text): nothing yet after 10 s; giving up after 2 min of silence.\n")
	assert.Contains(t, errOut, "loom: Ollama at "+srv.URL+" has sent nothing for 30 s since it was asked to list its models (looking for nomic-embed-text): the model may be loading or stuck")
}

// A question pasted as one long line does not end the session with
// "bufio.Scanner: token too long": a question over the limit is refused
// with the limit named, and the next one is answered.
func TestChatReadsLongLinesFromStdin(t *testing.T) {
	ws := ingestFixture(t)
	srv, sent := fakeOllama(t)
	stdin = strings.NewReader(strings.Repeat("why ", 1<<18) + "\n" + strings.Repeat("staleness ", 1000) + "decay?\nAnd the budget?\n")
	defer func() { stdin = os.Stdin }()
	_, errOut, err := runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL, "--model", "gemma:2b")
	require.NoError(t, err, errOut)
	assert.Contains(t, errOut, "loom: the question is 1024 KB, longer than the 16 KB a question may be: put long material in a file and ingest it (loom ingest FILE), then ask about it")
	require.Len(t, *sent, 2, "the 10 KB question and the short one are asked; the 1 MB one is not")
	msgs := (*sent)[0].Messages
	assert.Equal(t, strings.Repeat("staleness ", 1000)+"decay?", msgs[len(msgs)-1].Content)
}

// Every command that talks to Ollama reads LOOM_OLLAMA_URL, as the
// desktop app does: the flag wins over it, and it wins over OLLAMA_HOST.
func TestOllamaURLComesFromTheFlagThenLOOM_OLLAMA_URLThenOLLAMA_HOST(t *testing.T) {
	ws := ingestFixture(t)
	srv, sent := fakeOllama(t)
	dead := "http://127.0.0.1:9" // nothing listens on the discard port
	t.Setenv("OLLAMA_HOST", dead)
	t.Setenv("LOOM_OLLAMA_URL", srv.URL)

	out, _, err := runCLI(t, "models")
	require.NoError(t, err)
	assert.Contains(t, out, "gemma:2b")

	out, errOut, err := runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--model", "gemma:2b", "-m", "How does staleness decay?")
	require.NoError(t, err, errOut)
	assert.Equal(t, "Access times decay exponentially.\n", out)
	require.Len(t, *sent, 1)

	_, errOut, err = runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--model", "gemma:2b", "How does staleness decay?")
	require.NoError(t, err)
	assert.Contains(t, errOut, "window 8192 (model gemma:2b)", "the window comes from the model's /api/show")

	t.Setenv("LOOM_OLLAMA_URL", dead)
	out, _, err = runCLI(t, "models", "--ollama-url", srv.URL)
	require.NoError(t, err, "the flag wins over LOOM_OLLAMA_URL")
	assert.Contains(t, out, "gemma:2b")
	_, _, err = runCLI(t, "models")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Ollama is not reachable at "+dead)

	for _, cmd := range []string{"models", "chat", "query", "ingest", "eval"} {
		_, errOut, _ := runCLI(t, cmd, "-h")
		assert.Contains(t, errOut, "else $LOOM_OLLAMA_URL, else $OLLAMA_HOST, else http://127.0.0.1:11434", cmd)
		assert.Contains(t, errOut, "gives up after 5 min without a streamed chunk (chat), 2 min (embeddings, summaries) or 30 s (model lists and details)", cmd)
	}
}
