package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
)

// fakeOllama speaks the parts of Ollama's HTTP API the embedder uses, with
// the same JSON shapes and status codes as the real server.
type fakeOllama struct {
	models []string // names listed by /api/tags
	dim    int
	// embed, when set, answers /api/embed instead of the default handler.
	embed func(w http.ResponseWriter, inputs []string)
	tags  func(w http.ResponseWriter)
	// silent lists paths ("/api/embed") that accept the request and never
	// answer, as a stuck Ollama does.
	silent []string

	mu     sync.Mutex
	inputs [][]string // the input of every /api/embed request
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if slices.Contains(f.silent, r.URL.Path) {
		// Read the body first: only then does the server notice the
		// client hanging up and end r.Context().
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done() // until the client gives up
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		if f.tags != nil {
			f.tags(w)
			return
		}
		var models []map[string]any
		for _, name := range f.models {
			models = append(models, map[string]any{
				"name": name, "model": name, "modified_at": "2026-01-02T15:04:05Z",
				"size": 274302450, "digest": "0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f",
				"details": map[string]any{"format": "gguf", "family": "nomic-bert", "parameter_size": "137M", "quantization_level": "F16"},
			})
		}
		writeJSON(w, http.StatusOK, map[string]any{"models": models})
	case r.Method == http.MethodPost && r.URL.Path == "/api/embed":
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		f.mu.Lock()
		f.inputs = append(f.inputs, req.Input)
		f.mu.Unlock()
		if f.embed != nil {
			f.embed(w, req.Input)
			return
		}
		if !slices.ContainsFunc(f.models, func(m string) bool { return sameModel(m, req.Model) }) {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model %q not found, try pulling it first", req.Model)})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"model": req.Model, "embeddings": f.vectors(req.Input),
			"total_duration": 14143917, "load_duration": 1019500, "prompt_eval_count": 8,
		})
	default:
		http.NotFound(w, r)
	}
}

// vectors returns a deterministic, deliberately not normalised vector per
// input: the input's length in the first component, 3 in the rest.
func (f *fakeOllama) vectors(inputs []string) [][]float32 {
	out := make([][]float32, len(inputs))
	for i, text := range inputs {
		v := make([]float32, f.dim)
		for d := range v {
			v[d] = 3
		}
		v[0] = float32(len(text) + 1)
		out[i] = v
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func serve(t *testing.T, f *fakeOllama) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv
}

func unitLength(t *testing.T, v []float32) {
	t.Helper()
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	assert.InDelta(t, 1, ss, 1e-5)
}

func TestEmbedAgainstFakeOllama(t *testing.T) {
	f := &fakeOllama{models: []string{"all-minilm:latest", "nomic-embed-text:latest"}, dim: 8}
	srv := serve(t, f)
	ctx := context.Background()

	e, err := New(ctx, WithBaseURL(srv.URL), WithBatchSize(2))
	require.NoError(t, err)
	assert.Equal(t, "ollama/nomic-embed-text", e.ID())
	assert.Equal(t, 8, e.Dim())
	assert.Equal(t, srv.URL, e.URL())
	assert.Equal(t, [][]string{{"dimension probe"}}, f.inputs, "New embeds one probe")

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
	assert.Equal(t, [][]string{{"dimension probe"}, {"a", "bb"}, {"ccc", "dddd"}, {"eeeee"}}, f.inputs, "batches of 2")

	vecs, err = e.Embed(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, vecs)
	assert.Len(t, f.inputs, 4, "no request for no texts")
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
			srv := serve(t, &fakeOllama{models: []string{tc.listed}, dim: 4})
			err := Available(context.Background(), WithBaseURL(srv.URL), WithModel(tc.want))
			if tc.ok {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, ErrModelMissing)
			}
		})
	}
}

