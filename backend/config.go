package backend

import (
	"context"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/tokens"
)

// Config is how an edition opens the engine: the desktop app (bind), the
// CLI (cmd/loom) and the web edition (cmd/loom-web) all open a workspace
// with New(ctx, Config), so they choose embedders, summarise and read model
// windows the same way.
type Config struct {
	// Dir is the workspace folder ("": DefaultWorkspaceDir("default")).
	Dir string
	// Embedder is auto (the default: Ollama when it answers and has
	// EmbedModel, else the offline embedder), offline or ollama.
	Embedder embed.Mode
	// EmbedModel is the Ollama embedding model (default nomic-embed-text).
	EmbedModel string
	// Offline loads the offline embedder (nil: the table built into the
	// binary; the web edition passes the table the page fetched).
	Offline func() (embed.Embedder, error)
	// Ollama makes a client for the Ollama the person configured, with
	// the edition's way of telling them when it is slow (nil: no Ollama —
	// the offline embedder, extractive summaries, no model windows). It
	// reads model windows (a question naming a model), embeds in auto and
	// ollama modes, and summarises with SummaryModel.
	Ollama func() (*ollama.Client, error)
	// SummaryModel makes summaries with this Ollama model, the extractive
	// method standing in when Ollama fails ("": extractive only).
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

// DefaultEmbedModel is the Ollama embedding model auto mode looks for.
const DefaultEmbedModel = "nomic-embed-text"

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
// window and the summariser from Ollama, the concept threshold, then
// c.Options.
func (c Config) EngineOptions() ([]Option, error) {
	if _, err := embed.ParseMode(string(c.Embedder)); err != nil {
		return nil, err
	}
	var opts []Option
	model := c.EmbedModel
	if model == "" {
		model = DefaultEmbedModel
	}
	var remote func() (embed.Remote, error)
	if c.Ollama != nil {
		remote = func() (embed.Remote, error) {
			oc, err := c.Ollama()
			if err != nil {
				return nil, err
			}
			return oc.EmbedModel(model), nil
		}
		opts = append(opts, WithModelWindow(func(ctx context.Context, name string) (int, error) {
			oc, err := c.Ollama()
			if err != nil {
				return 0, err
			}
			info, err := oc.Model(ctx, name)
			return info.ContextLength, err
		}))
		if c.SummaryModel != "" {
			oc, err := c.Ollama()
			if err != nil {
				return nil, err
			}
			count := tokens.Default().Count
			opts = append(opts, WithSummarizer(&ollama.Summarizer{Client: oc, Model: c.SummaryModel, Count: count,
				Fallback: abstract.Extractive{Count: count, Additive: true}}))
		}
	}
	mode, offline, told := c.Embedder, c.Offline, c.OnEmbedder
	opts = append(opts, WithEmbedderResolver(func(ctx context.Context) (embed.Embedder, string, error) {
		e, choice, err := embed.Select(ctx, embed.SelectOptions{Mode: mode, Ollama: remote, Offline: offline})
		if err != nil {
			return nil, "", err
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
