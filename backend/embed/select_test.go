package embed_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/minilm"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeOllama is the fake Ollama with the models named, whose embeddings
// have 3 dimensions.
func fakeOllama(t *testing.T, models []string, more ...ollamatest.Option) *ollamatest.Server {
	t.Helper()
	var installed []ollamatest.Model
	for _, m := range models {
		installed = append(installed, ollamatest.Model{Name: m, Capabilities: []string{"embedding"}})
	}
	return ollamatest.New(t, append([]ollamatest.Option{ollamatest.WithModels(installed...), ollamatest.WithEmbedDim(3)}, more...)...)
}

// ollamaAt is SelectOptions.Remote for the model at url ("" is
// nomic-embed-text).
func ollamaAt(url, model string, opts ...ollama.Option) func(context.Context, string) (embed.Remote, error) {
	return func(context.Context, string) (embed.Remote, error) {
		oc, err := ollama.New(url, opts...)
		if err != nil {
			return nil, err
		}
		return oc.EmbedModel(model), nil
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

// noWeights is SelectOptions.MiniLM on a machine without the full
// encoder's weights.
func noWeights() (embed.Embedder, error) {
	return nil, errs.Wrap(errs.Invalid, minilm.ErrWeightsMissing, "")
}

func TestSelect(t *testing.T) {
	closed := ollamatest.Closed(t)
	cases := []struct {
		name       string
		models     []string // installed; nil with no fake: nothing listens
		fake       []ollamatest.Option
		up         bool
		mode       embed.Mode
		model      string
		probe      time.Duration
		url        string // instead of the fake's
		wantMode   embed.Mode
		wantID     string
		wantReason []string
		wantCode   errs.Code
		errText    []string
		noRequests bool
	}{
		{
			name: "auto uses Ollama when it has the model", up: true, models: []string{"nomic-embed-text:latest"},
			wantMode: embed.ModeOllama, wantID: "ollama/nomic-embed-text",
			wantReason: []string{"using Ollama model nomic-embed-text at http://127.0.0.1:", "(3 dimensions)"},
		},
		{
			name: "auto with another model", up: true, models: []string{"all-minilm:latest"},
			model:    "all-minilm",
			wantMode: embed.ModeOllama, wantID: "ollama/all-minilm",
		},
		{
			name: "auto falls back when Ollama is down", wantMode: embed.ModeOffline, wantID: "offline/stub",
			wantReason: []string{"using offline embedder: Ollama not reachable at " + closed},
		},
		{
			name: "auto falls back when the model is missing", up: true, models: []string{"llama3.2:latest"},
			wantMode: embed.ModeOffline, wantID: "offline/stub",
			wantReason: []string{"using offline embedder: model nomic-embed-text is not installed in Ollama at http://127.0.0.1:", "ollama pull nomic-embed-text"},
		},
		{
			name: "auto falls back when Ollama is too slow", up: true, models: []string{"nomic-embed-text:latest"}, fake: []ollamatest.Option{ollamatest.Silent("/api/tags")},
			probe:    100 * time.Millisecond,
			wantMode: embed.ModeOffline, wantReason: []string{"using offline embedder: Ollama not reachable at http://127.0.0.1:"},
		},
		{
			name: "auto falls back when the probe embedding fails", up: true, models: []string{"nomic-embed-text:latest"},
			fake:     []ollamatest.Option{ollamatest.Fail("/api/embed", 500, "llama runner process has terminated")},
			wantMode: embed.ModeOffline, wantReason: []string{"probe embedding failed", "HTTP 500", "llama runner process has terminated"},
		},
		{
			name: "auto falls back when the address is not one", url: "ftp://127.0.0.1",
			wantMode: embed.ModeOffline, wantID: "offline/stub", wantReason: []string{"using offline embedder: the model server is not usable", "want http://host:port"},
		},
		{
			name: "offline mode does not ask Ollama", up: true, models: []string{"nomic-embed-text:latest"},
			mode:     embed.ModeOffline,
			wantMode: embed.ModeOffline, wantID: "offline/stub", wantReason: []string{"using offline embedder: chosen in configuration"},
			noRequests: true,
		},
		{
			name: "ollama mode uses Ollama", up: true, models: []string{"nomic-embed-text"},
			mode:     embed.ModeOllama,
			wantMode: embed.ModeOllama, wantID: "ollama/nomic-embed-text", wantReason: []string{"chosen in configuration"},
		},
		{
			name: "ollama mode fails when Ollama is down", mode: embed.ModeOllama,
			wantCode: errs.OllamaNotRunning, errText: []string{"Ollama is not reachable at " + closed, "start it with `ollama serve`"},
		},
		{
			name: "ollama mode fails when the model is missing", up: true,
			mode: embed.ModeOllama, model: "mxbai-embed-large",
			wantCode: errs.OllamaModelMissing, errText: []string{"run `ollama pull mxbai-embed-large`"},
		},
		{
			name: "unknown mode", mode: "gpu",
			errText: []string{`unknown embedder mode "gpu"`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := closed
			var srv *ollamatest.Server
			if tc.up {
				srv = fakeOllama(t, tc.models, tc.fake...)
				url = srv.URL
			}
			if tc.url != "" {
				url = tc.url
			}
			opts := embed.SelectOptions{Mode: tc.mode, ProbeTimeout: tc.probe, Remote: ollamaAt(url, tc.model), Offline: loadStub, MiniLM: noWeights}
			e, choice, err := embed.Select(context.Background(), opts)
			if tc.errText != nil {
				require.Error(t, err)
				if tc.wantCode != "" {
					assert.Equal(t, tc.wantCode, errs.CodeOf(err))
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
				assert.Empty(t, srv.Requests())
			}
		})
	}
}

// Ollama mode against an Ollama that takes the connection and never
// answers: a word at 10 s, stalled at 30 s, then an error naming the server
// and the model at the configured timeout (the clock moves only by ticks,
// and nothing can answer).
func TestSelectOllamaModeSaysItIsWaitingAndGivesUp(t *testing.T) {
	srv := fakeOllama(t, nil, ollamatest.Silent("/api/tags"))
	clock := waittest.NewClock()
	var notices []wait.Notice
	stop := clock.Drive(time.Second)
	_, _, err := embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeOllama,
		Remote: ollamaAt(srv.URL, "all-minilm", ollama.WithModelTimeout(time.Minute), ollama.WithWait(wait.Options{Clock: clock}),
			ollama.WithNotify(func(n wait.Notice) { notices = append(notices, n) }))})
	stop()
	assert.Equal(t, errs.OllamaTimeout, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "embedder mode ollama: Ollama at "+srv.URL+" did not answer within 1 min when asked to list its models (looking for all-minilm)")
	assert.Contains(t, err.Error(), "is model all-minilm still loading")
	require.Len(t, notices, 2)
	assert.Equal(t, "Waiting for Ollama at "+srv.URL+" to list its models (looking for all-minilm): nothing yet after 10 s; giving up after 1 min of silence.", notices[0].Message)
	assert.True(t, notices[1].Stalled)
}

func TestSelectWhenNothingIsAvailable(t *testing.T) {
	closed := ollamatest.Closed(t)
	missing := errors.New("offline embedding table missing: run `bash scripts/embeddings.sh` (or `make embeddings`)")
	_, _, err := embed.Select(context.Background(), embed.SelectOptions{
		Remote:  ollamaAt(closed, ""),
		Offline: func() (embed.Embedder, error) { return nil, missing },
		MiniLM:  noWeights,
	})
	require.ErrorIs(t, err, missing)
	assert.Contains(t, err.Error(), "no embedder available: Ollama not reachable at "+closed)
}

// Without a server to ask or the full encoder's weights, auto mode is the
// offline embedder and the server's mode an error that says so.
func TestSelectWithoutAServer(t *testing.T) {
	e, choice, err := embed.Select(context.Background(), embed.SelectOptions{Offline: loadStub, MiniLM: noWeights})
	require.NoError(t, err)
	assert.Equal(t, "offline/stub", e.ID())
	assert.Equal(t, "using offline embedder: the model server is not usable: no model server was configured; the full MiniLM encoder's weights are not installed (bash scripts/minilm.sh installs them)", choice.Reason)
	_, _, err = embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeOllama, Offline: loadStub})
	assert.ErrorContains(t, err, "embedder mode ollama: no model server was configured")
}

