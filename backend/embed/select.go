package embed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/embed/minilm"
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
	// ModeAuto keeps the embedder a workspace's vectors were made with;
	// a new workspace (and one made with a server's model) uses the model
	// server's embedding model when it answers quickly and has one, and
	// the offline embedder otherwise.
	ModeAuto Mode = "auto"
	// ModeOffline always uses the built-in offline embedder.
	ModeOffline Mode = "offline"
	// ModeOllama always uses Ollama's embedding model and fails when it
	// cannot.
	ModeOllama Mode = "ollama"
	// ModeOpenAI always uses the OpenAI-compatible server's embedding
	// model and fails when it cannot.
	ModeOpenAI Mode = "openai"
	// ModeMiniLM always uses the full all-MiniLM-L6-v2 encoder
	// (backend/embed/minilm), the offline embedder's teacher, and fails
	// when its weights are not installed. It ranks better than the
	// distilled table and costs more: about 30 ms a section to ingest and
	// 7 ms a question on two cores, against microseconds (BENCHMARKS.md).
	// Auto mode gives it to a new workspace when its weights are installed.
	ModeMiniLM Mode = "minilm"
)

// DefaultProbeTimeout bounds ModeAuto's check of the server's model, so
// that starting Loom without the server costs at most this long.
const DefaultProbeTimeout = 800 * time.Millisecond

// DefaultFindTimeout bounds ModeAuto's call of SelectOptions.Remote, which
// may list the server's models to find one that embeds.
const DefaultFindTimeout = 5 * time.Second

// OfflinePrefix begins the ID of every offline embedder.
const OfflinePrefix = "offline/"

// MiniLMPrefix begins the full encoder's ID.
const MiniLMPrefix = "minilm/"

// ParseMode reads a mode as written in configuration or on the command
// line; the empty string means ModeAuto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeOffline, ModeOllama, ModeOpenAI, ModeMiniLM:
		return m, nil
	default:
		return "", fmt.Errorf("unknown embedder mode %q: want auto, offline, minilm, ollama or openai", s)
	}
}

// SelectOptions configures Select. The zero value means auto mode without
// a model server, which is the offline embedder.
type SelectOptions struct {
	// Mode is auto (the default), offline, ollama or openai.
	Mode Mode
	// Stored is the ID of the embedder the workspace's vectors were made
	// with ("" for a new workspace). Auto mode keeps the offline embedder
	// for a workspace made with it, without asking the server.
	Stored string
	// Remote finds the server's embedding model (wired at the edge: the
	// configured model, else the workspace's, else one the server lists
	// as an embedding model), given Stored. It is called in auto mode
	// (within DefaultFindTimeout) and in the server's own mode; its error
	// (no server configured, an address that is not one, no embedding
	// model) counts as the server being unusable. nil: there is no server
	// to ask.
	Remote func(ctx context.Context, stored string) (Remote, error)
	// RemoteMode is the mode that names the server Remote reaches:
	// ModeOllama (the default) or ModeOpenAI. Mode ollama or openai must
	// be it.
	RemoteMode Mode
	// ProbeTimeout bounds auto mode's check of the server's model; zero
	// means DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// Offline loads the offline embedder; nil means offline.New, the table
	// compiled into the binary. The WebAssembly edition passes a loader
	// that calls offline.FromBytes on the table it fetched.
	Offline func() (Embedder, error)
	// MiniLM loads the full encoder; nil means LoadMiniLM (the weights
	// minilm.Find finds).
	MiniLM func() (Embedder, error)
}

// LoadMiniLM loads the full all-MiniLM-L6-v2 encoder from the weights
// minilm.Find finds; its error says how to install them.
func LoadMiniLM() (Embedder, error) {
	dir, err := minilm.Find()
	if err != nil {
		return nil, errs.Wrap(errs.Invalid, err, "") // the message is Find's
	}
	enc, err := minilm.Load(dir)
	if err != nil {
		return nil, err
	}
	return minilm.Embedder{Encoder: enc}, nil
}

// Choice records which embedder Select chose and why.
type Choice struct {
	// Mode is ModeOffline, ModeMiniLM, ModeOllama or ModeOpenAI: what
	// was chosen, never ModeAuto.
	Mode Mode `json:"mode"`
	// ID is the chosen embedder's ID.
	ID string `json:"id"`
	// Reason is a sentence for a person, e.g. "using offline embedder:
	// Ollama not reachable at http://127.0.0.1:11434".
	Reason string `json:"reason"`
}

// ErrNoServer is what Select says when it was given no server to ask.
var ErrNoServer = errors.New("no model server was configured")

