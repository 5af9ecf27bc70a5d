package ollamatest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

// client is Ollama's own client for srv: what the fake must satisfy.
func client(t *testing.T, base string) *api.Client {
	t.Helper()
	u, err := url.Parse(base)
	require.NoError(t, err)
	return api.NewClient(u, http.DefaultClient)
}

func TestTheRealClientReadsTheFakesModels(t *testing.T) {
	srv := ollamatest.New(t)
	c := client(t, srv.URL)
	list, err := c.List(context.Background())
	require.NoError(t, err)
	var names []string
	for _, m := range list.Models {
		names = append(names, m.Name)
	}
	assert.Equal(t, []string{"llama3.2:latest", "gemma:2b", "nomic-embed-text:latest", "qwen3:4b"}, names)
	assert.Equal(t, "gemma", list.Models[1].Details.Family)

	show, err := c.Show(context.Background(), &api.ShowRequest{Model: "LLAMA3.2"})
	require.NoError(t, err, "any case, :latest implied")
	assert.Equal(t, float64(131072), show.ModelInfo["llama.context_length"])
	assert.Equal(t, "3.2B", show.Details.ParameterSize)
	require.Len(t, show.Capabilities, 2)
	assert.Equal(t, "tools", string(show.Capabilities[1]))

	_, err = c.Show(context.Background(), &api.ShowRequest{Model: "mistral"})
	var status api.StatusError
	require.ErrorAs(t, err, &status)
	assert.Equal(t, http.StatusNotFound, status.StatusCode)
	assert.Equal(t, "model 'mistral' not found", status.ErrorMessage)
}

func TestTheFakeStreamsScriptedChatRepliesAndRecordsThem(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithChat(
		ollamatest.CallTools(ollamatest.ToolCall{Name: "search_context", Args: map[string]any{"query": "expiry"}}),
		ollamatest.Answer(612, "Tokens ", "expire."),
	))
	c := client(t, srv.URL)
	chat := func(req *api.ChatRequest) []api.ChatResponse {
		var got []api.ChatResponse
		require.NoError(t, c.Chat(context.Background(), req, func(r api.ChatResponse) error { got = append(got, r); return nil }))
		return got
	}
	tools := []api.Tool{{Type: "function", Function: api.ToolFunction{Name: "search_context"}}}
	first := chat(&api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "q?"}}, Tools: tools,
		Options: map[string]any{"num_ctx": 8192}})
	require.Len(t, first, 2)
	require.Len(t, first[0].Message.ToolCalls, 1)
	assert.Equal(t, "search_context", first[0].Message.ToolCalls[0].Function.Name)
	assert.Equal(t, "expiry", first[0].Message.ToolCalls[0].Function.Arguments.ToMap()["query"])
	assert.True(t, first[1].Done)

	for range 2 { // the last reply repeats
		second := chat(&api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: "q?"}}})
		require.Len(t, second, 3)
		assert.Equal(t, "Tokens ", second[0].Message.Content)
		assert.Equal(t, "stop", second[2].DoneReason)
		assert.Equal(t, 612, second[2].PromptEvalCount)
	}

	sent := srv.Chats()
	require.Len(t, sent, 3)
	assert.Len(t, sent[0].Tools, 1)
	raw := srv.Requests("/api/chat")[0].JSON()
	assert.Equal(t, json.Number("8192"), raw["options"].(map[string]any)["num_ctx"], "numbers as sent")
}

func TestTheFakeRefusesWhatOllamaRefuses(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithChat(ollamatest.Answer(1, "never")))
	c := client(t, srv.URL)
	noop := func(api.ChatResponse) error { return nil }
	for _, tc := range []struct {
		name   string
		req    *api.ChatRequest
		status int
		msg    string
	}{
		{"model not installed", &api.ChatRequest{Model: "llama9"}, 404, "model 'llama9' not found"},
		{"tools to a model without them", &api.ChatRequest{Model: "gemma:2b", Tools: []api.Tool{{Type: "function"}}}, 400,
			"registry.ollama.ai/library/gemma:2b does not support tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Chat(context.Background(), tc.req, noop)
			var status api.StatusError
			require.ErrorAs(t, err, &status)
			assert.Equal(t, tc.status, status.StatusCode)
			assert.Equal(t, tc.msg, status.ErrorMessage)
		})
	}
	_, err := c.Embed(context.Background(), &api.EmbedRequest{Model: "all-minilm", Input: "x"})
	var status api.StatusError
	require.ErrorAs(t, err, &status)
	assert.Equal(t, `model "all-minilm" not found, try pulling it first`, status.ErrorMessage)
}

