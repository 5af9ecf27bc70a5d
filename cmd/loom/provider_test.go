package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/openai/openaitest"
)

// The CLI against an OpenAI-compatible server (LM Studio, as the fake
// plays it): the model list with capabilities, a new workspace embedded
// with the server's embedding model, a chat whose model calls a tool, and
// a re-embed to the offline embedder and back.
func TestTheCLIWithAnOpenAICompatibleServer(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(
		openaitest.CallTools(openaitest.ToolCall{Name: chat.ToolSearchContext, Args: `{"query":"staleness decay"}`}),
		openaitest.Answer(900, "Access times decay exponentially."),
	))
	t.Setenv("LOOM_PROVIDER", "")

	out, _, err := runCLI(t, "models", "--openai-url", srv.URL)
	require.NoError(t, err, "--openai-url alone means --provider openai")
	assert.Contains(t, out, "LM Studio at "+srv.URL)
	assert.Regexp(t, `qwen/qwen3-4b\s+40960 tokens \(runs with 8192\)\s+chat, tools`, out)
	assert.Regexp(t, `text-embedding-nomic-embed-text-v1.5\s+2048 tokens\s+embeddings`, out)

	ws := t.TempDir()
	_, errOut, err := runCLI(t, "ingest", "--workspace", ws, "--openai-url", srv.URL, "--quiet", "../../testdata/fixture/notes")
	require.NoError(t, err, errOut)
	assert.Contains(t, errOut, "using LM Studio model text-embedding-nomic-embed-text-v1.5 at "+srv.URL+" (16 dimensions)")
	out, _, err = runCLI(t, "graph", "stats", "--workspace", ws, "--embedder", "offline", "--format", "json")
	require.NoError(t, err)
	var st struct{ Embedder string }
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", st.Embedder)

	out, errOut, err = runCLI(t, "chat", "--workspace", ws, "--provider", "openai", "--openai-url", srv.URL, "--model", "qwen/qwen3-4b", "-m", "How does staleness decay?")
	require.NoError(t, err, errOut)
	assert.Equal(t, "Access times decay exponentially.\n", out)
	assert.Contains(t, errOut, "[tool search_context {\"query\":\"staleness decay\"}")
	assert.Contains(t, errOut, "window 8192]", "the window LM Studio loaded the model with")
	chats := srv.Chats()
	require.Len(t, chats, 2)
	assert.NotContains(t, chats[0], "options")

	out, _, err = runCLI(t, "reembed", "--workspace", ws, "--offline", "--quiet")
	require.NoError(t, err)
	assert.Contains(t, out, "with offline/minilm-l6-m2v-256 (256 dimensions")
	assert.Contains(t, out, "was openai/text-embedding-nomic-embed-text-v1.5")
	embedsBefore := len(srv.Requests("/v1/embeddings"))
	out, _, err = runCLI(t, "reembed", "--workspace", ws, "--openai-url", srv.URL, "--quiet", "--format", "json")
	require.NoError(t, err)
	rep := readReembedReport(t, out)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", rep.To)
	assert.Positive(t, rep.Nodes)
	assert.Zero(t, rep.Embedded, "its vectors were still in its log: nothing is embedded twice")
	assert.Equal(t, embedsBefore+1, len(srv.Requests("/v1/embeddings")), "only the probe that learns the dimension")

	_, _, err = runCLI(t, "models", "--provider", "openai", "--openai-url", "http://127.0.0.1:9/v1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nothing answers at http://127.0.0.1:9/v1")
	assert.True(t, strings.Contains(err.Error(), "lms server start"))
}

// reembedReport is what `loom reembed --format json` says, as far as the
// tests read it.
type reembedReport struct {
	To       string
	Nodes    int
	Embedded int
}

func readReembedReport(t *testing.T, out string) reembedReport {
	t.Helper()
	var rep reembedReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	return rep
}
