//go:build !js

package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gatedEmbedder is hashEmbedder that, given a text with the word "gated",
// says so on entered (once) and waits for release, or for its context to
// end; every text it embeds is counted.
type gatedEmbedder struct {
	hashEmbedder
	id               string // "" is hashEmbedder's
	entered, release chan struct{}
	once             sync.Once
	mu               sync.Mutex
	texts            map[string]int
}

func newGatedEmbedder() *gatedEmbedder {
	return &gatedEmbedder{entered: make(chan struct{}), release: make(chan struct{}), texts: map[string]int{}}
}

func (g *gatedEmbedder) ID() string {
	if g.id != "" {
		return g.id
	}
	return g.hashEmbedder.ID()
}

func (g *gatedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	g.mu.Lock()
	for _, t := range texts {
		g.texts[t]++
	}
	g.mu.Unlock()
	for _, t := range texts {
		if strings.Contains(t, "gated") {
			g.once.Do(func() { close(g.entered) })
			select {
			case <-g.release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			break
		}
	}
	return g.hashEmbedder.Embed(ctx, texts)
}

// hangGuard bounds a wait that must not block at all: it fails the test
// instead of letting it hang until go test's own timeout. Passing never
// depends on it.
const hangGuard = 2 * time.Minute

// cancelAtTheGate ingests paths, cancels the ingest once the gated
// embedder holds a text, and returns its report (which says it was
// cancelled).
func cancelAtTheGate(t *testing.T, wb *Workbench, g *gatedEmbedder, paths []string, opts IngestOptions) *IngestReport {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan *IngestReport, 1)
	go func() {
		rep, err := wb.Ingest(ctx, paths, opts)
		assert.NoError(t, err)
		done <- rep
	}()
	<-g.entered
	cancel()
	rep := <-done
	require.NotNil(t, rep)
	assert.True(t, rep.Canceled)
	return rep
}

// answeredMeanwhile asks a question while the workbench's embedder is
// held, and fails if the question waits for it.
func answeredMeanwhile(t *testing.T, wb *Workbench, question string) *QueryResult {
	t.Helper()
	answered := make(chan *QueryResult, 1)
	go func() {
		res, err := wb.Query(context.Background(), QueryRequest{Question: question, Budget: 500, NoTouch: true})
		assert.NoError(t, err)
		answered <- res
	}()
	select {
	case res := <-answered:
		require.NotNil(t, res)
		return res
	case <-time.After(hangGuard):
		t.Fatal("the question waited for the embedder")
		return nil
	}
}

// While an ingest embeds its files, questions go on: they are answered
// from the library as it was, and the new files appear once the ingest
// has written them. Each section is embedded once: the second stage finds
// the first's vectors.
func TestQuestionsGoOnWhileAnIngestEmbeds(t *testing.T) {
	ctx := context.Background()
	g := newGatedEmbedder()
	wb := openBolt(t, t.TempDir(), WithEmbedder(g))
	defer wb.Close()
	first := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(first, "tides.md"), []byte("# Tides\n\nThe moon's pull raises the tides twice a day.\n"), 0o644))
	_, err := wb.Ingest(ctx, []string{first}, IngestOptions{})
	require.NoError(t, err)

	more := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(more, "glaciers.md"), []byte("# Glaciers\n\nA glacier is gated by the valley it carves, moving metres a year.\n\n## Calving\n\nIce breaks off where a glacier meets the sea.\n"), 0o644))
	var stages []string
	done := make(chan *IngestReport, 1)
	go func() {
		rep, err := wb.Ingest(ctx, []string{more}, IngestOptions{Progress: func(p Progress) {
			if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
				stages = append(stages, p.Stage)
			}
		}})
		assert.NoError(t, err)
		done <- rep
	}()
	<-g.entered // the ingest is embedding glaciers.md, and waits

	res := answeredMeanwhile(t, wb, "What raises the tides?")
	assert.Contains(t, res.Prompt, "moon's pull", "answered from the library as it was")
	assert.NotContains(t, res.Prompt, "glacier", "the new file is not there yet")
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Documents, "the library is as it was while the ingest embeds")

	close(g.release)
	rep := <-done
	require.NotNil(t, rep)
	assert.Equal(t, 1, rep.Added)
	assert.Equal(t, []string{StageEmbedding, StageWriting}, stages)
	res, err = wb.Query(ctx, QueryRequest{Question: "Where does glacier ice break off?", Budget: 500, NoTouch: true})
	require.NoError(t, err)
	assert.Contains(t, res.Prompt, "meets the sea")
	for text, n := range g.texts {
		assert.Equal(t, 1, n, "embedded once: %q", text)
	}
}

