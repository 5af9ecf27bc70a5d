package ollama

import (
	"context"
	"errors"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
)

// lengthVectors is a deterministic, deliberately not normalised vector per
// input: the input's length in the first component, 3 in the rest.
func lengthVectors(dim int) ollamatest.Embedder {
	return func(_ string, inputs []string) [][]float32 {
		out := make([][]float32, len(inputs))
		for i, text := range inputs {
			v := make([]float32, dim)
			for d := range v {
				v[d] = 3
			}
			v[0] = float32(len(text) + 1)
			out[i] = v
		}
		return out
	}
}

func unitLength(t *testing.T, v []float32) {
	t.Helper()
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	assert.InDelta(t, 1, ss, 1e-5)
}

// embedder opens the default embedding model of the Ollama at url.
func embedder(t *testing.T, url string, opts ...Option) (*Embedder, error) {
	t.Helper()
	c, err := New(url, opts...)
	require.NoError(t, err)
	return c.EmbedModel("").Embedder(context.Background())
}

func TestEmbedAgainstFakeOllama(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedder(lengthVectors(8)))
	ctx := context.Background()

	e, err := embedder(t, srv.URL, WithBatchSize(2))
	require.NoError(t, err)
	assert.Equal(t, "ollama/nomic-embed-text", e.ID())
	assert.Equal(t, 8, e.Dim())
	assert.Equal(t, srv.URL, e.URL())
	assert.Equal(t, [][]string{{"dimension probe"}}, srv.EmbedInputs(), "Open embeds one probe")

	texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	vecs, err := e.Embed(ctx, texts)
	require.NoError(t, err)
	require.Len(t, vecs, len(texts))
	for i, v := range vecs {
		require.Len(t, v, 8)
		unitLength(t, v)
		// The first component encodes the input length: order is kept.
		want := float64(len(texts[i])+1) / math.Sqrt(float64((len(texts[i])+1)*(len(texts[i])+1)+7*9))
		assert.InDelta(t, want, v[0], 1e-6)
	}
	assert.Equal(t, [][]string{{"dimension probe"}, {"a", "bb"}, {"ccc", "dddd"}, {"eeeee"}}, srv.EmbedInputs(), "batches of 2")

	vecs, err = e.Embed(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, vecs)
	assert.Len(t, srv.EmbedInputs(), 4, "no request for no texts")
}

func TestModelNamesMatchWithAndWithoutLatest(t *testing.T) {
	cases := []struct {
		name   string
		listed string
		want   string
		ok     bool
	}{
		{"implied latest", "nomic-embed-text:latest", "nomic-embed-text", true},
		{"explicit latest", "nomic-embed-text:latest", "nomic-embed-text:latest", true},
		{"listed without tag", "nomic-embed-text", "nomic-embed-text:latest", true},
		{"case-insensitive", "Nomic-Embed-Text:latest", "nomic-embed-text", true},
		{"other tag", "all-minilm:l6-v2", "all-minilm", false},
		{"exact other tag", "all-minilm:l6-v2", "all-minilm:l6-v2", true},
		{"prefix is not a match", "nomic-embed-text-v2:latest", "nomic-embed-text", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := ollamatest.New(t, ollamatest.WithModels(ollamatest.Model{Name: tc.listed, Capabilities: []string{"embedding"}}))
			c, err := New(srv.URL)
			require.NoError(t, err)
			err = c.EmbedModel(tc.want).Check(context.Background(), 0)
			if tc.ok {
				require.NoError(t, err)
			} else {
				assert.Equal(t, errs.OllamaModelMissing, errs.CodeOf(err))
			}
		})
	}
}

