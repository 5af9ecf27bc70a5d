package real_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/openai"
)

// The tiny model's shape (tools/tinyollama).
const (
	tinyContext = 2048
	tinyDim     = 64
	tinyPredict = 16 // num_predict in the Modelfile
)

func client(t *testing.T) *ollama.Client {
	t.Helper()
	oc, err := ollama.New(ollamaURL(t))
	require.NoError(t, err)
	return oc
}

func TestRealModels(t *testing.T) {
	oc := client(t)
	ctx := testContext(t)

	models, err := oc.Models(ctx)
	require.NoError(t, err)
	require.Len(t, models, 1)
	m := models[0]
	assert.Equal(t, tinyModel+":latest", m.Name)
	assert.Empty(t, m.Error)
	assert.True(t, m.Completion, "a model with a template chats")
	assert.False(t, m.Tools, "the template has no tools")
	assert.False(t, m.Embedding)
	assert.Equal(t, tinyContext, m.ContextLength, "from llama.context_length in /api/show")
	assert.Equal(t, "llama", m.Family)
	assert.Positive(t, m.Size)

	info, err := chat.New(oc).Model(ctx, tinyModel)
	require.NoError(t, err)
	assert.Equal(t, tinyContext, info.ContextLength)
	assert.True(t, info.Completion)

	_, err = oc.Model(ctx, "not-installed")
	assert.Equal(t, errs.OllamaModelMissing, errs.CodeOf(err), "%v", err)
	assert.ErrorContains(t, err, "ollama pull not-installed")
}

func TestRealEmbeddings(t *testing.T) {
	oc := client(t)
	ctx := testContext(t)

	e, err := oc.EmbedModel(tinyModel).Embedder(ctx)
	require.NoError(t, err)
	assert.Equal(t, tinyDim, e.Dim(), "the model's embedding length")
	assert.Equal(t, "ollama/"+tinyModel, e.ID())

	texts := []string{"access tokens expire after an hour", "refresh tokens last thirty days", "access tokens expire after an hour"}
	vecs, err := e.Embed(ctx, texts)
	require.NoError(t, err)
	require.Len(t, vecs, len(texts))
	for i, v := range vecs {
		require.Len(t, v, tinyDim)
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		assert.InDelta(t, 1, ss, 1e-4, "vector %d is scaled to unit length", i)
	}
	assert.NotEqual(t, vecs[0], vecs[1], "different texts, different vectors")
	assert.InDeltaSlice(t, vecs[0], vecs[2], 1e-4, "the same text, the same vector")

	_, err = oc.EmbedModel("not-installed").Embedder(ctx)
	assert.Equal(t, errs.OllamaModelMissing, errs.CodeOf(err), "%v", err)
}

func TestRealChatStreams(t *testing.T) {
	oc := client(t)
	ctx := testContext(t)
	c := chat.New(oc)

	const system = "You answer questions about the Loom workspace and cite node ids in square brackets."
	var chunks []string
	res, err := c.Chat(ctx, chat.Turn{
		Model:    tinyModel,
		Window:   tinyContext,
		System:   system,
		Question: "How long until an access token expires in Loom?",
		OnToken:  func(s string) { chunks = append(chunks, s) },
	})
	require.NoError(t, err)
	assert.Greater(t, len(chunks), 1, "the answer streams in pieces")
	assert.Equal(t, res.Answer, strings.Join(chunks, ""))
	assert.NotEmpty(t, strings.TrimSpace(res.Answer))
	assert.Equal(t, 1, res.Rounds)

	// The vocabulary is byte-level: Ollama counts one token per byte of
	// the rendered prompt, far more than Loom's estimate of about four
	// bytes a token, and the calibration learns that.
	assert.Greater(t, res.PromptEvalCount, 2*res.EstimatedPromptTokens, "prompt_eval_count %d, estimate %d", res.PromptEvalCount, res.EstimatedPromptTokens)
	assert.Equal(t, tinyPredict, res.EvalCount)
	assert.Equal(t, 1, c.Calibration().Samples(tinyModel))
	assert.InDelta(t, chat.MaxFactor, c.Calibration().Factor(tinyModel), 1e-9, "the ratio, clamped")

	// The model never ends on its own: num_predict cuts it, and the note
	// says so rather than blaming the window.
	assert.Equal(t, "length", res.DoneReason)
	assert.True(t, res.Truncated)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "output limit (num_predict")

	// A second turn with the answer in the history: the same model, its
	// count again observed.
	res2, err := c.Chat(ctx, chat.Turn{
		Model:    tinyModel,
		Window:   tinyContext,
		System:   system,
		History:  res.Messages,
		Question: "And refresh tokens?",
	})
	require.NoError(t, err)
	t.Logf("prompt_eval_count %d then %d", res.PromptEvalCount, res2.PromptEvalCount)
	assert.Greater(t, res2.PromptEvalCount, res.PromptEvalCount, "the history is in the prompt")
	assert.Equal(t, 2, c.Calibration().Samples(tinyModel))
}

