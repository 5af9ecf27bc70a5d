//go:build !js

package backend

import (
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
	"github.com/loomwork/loom/internal/golden"
)

func openBolt(t *testing.T, dir string, opts ...Option) *Workbench {
	t.Helper()
	wb, err := Open(context.Background(), dir, append([]Option{WithClock(clock)}, opts...)...)
	require.NoError(t, err)
	return wb
}

func TestIngestFixtureBuildsGraph(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()

	rep, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	assert.Empty(t, rep.Errors)
	assert.Equal(t, 3, rep.Files, "hidden folders and node_modules are skipped")
	assert.Equal(t, 3, rep.Added)

	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, st.Documents)
	assert.Equal(t, rep.Nodes, st.ContentNodes)
	assert.Greater(t, st.ConceptNodes, 0)
	assert.Equal(t, offline.ID, st.Embedder)

	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	refs := map[string]model.ContentNode{}
	for _, n := range g.ContentNodes {
		refs[n.Ref] = n
		assert.Greater(t, n.Tokens, 0)
		text, err := wb.Content(n.ContentHash)
		require.NoError(t, err)
		assert.NotEmpty(t, text)
	}
	for _, want := range []string{"graphs.md#knowledge-graphs", "graphs.md#edges", "graphs.md#edges-1",
		"budget.md#token-budget", "budget.md#loading", "budget.md#oversized-nodes", "staleness.txt"} {
		assert.Contains(t, refs, want)
	}
	assert.NotContains(t, refs, "graphs.md#not-a-heading-inside-a-fence", "a # line in a fence is not a heading")
	edges := refs["graphs.md#edges"]
	assert.Equal(t, []string{"Knowledge graphs", "Edges"}, edges.HeadingPath)
	assert.Equal(t, []string{"graphs.md#knowledge-graphs"}, edges.Ancestors)
	assert.Equal(t, 8, edges.LineStart, "front matter keeps file line numbers")
	assert.Equal(t, refs["graphs.md#knowledge-graphs"].ID, edges.Parent)

	kinds := map[model.EdgeKind]int{}
	budgetDoc := ""
	for _, d := range g.Documents {
		if d.Path == "budget.md" {
			budgetDoc = d.ID
		}
	}
	var linked bool
	for _, e := range g.Edges {
		kinds[e.Kind]++
		if e.Kind == model.EdgeLinks && e.From == edges.ID && e.To == budgetDoc {
			linked = true
		}
	}
	assert.True(t, linked, "a [link](budget.md) becomes a links edge to that document")
	assert.Positive(t, kinds[model.EdgeAbout])
	assert.Positive(t, kinds[model.EdgeParent])
	// Every content node is about at least one concept.
	about := map[string]bool{}
	for _, e := range g.Edges {
		if e.Kind == model.EdgeAbout {
			about[e.From] = true
			assert.GreaterOrEqual(t, e.Weight, wb.ws.Threshold(wb.ws.EmbedderNow())-1e-9)
		}
	}
	assert.Len(t, about, len(g.ContentNodes))
	for _, c := range g.ConceptNodes {
		assert.NotEmpty(t, c.Name)
		assert.False(t, strings.HasPrefix(c.Name, "c-"), "concepts get readable names")
	}
}

// An in-memory workspace opened without a folder keeps its texts in a
// temporary one; Close removes it, and a folder the caller named is kept.
func TestInMemoryRemovesOnlyItsOwnTemporaryFolder(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	wb := openBolt(t, "", InMemory())
	tmp := wb.Dir()
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.DirExists(t, filepath.Join(tmp, "content"))
	require.NoError(t, wb.Close())
	assert.NoDirExists(t, tmp, "Close removes the temporary folder Open made")
	require.NoError(t, wb.Close(), "a second Close is a no-op")

	mine := t.TempDir()
	wb = openBolt(t, mine, InMemory())
	_, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	assert.DirExists(t, filepath.Join(mine, "content"), "a folder the caller named is theirs")
}

func TestGoldenGraphJSON(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	wb := openBolt(t, "", InMemory())
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	for i := range g.Documents { // absolute paths differ per machine
		g.Documents[i].Key = strings.TrimPrefix(g.Documents[i].Key, filepath.Dir(notes)+"/")
	}
	var buf bytes.Buffer
	require.NoError(t, g.Encode(&buf))
	path := filepath.Join("..", "testdata", "golden", "graph.json")
	golden.Equal(t, path, buf.Bytes())
}

