// Package backend is Loom's engine facade: the Workbench that app.go (desktop),
// cmd/loom (CLI) and the WebAssembly entry all call.
package backend

import (
	"context"
	"errors"
)

// Stats summarises a workspace.
type Stats struct {
	Workspace    string `json:"workspace"`
	Documents    int    `json:"documents"`
	ContentNodes int    `json:"content_nodes"`
	ConceptNodes int    `json:"concept_nodes"`
	Edges        int    `json:"edges"`
	Tokens       int64  `json:"tokens"`
	Embedder     string `json:"embedder"`
}

// Workbench is an open workspace. (Placeholder while the engine lands.)
type Workbench struct{ dir string }

// Option configures Open.
type Option func(*config)

type config struct{}

// Open opens (creating if needed) the workspace in dir.
func Open(ctx context.Context, dir string, opts ...Option) (*Workbench, error) {
	return nil, errors.New("not yet implemented")
}

// DefaultWorkspaceDir is $XDG_DATA_HOME/loom/<name> (~/.local/share/loom/<name>).
func DefaultWorkspaceDir(name string) (string, error) { return "", errors.New("not yet implemented") }

// Stats counts what the workspace holds.
func (w *Workbench) Stats(ctx context.Context) (Stats, error) { return Stats{}, errors.New("not yet implemented") }

// Close releases the workspace.
func (w *Workbench) Close() error { return nil }
