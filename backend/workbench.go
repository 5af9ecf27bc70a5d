// Package backend is Loom's engine facade: the Workbench that bind (the
// page's binding layer, both editions), cmd/loom (the CLI) and the
// WebAssembly entry all call. A Workbench is one open workspace
// (backend/workspace) and the subsystems that work on it.
//
//	wb, err := backend.Open(ctx, dir, backend.WithEmbedder(e))
//	report, err := wb.Ingest(ctx, []string{"notes/"}, backend.IngestOptions{})
//	stats, err := wb.Stats(ctx)
package backend

import (
	"context"
	"sync"

	"github.com/loomwork/loom/backend/levels"
	"github.com/loomwork/loom/backend/workspace"
)

// Workbench is an open workspace. Its methods are safe for concurrent use;
// writes are serialised.
type Workbench struct {
	*workspace.Workspace
	// convMu guards the conversation files, the audit log and the
	// calibration file.
	convMu sync.Mutex
	// sysTokens caches token counts of system prompts and short strings.
	sysTokens map[string]int
	lv        *levels.Levels
}

// Open opens the workspace in dir, creating it when absent. Opening reads
// only the workspace facts; the working index loads on first need.
func Open(ctx context.Context, dir string, opts ...Option) (*Workbench, error) {
	ws, err := workspace.Open(ctx, dir, opts...)
	if err != nil {
		return nil, err
	}
	return &Workbench{Workspace: ws, lv: levels.New(ws)}, nil
}