func TestReingestUnchangedChangedAndPruned(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	before, _ := wb.Stats(ctx)

	rep, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 3, rep.Unchanged)
	assert.Zero(t, rep.Added+rep.Updated)
	again, _ := wb.Stats(ctx)
	assert.Equal(t, before.Generation, again.Generation, "nothing was written")

	// Change one section of budget.md.
	path := filepath.Join(notes, "budget.md")
	b, _ := os.ReadFile(path)
	require.NoError(t, os.WriteFile(path, bytes.Replace(b, []byte("descending score"), []byte("descending composite score"), 1), 0o644))
	rep, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Updated)
	assert.Equal(t, 2, rep.Unchanged)
	after, _ := wb.Stats(ctx)
	assert.Equal(t, before.Documents, after.Documents)
	assert.Equal(t, before.ContentNodes, after.ContentNodes, "no stale or duplicate nodes")
	require.NoError(t, wb.Close())

	// The store (not just the index) agrees: reload from Cayley.
	wb = openBolt(t, dir)
	require.NoError(t, os.Remove(wb.ws.IndexCachePath()))
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	assert.Len(t, g.ContentNodes, after.ContentNodes)
	seen := map[string]bool{}
	for _, n := range g.ContentNodes {
		assert.False(t, seen[n.Ref+"/"+strconv.Itoa(n.Part)], "duplicate node for %s", n.Ref)
		seen[n.Ref+"/"+strconv.Itoa(n.Part)] = true
		if n.Ref == "budget.md#loading" {
			text, _ := wb.Content(n.ContentHash)
			assert.Contains(t, text, "descending composite score")
		}
	}
	nodeIDs := map[string]bool{}
	for _, n := range g.ContentNodes {
		nodeIDs[n.ID] = true
	}
	conceptIDs := map[string]bool{}
	for _, c := range g.ConceptNodes {
		conceptIDs[c.ID] = true
	}
	linkedConcepts := map[string]bool{}
	for _, e := range g.Edges {
		switch e.Kind {
		case model.EdgeAbout:
			assert.True(t, nodeIDs[e.From], "about edge from a stale node %s", e.From)
			assert.True(t, conceptIDs[e.To], "about edge to a missing concept %s", e.To)
			linkedConcepts[e.To] = true
		case model.EdgeParent:
			assert.True(t, nodeIDs[e.From] && nodeIDs[e.To], "stale parent edge %v", e)
		}
	}
	assert.Equal(t, conceptIDs, linkedConcepts, "every concept keeps at least one content link")
	assert.Equal(t, after.Edges, len(g.Edges))

	// Remove a file and prune.
	require.NoError(t, os.Remove(filepath.Join(notes, "staleness.txt")))
	rep, err = wb.Ingest(ctx, []string{notes}, IngestOptions{Prune: true})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Removed)
	pruned, _ := wb.Stats(ctx)
	assert.Equal(t, 2, pruned.Documents)
	require.NoError(t, wb.Close())
}

func TestBadInputIsReportedAndLosesNothing(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	wb := openBolt(t, t.TempDir(), WithIngestOptions(ingest.Options{MaxFileBytes: 64 << 10}))
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	before, _ := wb.Stats(ctx)

	bad := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(bad, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	binary := write("image.md", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"))
	invalid := write("latin1.md", []byte("# Caf\xe9\n\nna\xefve text\n"))
	empty := write("empty.md", nil)
	blank := write("blank.txt", []byte("\n\n   \n"))
	huge := write("huge.md", bytes.Repeat([]byte("a line of text\n"), 10000))
	malformed := write("malformed.md", []byte("# Title\n\n```go\nunclosed fence\n\n## [broken link](\n\n<div>\n| a | b\n|--\n"))
	fifo := filepath.Join(bad, "pipe.md")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	missing := filepath.Join(bad, "missing.md")

	rep, err := wb.Ingest(ctx, []string{binary, invalid, empty, blank, huge, malformed, fifo, missing}, IngestOptions{})
	require.NoError(t, err)
	msgs := map[string]string{}
	for _, e := range rep.Errors {
		var fe *ingest.FileError
		require.True(t, errors.As(e, &fe), "%v is a FileError", e)
		msgs[filepath.Base(fe.Path)] = e.Error()
	}
	tests := []struct{ file, want string }{
		{"image.md", "binary"},
		{"latin1.md", "not valid UTF-8 (first bad byte at line 1, column 6)"},
		{"empty.md", "file is empty"},
		{"blank.txt", "only whitespace"},
		{"huge.md", "too large"},
		{"pipe.md", "not a regular file"},
		{"missing.md", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			assert.Contains(t, msgs[tt.file], tt.want)
			assert.Contains(t, msgs[tt.file], tt.file, "the message names the file")
		})
	}
	assert.NotContains(t, msgs, "malformed.md", "malformed markdown still ingests")
	assert.Equal(t, 1, rep.Added)
	after, _ := wb.Stats(ctx)
	assert.Equal(t, before.Documents+1, after.Documents, "nothing stored was lost")
}

func TestReopenUsesCacheAndStatsNeedNoIndex(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	want, _ := wb.Stats(ctx)
	g1, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	require.NoError(t, wb.Close())

	wb = openBolt(t, dir)
	got, err := wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, want.Embedder, want.EmbedderInUse)
	want.EmbedderInUse, want.EmbedderDims = "", 0 // this session's, chosen on first need
	assert.Equal(t, want, got)
	assert.Nil(t, wb.ws.CurrentIndex(), "stats read the meta quad only")
	w2 := openBoltErr(dir)
	assert.ErrorContains(t, w2, "in use by another Loom process")
	// The cached index equals the store.
	wb.ws.Lock()
	ix, err := wb.ws.Index(ctx)
	wb.ws.Unlock()
	require.NoError(t, err)
	assert.Equal(t, g1.ContentNodes, ix.Snapshot(wb.ws.Meta()).ToGraphJSON().ContentNodes)
	require.NoError(t, wb.Close())
}