// A workspace keeps the embedder its vectors were made with: one made
// with the offline embedder stays with it without asking the server; one
// made with the server's model asks for that model, and when it cannot be
// had the reason says the next ingest embeds everything again.
func TestSelectKeepsTheWorkspacesEmbedder(t *testing.T) {
	srv := fakeOllama(t, []string{"nomic-embed-text:latest"})
	asked := ""
	remote := func(ctx context.Context, stored string) (embed.Remote, error) {
		asked = stored
		return ollamaAt(srv.URL, "nomic-embed-text")(ctx, stored)
	}
	e, choice, err := embed.Select(context.Background(), embed.SelectOptions{Stored: "offline/minilm-l6-m2v-256", Remote: remote, Offline: loadStub})
	require.NoError(t, err)
	assert.Equal(t, "offline/stub", e.ID())
	assert.Contains(t, choice.Reason, "the workspace's vectors were made with it")
	assert.Empty(t, srv.Requests(), "the server is not asked")

	e, _, err = embed.Select(context.Background(), embed.SelectOptions{Stored: "ollama/nomic-embed-text", Remote: remote, Offline: loadStub})
	require.NoError(t, err)
	assert.Equal(t, "ollama/nomic-embed-text", e.ID())
	assert.Equal(t, "ollama/nomic-embed-text", asked, "the wiring is told what the workspace holds")

	e, choice, err = embed.Select(context.Background(), embed.SelectOptions{Stored: "openai/text-embedding-nomic-embed-text-v1.5", Remote: remote, Offline: loadStub})
	require.NoError(t, err)
	assert.Equal(t, "ollama/nomic-embed-text", e.ID(), "the workspace's server is not the one configured")
	assert.Contains(t, choice.Reason, "the workspace's vectors are openai/text-embedding-nomic-embed-text-v1.5's, so the next ingest embeds everything again with it")

	closed := ollamatest.Closed(t)
	_, choice, err = embed.Select(context.Background(), embed.SelectOptions{Stored: "ollama/nomic-embed-text", Remote: ollamaAt(closed, ""), Offline: loadStub})
	require.NoError(t, err)
	assert.Equal(t, embed.ModeOffline, choice.Mode)
	assert.Contains(t, choice.Reason, "Ollama not reachable at "+closed+"; the workspace's vectors are ollama/nomic-embed-text's, so the next ingest embeds everything again with the offline embedder")
}