func TestFailuresAreNamed(t *testing.T) {
	closed := ollamatest.Closed(t) // nothing listens at this address

	threeInputs := []string{"one", "two", "three"}
	unusable := func(body string) []ollamatest.Option {
		return []ollamatest.Option{ollamatest.Respond("/api/embed", http.StatusOK, body)}
	}
	vectors := func(f func(in []string, vecs [][]float32) [][]float32) []ollamatest.Option {
		return []ollamatest.Option{ollamatest.WithEmbedder(func(model string, in []string) [][]float32 {
			return f(in, lengthVectors(4)(model, in))
		})}
	}
	cases := []struct {
		name string
		// server is nil for the closed address.
		server   []ollamatest.Option
		texts    []string // embedded after Open succeeds; nil means Open must fail
		code     errs.Code
		contains []string
	}{
		{
			name: "ollama down", code: errs.OllamaNotRunning,
			contains: []string{"Ollama is not reachable at " + closed, "start it with `ollama serve`", "connection refused"},
		},
		{
			name: "model not installed", server: []ollamatest.Option{ollamatest.WithModels(ollamatest.Llama32())},
			code: errs.OllamaModelMissing, contains: []string{"model nomic-embed-text is not installed", "run `ollama pull nomic-embed-text`"},
		},
		{
			name: "no models at all", server: []ollamatest.Option{ollamatest.WithModels()},
			code: errs.OllamaModelMissing, contains: []string{"ollama pull nomic-embed-text"},
		},
		{
			name:   "model deleted after listing (HTTP 404)",
			server: []ollamatest.Option{ollamatest.Fail("/api/embed", http.StatusNotFound, `model "nomic-embed-text" not found, try pulling it first`)},
			code:   errs.OllamaModelMissing, contains: []string{"run `ollama pull nomic-embed-text`", "not found, try pulling it first"},
		},
		{
			name:   "server error on embed (HTTP 500)",
			server: []ollamatest.Option{ollamatest.Fail("/api/embed", http.StatusInternalServerError, "llama runner process has terminated: signal: killed")},
			code:   errs.OllamaBadStream, contains: []string{"HTTP 500", "llama runner process has terminated: signal: killed", "failed to embed 1 text with model nomic-embed-text"},
		},
		{
			name:   "server error without JSON (HTTP 502)",
			server: []ollamatest.Option{ollamatest.Respond("/api/embed", http.StatusBadGateway, "<html>Bad Gateway</html>")},
			code:   errs.OllamaBadStream, contains: []string{"HTTP 502", "Bad Gateway"},
		},
		{
			name:   "server error on tags (HTTP 500)",
			server: []ollamatest.Option{ollamatest.Fail("/api/tags", http.StatusInternalServerError, "open /root/.ollama/models/manifests: permission denied")},
			code:   errs.OllamaBadStream, contains: []string{"failed to list its models (looking for nomic-embed-text)", "permission denied"},
		},
		{
			name:   "garbage body on tags",
			server: []ollamatest.Option{ollamatest.Respond("/api/tags", http.StatusOK, "this is not JSON")},
			code:   errs.OllamaBadStream, contains: []string{"malformed JSON"},
		},
		{
			name:   "garbage body on embed",
			server: unusable(`{"model":"nomic-embed-text","embeddings":[[0.1,0.2,`),
			code:   errs.OllamaBadStream, contains: []string{"unusable response", "malformed JSON"},
		},
		{
			name:   "wrong JSON type",
			server: unusable(`{"embeddings":"0.1,0.2"}`),
			code:   errs.OllamaBadStream, contains: []string{"malformed JSON"},
		},
		{
			name:   "number overflowing float32",
			server: unusable(`{"embeddings":[[1e39,0.5]]}`),
			code:   errs.OllamaBadStream, contains: []string{"malformed JSON"},
		},
		{
			name:   "empty body",
			server: unusable(""),
			code:   errs.OllamaBadStream, contains: []string{"0 embeddings for 1 inputs"},
		},
		{
			name:   "wrong number of embeddings",
			server: vectors(func(_ []string, vecs [][]float32) [][]float32 { return vecs[:min(len(vecs), 2)] }),
			texts:  threeInputs, code: errs.OllamaBadStream, contains: []string{"2 embeddings for 3 inputs"},
		},
		{
			name: "inconsistent dimensions",
			server: vectors(func(_ []string, vecs [][]float32) [][]float32 {
				if len(vecs) > 1 {
					vecs[1] = append(vecs[1], 1)
				}
				return vecs
			}),
			texts: threeInputs, code: errs.OllamaBadStream, contains: []string{"embedding 1 has 5 dimensions, want 4"},
		},
		{
			name: "dimension changes between calls",
			server: []ollamatest.Option{ollamatest.WithEmbedder(func(model string, in []string) [][]float32 {
				dim := 4
				if in[0] != probeText {
					dim = 6
				}
				return lengthVectors(dim)(model, in)
			})},
			texts: threeInputs, code: errs.OllamaBadStream, contains: []string{"embedding 0 has 6 dimensions, want 4"},
		},
		{
			name:   "empty embedding",
			server: unusable(`{"embeddings":[[]]}`),
			code:   errs.OllamaBadStream, contains: []string{"empty embedding"},
		},
		{
			name: "zero vector",
			server: vectors(func(_ []string, vecs [][]float32) [][]float32 {
				if len(vecs) > 1 {
					clear(vecs[2])
				}
				return vecs
			}),
			texts: threeInputs, code: errs.OllamaBadStream, contains: []string{"embedding 2 is all zeros"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := closed
			if tc.server != nil {
				url = ollamatest.New(t, tc.server...).URL
			}
			ctx := context.Background()
			e, err := embedder(t, url)
			if tc.texts != nil {
				require.NoError(t, err)
				_, err = e.Embed(ctx, tc.texts)
			}
			require.Error(t, err)
			assert.Equal(t, tc.code, errs.CodeOf(err))
			var oe *Error
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, url, oe.URL)
			assert.Equal(t, "nomic-embed-text", oe.Model)
			for _, want := range tc.contains {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

func TestNaNIsRejected(t *testing.T) {
	// JSON cannot carry NaN, so check the validation directly on what a
	// decoder that accepted it would produce.
	c, err := New(ollamatest.Closed(t))
	require.NoError(t, err)
	err = c.checkVectors("nomic-embed-text", [][]float32{{1, float32(math.NaN()), 0}}, 1, 3)
	assert.Equal(t, errs.OllamaBadStream, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "embedding 0 contains NaN")
}

// A silent Ollama — one that takes the connection and never answers — is
// announced at 10 s, called stalled at 30 s and every 30 s after, and
// given up at the request timeout with an error naming the server, the
// model and what it was asked. The clock is driven only while nothing can
// answer, so the timeout is the only possible end.
func TestASilentOllamaIsAnnouncedAndGivenUp(t *testing.T) {
	t.Run("before listing the models", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.Silent("/api/tags"))
		clock := waittest.NewClock()
		var notices []wait.Notice
		stop := clock.Drive(time.Second)
		_, err := embedder(t, srv.URL, WithWait(wait.Options{Clock: clock}),
			WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
		stop()
		assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err))
		var oe *Error
		require.ErrorAs(t, err, &oe)
		assert.Equal(t, "nomic-embed-text", oe.Model)
		assert.Equal(t, "Ollama at "+srv.URL+" did not answer within 2 min when asked to list its models (looking for nomic-embed-text), so Loom gave up: is it running (`ollama serve`), and is model nomic-embed-text still loading (`ollama ps`)?", err.Error())
		require.Len(t, notices, 4, "10 s, 30 s, 1 min, 1 min 30 s")
		assert.Equal(t, "Waiting for Ollama at "+srv.URL+" to list its models (looking for nomic-embed-text): nothing yet after 10 s; giving up after 2 min of silence.", notices[0].Message)
		assert.True(t, notices[1].Stalled)
		assert.Equal(t, 90*time.Second, notices[3].Silent)
	})
	t.Run("while embedding", func(t *testing.T) {
		srv := ollamatest.New(t, ollamatest.WithEmbedDim(4))
		clock := waittest.NewClock()
		var notices []wait.Notice
		e, err := embedder(t, srv.URL, WithModelTimeout(time.Minute), WithWait(wait.Options{Clock: clock}),
			WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
		require.NoError(t, err, "the clock stands still: no request can time out")
		srv.Set(ollamatest.Silent("/api/embed")) // a model that never finishes loading
		stop := clock.Drive(time.Second)
		_, err = e.Embed(context.Background(), []string{"slow", "slower"})
		stop()
		assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err))
		assert.Contains(t, err.Error(), "Ollama at "+srv.URL+" did not answer within 1 min when asked to embed 2 texts with model nomic-embed-text, so Loom gave up")
		require.Len(t, notices, 2)
		assert.Equal(t, "Ollama at "+srv.URL+" has sent nothing for 30 s since it was asked to embed 2 texts with model nomic-embed-text: the model may be loading or stuck; giving up after 1 min of silence.", notices[1].Message)
	})
}

