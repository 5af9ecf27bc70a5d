package bind

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/openai/openaitest"
)

// forgetSettings puts the test settings file back to nothing when the
// test ends.
func forgetSettings(t *testing.T) {
	t.Helper()
	t.Cleanup(func() { require.NoError(t, saveSettings(settings{})) })
}

// desktopApp is the desktop App on a new workspace, in auto mode (no fixed
// embedder), with the real wiring.
func desktopApp(t *testing.T) (*App, *fakeShell) {
	t.Helper()
	t.Setenv(WorkspaceEnv, t.TempDir())
	shell := &fakeShell{}
	app := NewApp(shell)
	app.Startup(t.Context())
	t.Cleanup(func() {
		app.Shutdown(context.Background())
		assert.Empty(t, shell.wrongEvents, "every event carries the payload EventPayloads gives")
	})
	return app, shell
}

// Settings choose an OpenAI-compatible server: the status names it (LM
// Studio), lists its models with what each can do, and says how to get a
// model the settings name that it lacks; the API key is kept in the
// settings file and sent to the server, but never comes back to the page.
func TestModelServerSettingsChooseTheServerAndKeepTheKey(t *testing.T) {
	forgetSettings(t)
	t.Setenv(OllamaEnv, ollamatest.Closed(t))
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithAPIKey("s3cret"))
	app, _ := desktopApp(t)

	st, err := app.SetModelServer(ModelServerSettings{Provider: "openai", OpenAIURL: srv.URL, APIKey: "s3cret", ChatModel: "mistral-7b"})
	require.NoError(t, err)
	assert.True(t, st.Up, "%+v", st)
	assert.Equal(t, "openai", st.Provider)
	assert.Equal(t, "LM Studio", st.Server)
	assert.Equal(t, srv.URL, st.URL)
	byName := map[string]ModelInfo{}
	for _, m := range st.Models {
		byName[m.Name] = m
	}
	qwen := byName["qwen/qwen3-4b"]
	assert.True(t, qwen.Completion && qwen.Tools && !qwen.Embedding)
	assert.Equal(t, 40960, qwen.ContextLength)
	assert.Equal(t, 8192, qwen.ServerWindow)
	assert.Equal(t, backend.DefaultBudgetLimits(8192).MaxBudget, qwen.MaxBudget, "the budget fits the window the model runs with")
	assert.Empty(t, qwen.EmbedderID, "a chat model does not embed")
	nomic := byName["text-embedding-nomic-embed-text-v1.5"]
	assert.True(t, nomic.Embedding)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", nomic.EmbedderID)
	require.Len(t, st.Missing, 1)
	assert.Equal(t, MissingModel{Name: "mistral-7b", Use: "chat", Fix: st.Missing[0].Fix}, st.Missing[0])
	assert.Contains(t, st.Missing[0].Fix, "`lms get mistral-7b`")
	for _, r := range srv.Requests() {
		assert.Equal(t, "Bearer s3cret", r.Authorization, r.Path)
	}

	// What the page gets back never holds the key.
	ms, err := app.ModelServerSettings()
	require.NoError(t, err)
	assert.True(t, ms.Available && ms.HasAPIKey)
	assert.Equal(t, "openai", ms.Provider)
	for _, v := range []any{ms, st} {
		b, _ := json.Marshal(v)
		assert.NotContains(t, string(b), "s3cret")
	}
	path, err := userSettingsPath()
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the key's file is the person's alone")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"api_key": "s3cret"`)

	// An empty key keeps the kept one; forgetting it drops it, and the
	// server says it wants one.
	st, err = app.SetModelServer(ModelServerSettings{Provider: "openai", OpenAIURL: srv.URL})
	require.NoError(t, err)
	assert.True(t, st.Up)
	st, err = app.SetModelServer(ModelServerSettings{Provider: "openai", OpenAIURL: srv.URL, ForgetAPIKey: true})
	require.NoError(t, err)
	assert.False(t, st.Up)
	assert.Equal(t, CodeOllamaBadStream, st.Code)
	assert.Contains(t, st.Problem, "wants an API key")

	// A second app reads the saved choice.
	again := NewApp(&fakeShell{})
	c, err := again.serverConfig()
	require.NoError(t, err)
	assert.Equal(t, srv.URL, c.URL)
	assert.Equal(t, "openai", string(c.Provider))

	_, err = app.SetModelServer(ModelServerSettings{Provider: "openai", OpenAIURL: "ftp://127.0.0.1"})
	assert.Equal(t, CodeInvalid, Payload(err).Code)
	_, err = app.SetModelServer(ModelServerSettings{Provider: "gpu"})
	assert.Equal(t, CodeInvalid, Payload(err).Code)

	// Nothing listening: the fix names the servers and how to start them.
	st, err = app.SetModelServer(ModelServerSettings{Provider: "openai", OpenAIURL: "http://127.0.0.1:9/v1"})
	require.NoError(t, err)
	assert.Equal(t, CodeOllamaNotRunning, st.Code)
	assert.Equal(t, "Nothing answers at http://127.0.0.1:9/v1.", st.Problem)
	assert.Contains(t, st.Fix, "lms server start")
}

