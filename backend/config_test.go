//go:build !js

package backend

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/embed/minilm"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/openai"
	"github.com/loomwork/loom/backend/openai/openaitest"
)

// TestNewWiresOllamaAsConfigured: New, the one constructor of the three
// editions, chooses the embedder as Config says (auto: Ollama when it
// answers and has the model, else offline; Stats says which and why),
// reads model windows from Ollama and summarises with SummaryModel.
func TestNewWiresOllamaAsConfigured(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	client := func(url string) func() (modelserver.Server, error) {
		return func() (modelserver.Server, error) { return ollama.New(url) }
	}

	t.Run("auto uses Ollama when it has the embedding model", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.WithEmbedDim(32))
		var told []string
		wb, err := New(ctx, Config{Dir: t.TempDir(), Server: client(srv.URL), OnEmbedder: func(r string) { told = append(told, r) },
			Options: []Option{WithClock(clock)}})
		require.NoError(t, err)
		defer wb.Close()
		_, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
		require.NoError(t, err)
		st, err := wb.Stats(ctx)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(st.EmbedderInUse, "ollama/nomic-embed-text"), "in use: %s", st.EmbedderInUse)
		assert.Equal(t, st.EmbedderInUse, st.Embedder, "the vectors stored are Ollama's")
		assert.NotEmpty(t, st.EmbedderChoice)
		assert.Equal(t, []string{st.EmbedderChoice}, told, "the edition is told once")
		assert.NotEmpty(t, srv.EmbedInputs(), "the sections were embedded by Ollama")
	})

	t.Run("auto falls back to offline when Ollama is not running, and says so", func(t *testing.T) {
		t.Setenv(minilm.DirEnv, t.TempDir()) // no full encoder either
		wb, err := New(ctx, Config{Dir: t.TempDir(), Server: client(ollamatest.Closed(t))})
		require.NoError(t, err)
		defer wb.Close()
		wb.ChooseEmbedder(ctx)
		st, err := wb.Stats(ctx)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(st.EmbedderInUse, "offline/"), "in use: %s", st.EmbedderInUse)
		assert.Contains(t, st.EmbedderChoice, "offline")
		assert.Empty(t, st.Embedder, "nothing stored yet")
	})

	t.Run("auto gives a new workspace the full encoder when Ollama is not running and its weights are installed", func(t *testing.T) {
		if _, err := minilm.Find(); err != nil {
			t.Skipf("the full encoder's weights are not installed (bash scripts/minilm.sh): %v", err)
		}
		wb, err := New(ctx, Config{Dir: t.TempDir(), Server: client(ollamatest.Closed(t)), Options: []Option{WithClock(clock)}})
		require.NoError(t, err)
		defer wb.Close()
		_, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
		require.NoError(t, err)
		st, err := wb.Stats(ctx)
		require.NoError(t, err)
		assert.Equal(t, "minilm/all-MiniLM-L6-v2-fp16", st.EmbedderInUse)
		assert.Equal(t, st.EmbedderInUse, st.Embedder, "the vectors stored are the encoder's")
		assert.Contains(t, st.EmbedderChoice, "using the full MiniLM encoder (384 dimensions): Ollama")
	})

	t.Run("auto falls back to offline when Ollama lacks the model", func(t *testing.T) {
		t.Setenv(minilm.DirEnv, t.TempDir())
		srv := ollamatest.New(t, ollamatest.WithModels(ollamatest.Llama32()))
		wb, err := New(ctx, Config{Dir: t.TempDir(), Server: client(srv.URL)})
		require.NoError(t, err)
		defer wb.Close()
		wb.ChooseEmbedder(ctx)
		st, _ := wb.Stats(ctx)
		assert.True(t, strings.HasPrefix(st.EmbedderInUse, "offline/"), "in use: %s", st.EmbedderInUse)
		assert.Contains(t, st.EmbedderChoice, "nomic-embed-text")
	})

	t.Run("offline never asks Ollama", func(t *testing.T) {
		srv := ollamatest.New(t)
		wb, err := New(ctx, Config{Dir: t.TempDir(), Embedder: "offline", Server: client(srv.URL)})
		require.NoError(t, err)
		defer wb.Close()
		wb.ChooseEmbedder(ctx)
		st, _ := wb.Stats(ctx)
		assert.True(t, strings.HasPrefix(st.EmbedderInUse, "offline/"))
		assert.Empty(t, srv.Requests("/api/tags", "/api/show", "/api/embed"))
	})

	t.Run("a question naming a model gets its window from Ollama", func(t *testing.T) {
		srv := ollamatest.New(t)
		wb, err := New(ctx, Config{Dir: t.TempDir(), Embedder: "offline", Server: client(srv.URL), Options: []Option{WithClock(clock)}})
		require.NoError(t, err)
		defer wb.Close()
		_, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
		require.NoError(t, err)
		res, err := wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Model: ollamatest.Llama32().Name, NoTouch: true})
		require.NoError(t, err)
		assert.Equal(t, ollamatest.Llama32().ContextLength, res.Split.Window)
		assert.Equal(t, "model "+ollamatest.Llama32().Name, res.Split.WindowSource)
		lim, err := wb.BudgetLimits(ollamatest.Llama32().ContextLength)
		require.NoError(t, err)
		assert.Equal(t, lim, res.Limits, "the result says what the model's window allows")
		assert.Less(t, lim.MaxBudget, res.Split.Window-res.Split.System)
		assert.Positive(t, lim.MaxBudget)
	})

	t.Run("without Ollama a question naming a model says what to do", func(t *testing.T) {
		wb, err := New(ctx, Config{Dir: t.TempDir(), Embedder: "offline", Options: []Option{WithClock(clock)}})
		require.NoError(t, err)
		defer wb.Close()
		_, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
		require.NoError(t, err)
		_, err = wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Model: "llama3.2"})
		assert.ErrorContains(t, err, "no model server is configured")
	})

	t.Run("summaries come from the summary model", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.WithGenerate(func(s *ollamatest.Stream) { s.Whole("Staleness halves every half-life.", 40, 8) }))
		wb, err := New(ctx, Config{Dir: t.TempDir(), Embedder: "offline", Server: client(srv.URL), SummaryModel: ollamatest.Llama32().Name,
			Options: []Option{WithClock(clock)}})
		require.NoError(t, err)
		defer wb.Close()
		_, err = wb.Ingest(ctx, []string{copyFixtureWithLongSection(t)}, IngestOptions{})
		require.NoError(t, err)
		res, err := wb.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated?", Budget: 200, Level: "summary", NoTouch: true})
		require.NoError(t, err)
		assert.NotEmpty(t, srv.Requests("/api/generate"), "a summary was asked of the model")
		assert.Contains(t, res.Prompt, "Staleness halves every half-life.")
	})

	t.Run("summaries come from an OpenAI-compatible server's model", func(t *testing.T) {
		srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(func(s *openaitest.Stream) {
			s.Content("Summary: Staleness halves every half-life.")
			s.Finish("stop", 40, 8)
		}))
		oc, err := openai.New(srv.URL)
		require.NoError(t, err)
		wb, err := New(ctx, Config{Dir: t.TempDir(), Embedder: "offline", Server: func() (modelserver.Server, error) { return oc, nil }, SummaryModel: openaitest.Qwen3().ID,
			Options: []Option{WithClock(clock)}})
		require.NoError(t, err)
		defer wb.Close()
		_, err = wb.Ingest(ctx, []string{copyFixtureWithLongSection(t)}, IngestOptions{})
		require.NoError(t, err)
		res, err := wb.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated?", Budget: 200, Level: "summary", NoTouch: true})
		require.NoError(t, err)
		chats := srv.Chats()
		require.NotEmpty(t, chats, "a summary was asked of the model")
		assert.Equal(t, false, chats[0]["stream"])
		assert.Equal(t, json.Number("0"), chats[0]["temperature"])
		maxTokens, err := chats[0]["max_tokens"].(json.Number).Int64()
		require.NoError(t, err)
		assert.Positive(t, maxTokens)
		assert.Contains(t, res.Prompt, "Staleness halves every half-life.")
		assert.NotContains(t, res.Prompt, "Summary: Staleness", "the reply's label is cleaned off")
	})

	t.Run("a mode that is not one is refused", func(t *testing.T) {
		_, err := New(ctx, Config{Dir: t.TempDir(), Embedder: "cloud"})
		assert.ErrorContains(t, err, "cloud")
	})
}