func TestTheCallersOwnDeadlineIsNotOllamasFault(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedDim(4))
	// A clock that never moves: only the caller's deadline can end the wait.
	e, err := embedder(t, srv.URL, WithWait(wait.Options{Clock: waittest.NewClock()}))
	require.NoError(t, err)
	srv.Set(ollamatest.Silent("/api/embed"))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = e.Embed(ctx, []string{"slow"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var oe *Error
	assert.False(t, errors.As(err, &oe), "the caller's own deadline is not Ollama's fault")
}

func TestEmbedModelAndID(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithModels(ollamatest.Model{Name: "all-minilm:l6-v2", Capabilities: []string{"embedding"}}),
		ollamatest.WithEmbedDim(384))
	c, err := New(srv.URL, WithHTTPClient(&http.Client{Timeout: 5 * time.Second}))
	require.NoError(t, err)
	e, err := c.EmbedModel("all-minilm:l6-v2").Embedder(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "ollama/all-minilm:l6-v2", e.ID())
	assert.Equal(t, "all-minilm:l6-v2", e.Model())
	assert.Equal(t, 384, e.Dim())

	m := c.EmbedModel(" ")
	assert.Equal(t, DefaultEmbedModel, m.Model(), "blank is the default model")
	assert.Equal(t, srv.URL, m.URL())
}
