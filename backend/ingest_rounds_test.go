//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundsFolder writes n notes, note-01.md … note-NN.md, the one numbered
// gated saying "gated" (the gated embedder holds it); 0: none.
func roundsFolder(t *testing.T, n, gated int) string {
	t.Helper()
	dir := t.TempDir()
	for i := 1; i <= n; i++ {
		word := "ordinary"
		if i == gated {
			word = "gated"
		}
		text := fmt.Sprintf("# Note %d\n\nThe %s note number %d is about river delta %d and its silt.\n", i, word, i, i)
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%02d.md", i)), []byte(text), 0o644))
	}
	return dir
}

func docPaths(t *testing.T, wb *Workbench) []string {
	t.Helper()
	docs, err := wb.Documents(context.Background())
	require.NoError(t, err)
	var out []string
	for _, d := range docs {
		out = append(out, d.Path)
	}
	sort.Strings(out)
	return out
}

// A large drop embedded by a slow embedder is written in rounds of 4, 8,
// 16 … files: the first round is in the library, and answers questions,
// while the next is still being embedded. Progress counts the whole drop
// and says how many of its documents are written.
func TestALargeDropIsSearchableRoundByRound(t *testing.T) {
	ctx := context.Background()
	g := newGatedEmbedder()
	wb := openBolt(t, t.TempDir(), WithEmbedder(g))
	defer wb.Close()
	dir := roundsFolder(t, 7, 6) // rounds: notes 1–4, then 5–7; note 6 is held

	var mu sync.Mutex
	var seen []Progress
	done := make(chan *IngestReport, 1)
	go func() {
		rep, err := wb.Ingest(ctx, []string{dir}, IngestOptions{Progress: func(p Progress) {
			mu.Lock()
			seen = append(seen, p)
			mu.Unlock()
		}})
		assert.NoError(t, err)
		done <- rep
	}()
	<-g.entered // the second round is embedding note 6, and waits

	assert.Equal(t, []string{"note-01.md", "note-02.md", "note-03.md", "note-04.md"}, docPaths(t, wb), "the first round is in the library")
	res := answeredMeanwhile(t, wb, "Which note is about river delta 3?")
	assert.Contains(t, res.Prompt, "note number 3", "and answers questions")
	mu.Lock()
	lastSeen := seen[len(seen)-1]
	mu.Unlock()
	assert.Equal(t, 4, lastSeen.Written, "progress says the first round is written")
	assert.Equal(t, 7, lastSeen.FilesTotal, "progress counts the whole drop")
	assert.Equal(t, StageEmbedding, lastSeen.Stage)
	assert.GreaterOrEqual(t, lastSeen.FilesDone, 4)

	close(g.release)
	rep := <-done
	require.NotNil(t, rep)
	assert.Equal(t, 7, rep.Files)
	assert.Equal(t, 7, rep.Added)
	assert.False(t, rep.Canceled)
	assert.Len(t, docPaths(t, wb), 7)
	for text, n := range g.texts {
		assert.Equal(t, 1, n, "embedded once: %q", text)
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(seen); i++ {
		assert.GreaterOrEqual(t, seen[i].Written, seen[i-1].Written, "written only grows")
		assert.GreaterOrEqual(t, seen[i].BytesTotal, seen[i].BytesDone)
	}
}

// Cancelling an ingest in rounds keeps the rounds written and what the
// round in flight had embedded; the rest is left for the next ingest.
func TestCancellingAnIngestInRoundsKeepsTheRoundsWritten(t *testing.T) {
	g := newGatedEmbedder()
	wb := openBolt(t, t.TempDir(), WithEmbedder(g))
	defer wb.Close()
	dir := roundsFolder(t, 7, 6)
	rep := cancelAtTheGate(t, wb, g, []string{dir}, IngestOptions{Prune: true})
	assert.Equal(t, 5, rep.Added, "the first round, and note 5, embedded before the cancel")
	assert.Equal(t, []string{"note-01.md", "note-02.md", "note-03.md", "note-04.md", "note-05.md"}, docPaths(t, wb))

	close(g.release)
	rep2, err := wb.Ingest(context.Background(), []string{dir}, IngestOptions{Prune: true})
	require.NoError(t, err)
	assert.Equal(t, 2, rep2.Added)
	assert.Equal(t, 5, rep2.Unchanged)
	assert.Zero(t, rep2.Removed, "pruning after rounds removes nothing that is there")
	assert.Len(t, docPaths(t, wb), 7)
}

// libraryCode copies Loom's own library package (its source, not its
// tests) into a folder, with one more file, zz_gated.go, that the gated
// embedder holds and that calls definitions of the first files.
func libraryCode(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "library")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	files, err := filepath.Glob(filepath.Join("library", "*.go"))
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644))
		n++
	}
	require.Greater(t, n, 12, "more files than the first two rounds hold")
	gate := "package library\n\n// gated holds the embedder, and calls definitions of the first round's files.\nfunc gated(w *Library) bool {\n\treturn embedsAhead(nil) && w != nil\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zz_gated.go"), []byte(gate), 0o644))
	return dir
}

