package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/minilm"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/openai"
	"github.com/loomwork/loom/backend/tokens"
)

// Config is how an edition opens the engine: the desktop app (bind), the
// CLI (cmd/loom) and the web edition (cmd/loom-web) all open a workspace
// with New(ctx, Config), so they choose embedders, summarise and read model
// windows the same way.
type Config struct {
	// Dir is the workspace folder ("": DefaultWorkspaceDir("default")).
	Dir string
	// Embedder is auto (the default: the embedder the workspace's vectors
	// were made with; for a new workspace the model server's embedding
	// model when it answers and has one, else the offline embedder),
	// offline, minilm (the full encoder), or the server's own mode
	// (ollama, openai).
	Embedder embed.Mode
	// EmbedModel is the server's embedding model ("": the workspace's,
	// else one the server lists as an embedding model, nomic-embed-text
	// first).
	EmbedModel string
	// Offline loads the offline embedder (nil: the table built into the
	// binary; the web edition passes the table the page fetched).
	Offline func() (embed.Embedder, error)
	// MiniLM loads the full encoder (nil: embed.LoadMiniLM, the weights
	// minilm.Find finds).
	MiniLM func() (embed.Embedder, error)
	// StartOnTable: a new workspace that auto mode would give the full
	// MiniLM encoder starts on the offline table instead, so that its
	// first files are searchable seconds after they are dropped (the full
	// encoder takes about 30 ms a section); OnStartedOnTable is told, and
	// the caller re-embeds the workspace with the full encoder in the
	// background once files are in (the desktop app does: bind's
	// upgrade). The CLI leaves it false: a command ends with its work.
	StartOnTable bool
	// OnStartedOnTable is told when StartOnTable chose the table, with
	// the target the workspace is meant to be re-embedded with
	// (MiniLMTarget).
	OnStartedOnTable func(target string)
	// Server makes a client for the model server the person configured —
	// Ollama or an OpenAI-compatible server (NewModelServer) — with the
	// edition's way of telling them when it is slow (nil: no server — the
	// offline embedder, extractive summaries, no model windows). It reads
	// model windows (a question naming a model), embeds in auto and the
	// server's mode, and summarises with SummaryModel.
	Server func() (modelserver.Server, error)
	// SummaryModel makes summaries with this model of the server (Ollama
	// or an OpenAI-compatible one), the extractive method standing in when
	// it fails ("": extractive only).
	SummaryModel string
	// ConceptThreshold overrides the embedder's calibrated one (0: the
	// calibrated one).
	ConceptThreshold float64
	// OnEmbedder is told which embedder was chosen and why, once it is
	// (on the first need); Stats says it too.
	OnEmbedder func(reason string)
	// Access is how the workspace opens: for writing (the default),
	// read-only, or read-only when it cannot be written.
	Access Access
	// Options are more engine options (tests: a clock, a fixed embedder,
	// which then wins over Embedder).
	Options []Option
}

// Access is how a workspace opens.
type Access int

// The ways to open a workspace.
const (
	// Write opens it for writing; a workspace another process holds is
	// ErrInUse.
	Write Access = iota
	// ReadOnlyAccess opens it for reading only.
	ReadOnlyAccess
	// WriteWhenFree opens it for writing when it can, else read-only
	// (another process holds it, or its folder cannot be written); Stats
	// says why.
	WriteWhenFree
)

// DefaultEmbedModel is the embedding model auto mode prefers when the
// workspace has none and none is configured.
const DefaultEmbedModel = modelserver.DefaultEmbedModel

// New opens the workspace c says, wired as c says.
func New(ctx context.Context, c Config) (*Workbench, error) {
	dir, err := c.Folder()
	if err != nil {
		return nil, err
	}
	opts, err := c.EngineOptions()
	if err != nil {
		return nil, err
	}
	switch c.Access {
	case ReadOnlyAccess:
		opts = append(opts, ReadOnly())
	case WriteWhenFree:
		opts = append(opts, ReadOnlyWhenBusy())
	}
	return Open(ctx, dir, opts...)
}