// With Ollama, a model the settings name that it lacks says to pull it.
func TestAMissingOllamaModelSaysToPullIt(t *testing.T) {
	forgetSettings(t)
	srv := ollamatest.New(t)
	app, _ := desktopApp(t)
	st, err := app.SetModelServer(ModelServerSettings{Provider: "ollama", OllamaURL: srv.URL, EmbedModel: "mxbai-embed-large"})
	require.NoError(t, err)
	assert.True(t, st.Up)
	assert.Equal(t, "Ollama", st.Server)
	require.Len(t, st.Missing, 1)
	assert.Equal(t, "embeddings", st.Missing[0].Use)
	assert.Contains(t, st.Missing[0].Fix, "run `ollama pull mxbai-embed-large`")
	for _, m := range st.Models {
		if m.Name == "nomic-embed-text:latest" {
			assert.Equal(t, "ollama/nomic-embed-text", m.EmbedderID)
			assert.True(t, m.Embedding)
		}
	}
}

// The desktop app embeds a new workspace with the server's embedding
// model, says so (name and dimensions), and re-embeds with one click:
// with progress, cancellable with the workspace left as it was, and to
// the offline embedder and back.
func TestDesktopEmbedsWithTheServerAndReembedsOnRequest(t *testing.T) {
	forgetSettings(t)
	srv := openaitest.New(t, openaitest.LMStudio)
	require.NoError(t, saveSettings(settings{ModelServer: &modelServerSettings{Provider: "openai", OpenAIURL: srv.URL}}))
	app, shell := desktopApp(t)

	st, err := app.Stats()
	require.NoError(t, err)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", st.EmbedderInUse)
	assert.Equal(t, 16, st.EmbedderDims)
	assert.Contains(t, st.EmbedderChoice, "using LM Studio model text-embedding-nomic-embed-text-v1.5 at "+srv.URL+" (16 dimensions)")
	_, err = app.IngestSample()
	require.NoError(t, err)
	st, err = app.Stats()
	require.NoError(t, err)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", st.Embedder, "the vectors stored are the server's")
	nodes := st.ContentNodes

	// Cancelled at its first word: nothing changes.
	shell.onEmit = func(name string, data any) {
		if p, ok := data.(ReembedProgress); ok && name == EventReembedProgress && !p.Finished && p.Total > 0 {
			app.CancelReembed()
		}
	}
	_, err = app.Reembed("offline")
	require.Error(t, err)
	assert.Equal(t, CodeCanceled, Payload(err).Code)
	shell.onEmit = nil
	events := shell.eventsNamed(EventReembedProgress)
	last := events[len(events)-1].(ReembedProgress)
	assert.True(t, last.Finished && last.Canceled, "%+v", last)
	assert.Equal(t, "offline", last.Target)
	st, err = app.Stats()
	require.NoError(t, err)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", st.Embedder)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", st.EmbedderInUse, "the session keeps the workspace's embedder")

	rep, err := app.Reembed("offline")
	require.NoError(t, err)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", rep.From)
	assert.True(t, strings.HasPrefix(rep.To, "offline/"), rep.To)
	assert.Equal(t, nodes, rep.Nodes)
	events = shell.eventsNamed(EventReembedProgress)
	last = events[len(events)-1].(ReembedProgress)
	assert.True(t, last.Finished && !last.Canceled && last.Error == "")
	assert.Equal(t, nodes, last.Done)
	st, err = app.Stats()
	require.NoError(t, err)
	assert.Equal(t, rep.To, st.Embedder)
	assert.Equal(t, rep.To, st.EmbedderInUse)
	assert.Equal(t, 256, st.EmbedderDims)
	assert.Contains(t, st.EmbedderChoice, "re-embedded with it")

	// Back to the server's model: its vectors are still in its log.
	embeds := len(srv.Requests("/v1/embeddings"))
	rep, err = app.Reembed("text-embedding-nomic-embed-text-v1.5")
	require.NoError(t, err)
	assert.Zero(t, rep.Embedded)
	assert.Equal(t, embeds+1, len(srv.Requests("/v1/embeddings")), "only the probe")
	res, err := app.Query(backend.QueryRequest{Question: "What is retrieval-augmented generation?", Budget: 800})
	require.NoError(t, err)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", res.Embedder)
	assert.NotEmpty(t, res.Loaded)

	_, err = app.Reembed("bge-m3")
	assert.Equal(t, CodeOllamaModelMissing, Payload(err).Code)
	assert.Contains(t, Payload(err).Message, "lms get bge-m3")
}
