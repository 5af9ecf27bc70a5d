package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/watch"
)

// lockedBuffer is a stderr the watchers write while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// loom watch follows a folder through a file added, changed, renamed and
// removed: after each, the workspace holds exactly the folder's documents,
// no stale nor duplicate ones. The test waits on the syncs the command
// reports; its context's timeout is only a failure guard.
func TestWatchFollowsAFolder(t *testing.T) {
	notes, ws := t.TempDir(), t.TempDir()
	for _, f := range []string{"budget.md", "graphs.md", "staleness.txt"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/fixture/notes", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(notes, f), b, 0o644))
	}
	type event struct {
		wb *backend.Workbench
		st watch.Status
	}
	events := make(chan event, 256)
	watchSynced = func(wb *backend.Workbench, st watch.Status) { events <- event{wb, st} }
	t.Cleanup(func() { watchSynced = nil })

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a failure guard
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	var out, errOut lockedBuffer
	ended := make(chan error, 1)
	go func() {
		ended <- run(runCtx, []string{"watch", "--workspace", ws, "--embedder", "offline", "--quiet", "50ms", notes}, &out, &errOut)
	}()

	var wb *backend.Workbench
	select {
	case e := <-events:
		require.Equal(t, watch.Watching, e.st.State)
		wb = e.wb
	case <-ctx.Done():
		t.Fatal("loom watch did not start: " + errOut.String())
	}
	docs := func() map[string]string { // path → hash
		t.Helper()
		list, err := wb.Documents(ctx)
		require.NoError(t, err)
		m := map[string]string{}
		for _, d := range list {
			_, dup := m[d.Path]
			require.False(t, dup, "document %s twice", d.Path)
			m[d.Path] = d.Hash
		}
		return m
	}
	paths := func(m map[string]string) []string {
		var ps []string
		for p := range m {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		return ps
	}
	// waitFor waits on reported syncs until the workspace is as wanted.
	waitFor := func(what string, ok func(map[string]string) bool) {
		t.Helper()
		if ok(docs()) {
			return
		}
		for {
			select {
			case e := <-events:
				if e.st.State == watch.Failed {
					t.Fatalf("%s: %v", what, e.st.Err)
				}
				if e.st.State == watch.Synced && ok(docs()) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("%s: never synced; documents %v; stderr:\n%s", what, paths(docs()), errOut.String())
			}
		}
	}
	is := func(want ...string) func(map[string]string) bool {
		return func(m map[string]string) bool { return strings.Join(paths(m), ",") == strings.Join(want, ",") }
	}
	waitFor("the first ingest", is("budget.md", "graphs.md", "staleness.txt"))

	note := filepath.Join(notes, "fresh.md")
	require.NoError(t, os.WriteFile(note, []byte("# Fresh\n\nA fresh note on how watched folders stay in step with the graph.\n"), 0o644))
	waitFor("added", is("budget.md", "fresh.md", "graphs.md", "staleness.txt"))
	before := docs()["fresh.md"]

	require.NoError(t, os.WriteFile(note, []byte("# Fresh\n\nThe note, edited: a folder is re-read after the last write settles.\n"), 0o644))
	waitFor("changed", func(m map[string]string) bool { return m["fresh.md"] != before && len(m) == 4 })

	require.NoError(t, os.Rename(note, filepath.Join(notes, "renamed.md")))
	waitFor("renamed", is("budget.md", "graphs.md", "renamed.md", "staleness.txt"))

	require.NoError(t, os.Remove(filepath.Join(notes, "budget.md")))
	waitFor("removed", is("graphs.md", "renamed.md", "staleness.txt"))

	require.NoError(t, os.Mkdir(filepath.Join(notes, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(notes, "sub", "deep.md"), []byte("# Deep\n\nA note in a folder made while watching.\n"), 0o644))
	waitFor("in a new folder", is("graphs.md", "renamed.md", "staleness.txt", "sub/deep.md"))

	stop()
	require.NoError(t, <-ended, "an interrupt ends loom watch cleanly")
	assert.Contains(t, errOut.String(), "synced "+notes+string(filepath.Separator)+": ")
	assert.Regexp(t, `synced [^\n]*: \d+ changed, \d+ added, \d+ removed \(\d+\.\d s\)\n`, errOut.String())

	// The workspace, reopened, is what a fresh ingest of the folder makes:
	// the same documents and content nodes, nothing stale left behind.
	stats := func(ws string) map[string]any {
		t.Helper()
		o, _, err := runCLI(t, "graph", "stats", "--workspace", ws, "--format", "json")
		require.NoError(t, err)
		var st map[string]any
		require.NoError(t, json.Unmarshal([]byte(o), &st))
		return st
	}
	fresh := t.TempDir()
	_, _, err := runCLI(t, "ingest", "--workspace", fresh, "--embedder", "offline", "--quiet", notes)
	require.NoError(t, err)
	got, want := stats(ws), stats(fresh)
	for _, k := range []string{"documents", "content_nodes", "tokens"} {
		assert.Equal(t, want[k], got[k], k)
	}
	assert.EqualValues(t, 4, got["documents"])
	assert.Positive(t, got["concept_nodes"])
}

func TestWatchUsage(t *testing.T) {
	_, _, err := runCLI(t, "watch", "--workspace", t.TempDir())
	assert.Equal(t, 2, exitCode(err))
	assert.ErrorContains(t, err, "at least one folder")
	_, _, err = runCLI(t, "watch", "--workspace", t.TempDir(), "--rescan", "-1s", t.TempDir())
	assert.Equal(t, 2, exitCode(err))
}