// Select picks the embedder for opts.Mode. In auto mode a workspace whose
// vectors are the offline embedder's or the full encoder's keeps it (the
// server is not asked); otherwise Select asks the server (within
// ProbeTimeout) whether it has the model and uses it if so; failing that,
// a new workspace gets the full MiniLM encoder when its weights are
// installed (never in the web edition), and any other the offline
// embedder. Choice.Reason says which and why. In the server's mode any problem with the server is
// returned as an error (the adapter's, naming what to do); in offline mode
// the server is not contacted at all.
func Select(ctx context.Context, opts SelectOptions) (Embedder, Choice, error) {
	mode, err := ParseMode(string(opts.Mode))
	if err != nil {
		return nil, Choice{}, err
	}
	remoteMode := opts.RemoteMode
	if remoteMode == "" {
		remoteMode = ModeOllama
	}
	remote := opts.Remote
	if remote == nil {
		remote = func(context.Context, string) (Remote, error) { return nil, ErrNoServer }
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

	loadMiniLM := opts.MiniLM
	if loadMiniLM == nil {
		loadMiniLM = LoadMiniLM
	}
	miniLMChoice := func(e Embedder, why string) Choice {
		return Choice{Mode: ModeMiniLM, ID: e.ID(), Reason: fmt.Sprintf("using the full MiniLM encoder (%d dimensions): %s", e.Dim(), why)}
	}

	switch mode {
	case ModeOffline:
		return useOffline("chosen in configuration")
	case ModeMiniLM:
		e, err := loadMiniLM()
		if err != nil {
			return nil, Choice{}, fmt.Errorf("embedder mode %s: %w", ModeMiniLM, err)
		}
		return e, miniLMChoice(e, "chosen in configuration"), nil
	case ModeOllama, ModeOpenAI:
		if mode != remoteMode {
			return nil, Choice{}, errs.E(errs.Invalid, "embedder mode %s, but the model server is %s: choose embedder mode %s (or auto), or that provider", mode, remoteMode, remoteMode)
		}
		r, err := remote(ctx, opts.Stored)
		if err != nil {
			return nil, Choice{}, fmt.Errorf("embedder mode %s: %w", mode, err)
		}
		e, err := r.Open(ctx)
		if err != nil {
			return nil, Choice{}, fmt.Errorf("embedder mode %s: %w", mode, err)
		}
		return e, remoteChoice(remoteMode, r, e, "chosen in configuration"), nil
	}

	if strings.HasPrefix(opts.Stored, OfflinePrefix) {
		return useOffline("the workspace's vectors were made with it (re-embed the workspace to use a model server's embedding model)")
	}
	if strings.HasPrefix(opts.Stored, MiniLMPrefix) {
		e, err := loadMiniLM()
		if err != nil {
			return useOffline(fmt.Sprintf("the workspace's vectors are the full MiniLM encoder's, which cannot load (%v), so the next ingest embeds everything again with the offline embedder", err))
		}
		return e, miniLMChoice(e, "the workspace's vectors were made with it"), nil
	}
	probe := opts.ProbeTimeout
	if probe <= 0 {
		probe = DefaultProbeTimeout
	}
	var why string
	findCtx, cancel := context.WithTimeout(ctx, DefaultFindTimeout)
	r, err := remote(findCtx, opts.Stored)
	cancel()
	switch {
	case err != nil:
		why = whyNotServer(err, nil)
	default:
		if err := r.Check(ctx, probe); err != nil {
			why = whyNotServer(err, r)
			break
		}
		e, err := r.Open(ctx)
		if err == nil {
			why := "it answered and has the model"
			if opts.Stored != "" && opts.Stored != e.ID() {
				// The workspace's own embedder is another server's.
				why += fmt.Sprintf("; the workspace's vectors are %s's, so the next ingest embeds everything again with it (or re-embed the workspace now)", opts.Stored)
			}
			return e, remoteChoice(remoteMode, r, e, why), nil
		}
		why = fmt.Sprintf("%s at %s has model %s but the probe embedding failed: %v", r.Server(), r.URL(), r.Model(), err)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, Choice{}, ctxErr
	}
	if opts.Stored != "" && (r == nil || r.ID() == opts.Stored) {
		why += fmt.Sprintf("; the workspace's vectors are %s's, so the next ingest embeds everything again with the offline embedder", opts.Stored)
	}
	if opts.Stored == "" && (opts.MiniLM != nil || fullEncoderHere) {
		// A new workspace without a server's model: the full encoder when
		// its weights are installed, as it ranks better on every dev set
		// and a question still encodes within 10 ms (BENCHMARKS.md).
		e, err := loadMiniLM()
		if err == nil {
			return e, miniLMChoice(e, why+"; its weights are installed"), nil
		}
		if errors.Is(err, minilm.ErrWeightsMissing) {
			why += "; the full MiniLM encoder's weights are not installed (bash scripts/minilm.sh installs them)"
		} else {
			why += fmt.Sprintf("; the full MiniLM encoder cannot load: %v", err)
		}
	}
	return useOffline(why)
}

func remoteChoice(mode Mode, r Remote, e Embedder, why string) Choice {
	return Choice{
		Mode:   mode,
		ID:     e.ID(),
		Reason: fmt.Sprintf("using %s model %s at %s (%d dimensions): %s", r.Server(), r.Model(), r.URL(), e.Dim(), why),
	}
}

// whyNotServer turns a failure to find or check the server's model into
// the end of a sentence; r is nil when finding it failed.
func whyNotServer(err error, r Remote) string {
	code := errs.CodeOf(err)
	switch {
	case r != nil && (code == errs.OllamaNotRunning || code == errs.OllamaTimeout):
		return r.Server() + " not reachable at " + r.URL()
	case r != nil && code == errs.OllamaModelMissing:
		return err.Error()
	case r != nil:
		return fmt.Sprintf("%s at %s is not usable: %v", r.Server(), r.URL(), err)
	case code == errs.OllamaNotRunning || code == errs.OllamaTimeout || code == errs.OllamaModelMissing:
		return err.Error()
	default:
		return fmt.Sprintf("the model server is not usable: %v", err)
	}
}
