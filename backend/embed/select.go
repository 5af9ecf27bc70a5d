package embed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/errs"
)

// The offline embedder satisfies Embedder. It does not import this package,
// so this package can import it without a cycle.
var _ Embedder = (*offline.Embedder)(nil)

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

// SelectOptions configures Select. The zero value means auto mode without
// Ollama, which is the offline embedder.
type SelectOptions struct {
	// Mode is auto (the default), offline or ollama.
	Mode Mode
	// Ollama makes the Ollama model to check (backend/ollama's
	// Client.EmbedModel, wired at the edge); it is called in modes auto
	// and ollama only, and its error (an address that is not one) counts
	// as Ollama being unusable. nil: there is no Ollama to ask.
	Ollama func() (Remote, error)
	// ProbeTimeout bounds auto mode's check of Ollama; zero means
	// DefaultProbeTimeout.
	ProbeTimeout time.Duration
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

// errNoOllama is what Select says when it was given no Ollama to ask.
var errNoOllama = errors.New("no Ollama was configured")

// Select picks the embedder for opts.Mode. In auto mode it asks Ollama
// (within ProbeTimeout) whether it has the model, uses Ollama if so and the
// offline embedder otherwise; Choice.Reason says which and why. In ollama
// mode any problem with Ollama is returned as an error (the adapter's,
// naming what to do); in offline mode Ollama is not contacted at all.
func Select(ctx context.Context, opts SelectOptions) (Embedder, Choice, error) {
	mode, err := ParseMode(string(opts.Mode))
	if err != nil {
		return nil, Choice{}, err
	}
	remote := opts.Ollama
	if remote == nil {
		remote = func() (Remote, error) { return nil, errNoOllama }
	}
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
		r, err := remote()
		if err != nil {
			return nil, Choice{}, fmt.Errorf("embedder mode ollama: %w", err)
		}
		e, err := r.Open(ctx)
		if err != nil {
			return nil, Choice{}, fmt.Errorf("embedder mode ollama: %w", err)
		}
		return e, remoteChoice(r, e, "chosen in configuration"), nil
	}

	probe := opts.ProbeTimeout
	if probe <= 0 {
		probe = DefaultProbeTimeout
	}
	var why string
	r, err := remote()
	switch {
	case err != nil:
		why = fmt.Sprintf("Ollama is not usable: %v", err)
	default:
		if err := r.Check(ctx, probe); err != nil {
			why = whyNotOllama(err, r)
			break
		}
		e, err := r.Open(ctx)
		if err == nil {
			return e, remoteChoice(r, e, "it answered and has the model"), nil
		}
		why = fmt.Sprintf("Ollama at %s has model %s but the probe embedding failed: %v", r.URL(), r.Model(), err)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, Choice{}, ctxErr
	}
	return useOffline(why)
}

func remoteChoice(r Remote, e Embedder, why string) Choice {
	return Choice{
		Mode:   ModeOllama,
		ID:     e.ID(),
		Reason: fmt.Sprintf("using Ollama model %s at %s (%d dimensions): %s", r.Model(), r.URL(), e.Dim(), why),
	}
}

// whyNotOllama turns an Ollama failure into the end of a sentence.
func whyNotOllama(err error, r Remote) string {
	switch errs.CodeOf(err) {
	case errs.OllamaNotRunning, errs.OllamaTimeout:
		return "Ollama not reachable at " + r.URL()
	case errs.OllamaModelMissing:
		return fmt.Sprintf("Ollama at %s does not have model %s (run `ollama pull %s` to use it)", r.URL(), r.Model(), r.Model())
	default:
		return fmt.Sprintf("Ollama at %s is not usable: %v", r.URL(), err)
	}
}