// The server's own mode must name the server configured.
func TestSelectRefusesTheOtherServersMode(t *testing.T) {
	_, _, err := embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeOllama, RemoteMode: embed.ModeOpenAI, Offline: loadStub})
	assert.Equal(t, errs.Invalid, errs.CodeOf(err))
	assert.ErrorContains(t, err, "embedder mode ollama, but the model server is openai")
}

func TestSelectUsesTheBuiltInOfflineEmbedderByDefault(t *testing.T) {
	e, choice, err := embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeOffline})
	require.NoError(t, err, "the offline table must be generated first")
	assert.Equal(t, "offline/minilm-l6-m2v-256", e.ID())
	assert.Equal(t, 256, e.Dim())
	assert.Equal(t, embed.ModeOffline, choice.Mode)
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]embed.Mode{"": embed.ModeAuto, "auto": embed.ModeAuto, " Offline ": embed.ModeOffline, "OLLAMA": embed.ModeOllama, "openai": embed.ModeOpenAI, "MiniLM": embed.ModeMiniLM} {
		t.Run(in, func(t *testing.T) {
			got, err := embed.ParseMode(in)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	_, err := embed.ParseMode("cloud")
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "want auto, offline, minilm, ollama or openai"))
}

func TestConceptThreshold(t *testing.T) {
	cases := []struct {
		id   string
		want float64
	}{
		{"ollama/nomic-embed-text", 0.8},
		{"ollama/all-minilm", 0.8},
		{"offline/minilm-l6-m2v-256", embed.OfflineConceptThreshold},
		{"minilm/all-MiniLM-L6-v2-fp16", embed.MiniLMConceptThreshold},
		{"something/else", 0.8},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			assert.Equal(t, tc.want, embed.ConceptThreshold(tc.id))
		})
	}
}

// stubMiniLM stands in for the full encoder where its cost is beside the
// point.
type stubMiniLM struct{}

func (stubMiniLM) ID() string { return "minilm/stub" }
func (stubMiniLM) Dim() int   { return 384 }
func (stubMiniLM) Embed(_ context.Context, texts []string) ([][]float32, error) {
	return make([][]float32, len(texts)), nil
}