// symbolEdges lists a workspace's symbol edges, sorted.
func symbolEdges(cg codeGraph) []string {
	var out []string
	for kind, es := range cg.edges {
		for _, e := range es {
			out = append(out, string(kind)+" "+e[0]+" → "+e[1])
		}
	}
	sort.Strings(out)
	return out
}

// codeAtOnce ingests src at once (an embedder that is not slow) into a
// workspace of its own: its symbol edges and how many documents it holds.
func codeAtOnce(t *testing.T, src string) (edges []string, docs int) {
	t.Helper()
	fast := newGatedEmbedder()
	fast.id = "offline/test-hash-32" // not slow: one round
	close(fast.release)
	once := openBolt(t, t.TempDir(), WithEmbedder(fast))
	defer once.Close()
	rep, err := once.Ingest(context.Background(), []string{src}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	edges = symbolEdges(readCodeGraph(t, once))
	require.Greater(t, len(edges), 100)
	return edges, len(docPaths(t, once))
}

// storedSymbolEdges closes wb and reads its symbol edges back from the
// store, without the index's cache.
func storedSymbolEdges(t *testing.T, wb *Workbench, dir string, e *gatedEmbedder) []string {
	t.Helper()
	require.NoError(t, wb.Close())
	require.NoError(t, os.Remove(filepath.Join(dir, "index.cache")))
	again := openBolt(t, dir, WithEmbedder(e))
	defer again.Close()
	return symbolEdges(readCodeGraph(t, again))
}

// Source code with a slow embedder is written in rounds too, with one
// symbol graph: the first rounds are in the library and answer questions
// while the last is embedded, a call of a definition of a later round is
// written with that definition, and the graph at the end is the one an
// ingest at once makes — in the index and in the store.
func TestSourceCodeIsWrittenInRoundsWithOneSymbolGraph(t *testing.T) {
	ctx := context.Background()
	src := libraryCode(t)

	want, files := codeAtOnce(t, src)

	g := newGatedEmbedder()
	dir := t.TempDir()
	wb := openBolt(t, dir, WithEmbedder(g))
	done := make(chan *IngestReport, 1)
	go func() {
		rep, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
		assert.NoError(t, err)
		done <- rep
	}()
	<-g.entered // the last round embeds zz_gated.go, and waits
	paths := docPaths(t, wb)
	assert.Len(t, paths, 12, "the first two rounds (4 and 8 files) are in the library")
	assert.Equal(t, "ahead.go", paths[0])
	res := answeredMeanwhile(t, wb, "How does the first stage of an ingest embed files ahead?")
	assert.Contains(t, res.Prompt, "embedAhead", "and answer questions")
	assert.Subset(t, want, symbolEdges(readCodeGraph(t, wb)), "what is written is the graph an ingest at once makes")

	close(g.release)
	rep := <-done
	require.NotNil(t, rep)
	require.Empty(t, rep.Errors)
	assert.Equal(t, files, rep.Added)
	assert.Len(t, docPaths(t, wb), rep.Added)
	assert.Equal(t, want, symbolEdges(readCodeGraph(t, wb)), "the same symbol graph as an ingest at once")

	assert.Equal(t, want, storedSymbolEdges(t, wb, dir, g), "the same symbol graph, read from the store")
}

// Cancelling a code drop in rounds keeps the rounds written, whose calls
// of definitions never written wait for them; the next ingest of the
// folder writes the rest, and the symbol graph is the one an ingest at
// once makes.
func TestACodeDropCancelledInRoundsIsCompletedByTheNextIngest(t *testing.T) {
	ctx := context.Background()
	src := libraryCode(t)
	want, files := codeAtOnce(t, src)

	g := newGatedEmbedder()
	dir := t.TempDir()
	wb := openBolt(t, dir, WithEmbedder(g))
	cancelAtTheGate(t, wb, g, []string{src}, IngestOptions{Prune: true})
	written := docPaths(t, wb)
	assert.GreaterOrEqual(t, len(written), 12)
	assert.Less(t, len(written), files)
	assert.Subset(t, want, symbolEdges(readCodeGraph(t, wb)), "what the rounds wrote is the graph an ingest at once makes")

	close(g.release)
	rep, err := wb.Ingest(ctx, []string{src}, IngestOptions{Prune: true})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	assert.Equal(t, len(written), rep.Unchanged)
	assert.Equal(t, want, symbolEdges(readCodeGraph(t, wb)), "the next ingest completes the graph")
	assert.Equal(t, want, storedSymbolEdges(t, wb, dir, g), "in the store too")
}

// A document removed between two rounds of a code drop (another window, a
// watched folder) takes its calls along: a later round does not write the
// waiting edge of a caller that is no longer there. (An edge to a
// definition that is gone is kept, as an edit keeps its callers' edges.)
func TestACallerRemovedBetweenRoundsLeavesNoEdgeBehind(t *testing.T) {
	ctx := context.Background()
	src := libraryCode(t)
	gate := filepath.Join(src, "zz_gated.go")
	gated, err := os.ReadFile(gate)
	require.NoError(t, err)
	require.NoError(t, os.Remove(gate))
	first := newGatedEmbedder()
	close(first.release)
	dir := t.TempDir()
	wb := openBolt(t, dir, WithEmbedder(first))
	_, err = wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	require.NoError(t, wb.Close())

	// Two new files: aa_caller.go, in the first round, calls gated, which
	// zz_gated.go, in the last, defines.
	require.NoError(t, os.WriteFile(gate, gated, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "aa_caller.go"), []byte("package library\n\n// caller waits for the last round.\nfunc caller() bool { return gated(nil) }\n"), 0o644))
	g := newGatedEmbedder()
	wb = openBolt(t, dir, WithEmbedder(g))
	done := make(chan *IngestReport, 1)
	go func() {
		rep, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
		assert.NoError(t, err)
		done <- rep
	}()
	<-g.entered // the last round embeds zz_gated.go
	ids := map[string]string{}
	docs, err := wb.Documents(ctx)
	require.NoError(t, err)
	for _, d := range docs {
		ids[d.Path] = d.ID
	}
	require.NotEmpty(t, ids["aa_caller.go"], "the first round is written")
	require.NoError(t, wb.RemoveDocuments(ctx, []string{ids["aa_caller.go"]}))
	close(g.release)
	rep := <-done
	require.NotNil(t, rep)
	require.Empty(t, rep.Errors)

	check := func(cg codeGraph, where string) {
		t.Helper()
		require.Contains(t, cg.byRef, "zz_gated.go#gated", where)
		n := 0
		for _, es := range cg.edges {
			for _, e := range es {
				n++
				assert.NotEmpty(t, e[0], "%s: an edge from a node that is not there: %v", where, e)
			}
		}
		assert.Greater(t, n, 100, where)
	}
	check(readCodeGraph(t, wb), "index")
	require.NoError(t, wb.Close())
	require.NoError(t, os.Remove(filepath.Join(dir, "index.cache")))
	wb = openBolt(t, dir, WithEmbedder(g))
	defer wb.Close()
	check(readCodeGraph(t, wb), "store")
}
