package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Beside a running `loom watch` (the workspace's writer), the reading
// commands work read-only and a second writer is refused with a message
// naming the holder.
func TestReadersWorkBesideLoomWatchAndASecondWriterIsToldWhoHoldsIt(t *testing.T) {
	bin := buildLoom(t)
	notes := filepath.Join(t.TempDir(), "notes")
	require.NoError(t, os.CopyFS(notes, os.DirFS(filepath.Join("..", "..", "testdata", "fixture", "notes"))))
	ws := filepath.Join(t.TempDir(), "ws")
	env := append(os.Environ(), "LOOM_OLLAMA_URL=", "OLLAMA_HOST=")

	watch := exec.Command(bin, "watch", "--workspace", ws, "--embedder", "offline", notes)
	watch.Env = env
	stderr, err := watch.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, watch.Start())
	t.Cleanup(func() {
		_ = watch.Process.Signal(syscall.SIGINT)
		_ = watch.Wait()
	})
	// Wait until it watches (its initial ingest done): a line it prints.
	lines := bufio.NewScanner(stderr)
	ready := false
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "watching for changes") {
			ready = true
			break
		}
	}
	require.True(t, ready, "loom watch started watching")
	go func() { // keep its stderr drained
		for lines.Scan() {
		}
	}()

	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("graph", "stats", "--workspace", ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "documents")
	assert.Contains(t, out, "loom watch", "the read-only reason names the holder")
	out, err = run("query", "--workspace", ws, "--embedder", "offline", "--budget", "800", "How does staleness decay?")
	require.NoError(t, err, out)
	assert.Contains(t, out, "[Context loaded: ")

	out, err = run("ingest", "--workspace", ws, "--embedder", "offline", notes)
	require.Error(t, err, "a second writer is refused")
	assert.Regexp(t, `in use by another Loom process — loom watch, pid \d+, since `, out)
}
