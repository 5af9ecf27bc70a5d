package chat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestModels(t *testing.T) {
	f := &fakeOllama{models: standardModels()}
	c := newClientFor(t, f)
	models, err := c.Models(context.Background())
	require.NoError(t, err)
	slices.SortFunc(models, func(a, b ModelInfo) int { return cmpString(a.Name, b.Name) })
	want := []ModelInfo{
		{Name: "gemma:2b", ContextLength: 8192, DefaultNumCtx: 4096, Completion: true, Size: 1678456656, Family: "gemma", Parameters: "3.2B", Quantization: "Q4_K_M"},
		{Name: "llama3.2:latest", ContextLength: 131072, Completion: true, Tools: true, Size: 2019393189, Family: "llama", Parameters: "3.2B", Quantization: "Q4_K_M"},
		{Name: "nomic-embed-text:latest", ContextLength: 2048, DefaultNumCtx: 8192, Embedding: true, Size: 274302450, Family: "nomic-bert", Parameters: "3.2B", Quantization: "Q4_K_M"},
		{Name: "qwen3:4b", ContextLength: 40960, Completion: true, Tools: true, Thinking: true, Size: 2497293918, Family: "qwen3", Parameters: "3.2B", Quantization: "Q4_K_M"},
	}
	assert.Equal(t, want, models)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestModelsKeepsAModelShowFailsOn(t *testing.T) {
	f := &fakeOllama{models: map[string]fakeModel{"broken:1b": {family: "llama", size: 10}}, showStatus: http.StatusInternalServerError}
	c := newClientFor(t, f)
	models, err := c.Models(context.Background())
	require.NoError(t, err)
	require.Len(t, models, 1)
	assert.Equal(t, "broken:1b", models[0].Name)
	assert.Equal(t, int64(10), models[0].Size)
	assert.Contains(t, models[0].Error, "HTTP 500: unable to load model blob")
}

func TestModel(t *testing.T) {
	f := &fakeOllama{models: standardModels()}
	c := newClientFor(t, f)
	for _, tc := range []struct {
		name string
		want ModelInfo
		kind error
		msg  string
	}{
		{name: "llama3.2", want: ModelInfo{Name: "llama3.2", ContextLength: 131072, Completion: true, Tools: true, Family: "llama", Parameters: "3.2B", Quantization: "Q4_K_M"}},
		{name: "nomic-embed-text", want: ModelInfo{Name: "nomic-embed-text", ContextLength: 2048, DefaultNumCtx: 8192, Embedding: true, Family: "nomic-bert", Parameters: "3.2B", Quantization: "Q4_K_M"}},
		{name: "mistral", kind: ErrModelMissing, msg: "model mistral is not installed in Ollama at " + c.URL() + ": run `ollama pull mistral`"},
		{name: "", kind: ErrModelMissing, msg: "no model given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Model(context.Background(), tc.name)
			if tc.kind != nil {
				require.ErrorIs(t, err, tc.kind)
				assert.Contains(t, err.Error(), tc.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestModelInfoFromShow(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp api.ShowResponse
		want ModelInfo
	}{
		{"architecture key", api.ShowResponse{
			ModelInfo:    map[string]any{"general.architecture": "llama", "llama.context_length": float64(131072), "other.context_length": float64(4)},
			Capabilities: capabilities("completion", "tools", "vision"),
		}, ModelInfo{Name: "m", ContextLength: 131072, Completion: true, Tools: true, Vision: true}},
		{"any context_length key", api.ShowResponse{
			ModelInfo: map[string]any{"bert.context_length": float64(512)}, Capabilities: capabilities("embedding"),
		}, ModelInfo{Name: "m", ContextLength: 512, Embedding: true}},
		{"no context length, num_ctx parameter", api.ShowResponse{
			Parameters: "temperature 0.7\nnum_ctx 2048", Capabilities: capabilities("completion"),
		}, ModelInfo{Name: "m", DefaultNumCtx: 2048, Completion: true}},
		{"old Ollama: capabilities from the template", api.ShowResponse{
			Template: "{{ if .Tools }}tools{{ end }}{{ .Prompt }}",
		}, ModelInfo{Name: "m", Completion: true, Tools: true}},
		{"old Ollama: no template", api.ShowResponse{}, ModelInfo{Name: "m"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, modelInfo("m", &tc.resp))
		})
	}
}

func capabilities(names ...string) (out []model.Capability) {
	for _, n := range names {
		out = append(out, model.Capability(n))
	}
	return out
}

func TestModelsUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	c, err := New(srv.URL)
	require.NoError(t, err)
	_, err = c.Models(context.Background())
	require.ErrorIs(t, err, ErrUnreachable)
	assert.Contains(t, err.Error(), "start it with `ollama serve`")
	_, err = c.Model(context.Background(), "llama3.2")
	require.ErrorIs(t, err, ErrUnreachable)
}

// Chat asks /api/show once per model for its capabilities.
func TestChatCachesCapabilities(t *testing.T) {
	f, c := newFake(t, answer(300, "ok"))
	for range 3 {
		_, err := c.Chat(context.Background(), Turn{Model: "llama3.2", Window: 4096, Question: "q?", Tools: &fakeTools{}})
		require.NoError(t, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	assert.Equal(t, 1, f.shows)
}

func TestNewBaseURL(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "http://127.0.0.1:11434", want: "http://127.0.0.1:11434"},
		{in: "http://127.0.0.1:11434/", want: "http://127.0.0.1:11434"},
		{in: "127.0.0.1:9999", want: "http://127.0.0.1:9999"},
		{in: "localhost", want: "http://localhost:11434"},
		{in: "https://ollama.example/base/", want: "https://ollama.example/base"},
		{in: "ftp://x", err: "want http://host:port"},
		{in: "http://", err: "want http://host:port"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			c, err := New(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.URL())
		})
	}
	t.Run("empty uses OLLAMA_HOST", func(t *testing.T) {
		t.Setenv("OLLAMA_HOST", "127.0.0.1:12345")
		c, err := New("")
		require.NoError(t, err)
		assert.Equal(t, "http://127.0.0.1:12345", c.URL())
	})
	t.Run("bad timeouts", func(t *testing.T) {
		_, err := New("", WithTimeout(0))
		require.Error(t, err)
	})
}
