package main

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
)

// While hold runs, another open finds the workspace in use (read-only
// beside it, from the index saved by an earlier hold); once its input
// ends, the workspace is free.
func TestHoldKeepsTheWorkspaceUntilItsInputEnds(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, hold(dir, bytes.NewReader(nil), &out), "a first hold makes the workspace and saves its index")
	assert.Equal(t, "ready\n", out.String())

	in, release := io.Pipe()
	ready, readyOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- hold(dir, in, readyOut) }()
	line := make([]byte, len("ready\n"))
	_, err := io.ReadFull(ready, line)
	require.NoError(t, err)
	assert.Equal(t, "ready\n", string(line))

	ctx := context.Background()
	w, err := backend.Open(ctx, dir, backend.ReadOnlyWhenBusy())
	require.NoError(t, err)
	st, err := w.Stats(ctx)
	require.NoError(t, err)
	assert.Contains(t, st.ReadOnly, "another Loom process")
	require.NoError(t, w.Close())

	require.NoError(t, release.Close())
	require.NoError(t, <-done)
	w, err = backend.Open(ctx, dir, backend.ReadOnlyWhenBusy())
	require.NoError(t, err)
	st, err = w.Stats(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.ReadOnly, "free once hold let go")
	require.NoError(t, w.Close())
}
