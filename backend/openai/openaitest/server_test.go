package openaitest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/openai/openaitest"
)

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// The stream is what the protocol says, byte for byte in its framing:
// "data: " and one JSON chunk per event, a blank line after each, the
// tool call's first delta with its id, type and name and empty arguments,
// the arguments in pieces under the index alone, the finish reason, the
// usage in a chunk without choices when asked for, and "data: [DONE]".
func TestTheStreamIsServerSentEventsAsOpenAIWritesThem(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.WithChat(openaitest.CallTools(
		openaitest.ToolCall{ID: "call_1", Name: "search_context", Args: `{"query":"token expiry"}`})))
	resp, body := post(t, srv.URL+"/chat/completions",
		`{"model":"qwen/qwen3-4b","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"search_context"}}]}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	require.True(t, strings.HasSuffix(body, "data: [DONE]\n\n"), body)
	events := strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n")
	var chunks []map[string]any
	for _, ev := range events[:len(events)-1] {
		require.True(t, strings.HasPrefix(ev, "data: "), ev)
		var c map[string]any
		require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(ev, "data: ")), &c), ev)
		assert.Equal(t, "chat.completion.chunk", c["object"])
		chunks = append(chunks, c)
	}
	delta := func(i int) map[string]any {
		return chunks[i]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)
	}
	first := delta(0)["tool_calls"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"index": float64(0), "id": "call_1", "type": "function",
		"function": map[string]any{"name": "search_context", "arguments": ""}}, first)
	var args strings.Builder
	pieces := 0
	for i := 1; i < len(chunks)-2; i++ {
		tc := delta(i)["tool_calls"].([]any)[0].(map[string]any)
		assert.Equal(t, []string{"function", "index"}, keys(tc), "a later delta carries the index and arguments only")
		args.WriteString(tc["function"].(map[string]any)["arguments"].(string))
		pieces++
	}
	assert.Equal(t, `{"query":"token expiry"}`, args.String())
	assert.Greater(t, pieces, 2, "the arguments arrive in pieces")
	finish := chunks[len(chunks)-2]["choices"].([]any)[0].(map[string]any)
	assert.Equal(t, "tool_calls", finish["finish_reason"])
	usage := chunks[len(chunks)-1]
	assert.Empty(t, usage["choices"])
	assert.NotNil(t, usage["usage"])
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	if len(out) == 2 && out[0] > out[1] {
		out[0], out[1] = out[1], out[0]
	}
	return out
}

// Each server refuses what it refuses, in its own words.
func TestTheFakeRefusesAsTheServersDo(t *testing.T) {
	srv := openaitest.New(t, openaitest.VLLM, openaitest.WithModels(openaitest.Model{ID: "m"}), openaitest.WithChat(openaitest.Answer(1, "x")))
	resp, body := post(t, srv.URL+"/chat/completions", `{"model":"m","stream":true,"messages":[],"tools":[{"type":"function"}]}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, body, "--enable-auto-tool-choice")
	resp, body = post(t, srv.URL+"/chat/completions", `{"model":"other","messages":[]}`)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, body, "The model `other` does not exist.")

	lms := openaitest.New(t, openaitest.LMStudio, openaitest.WithAPIKey("k"))
	resp, body = post(t, lms.URL+"/embeddings", `{"model":"text-embedding-nomic-embed-text-v1.5","input":"x"}`)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Contains(t, body, `"authentication_error"`)
}
