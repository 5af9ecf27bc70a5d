package chat_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/ollama"
)

// TestRealOllama runs one turn, with tools when the model has them,
// against a real Ollama, through the adapter, at LOOM_OLLAMA_URL with LOOM_OLLAMA_CHAT_MODEL
// (default llama3.2).
func TestRealOllama(t *testing.T) {
	base := os.Getenv("LOOM_OLLAMA_URL")
	if base == "" {
		t.Skip("LOOM_OLLAMA_URL is not set: skipping the test against a real Ollama (set it, e.g. http://127.0.0.1:11434, and LOOM_OLLAMA_CHAT_MODEL)")
	}
	model := os.Getenv("LOOM_OLLAMA_CHAT_MODEL")
	if model == "" {
		model = "llama3.2"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	oc, err := ollama.New(base)
	require.NoError(t, err)
	c := chat.New(oc)

	models, err := oc.Models(ctx)
	require.NoError(t, err)
	t.Logf("%d models installed", len(models))
	info, err := c.Model(ctx, model)
	require.NoError(t, err, "is the model pulled?")
	require.True(t, info.Completion, "%s cannot chat", model)
	require.Positive(t, info.ContextLength)

	tools := &fakeTools{results: map[string]chat.ToolResult{
		chat.ToolSearchContext: {Text: "[n7] In Loom, access tokens expire after 3600 seconds.", NodeIDs: []string{"n7"}},
		chat.ToolCatalog:       {Text: "[Catalog: 1 document (auth.md, node n7)]", NodeIDs: []string{"n7"}},
		chat.ToolExpand:        {Text: "[n7] Access tokens expire after 3600 seconds; refresh tokens after 30 days.", NodeIDs: []string{"n7"}},
		chat.ToolGetWindow:     {Text: "[n7] Access tokens expire after 3600 seconds.", NodeIDs: []string{"n7"}},
	}}
	var streamed strings.Builder
	res, err := c.Chat(ctx, chat.Turn{
		Model: model, Window: min(info.ContextLength, 4096),
		System:   "You answer questions about the Loom workspace. Use the search_context tool when the context does not answer, and cite node ids in square brackets.\n\n[Context loaded: 0 of 1 relevant node]\n[Additional context available but not loaded: 1 node]",
		Question: "How long until an access token expires in Loom?",
		Tools:    tools,
		OnToken:  func(s string) { streamed.WriteString(s) },
	})
	require.NoError(t, err)
	t.Logf("answer: %s", res.Answer)
	t.Logf("tool calls: %+v", res.ToolCalls)
	t.Logf("prompt_eval_count %d, estimate %d, factor %.2f, notes %v", res.PromptEvalCount, res.EstimatedPromptTokens, c.Calibration().Factor(model), res.Notes)
	assert.NotEmpty(t, res.Answer)
	assert.Equal(t, res.Answer, streamed.String())
	assert.Positive(t, res.PromptEvalCount)
	assert.Equal(t, info.Tools, res.ToolsOffered)
}
