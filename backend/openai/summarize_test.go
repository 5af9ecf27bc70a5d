package openai_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/openai"
	"github.com/loomwork/loom/backend/openai/openaitest"
)

func words(s string) int { return len(strings.Fields(s)) }

const longSection = "The loadable budget is the window minus the system prompt, the question and the output reservation. " +
	"The output reservation is thirty percent of the window, scaled by the question's complexity. " +
	"What is left is split between the manifest, the catalog and the nodes, which load by score until the budget is spent. " +
	"A node too large for its share loads as a summary or as its best-matching chunks instead."

// A summary comes from the model, cleaned of its label and cut to the limit.
func TestSummarizerAsksTheModel(t *testing.T) {
	srv := openaitest.New(t, openaitest.LlamaCpp, openaitest.WithChat(func(s *openaitest.Stream) {
		s.Content("Summary: The loadable budget is the window minus the prompt, the question and the answer's reservation. Then more words than fit here.")
		s.Finish("stop", 90, 24)
	}))
	sum := &openai.Summarizer{Client: newClient(t, srv.URL), Model: "qwen/qwen3-4b", Count: words}
	assert.Equal(t, "openai/qwen/qwen3-4b", sum.ID())
	out, err := sum.Summarize(context.Background(), longSection, abstract.Summary, 16)
	require.NoError(t, err)
	assert.Equal(t, "The loadable budget is the window minus the prompt, the question and the answer's reservation.", out)
	chats := srv.Chats()
	require.Len(t, chats, 1)
	assert.Equal(t, "qwen/qwen3-4b", chats[0]["model"])
	assert.Contains(t, chats[0]["messages"].([]any)[0].(map[string]any)["content"], "The output reservation is thirty percent")

	// A text that already fits is itself: the server is not asked.
	out, err = sum.Summarize(context.Background(), "Short enough.", abstract.Summary, 16)
	require.NoError(t, err)
	assert.Equal(t, "Short enough.", out)
	assert.Len(t, srv.Chats(), 1)
}

// A server that fails: the fallback's text, with an error saying who made
// it and why; without a fallback, the server's error naming the summariser.
func TestSummarizerFallsBackWhenTheServerFails(t *testing.T) {
	srv := openaitest.New(t, openaitest.LMStudio, openaitest.Respond("/v1/chat/completions", http.StatusInternalServerError, `{"error":{"message":"model crashed"}}`))
	fallback := abstract.Extractive{Count: words, Additive: true}
	sum := &openai.Summarizer{Client: newClient(t, srv.URL), Model: "qwen/qwen3-4b", Count: words, Fallback: fallback}
	out, err := sum.Summarize(context.Background(), longSection, abstract.Summary, 20)
	require.Error(t, err)
	assert.True(t, errors.Is(err, abstract.ErrFellBack), "%v", err)
	var fb *abstract.FellBackError
	require.ErrorAs(t, err, &fb)
	assert.Equal(t, fallback.ID(), fb.By)
	assert.NotEmpty(t, out)
	assert.LessOrEqual(t, words(out), 20)

	sum.Fallback = nil
	_, err = sum.Summarize(context.Background(), longSection, abstract.Summary, 20)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "summarise with openai/qwen/qwen3-4b")
	assert.Contains(t, err.Error(), "model crashed")
	assert.Equal(t, errs.OllamaBadStream, errs.CodeOf(err))
}