func TestFailuresAreNamed(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // nothing listens at its address any more

	threeInputs := []string{"one", "two", "three"}
	cases := []struct {
		name string
		// server is nil for the closed server.
		server   *fakeOllama
		texts    []string // embedded after New succeeds; nil means New must fail
		kind     error
		contains []string
	}{
		{
			name: "ollama down", kind: ErrUnreachable,
			contains: []string{"Ollama is not reachable at " + closed.URL, "start it with `ollama serve`", "connection refused"},
		},
		{
			name: "model not installed", server: &fakeOllama{models: []string{"llama3.2:latest"}, dim: 4},
			kind: ErrModelMissing, contains: []string{"model nomic-embed-text is not installed", "run `ollama pull nomic-embed-text`"},
		},
		{
			name: "no models at all", server: &fakeOllama{dim: 4},
			kind: ErrModelMissing, contains: []string{"ollama pull nomic-embed-text"},
		},
		{
			name: "model deleted after listing (HTTP 404)",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				writeJSON(w, http.StatusNotFound, map[string]string{"error": `model "nomic-embed-text" not found, try pulling it first`})
			}},
			kind: ErrModelMissing, contains: []string{"run `ollama pull nomic-embed-text`", "not found, try pulling it first"},
		},
		{
			name: "server error on embed (HTTP 500)",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "llama runner process has terminated: signal: killed"})
			}},
			kind: ErrServer, contains: []string{"HTTP 500", "llama runner process has terminated: signal: killed", "failed to embed 1 text with model nomic-embed-text"},
		},
		{
			name: "server error without JSON (HTTP 502)",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				w.WriteHeader(http.StatusBadGateway)
				w.Write([]byte("<html>Bad Gateway</html>"))
			}},
			kind: ErrServer, contains: []string{"HTTP 502", "Bad Gateway"},
		},
		{
			name: "server error on tags (HTTP 500)",
			server: &fakeOllama{tags: func(w http.ResponseWriter) {
				writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "open /root/.ollama/models/manifests: permission denied"})
			}},
			kind: ErrServer, contains: []string{"failed to list its models (looking for nomic-embed-text)", "permission denied"},
		},
		{
			name: "garbage body on tags",
			server: &fakeOllama{tags: func(w http.ResponseWriter) {
				w.Write([]byte("this is not JSON"))
			}},
			kind: ErrBadResponse, contains: []string{"malformed JSON"},
		},
		{
			name: "garbage body on embed",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				w.Write([]byte(`{"model":"nomic-embed-text","embeddings":[[0.1,0.2,`))
			}},
			kind: ErrBadResponse, contains: []string{"unusable response", "malformed JSON"},
		},
		{
			name: "wrong JSON type",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				w.Write([]byte(`{"embeddings":"0.1,0.2"}`))
			}},
			kind: ErrBadResponse, contains: []string{"malformed JSON"},
		},
		{
			name: "number overflowing float32",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				w.Write([]byte(`{"embeddings":[[1e39,0.5]]}`))
			}},
			kind: ErrBadResponse, contains: []string{"malformed JSON"},
		},
		{
			name: "empty body",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				w.WriteHeader(http.StatusOK)
			}},
			kind: ErrBadResponse, contains: []string{"0 embeddings for 1 inputs"},
		},
		{
			name: "wrong number of embeddings",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, in []string) {
				vecs := (&fakeOllama{dim: 4}).vectors(in)
				writeJSON(w, http.StatusOK, map[string]any{"model": "nomic-embed-text", "embeddings": vecs[:min(len(vecs), 2)]})
			}},
			texts: threeInputs, kind: ErrBadResponse, contains: []string{"2 embeddings for 3 inputs"},
		},
		{
			name: "inconsistent dimensions",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, in []string) {
				vecs := (&fakeOllama{dim: 4}).vectors(in)
				if len(vecs) > 1 {
					vecs[1] = append(vecs[1], 1)
				}
				writeJSON(w, http.StatusOK, map[string]any{"model": "nomic-embed-text", "embeddings": vecs})
			}},
			texts: threeInputs, kind: ErrBadResponse, contains: []string{"embedding 1 has 5 dimensions, want 4"},
		},
		{
			name: "dimension changes between calls",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, in []string) {
				dim := 4
				if in[0] != probeText {
					dim = 6
				}
				writeJSON(w, http.StatusOK, map[string]any{"embeddings": (&fakeOllama{dim: dim}).vectors(in)})
			}},
			texts: threeInputs, kind: ErrBadResponse, contains: []string{"embedding 0 has 6 dimensions, want 4"},
		},
		{
			name: "empty embedding",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, _ []string) {
				w.Write([]byte(`{"embeddings":[[]]}`))
			}},
			kind: ErrBadResponse, contains: []string{"empty embedding"},
		},
		{
			name: "zero vector",
			server: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embed: func(w http.ResponseWriter, in []string) {
				vecs := (&fakeOllama{dim: 4}).vectors(in)
				if len(vecs) > 1 {
					clear(vecs[2])
				}
				writeJSON(w, http.StatusOK, map[string]any{"embeddings": vecs})
			}},
			texts: threeInputs, kind: ErrBadResponse, contains: []string{"embedding 2 is all zeros"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := closed.URL
			if tc.server != nil {
				url = serve(t, tc.server).URL
			}
			ctx := context.Background()
			e, err := New(ctx, WithBaseURL(url))
			if tc.texts != nil {
				require.NoError(t, err)
				_, err = e.Embed(ctx, tc.texts)
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.kind)
			var oe *Error
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, url, oe.URL)
			for _, want := range tc.contains {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

func TestNaNIsRejected(t *testing.T) {
	// JSON cannot carry NaN, so check the validation directly on what a
	// decoder that accepted it would produce.
	f := &fakeOllama{models: []string{"nomic-embed-text:latest"}, dim: 3}
	e, err := New(context.Background(), WithBaseURL(serve(t, f).URL))
	require.NoError(t, err)
	f.embed = func(w http.ResponseWriter, _ []string) {
		w.Write([]byte(`{"embeddings":[[1,2,3]]}`))
	}
	_, err = e.Embed(context.Background(), []string{"x"})
	require.NoError(t, err)

	err = e.cfg.checkVectors([][]float32{{1, float32(math.NaN()), 0}}, 1, 3)
	require.ErrorIs(t, err, ErrBadResponse)
	assert.Contains(t, err.Error(), "embedding 0 contains NaN")
}

// A silent Ollama — one that takes the connection and never answers — is
// announced at 10 s, called stalled at 30 s and every 30 s after, and
// given up at the request timeout with an error naming the server, the
// model and what it was asked. The clock is driven only while nothing can
// answer, so the timeout is the only possible end.
func TestASilentOllamaIsAnnouncedAndGivenUp(t *testing.T) {
	t.Run("before listing the models", func(t *testing.T) {
		srv := serve(t, &fakeOllama{silent: []string{"/api/tags"}})
		clock := waittest.NewClock()
		var notices []wait.Notice
		stop := clock.Drive(time.Second)
		_, err := New(context.Background(), WithBaseURL(srv.URL), WithWait(wait.Options{Clock: clock}),
			WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
		stop()
		require.ErrorIs(t, err, ErrUnreachable)
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
		f := &fakeOllama{models: []string{"nomic-embed-text:latest"}, dim: 4}
		srv := serve(t, f)
		clock := waittest.NewClock()
		var notices []wait.Notice
		e, err := New(context.Background(), WithBaseURL(srv.URL), WithTimeout(time.Minute), WithWait(wait.Options{Clock: clock}),
			WithNotify(func(n wait.Notice) { notices = append(notices, n) }))
		require.NoError(t, err, "the clock stands still: no request can time out")
		f.silent = []string{"/api/embed"} // a model that never finishes loading
		stop := clock.Drive(time.Second)
		_, err = e.Embed(context.Background(), []string{"slow", "slower"})
		stop()
		require.ErrorIs(t, err, ErrUnreachable)
		assert.Contains(t, err.Error(), "Ollama at "+srv.URL+" did not answer within 1 min when asked to embed 2 texts with model nomic-embed-text, so Loom gave up")
		require.Len(t, notices, 2)
		assert.Equal(t, "Ollama at "+srv.URL+" has sent nothing for 30 s since it was asked to embed 2 texts with model nomic-embed-text: the model may be loading or stuck; giving up after 1 min of silence.", notices[1].Message)
	})
}

func TestTheCallersOwnDeadlineIsNotOllamasFault(t *testing.T) {
	f := &fakeOllama{models: []string{"nomic-embed-text:latest"}, dim: 4}
	srv := serve(t, f)
	// A clock that never moves: only the caller's deadline can end the wait.
	e, err := New(context.Background(), WithBaseURL(srv.URL), WithWait(wait.Options{Clock: waittest.NewClock()}))
	require.NoError(t, err)
	f.silent = []string{"/api/embed"}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = e.Embed(ctx, []string{"slow"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var oe *Error
	assert.False(t, errors.As(err, &oe), "the caller's own deadline is not Ollama's fault")
}

func TestConfiguration(t *testing.T) {
	t.Run("OLLAMA_HOST is the default base URL", func(t *testing.T) {
		srv := serve(t, &fakeOllama{models: []string{"nomic-embed-text:latest"}, dim: 4})
		t.Setenv("OLLAMA_HOST", srv.URL)
		e, err := New(context.Background())
		require.NoError(t, err)
		assert.Equal(t, srv.URL, e.URL())
	})
	t.Run("OLLAMA_HOST as host:port", func(t *testing.T) {
		t.Setenv("OLLAMA_HOST", "127.0.0.1:5555")
		assert.Equal(t, "http://127.0.0.1:5555", BaseURL())
	})
	t.Run("without OLLAMA_HOST", func(t *testing.T) {
		t.Setenv("OLLAMA_HOST", "")
		assert.Equal(t, "http://127.0.0.1:11434", BaseURL())
	})
	t.Run("explicit URL wins", func(t *testing.T) {
		t.Setenv("OLLAMA_HOST", "127.0.0.1:5555")
		assert.Equal(t, "http://127.0.0.1:7777", BaseURL(WithBaseURL("http://127.0.0.1:7777/")))
	})
	t.Run("bare host:port means http", func(t *testing.T) {
		assert.Equal(t, "http://127.0.0.1:7777", BaseURL(WithBaseURL("127.0.0.1:7777")))
		assert.Equal(t, "http://localhost:11434", BaseURL(WithBaseURL("localhost")))
		assert.Equal(t, "http://[::1]:11434", BaseURL(WithBaseURL("[::1]")))
		assert.Equal(t, "http://[::1]:8080", BaseURL(WithBaseURL("[::1]:8080")))
	})
	t.Run("model and ID", func(t *testing.T) {
		srv := serve(t, &fakeOllama{models: []string{"all-minilm:l6-v2"}, dim: 384})
		e, err := New(context.Background(), WithBaseURL(srv.URL), WithModel("all-minilm:l6-v2"),
			WithHTTPClient(&http.Client{Timeout: 5 * time.Second}))
		require.NoError(t, err)
		assert.Equal(t, "ollama/all-minilm:l6-v2", e.ID())
		assert.Equal(t, "all-minilm:l6-v2", e.Model())
		assert.Equal(t, 384, e.Dim())
	})
	bad := []struct {
		name string
		opt  Option
		want string
	}{
		{"URL without host", WithBaseURL("http://"), "want http://host:port"},
		{"empty URL", WithBaseURL(""), "want http://host:port"},
		{"port without host", WithBaseURL(":8080"), "want http://host:port"},
		{"URL with other scheme", WithBaseURL("ftp://127.0.0.1"), "want http://host:port"},
		{"empty model", WithModel(" "), "empty model name"},
		{"zero batch", WithBatchSize(0), "batch size 0"},
		{"zero timeout", WithTimeout(0), "timeout 0s"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(context.Background(), tc.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