// Folder is the workspace folder: Dir, else the default workspace.
func (c Config) Folder() (string, error) {
	if c.Dir != "" {
		return c.Dir, nil
	}
	return DefaultWorkspaceDir("default")
}

// EngineOptions are the options c opens a workspace with (Doctor and
// Repair take them too): the embedder chosen on first need, the model
// window and the summariser from the model server, the concept threshold,
// then c.Options.
func (c Config) EngineOptions() ([]Option, error) {
	if _, err := embed.ParseMode(string(c.Embedder)); err != nil {
		return nil, err
	}
	var opts []Option
	var remote func(ctx context.Context, stored string) (embed.Remote, error)
	remoteMode := embed.ModeOllama
	if c.Server != nil {
		if srv, err := c.Server(); err == nil {
			remoteMode = srv.Provider().EmbedMode()
		}
		remote = func(ctx context.Context, stored string) (embed.Remote, error) {
			srv, err := c.Server()
			if err != nil {
				return nil, err
			}
			return FindEmbedModel(ctx, srv, c.EmbedModel, stored)
		}
		opts = append(opts, WithModelWindow(func(ctx context.Context, name string) (int, error) {
			srv, err := c.Server()
			if err != nil {
				return 0, err
			}
			info, err := srv.Describe(ctx, name, nil)
			if info.ServerWindow > 0 {
				return info.ServerWindow, err
			}
			return info.ContextLength, err
		}))
		if c.SummaryModel != "" {
			srv, err := c.Server()
			if err != nil {
				return nil, err
			}
			count := tokens.Default().Count
			fallback := abstract.Extractive{Count: count, Additive: true}
			switch sc := srv.(type) {
			case *ollama.Client:
				opts = append(opts, WithSummarizer(&ollama.Summarizer{Client: sc, Model: c.SummaryModel, Count: count, Fallback: fallback}))
			case *openai.Client:
				opts = append(opts, WithSummarizer(&openai.Summarizer{Client: sc, Model: c.SummaryModel, Count: count, Fallback: fallback}))
			default:
				return nil, errs.E(errs.Invalid, "summaries with a model (%s): %s at %s cannot make them; leave the summary model out for extractive summaries", c.SummaryModel, srv.Name(), srv.URL())
			}
		}
	}
	mode, offline, told := c.Embedder, c.Offline, c.OnEmbedder
	startOnTable, startedOnTable := c.StartOnTable, c.OnStartedOnTable
	opts = append(opts, WithEmbedderResolver(func(ctx context.Context, stored string) (embed.Embedder, string, error) {
		loadMiniLM, wanted := c.MiniLM, false
		if m, _ := embed.ParseMode(string(mode)); startOnTable && stored == "" && m == embed.ModeAuto {
			// Where auto mode would give the new workspace the full
			// encoder, Select gets the table instead; the weights (45 MB,
			// a quarter of a second) are only looked for, not loaded.
			given := c.MiniLM
			loadMiniLM = func() (embed.Embedder, error) {
				if given == nil {
					if _, err := minilm.Find(); err != nil {
						return nil, err
					}
				}
				wanted = true
				return nil, errStartOnTable
			}
		}
		e, choice, err := embed.Select(ctx, embed.SelectOptions{Mode: mode, Stored: stored, Remote: remote, RemoteMode: remoteMode, Offline: offline, MiniLM: loadMiniLM})
		if err != nil {
			return nil, "", err
		}
		if wanted && choice.Mode == embed.ModeOffline {
			choice.Reason = StartedOnTableReason
			if startedOnTable != nil {
				startedOnTable(MiniLMTarget)
			}
		}
		if told != nil {
			told(choice.Reason)
		}
		return e, choice.Reason, nil
	}))
	if c.ConceptThreshold > 0 {
		opts = append(opts, WithConceptThreshold(c.ConceptThreshold))
	}
	return append(opts, c.Options...), nil
}

