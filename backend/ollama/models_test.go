package ollama

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
)

// clientFor returns a client for srv.
func clientFor(t *testing.T, srv *ollamatest.Server, opts ...Option) *Client {
	t.Helper()
	c, err := New(srv.URL, opts...)
	require.NoError(t, err)
	return c
}

func TestModels(t *testing.T) {
	c := clientFor(t, ollamatest.New(t))
	models, err := c.Models(context.Background())
	require.NoError(t, err)
	slices.SortFunc(models, func(a, b chat.ModelInfo) int { return strings.Compare(a.Name, b.Name) })
	want := []chat.ModelInfo{
		{Name: "gemma:2b", ContextLength: 8192, DefaultNumCtx: 4096, Completion: true, Size: 1678456656, Family: "gemma", Parameters: "3B", Quantization: "Q4_0"},
		{Name: "llama3.2:latest", ContextLength: 131072, Completion: true, Tools: true, Size: 2019393189, Family: "llama", Parameters: "3.2B", Quantization: "Q4_K_M"},
		{Name: "nomic-embed-text:latest", ContextLength: 2048, DefaultNumCtx: 8192, Embedding: true, Size: 274302450, Family: "nomic-bert", Parameters: "137M", Quantization: "F16"},
		{Name: "qwen3:4b", ContextLength: 40960, Completion: true, Tools: true, Thinking: true, Size: 2497293918, Family: "qwen3", Parameters: "4.0B", Quantization: "Q4_K_M"},
	}
	assert.Equal(t, want, models)
}

func TestModelsKeepsAModelShowFailsOn(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithModels(ollamatest.Model{Name: "broken:1b", Family: "llama", Size: 10}),
		ollamatest.Fail("/api/show", http.StatusInternalServerError, "unable to load model blob"))
	models, err := clientFor(t, srv).Models(context.Background())
	require.NoError(t, err)
	require.Len(t, models, 1)
	assert.Equal(t, "broken:1b", models[0].Name)
	assert.Equal(t, int64(10), models[0].Size)
	assert.Contains(t, models[0].Error, "HTTP 500: unable to load model blob")
}

func TestModel(t *testing.T) {
	c := clientFor(t, ollamatest.New(t))
	for _, tc := range []struct {
		name string
		want chat.ModelInfo
		code errs.Code
		msg  string
	}{
		{name: "llama3.2", want: chat.ModelInfo{Name: "llama3.2", ContextLength: 131072, Completion: true, Tools: true, Family: "llama", Parameters: "3.2B", Quantization: "Q4_K_M"}},
		{name: "nomic-embed-text", want: chat.ModelInfo{Name: "nomic-embed-text", ContextLength: 2048, DefaultNumCtx: 8192, Embedding: true, Family: "nomic-bert", Parameters: "137M", Quantization: "F16"}},
		{name: "mistral", code: errs.OllamaModelMissing, msg: "model mistral is not installed in Ollama at " + c.URL() + ": run `ollama pull mistral`"},
		{name: "", code: errs.OllamaModelMissing, msg: "no model given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Model(context.Background(), tc.name)
			if tc.code != "" {
				assert.Equal(t, tc.code, errs.CodeOf(err))
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
		want chat.ModelInfo
	}{
		{"architecture key", api.ShowResponse{
			ModelInfo:    map[string]any{"general.architecture": "llama", "llama.context_length": float64(131072), "other.context_length": float64(4)},
			Capabilities: capabilities("completion", "tools", "vision"),
		}, chat.ModelInfo{Name: "m", ContextLength: 131072, Completion: true, Tools: true, Vision: true}},
		{"any context_length key", api.ShowResponse{
			ModelInfo: map[string]any{"bert.context_length": float64(512)}, Capabilities: capabilities("embedding"),
		}, chat.ModelInfo{Name: "m", ContextLength: 512, Embedding: true}},
		{"no context length, num_ctx parameter", api.ShowResponse{
			Parameters: "temperature 0.7\nnum_ctx 2048", Capabilities: capabilities("completion"),
		}, chat.ModelInfo{Name: "m", DefaultNumCtx: 2048, Completion: true}},
		{"old Ollama: capabilities from the template", api.ShowResponse{
			Template: "{{ if .Tools }}tools{{ end }}{{ .Prompt }}",
		}, chat.ModelInfo{Name: "m", Completion: true, Tools: true}},
		{"old Ollama: no template", api.ShowResponse{}, chat.ModelInfo{Name: "m"}},
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
	c, err := New(ollamatest.Closed(t))
	require.NoError(t, err)
	_, err = c.Models(context.Background())
	assert.Equal(t, errs.OllamaNotRunning, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "start it with `ollama serve`")
	_, err = c.Model(context.Background(), "llama3.2")
	assert.Equal(t, errs.OllamaNotRunning, errs.CodeOf(err))
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
			srv := ollamatest.New(t, ollamatest.Silent(tc.path))
			clock := waittest.NewClock()
			var notices []wait.Notice
			c := clientFor(t, srv, WithWait(wait.Options{Clock: clock}), WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
			stop := clock.Drive(time.Second)
			err := tc.call(c)
			stop()
			assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err))
			assert.Contains(t, err.Error(), "Ollama at "+c.URL()+" sent nothing for 30 s when asked to "+tc.what+", so Loom gave up")
			require.Len(t, notices, 1, "a word at 10 s; the limit comes at the stall mark")
			assert.Equal(t, "Waiting for Ollama at "+c.URL()+" to "+tc.what+": nothing yet after 10 s; giving up after 30 s of silence.", notices[0].Message)
		})
	}
}

func TestDescribeLine(t *testing.T) {
	long := strings.Repeat("x", 200)
	assert.Equal(t, "an empty line where a JSON chunk should be", describeLine(""))
	assert.Equal(t, `a chunk that is not JSON: "oops"`, describeLine("oops"))
	assert.Contains(t, describeLine(long), "(200 bytes)")
}
