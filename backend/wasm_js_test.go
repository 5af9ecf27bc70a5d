//go:build js

package backend

// Under GOOS=js, openBolt (workbench_test.go's is !js: that file makes a
// FIFO) gives the offline embedder from its table file, since the
// WebAssembly build does not embed the table.

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// openBolt opens the workspace (kept in graph.snapshot under js) with the
// offline embedder read from its table file; opts may override it.
func openBolt(t *testing.T, dir string, opts ...Option) *Workbench {
	t.Helper()
	e := tableEmbedder(t)
	if e == nil {
		t.Fatal("the offline embedding table is missing: run scripts/embeddings.sh (or make setup)")
	}
	wb, err := Open(context.Background(), dir, append([]Option{WithClock(clock), WithEmbedder(e)}, opts...)...)
	require.NoError(t, err)
	return wb
}
