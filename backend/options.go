package backend

import (
	"context"
	"time"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/workspace"
)

// Option configures Open (package workspace has them all).
type Option = workspace.Option

// Stats summarises a workspace; ReadOnlyCause says why one is open
// read-only.
type (
	Stats         = workspace.Stats
	ReadOnlyCause = workspace.ReadOnlyCause
)

// The read-only causes.
const (
	ReadOnlyAsked      = workspace.ReadOnlyAsked
	ReadOnlyInUse      = workspace.ReadOnlyInUse
	ReadOnlyFileSystem = workspace.ReadOnlyFileSystem
	ReadOnlyPermission = workspace.ReadOnlyPermission
)

// ConfigFile is the workspace's settings file.
const ConfigFile = workspace.ConfigFile

// ReadOnly opens the workspace for reading only (workspace.ReadOnly).
func ReadOnly() Option { return workspace.ReadOnly() }

// ReadOnlyWhenBusy opens it read-only when it cannot be written
// (workspace.ReadOnlyWhenBusy).
func ReadOnlyWhenBusy() Option { return workspace.ReadOnlyWhenBusy() }

// WithModelWindow tells queries how to read a model's context window.
func WithModelWindow(f func(ctx context.Context, model string) (int, error)) Option {
	return workspace.WithModelWindow(f)
}

// WithSummarizer makes summaries and essences with s.
func WithSummarizer(s abstract.Summarizer) Option { return workspace.WithSummarizer(s) }

// WithGraphStore keeps the graph in the given store.
func WithGraphStore(k storage.GraphKind) Option { return workspace.WithGraphStore(k) }

// InMemory keeps nothing on disk.
func InMemory() Option { return workspace.InMemory() }

// WithEmbedder fixes the embedder.
func WithEmbedder(e embed.Embedder) Option { return workspace.WithEmbedder(e) }

// WithEmbedderResolver picks the embedder lazily, on first need, given
// the ID of the embedder the workspace's vectors were made with ("" for a
// new workspace); it returns the embedder and why it was chosen.
func WithEmbedderResolver(f func(ctx context.Context, stored string) (embed.Embedder, string, error)) Option {
	return workspace.WithEmbedderResolver(f)
}

// WithClock injects the clock.
func WithClock(now func() time.Time) Option { return workspace.WithClock(now) }

// WithConceptThreshold overrides the embedder's calibrated threshold.
func WithConceptThreshold(t float64) Option { return workspace.WithConceptThreshold(t) }

// WithIngestOptions sets section sizes and file limits.
func WithIngestOptions(o ingest.Options) Option { return workspace.WithIngestOptions(o) }

// DefaultWorkspaceDir is $XDG_DATA_HOME/loom/<name>.
func DefaultWorkspaceDir(name string) (string, error) { return workspace.DefaultWorkspaceDir(name) }
