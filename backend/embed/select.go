package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/embed/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// The implementations satisfy Embedder. They do not import this package, so
// this package can import them without a cycle.
var (
	_ Embedder = (*offline.Embedder)(nil)
	_ Embedder = (*ollama.Embedder)(nil)
)

// Mode says which embedder Select may choose.
type Mode string

// The modes Select understands.
const (
	// ModeAuto uses Ollama when it answers quickly and has the model, and
	// the offline embedder otherwise.
	ModeAuto Mode = "auto"
	// ModeOffline always uses the built-in offline embedder.
	ModeOffline Mode = "offline"
	// ModeOllama always uses Ollama and fails when it cannot.
	ModeOllama Mode = "ollama"
)

// DefaultProbeTimeout bounds ModeAuto's check of Ollama, so that starting
// Loom without Ollama costs at most this long.
const DefaultProbeTimeout = 800 * time.Millisecond

// ParseMode reads a mode as written in configuration or on the command
// line; the empty string means ModeAuto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeOffline, ModeOllama:
		return m, nil
	default:
		return "", fmt.Errorf("unknown embedder mode %q: want auto, offline or ollama", s)
	}
}

// SelectOptions configures Select. The zero value means auto mode with
// Ollama's defaults.
type SelectOptions struct {
	// Mode is auto (the default), offline or ollama.
	Mode Mode
	// OllamaURL is Ollama's address; empty means OLLAMA_HOST, else
	// http://127.0.0.1:11434.
	OllamaURL string
	// OllamaModel is the embedding model; empty means nomic-embed-text.
	OllamaModel string
	// ProbeTimeout bounds auto mode's /api/tags check; zero means
	// DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// HTTPClient is used for Ollama; nil means a fresh client.
	HTTPClient *http.Client
	// Timeout gives up a request to Ollama that has heard nothing for
	// this long; zero means ollama.DefaultTimeout (2 minutes).
	Timeout time.Duration
	// Wait sets when a waiting request speaks up (zero: after 10 s, and
	// stalled at 30 s) and its clock; Notify receives those notices, for
	// the probe, the listing and every embedding request (nil: none).
	Wait   wait.Options
	Notify func(wait.Notice)
	// Offline loads the offline embedder; nil means offline.New, the table
	// compiled into the binary. The WebAssembly edition passes a loader
	// that calls offline.FromBytes on the table it fetched.
	Offline func() (Embedder, error)
}

// Choice records which embedder Select chose and why.
type Choice struct {
	// Mode is ModeOffline or ModeOllama: what was chosen, never ModeAuto.
	Mode Mode `json:"mode"`
	// ID is the chosen embedder's ID.
	ID string `json:"id"`
	// Reason is a sentence for a person, e.g. "using offline embedder:
	// Ollama not reachable at http://127.0.0.1:11434".
	Reason string `json:"reason"`
}

// Select picks the embedder for opts.Mode. In auto mode it asks Ollama's
// /api/tags (within ProbeTimeout) whether the model is installed, uses
// Ollama if so and the offline embedder otherwise; Choice.Reason says which
// and why. In ollama mode any problem with Ollama is returned as an error
// (an *ollama.Error naming what to do); in offline mode Ollama is not
// contacted at all.
func Select(ctx context.Context, opts SelectOptions) (Embedder, Choice, error) {
	mode, err := ParseMode(string(opts.Mode))
	if err != nil {
		return nil, Choice{}, err
	}
	ollamaOpts := []ollama.Option{}
	if opts.OllamaURL != "" {
		ollamaOpts = append(ollamaOpts, ollama.WithBaseURL(opts.OllamaURL))
	}
	if opts.OllamaModel != "" {
		ollamaOpts = append(ollamaOpts, ollama.WithModel(opts.OllamaModel))
	}
	if opts.HTTPClient != nil {
		ollamaOpts = append(ollamaOpts, ollama.WithHTTPClient(opts.HTTPClient))
	}
	if opts.Timeout > 0 {
		ollamaOpts = append(ollamaOpts, ollama.WithTimeout(opts.Timeout))
	}
	ollamaOpts = append(ollamaOpts, ollama.WithWait(opts.Wait), ollama.WithNotify(opts.Notify))
	loadOffline := opts.Offline
	if loadOffline == nil {
		loadOffline = func() (Embedder, error) { return offline.New() }
	}
	useOffline := func(why string) (Embedder, Choice, error) {
		e, err := loadOffline()
		if err != nil {
			if mode == ModeAuto {
				return nil, Choice{}, fmt.Errorf("no embedder available: %s; %w", why, err)
			}
			return nil, Choice{}, err
		}
		return e, Choice{Mode: ModeOffline, ID: e.ID(), Reason: "using offline embedder: " + why}, nil
	}

	switch mode {
	case ModeOffline:
		return useOffline("chosen in configuration")
	case ModeOllama:
		e, err := ollama.New(ctx, ollamaOpts...)
		if err != nil {
			return nil, Choice{}, fmt.Errorf("embedder mode ollama: %w", err)
		}
		return e, ollamaChoice(e, "chosen in configuration"), nil
	}

	probe := opts.ProbeTimeout
	if probe <= 0 {
		probe = DefaultProbeTimeout
	}
	url, model := ollama.BaseURL(ollamaOpts...), modelName(opts.OllamaModel)
	var why string
	if err := ollama.Available(ctx, append(ollamaOpts, ollama.WithTimeout(probe))...); err != nil {
		why = whyNotOllama(err, url, model)
	} else {
		e, err := ollama.New(ctx, ollamaOpts...)
		if err == nil {
			return e, ollamaChoice(e, "it answered and has the model"), nil
		}
		why = fmt.Sprintf("Ollama at %s has model %s but the probe embedding failed: %v", url, model, err)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, Choice{}, ctxErr
	}
	return useOffline(why)
}

func ollamaChoice(e *ollama.Embedder, why string) Choice {
	return Choice{
		Mode:   ModeOllama,
		ID:     e.ID(),
		Reason: fmt.Sprintf("using Ollama model %s at %s (%d dimensions): %s", e.Model(), e.URL(), e.Dim(), why),
	}
}

func modelName(m string) string {
	if m == "" {
		return ollama.DefaultModel
	}
	return m
}

// whyNotOllama turns an Ollama failure into the end of a sentence.
func whyNotOllama(err error, url, model string) string {
	switch {
	case errors.Is(err, ollama.ErrUnreachable):
		return "Ollama not reachable at " + url
	case errors.Is(err, ollama.ErrModelMissing):
		return fmt.Sprintf("Ollama at %s does not have model %s (run `ollama pull %s` to use it)", url, model, model)
	default:
		return fmt.Sprintf("Ollama at %s is not usable: %v", url, err)
	}
}