// StartedOnTableReason is the embedder choice of a new workspace that
// StartOnTable started on the table.
const StartedOnTableReason = "using offline embedder for now: a new workspace starts on the table, so that its first files are searchable at once, and the full MiniLM encoder re-embeds it in the background once files are in"

// KeptTableReason is the embedder choice of a workspace that started on
// the table and keeps it: its re-embed with the full encoder was stopped
// (PendingReembed is empty).
const KeptTableReason = "using offline embedder: the workspace started on it and keeps it (the background re-embed with the full MiniLM encoder was stopped); re-embed with the full encoder below when you like"

// errStartOnTable stands for the full encoder a new workspace would get,
// which StartOnTable puts off (never shown: the table is used).
var errStartOnTable = errors.New("the workspace starts on the table")

// loadOffline loads the offline embedder c names (Offline, else the table
// built into the binary).
func (c Config) loadOffline() (embed.Embedder, error) {
	if c.Offline != nil {
		return c.Offline()
	}
	return offline.New()
}

// FindEmbedModel is the server's embedding model to use: the one named
// ("" for none), else the one the workspace's vectors were made with (the
// embedder ID stored, if it is this server's), else one the server lists
// as an embedding model (modelserver.PickEmbedModel). A server that lists
// none is an error with code errs.OllamaModelMissing saying how to get
// one.
func FindEmbedModel(ctx context.Context, srv modelserver.Server, named, stored string) (embed.Remote, error) {
	if named = strings.TrimSpace(named); named != "" {
		return srv.EmbedRemote(named), nil
	}
	if name, ok := modelserver.ModelOf(stored, srv.Provider()); ok {
		return srv.EmbedRemote(name), nil
	}
	models, err := srv.Models(ctx)
	if err != nil {
		return nil, err
	}
	if name := modelserver.PickEmbedModel(models); name != "" {
		return srv.EmbedRemote(name), nil
	}
	return nil, fmt.Errorf("%s at %s lists no embedding model: %w", srv.Name(), srv.URL(), srv.MissingModel(DefaultEmbedModel))
}

// OfflineTarget names the offline embedder as a re-embed's target
// (OpenEmbedder), and MiniLMTarget the full MiniLM encoder.
const (
	OfflineTarget = "offline"
	MiniLMTarget  = "minilm"
)

// OpenEmbedder opens the embedder a re-embed asked for by name: "offline"
// (OfflineTarget) is the offline embedder, "minilm" (MiniLMTarget) the
// full MiniLM encoder, any other name the model
// server's embedding model of that name ("": the one FindEmbedModel picks
// for a new workspace). It returns the embedder and a sentence saying
// what it is, for Stats.
func (c Config) OpenEmbedder(ctx context.Context, target string) (embed.Embedder, string, error) {
	if strings.TrimSpace(target) == OfflineTarget {
		e, err := c.loadOffline()
		if err != nil {
			return nil, "", err
		}
		return e, fmt.Sprintf("using offline embedder (%d dimensions): the workspace was re-embedded with it", e.Dim()), nil
	}
	if strings.TrimSpace(target) == MiniLMTarget {
		load := c.MiniLM
		if load == nil {
			load = embed.LoadMiniLM
		}
		e, err := load()
		if err != nil {
			return nil, "", err
		}
		return e, fmt.Sprintf("using the full MiniLM encoder (%d dimensions): the workspace was re-embedded with it", e.Dim()), nil
	}
	if c.Server == nil {
		return nil, "", errs.E(errs.Invalid, "re-embed with %s: no model server is configured", target)
	}
	srv, err := c.Server()
	if err != nil {
		return nil, "", err
	}
	r, err := FindEmbedModel(ctx, srv, target, "")
	if err != nil {
		return nil, "", err
	}
	e, err := r.Open(ctx)
	if err != nil {
		return nil, "", err
	}
	return e, fmt.Sprintf("using %s model %s at %s (%d dimensions): the workspace was re-embedded with it", r.Server(), r.Model(), r.URL(), e.Dim()), nil
}