func openBoltErr(dir string) error {
	wb, err := Open(context.Background(), dir)
	if err == nil {
		wb.Close()
	}
	return err
}

// hashEmbedder is a deterministic bag-of-words embedder standing in for a
// second model, to test switching embedders.
type hashEmbedder struct{}

func (hashEmbedder) ID() string { return "test/hash-32" }
func (hashEmbedder) Dim() int   { return 32 }
func (hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 32)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%32]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		n = math.Sqrt(n) + 1e-9
		for j := range v {
			v[j] = float32(float64(v[j]) / n)
		}
		out[i] = v
	}
	return out, nil
}

func TestSwitchingEmbedderReembeds(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	first, _ := wb.Stats(ctx)
	require.NoError(t, wb.Close())

	wb = openBolt(t, dir, WithEmbedder(hashEmbedder{}), WithConceptThreshold(0.5))
	defer wb.Close()
	rep, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 3, rep.Unchanged)
	st, _ := wb.Stats(ctx)
	assert.Equal(t, "test/hash-32", st.Embedder)
	assert.Equal(t, first.ContentNodes, st.ContentNodes)
	_, err = os.Stat(filepath.Join(dir, "vectors", "test_hash-32.vec"))
	assert.NoError(t, err, "vectors are stored per embedder")
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	for _, c := range g.ConceptNodes {
		assert.Equal(t, "c-"+model.ShortHash("test/hash-32", c.Seed), c.ID, "concepts were rebuilt with the new embedder")
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	src := openBolt(t, t.TempDir())
	_, err := src.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	g, err := src.ExportGraph(ctx, true)
	require.NoError(t, err)
	require.NoError(t, src.Close())
	var buf bytes.Buffer
	require.NoError(t, g.Encode(&buf))

	dst := openBolt(t, t.TempDir())
	defer dst.Close()
	g2, err := graphdb.DecodeGraphJSON(&buf)
	require.NoError(t, err)
	require.NoError(t, dst.ImportGraph(ctx, g2))
	back, err := dst.ExportGraph(ctx, false)
	require.NoError(t, err)
	assert.Equal(t, g.ContentNodes, back.ContentNodes)
	assert.Equal(t, g.ConceptNodes, back.ConceptNodes)
	assert.Equal(t, g.Edges, back.Edges)
	assert.ErrorContains(t, dst.ImportGraph(ctx, g2), "not empty")
}

// TestAFileReadByAnOlderReaderIsReadAgain: documents stored by a Loom whose
// reader of their format was older are read again on the next ingest,
// though their files did not change — so a better reader reaches the
// library it already holds — and once only.
func TestAFileReadByAnOlderReaderIsReadAgain(t *testing.T) {
	ctx := context.Background()
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	var markdown []model.Document
	for _, d := range g.Documents {
		assert.Equal(t, ingest.ReaderVersion(d.Format), d.Reader, d.Path)
		if d.Format == string(ingest.FormatMarkdown) {
			d.Reader = 0 // as a Loom with no reader versions wrote it
			markdown = append(markdown, d)
		}
	}
	require.NotEmpty(t, markdown)
	require.NoError(t, wb.Close())

	s, err := graphdb.OpenBolt(filepath.Join(dir, GraphDir), graphdb.BoltOptions{})
	require.NoError(t, err)
	_, err = s.Apply(ctx, graphdb.Write{TouchDocs: markdown})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	c, err := Doctor(ctx, dir)
	require.NoError(t, err)
	noted := false
	for _, f := range c.Findings {
		noted = noted || f.Status == StatusNote && strings.Contains(f.Detail, strconv.Itoa(len(markdown))+" documents (markdown) were read by an older reader")
	}
	assert.True(t, noted, "doctor says so: %+v", c.Findings)

	wb = openBolt(t, dir)
	defer wb.Close()
	rep, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, len(markdown), rep.Updated, "the Markdown notes are read again")
	assert.Equal(t, len(markdown), rep.Reread, "and the report says why")
	assert.Equal(t, len(g.Documents)-len(markdown), rep.Unchanged)
	g, err = wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	for _, d := range g.Documents {
		assert.Equal(t, ingest.ReaderVersion(d.Format), d.Reader, d.Path)
	}
	rep, err = wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, len(g.Documents), rep.Unchanged, "read again once")
}
