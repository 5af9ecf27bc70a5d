package main

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/ollamatest"
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

// fakeOllama is the fake Ollama with one model without tool support,
// gemma:2b (an 8k window), which answers every question in two pieces;
// mode is "", stalls or silent.
func fakeOllama(t *testing.T, mode ...string) *ollamatest.Server {
	t.Helper()
	opts := []ollamatest.Option{ollamatest.WithModels(ollamatest.Gemma2B()), ollamatest.WithChat(func(s *ollamatest.Stream) {
		s.Content("Access times ")
		if slices.Contains(mode, stalls) {
			s.Stall() // a runner that is stuck until the client gives up
			return
		}
		s.Content("decay exponentially.")
		s.Done("stop", 700, 9)
	})}
	if slices.Contains(mode, silent) {
		opts = append(opts, ollamatest.Silent())
	}
	return ollamatest.New(t, opts...)
}

func TestChatOneShotAndInteractive(t *testing.T) {
	ws := ingestFixture(t)
	srv := fakeOllama(t)
	out, errOut, err := runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL, "--model", "gemma:2b", "--show-prompt", "-m", "How does staleness decay?")
	require.NoError(t, err, errOut)
	assert.Equal(t, "Access times decay exponentially.\n", out, "tokens stream to stdout")
	assert.Contains(t, errOut, "--- system message")
	assert.Contains(t, errOut, "[Context loaded: ")
	require.Len(t, srv.Chats(), 1)
	assert.EqualValues(t, 8192, srv.Chats()[0].Options["num_ctx"])
	assert.Empty(t, srv.Chats()[0].Tools, "a model without tool support is offered none")

	out, _, err = runCLI(t, "chat", "--workspace", ws, "--list")
	require.NoError(t, err)
	assert.Contains(t, out, "1 turns")
	assert.Contains(t, out, "How does staleness decay?")
	id := strings.Fields(out)[0]

	stdin = strings.NewReader("And the budget?\n\n/quit\nnever asked\n")
	defer func() { stdin = os.Stdin }()
	_, errOut, err = runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL, "--model", "gemma:2b", "--conversation", id)
	require.NoError(t, err, errOut)
	require.Len(t, srv.Chats(), 2)
	msgs := srv.Chats()[1].Messages
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
	srv := fakeOllama(t, stalls)
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
	srv := fakeOllama(t, silent)
	clock := useTestClock(t)
	stop := clock.Drive(time.Second) // nothing will ever answer
	_, errOut, err := runCLI(t, "ingest", "--workspace", t.TempDir(), "--embedder", "ollama", "--embed-model", "nomic-embed-text", "--ollama-url", srv.URL, "--quiet", "../../testdata/fixture/notes")
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
	srv := fakeOllama(t)
	stdin = strings.NewReader(strings.Repeat("why ", 1<<18) + "\n" + strings.Repeat("staleness ", 1000) + "decay?\nAnd the budget?\n")
	defer func() { stdin = os.Stdin }()
	_, errOut, err := runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL, "--model", "gemma:2b")
	require.NoError(t, err, errOut)
	assert.Contains(t, errOut, "loom: the question is 1024 KB, longer than the 16 KB a question may be: put long material in a file and ingest it (loom ingest FILE), then ask about it")
	require.Len(t, srv.Chats(), 2, "the 10 KB question and the short one are asked; the 1 MB one is not")
	msgs := srv.Chats()[0].Messages
	assert.Equal(t, strings.Repeat("staleness ", 1000)+"decay?", msgs[len(msgs)-1].Content)
}

// Every command that talks to Ollama reads LOOM_OLLAMA_URL, as the
// desktop app does: the flag wins over it, and it wins over OLLAMA_HOST.
func TestOllamaURLComesFromTheFlagThenLOOM_OLLAMA_URLThenOLLAMA_HOST(t *testing.T) {
	ws := ingestFixture(t)
	srv := fakeOllama(t)
	dead := "http://127.0.0.1:9" // nothing listens on the discard port
	t.Setenv("OLLAMA_HOST", dead)
	t.Setenv("LOOM_OLLAMA_URL", srv.URL)

	out, _, err := runCLI(t, "models")
	require.NoError(t, err)
	assert.Contains(t, out, "gemma:2b")

	out, errOut, err := runCLI(t, "chat", "--workspace", ws, "--embedder", "offline", "--model", "gemma:2b", "-m", "How does staleness decay?")
	require.NoError(t, err, errOut)
	assert.Equal(t, "Access times decay exponentially.\n", out)
	require.Len(t, srv.Chats(), 1)

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

// With neither the flag nor LOOM_OLLAMA_URL, OLLAMA_HOST (read as the
// Ollama CLI reads it) says where Ollama is.
func TestOllamaURLFallsBackToOLLAMA_HOST(t *testing.T) {
	srv := fakeOllama(t)
	t.Setenv("LOOM_OLLAMA_URL", "")
	t.Setenv("OLLAMA_HOST", srv.URL)
	out, _, err := runCLI(t, "models")
	require.NoError(t, err)
	assert.Contains(t, out, "gemma:2b")
}