// Cancelling an ingest while it embeds keeps the files already embedded
// (written to the library, as a cancel keeps what was done) and leaves the
// rest out; nothing is half-written.
func TestCancellingAnIngestWhileItEmbedsKeepsWhatWasEmbedded(t *testing.T) {
	g := newGatedEmbedder()
	wb := openBolt(t, t.TempDir(), WithEmbedder(g))
	defer wb.Close()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a-first.md"), []byte("# First\n\nEmbedded before the cancel.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b-second.md"), []byte("# Second\n\nThe gated one, embedding when the cancel comes.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c-third.md"), []byte("# Third\n\nNever reached.\n"), 0o644))
	rep := cancelAtTheGate(t, wb, g, []string{dir}, IngestOptions{})
	assert.Equal(t, 1, rep.Added)
	docs, err := wb.Documents(context.Background())
	require.NoError(t, err)
	var paths []string
	for _, d := range docs {
		paths = append(paths, d.Path)
	}
	assert.Equal(t, []string{"a-first.md"}, paths)

	// The next ingest adds the rest, and embeds only what is new.
	close(g.release)
	before := len(g.texts)
	rep2, err := wb.Ingest(context.Background(), []string{dir}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, rep2.Added)
	assert.Equal(t, 1, rep2.Unchanged)
	assert.Equal(t, before+1, len(g.texts), "c-third.md's one section is new; b-second.md's was kept")
}

// A re-embed works the same way: while the new embedder embeds every
// section, questions are answered with the old vectors; the switch is
// made at the end, whole.
func TestQuestionsGoOnWhileTheWorkspaceIsReembedded(t *testing.T) {
	ctx := context.Background()
	wb := openBolt(t, t.TempDir(), WithEmbedder(hashEmbedder{}))
	defer wb.Close()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tides.md"), []byte("# Tides\n\nThe moon's pull raises the tides twice a day.\n\n## Neap tides\n\nWhen sun and moon pull at right angles the tides are gated low.\n"), 0o644))
	_, err := wb.Ingest(ctx, []string{dir}, IngestOptions{})
	require.NoError(t, err)

	g := newGatedEmbedder()
	g.id = "test/gated-32"
	var seen []ReembedProgress
	done := make(chan *ReembedReport, 1)
	go func() {
		rep, err := wb.Reembed(ctx, g, "chosen by the test", func(p ReembedProgress) { seen = append(seen, p) })
		assert.NoError(t, err)
		done <- rep
	}()
	<-g.entered

	res := answeredMeanwhile(t, wb, "What raises the tides?")
	assert.Equal(t, "test/hash-32", res.Embedder, "the old vectors, until the re-embed is done")
	assert.Contains(t, res.Prompt, "moon's pull")

	close(g.release)
	rep := <-done
	require.NotNil(t, rep)
	assert.Equal(t, "test/gated-32", rep.To)
	assert.Equal(t, rep.Nodes, rep.Embedded, "every section embedded (by the first stage)")
	require.NotEmpty(t, seen)
	assert.Equal(t, rep.Nodes, seen[len(seen)-1].Done)
	res, err = wb.Query(ctx, QueryRequest{Question: "What raises the tides?", Budget: 500, NoTouch: true})
	require.NoError(t, err)
	assert.Equal(t, "test/gated-32", res.Embedder)
	for text, n := range g.texts {
		if !strings.Contains(text, "raises the tides?") { // the questions are embedded each time
			assert.Equal(t, 1, n, "embedded once: %q", text)
		}
	}
}