func TestSelectTheFullEncoder(t *testing.T) {
	srv := fakeOllama(t, []string{"nomic-embed-text:latest"})
	loadMiniLM := func() (embed.Embedder, error) { return stubMiniLM{}, nil }
	missing := func() (embed.Embedder, error) { return nil, errors.New("weights not installed") }

	// Chosen: the server is not asked.
	e, choice, err := embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeMiniLM, Remote: ollamaAt(srv.URL, ""), Offline: loadStub, MiniLM: loadMiniLM})
	require.NoError(t, err)
	assert.Equal(t, "minilm/stub", e.ID())
	assert.Equal(t, embed.Choice{Mode: embed.ModeMiniLM, ID: "minilm/stub", Reason: "using the full MiniLM encoder (384 dimensions): chosen in configuration"}, choice)
	assert.Empty(t, srv.Requests())

	// Chosen without its weights: an error, never another embedder.
	_, _, err = embed.Select(context.Background(), embed.SelectOptions{Mode: embed.ModeMiniLM, Offline: loadStub, MiniLM: missing})
	assert.ErrorContains(t, err, "embedder mode minilm: weights not installed")

	// Auto keeps a workspace's full-encoder vectors, without asking the server.
	e, choice, err = embed.Select(context.Background(), embed.SelectOptions{Stored: "minilm/all-MiniLM-L6-v2-fp16", Remote: ollamaAt(srv.URL, ""), Offline: loadStub, MiniLM: loadMiniLM})
	require.NoError(t, err)
	assert.Equal(t, "minilm/stub", e.ID())
	assert.Contains(t, choice.Reason, "the workspace's vectors were made with it")
	assert.Empty(t, srv.Requests())

	// ... and says why it cannot when the weights are gone.
	_, choice, err = embed.Select(context.Background(), embed.SelectOptions{Stored: "minilm/all-MiniLM-L6-v2-fp16", Offline: loadStub, MiniLM: missing})
	require.NoError(t, err)
	assert.Equal(t, embed.ModeOffline, choice.Mode)
	assert.Contains(t, choice.Reason, "the workspace's vectors are the full MiniLM encoder's, which cannot load (weights not installed), so the next ingest embeds everything again with the offline embedder")
}

// Without its weights, the full encoder's loader says so with Find's
// error, coded as the person's to fix.
func TestLoadMiniLMWithoutWeights(t *testing.T) {
	t.Setenv(minilm.DirEnv, t.TempDir())
	_, err := embed.LoadMiniLM()
	require.ErrorIs(t, err, minilm.ErrWeightsMissing)
	assert.Equal(t, errs.Invalid, errs.CodeOf(err))
	assert.ErrorContains(t, err, "$LOOM_MINILM_DIR is ")
}

// A new workspace without a server's embedding model gets the full encoder
// when its weights load, and the offline embedder, with the reason, when
// they are missing or broken. A workspace with vectors keeps its embedder:
// the offline embedder's, or (when its server is gone) the offline one
// rather than a full re-embed by the encoder.
func TestSelectGivesANewWorkspaceTheFullEncoder(t *testing.T) {
	closed := ollamatest.Closed(t)
	loads := 0
	loadMiniLM := func() (embed.Embedder, error) { loads++; return stubMiniLM{}, nil }

	e, choice, err := embed.Select(context.Background(), embed.SelectOptions{Remote: ollamaAt(closed, ""), Offline: loadStub, MiniLM: loadMiniLM})
	require.NoError(t, err)
	assert.Equal(t, "minilm/stub", e.ID())
	assert.Equal(t, embed.Choice{Mode: embed.ModeMiniLM, ID: "minilm/stub",
		Reason: "using the full MiniLM encoder (384 dimensions): Ollama not reachable at " + closed + "; its weights are installed"}, choice)

	// A server with an embedding model still comes first.
	srv := fakeOllama(t, []string{"nomic-embed-text:latest"})
	e, choice, err = embed.Select(context.Background(), embed.SelectOptions{Remote: ollamaAt(srv.URL, ""), Offline: loadStub, MiniLM: loadMiniLM})
	require.NoError(t, err)
	assert.Equal(t, embed.ModeOllama, choice.Mode, choice.Reason)
	assert.Equal(t, 1, loads, "the encoder is not loaded when the server's model is used")

	broken := func() (embed.Embedder, error) { return nil, errors.New("model.fp16.safetensors: truncated header") }
	e, choice, err = embed.Select(context.Background(), embed.SelectOptions{Offline: loadStub, MiniLM: broken})
	require.NoError(t, err)
	assert.Equal(t, "offline/stub", e.ID())
	assert.Contains(t, choice.Reason, "; the full MiniLM encoder cannot load: model.fp16.safetensors: truncated header")

	for _, stored := range []string{"offline/minilm-l6-m2v-256", "ollama/nomic-embed-text:latest"} {
		_, choice, err = embed.Select(context.Background(), embed.SelectOptions{Stored: stored, Remote: ollamaAt(closed, ""), Offline: loadStub, MiniLM: loadMiniLM})
		require.NoError(t, err)
		assert.Equal(t, embed.ModeOffline, choice.Mode, "stored %s: %s", stored, choice.Reason)
	}
	assert.Equal(t, 1, loads, "a workspace with vectors never loads the encoder it did not use")
}