func TestTheFakeFailsHalfWayThroughAStream(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithChat(func(s *ollamatest.Stream) {
		s.Content("Tokens ")
		s.Error("an error was encountered while running the model: unexpected EOF")
	}))
	var got []string
	err := client(t, srv.URL).Chat(context.Background(), &api.ChatRequest{Model: "gemma:2b"}, func(r api.ChatResponse) error {
		got = append(got, r.Message.Content)
		return nil
	})
	require.EqualError(t, err, "an error was encountered while running the model: unexpected EOF")
	assert.Equal(t, []string{"Tokens "}, got)
}

func TestTheFakeGeneratesAsAskedAndEmbedsDeterministically(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithGenerate(ollamatest.Answer(212, "A ", "summary.")), ollamatest.WithEmbedDim(8))
	c := client(t, srv.URL)
	var chunks []api.GenerateResponse
	require.NoError(t, c.Generate(context.Background(), &api.GenerateRequest{Model: "llama3.2", Prompt: "p", Stream: new(bool)},
		func(r api.GenerateResponse) error { chunks = append(chunks, r); return nil }))
	require.Len(t, chunks, 1, `"stream": false is one object`)
	assert.Equal(t, "A summary.", chunks[0].Response)
	assert.True(t, chunks[0].Done)
	assert.Equal(t, 212, chunks[0].PromptEvalCount)

	resp, err := c.Embed(context.Background(), &api.EmbedRequest{Model: "nomic-embed-text", Input: []string{"Tokens expire", "tokens EXPIRE", "refresh"}})
	require.NoError(t, err)
	require.Len(t, resp.Embeddings, 3)
	assert.Len(t, resp.Embeddings[0], 8)
	assert.Equal(t, resp.Embeddings[0], resp.Embeddings[1], "a function of the words")
	assert.Equal(t, ollamatest.Vector("refresh", 8), resp.Embeddings[2])
	assert.Equal(t, [][]string{{"Tokens expire", "tokens EXPIRE", "refresh"}}, srv.EmbedInputs())
}

func TestTheFakesFailures(t *testing.T) {
	t.Run("closed", func(t *testing.T) {
		_, err := client(t, ollamatest.Closed(t)).List(context.Background())
		var urlErr *url.Error
		require.ErrorAs(t, err, &urlErr)
	})
	t.Run("an HTTP error", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.Fail("/api/tags", http.StatusInternalServerError, "permission denied"))
		_, err := client(t, srv.URL).List(context.Background())
		var status api.StatusError
		require.ErrorAs(t, err, &status)
		assert.Equal(t, "permission denied", status.ErrorMessage)
	})
	t.Run("a body that is not Ollama's", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.Respond("/api/tags", http.StatusOK, "this is not JSON"))
		_, err := client(t, srv.URL).List(context.Background())
		require.Error(t, err)
	})
	t.Run("silent until the client gives up", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.Silent())
		ctx, cancel := context.WithCancel(context.Background())
		srv.Set(ollamatest.Hook(func(*http.Request) { cancel() })) // the request has arrived
		_, err := client(t, srv.URL).List(ctx)
		assert.True(t, errors.Is(err, context.Canceled), "%v", err)
		assert.Len(t, srv.Requests("/api/tags"), 1)
	})
	t.Run("a stall", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		srv := ollamatest.New(t, ollamatest.WithChat(func(s *ollamatest.Stream) {
			s.Content("Tokens ")
			s.Stall()
		}))
		var got []string
		_ = client(t, srv.URL).Chat(ctx, &api.ChatRequest{Model: "gemma:2b"}, func(r api.ChatResponse) error {
			got = append(got, r.Message.Content)
			cancel() // the first chunk arrived; nothing more will
			return nil
		})
		assert.Equal(t, []string{"Tokens "}, got)
	})
	t.Run("malformed and unknown", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.WithChat(func(s *ollamatest.Stream) {
			s.Content("a")
			s.Line("<html>502 Bad Gateway</html>")
		}))
		err := client(t, srv.URL).Chat(context.Background(), &api.ChatRequest{Model: "gemma:2b"}, func(api.ChatResponse) error { return nil })
		require.EqualError(t, err, "<html>502 Bad Gateway</html>")
		resp, err := http.Get(srv.URL + "/api/nothing")
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	})
}
