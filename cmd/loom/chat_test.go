package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeOllama answers /api/tags, /api/show and a streaming /api/chat the
// way Ollama does (NDJSON), for one model without tool support.
func fakeOllama(t *testing.T) (*httptest.Server, *[]api.ChatRequest) {
	t.Helper()
	var sent []api.ChatRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