func TestRealChatCancel(t *testing.T) {
	oc := client(t)
	ctx := testContext(t)
	c := chat.New(oc)

	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	tokens := 0
	res, err := c.Chat(turnCtx, chat.Turn{
		Model:    tinyModel,
		Window:   tinyContext,
		Question: "Tell me everything about access tokens.",
		OnToken: func(string) {
			tokens++
			cancel() // the person stops the answer at its first piece
		},
	})
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "the caller's cancellation, not an Ollama error: %v", err)
	assert.Positive(t, tokens)
	assert.NotEmpty(t, res.Answer, "what arrived before the cancellation is kept")
	assert.Zero(t, c.Calibration().Samples(tinyModel), "an unfinished reply has no counts")

	// The server is still usable.
	res, err = c.Chat(ctx, chat.Turn{Model: tinyModel, Window: tinyContext, Question: "Still there?"})
	require.NoError(t, err)
	assert.NotEmpty(t, res.Answer)
	assert.Positive(t, res.PromptEvalCount)
}

func TestRealNumCtxTruncation(t *testing.T) {
	oc := client(t)
	ctx := testContext(t)
	c := chat.New(oc) // a new calibration: the estimate is not scaled

	// About 900 bytes: Loom estimates about 225 tokens, inside a window of
	// 256; Ollama counts one a byte and must cut the prompt to num_ctx.
	const window = 256
	question := strings.Repeat("Which of the nodes says when tokens expire? ", 20)
	res, err := c.Chat(ctx, chat.Turn{Model: tinyModel, Window: window, Question: question})
	require.NoError(t, err)
	require.Len(t, res.Sent, 1)
	assert.Equal(t, window, res.Sent[0].Options["num_ctx"])
	assert.LessOrEqual(t, res.EstimatedPromptTokens, window)
	assert.LessOrEqual(t, res.PromptEvalCount, window, "Ollama cut the prompt to num_ctx")
	assert.GreaterOrEqual(t, res.PromptEvalCount, window-window/20, "prompt_eval_count %d", res.PromptEvalCount)
	assert.Zero(t, c.Calibration().Samples(tinyModel), "a cut prompt says nothing about the tokenizer")
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n, "it may have dropped the oldest messages")
	}
	assert.True(t, found, "notes: %q", res.Notes)
}

// Loom's OpenAI-compatible adapter (backend/openai) against a real
// server's /v1 routes: Ollama serves them too, so the adapter's model
// list, streamed chat with Loom's chat loop, cancellation and embeddings
// are proven on a real implementation of the protocol, not only on
// openaitest's.
func TestRealOpenAICompatibleRoutes(t *testing.T) {
	base := ollamaURL(t) + "/v1"
	ctx := testContext(t)
	oc, err := openai.New(base, openai.WithContextLength(tinyContext))
	require.NoError(t, err)

	models, err := oc.Models(ctx)
	require.NoError(t, err)
	require.Len(t, models, 1)
	assert.Equal(t, "Ollama", oc.Name(), "Ollama's /v1/models says owned_by library")
	assert.Equal(t, tinyModel+":latest", models[0].Name)
	assert.Equal(t, tinyContext, models[0].ServerWindow, "the configured context length stands in for the window /v1 does not report")
	assert.Contains(t, models[0].Unknown, "tools")

	var chunks []string
	res, err := chat.New(oc).Chat(ctx, chat.Turn{Model: tinyModel + ":latest", Window: tinyContext,
		System: "You answer questions about the Loom workspace.", Question: "How long until an access token expires?",
		OnToken: func(s string) { chunks = append(chunks, s) }})
	require.NoError(t, err)
	assert.Greater(t, len(chunks), 1, "the answer streams in pieces")
	assert.Equal(t, res.Answer, strings.Join(chunks, ""))
	assert.Equal(t, 1, res.Rounds)
	assert.Positive(t, res.PromptEvalCount, "the usage asked for with stream_options came in the last chunk")
	assert.Equal(t, tinyPredict, res.EvalCount)
	assert.True(t, res.Truncated, "finish_reason length, as num_predict cut it")

	turnCtx, cancel := context.WithCancel(ctx)
	res, err = chat.New(oc).Chat(turnCtx, chat.Turn{Model: tinyModel + ":latest", Window: tinyContext, Question: "Tell me everything.",
		OnToken: func(string) { cancel() }})
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotEmpty(t, res.Answer)

	e, err := oc.EmbedModel(tinyModel + ":latest").Embedder(ctx)
	require.NoError(t, err)
	assert.Equal(t, tinyDim, e.Dim())
	assert.Equal(t, "openai/"+tinyModel+":latest", e.ID())
	vecs, err := e.Embed(ctx, []string{"access tokens expire after an hour", "refresh tokens last thirty days", "access tokens expire after an hour"})
	require.NoError(t, err)
	require.Len(t, vecs, 3)
	assert.InDeltaSlice(t, vecs[0], vecs[2], 1e-4, "the same text, the same vector")
	assert.NotEqual(t, vecs[0], vecs[1])
	native, err := client(t).EmbedModel(tinyModel).Embedder(ctx)
	require.NoError(t, err)
	nv, err := native.Embed(ctx, []string{"access tokens expire after an hour"})
	require.NoError(t, err)
	assert.InDeltaSlice(t, nv[0], vecs[0], 1e-4, "/v1/embeddings and /api/embed give the same vector")

	_, err = oc.Model(ctx, "not-installed")
	assert.Equal(t, errs.OllamaModelMissing, errs.CodeOf(err))
	assert.ErrorContains(t, err, "ollama pull not-installed")
}
