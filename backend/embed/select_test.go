package embed_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeOllama answers /api/tags with models and /api/embed with 3-d vectors,
// in Ollama's JSON shapes. embedStatus, when set, fails /api/embed with it;
// silentTags makes /api/tags take the request and never answer.
type fakeOllama struct {
	models      []string
	embedStatus int
	silentTags  bool
	requests    atomic.Int32
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	switch r.URL.Path {
	case "/api/tags":
		if f.silentTags {
			<-r.Context().Done() // until the client gives up
			return
		}
		models := []map[string]string{}
		for _, m := range f.models {
			models = append(models, map[string]string{"name": m, "model": m, "digest": "0a109f422b47"})
		}
		json.NewEncoder(w).Encode(map[string]any{"models": models})
	case "/api/embed":
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if f.embedStatus != 0 {
			w.WriteHeader(f.embedStatus)
			json.NewEncoder(w).Encode(map[string]string{"error": "llama runner process has terminated"})
			return
		}
		vecs := make([][]float32, len(req.Input))
		for i := range vecs {
			vecs[i] = []float32{1, 2, 2}
		}
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vecs})
	default:
		http.NotFound(w, r)
	}
}

// stubOffline stands in for the offline embedder so these tests do not
// depend on the generated table (the offline package's own tests do).
type stubOffline struct{}

func (stubOffline) ID() string { return "offline/stub" }
func (stubOffline) Dim() int   { return 3 }
func (stubOffline) Embed(_ context.Context, texts []string) ([][]float32, error) {
	return make([][]float32, len(texts)), nil
}

func loadStub() (embed.Embedder, error) { return stubOffline{}, nil }

func TestSelect(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	cases := []struct {
		name       string
		fake       *fakeOllama // nil: nothing listens
		opts       embed.SelectOptions
		wantMode   embed.Mode
		wantID     string
		wantReason []string
		wantErr    error
		errText    []string
		noRequests bool
	}{
		{
			name: "auto uses Ollama when it has the model", fake: &fakeOllama{models: []string{"nomic-embed-text:latest"}},
			wantMode: embed.ModeOllama, wantID: "ollama/nomic-embed-text",
			wantReason: []string{"using Ollama model nomic-embed-text at http://127.0.0.1:", "(3 dimensions)"},
		},
		{
			name: "auto with another model", fake: &fakeOllama{models: []string{"all-minilm:latest"}},
			opts:     embed.SelectOptions{OllamaModel: "all-minilm"},
			wantMode: embed.ModeOllama, wantID: "ollama/all-minilm",
		},
		{
			name: "auto falls back when Ollama is down", wantMode: embed.ModeOffline, wantID: "offline/stub",
			wantReason: []string{"using offline embedder: Ollama not reachable at " + closed.URL},
		},
		{
			name: "auto falls back when the model is missing", fake: &fakeOllama{models: []string{"llama3.2:latest"}},
			wantMode: embed.ModeOffline, wantID: "offline/stub",
			wantReason: []string{"using offline embedder: Ollama at http://127.0.0.1:", "does not have model nomic-embed-text", "ollama pull nomic-embed-text"},
		},
		{
			name: "auto falls back when Ollama is too slow", fake: &fakeOllama{models: []string{"nomic-embed-text:latest"}, silentTags: true},
			opts:     embed.SelectOptions{ProbeTimeout: 100 * time.Millisecond},
			wantMode: embed.ModeOffline, wantReason: []string{"using offline embedder: Ollama not reachable at http://127.0.0.1:"},
		},
		{
			name: "auto falls back when the probe embedding fails", fake: &fakeOllama{models: []string{"nomic-embed-text:latest"}, embedStatus: 500},
			wantMode: embed.ModeOffline, wantReason: []string{"probe embedding failed", "HTTP 500", "llama runner process has terminated"},
		},
		{
			name: "offline mode does not ask Ollama", fake: &fakeOllama{models: []string{"nomic-embed-text:latest"}},
			opts:     embed.SelectOptions{Mode: embed.ModeOffline},
			wantMode: embed.ModeOffline, wantID: "offline/stub", wantReason: []string{"using offline embedder: chosen in configuration"},
			noRequests: true,
		},
		{
			name: "ollama mode uses Ollama", fake: &fakeOllama{models: []string{"nomic-embed-text"}},
			opts:     embed.SelectOptions{Mode: embed.ModeOllama},
			wantMode: embed.ModeOllama, wantID: "ollama/nomic-embed-text", wantReason: []string{"chosen in configuration"},
		},
		{
			name: "ollama mode fails when Ollama is down", opts: embed.SelectOptions{Mode: embed.ModeOllama},
			wantErr: ollama.ErrUnreachable, errText: []string{"Ollama is not reachable at " + closed.URL, "start it with `ollama serve`"},
		},
		{
			name: "ollama mode fails when the model is missing", fake: &fakeOllama{},
			opts:    embed.SelectOptions{Mode: embed.ModeOllama, OllamaModel: "mxbai-embed-large"},
			wantErr: ollama.ErrModelMissing, errText: []string{"run `ollama pull mxbai-embed-large`"},
		},
		{
			name: "unknown mode", opts: embed.SelectOptions{Mode: "gpu"},
			errText: []string{`unknown embedder mode "gpu"`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := closed.URL
			if tc.fake != nil {
				srv := httptest.NewServer(tc.fake)
				t.Cleanup(srv.Close)
				url = srv.URL
			}
			opts := tc.opts
			opts.OllamaURL = url
			opts.Offline = loadStub
			e, choice, err := embed.Select(context.Background(), opts)
			if tc.errText != nil {
				require.Error(t, err)
				if tc.wantErr != nil {
					assert.ErrorIs(t, err, tc.wantErr)
				}
				for _, want := range tc.errText {
					assert.Contains(t, err.Error(), want)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantMode, choice.Mode)
			assert.Equal(t, e.ID(), choice.ID)
			if tc.wantID != "" {
				assert.Equal(t, tc.wantID, e.ID())
			}
			for _, want := range tc.wantReason {
				assert.Contains(t, choice.Reason, want)
			}
			if tc.noRequests {
				assert.Zero(t, tc.fake.requests.Load())
			}
		})
	}
}

// Ollama mode against an Ollama that takes the connection and never
// answers: a word at 10 s, stalled at 30 s, then an error naming the server
// and the model at the configured timeout (the clock moves only by ticks,
// and nothing can answer).
func TestSelectOllamaModeSaysItIsWaitingAndGivesUp(t *testing.T) {
	srv := httptest.NewServer(&fakeOllama{silentTags: true})
	t.Cleanup(srv.Close)
	clock := waittest.NewClock()
	var notices []wait.Notice
	stop := clock.Drive(time.Second)
	_, _, err := embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeOllama, OllamaURL: srv.URL,
		OllamaModel: "all-minilm", Timeout: time.Minute, Wait: wait.Options{Clock: clock},
		Notify: func(n wait.Notice) { notices = append(notices, n) }})
	stop()
	require.ErrorIs(t, err, ollama.ErrUnreachable)
	assert.Contains(t, err.Error(), "embedder mode ollama: Ollama at "+srv.URL+" did not answer within 1 min when asked to list its models (looking for all-minilm)")
	assert.Contains(t, err.Error(), "is model all-minilm still loading")
	require.Len(t, notices, 2)
	assert.Equal(t, "Waiting for Ollama at "+srv.URL+" to list its models (looking for all-minilm): nothing yet after 10 s; giving up after 1 min of silence.", notices[0].Message)
	assert.True(t, notices[1].Stalled)
}

func TestSelectWhenNothingIsAvailable(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	missing := errors.New("offline embedding table missing: run `bash scripts/embeddings.sh` (or `make embeddings`)")
	_, _, err := embed.Select(context.Background(), embed.SelectOptions{
		OllamaURL: closed.URL,
		Offline:   func() (embed.Embedder, error) { return nil, missing },
	})
	require.ErrorIs(t, err, missing)
	assert.Contains(t, err.Error(), "no embedder available: Ollama not reachable at "+closed.URL)
}

func TestSelectUsesTheBuiltInOfflineEmbedderByDefault(t *testing.T) {
	e, choice, err := embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeOffline})
	require.NoError(t, err, "the offline table must be generated first")
	assert.Equal(t, "offline/glove-6b-100d-sif", e.ID())
	assert.Equal(t, 100, e.Dim())
	assert.Equal(t, embed.ModeOffline, choice.Mode)
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]embed.Mode{"": embed.ModeAuto, "auto": embed.ModeAuto, " Offline ": embed.ModeOffline, "OLLAMA": embed.ModeOllama} {
		t.Run(in, func(t *testing.T) {
			got, err := embed.ParseMode(in)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	_, err := embed.ParseMode("cloud")
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "want auto, offline or ollama"))
}

func TestConceptThreshold(t *testing.T) {
	cases := []struct {
		id   string
		want float64
	}{
		{"ollama/nomic-embed-text", 0.8},
		{"ollama/all-minilm", 0.8},
		{"offline/glove-6b-100d-sif", embed.OfflineConceptThreshold},
		{"something/else", 0.8},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			assert.Equal(t, tc.want, embed.ConceptThreshold(tc.id))
		})
	}
}
