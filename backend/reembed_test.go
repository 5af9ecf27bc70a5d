//go:build !js

package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/openai/openaitest"
)

// manySections writes a library of n sections, more than one batch of a
// re-embed.
func manySections(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lib")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for f := 0; f*20 < n; f++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# Note %d\n\n", f)
		for s := f * 20; s < min(n, (f+1)*20); s++ {
			fmt.Fprintf(&b, "## Section %d\n\nSection %d says how topic %d and topic %d shape the budget of note %d.\n\n", s, s, s%7, s%11, f)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%d.md", f)), []byte(b.String()), 0o644))
	}
	return dir
}

// lmStudio is the wiring of the CLI and the desktop app for a fake LM
// Studio at url.
func lmStudio(url string) func() (modelserver.Server, error) {
	return func() (modelserver.Server, error) {
		return NewModelServer(modelserver.Config{Provider: modelserver.OpenAI, URL: url}, modelserver.Options{})
	}
}

// A new workspace is embedded with the OpenAI-compatible server's
// embedding model, found in its model list; a workspace made with the
// offline embedder keeps it without asking the server.
func TestAutoEmbedsANewWorkspaceWithTheServersModelAndKeepsAnOldOnesEmbedder(t *testing.T) {
	ctx := context.Background()
	srv := openaitest.New(t, openaitest.LMStudio)
	wb, err := New(ctx, Config{Dir: t.TempDir(), Server: lmStudio(srv.URL)})
	require.NoError(t, err)
	_, err = wb.Ingest(ctx, []string{copyFixture(t)}, IngestOptions{})
	require.NoError(t, err)
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", st.Embedder)
	assert.Equal(t, 16, st.EmbedderDims)
	assert.NotEmpty(t, srv.Requests("/v1/embeddings"))

	dir := t.TempDir()
	wb, err = New(ctx, Config{Dir: dir, Embedder: "offline"})
	require.NoError(t, err)
	_, err = wb.Ingest(ctx, []string{copyFixture(t)}, IngestOptions{})
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	asked := len(srv.Requests())
	wb, err = New(ctx, Config{Dir: dir, Server: lmStudio(srv.URL)})
	require.NoError(t, err)
	defer wb.Close()
	_, err = wb.Ingest(ctx, []string{copyFixture(t)}, IngestOptions{})
	require.NoError(t, err)
	st, err = wb.Stats(ctx)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(st.Embedder, "offline/"), st.Embedder)
	assert.Contains(t, st.EmbedderChoice, "the workspace's vectors were made with it")
	assert.Equal(t, asked, len(srv.Requests()), "the server is not asked")
}

// A re-embed commits whole or not at all: cancelled after its first batch
// it leaves the workspace with its old embedder, after a reopen too; the
// vectors it made are kept, so the next re-embed sends only the rest.
func TestReembedIsWholeOrNothingAndReusesWhatItMade(t *testing.T) {
	ctx := context.Background()
	srv := openaitest.New(t, openaitest.LMStudio)
	dir := t.TempDir()
	c := Config{Dir: dir, Server: lmStudio(srv.URL)}
	offline := c
	offline.Embedder = "offline"
	wb, err := New(ctx, offline)
	require.NoError(t, err)
	_, err = wb.Ingest(ctx, []string{manySections(t, 150)}, IngestOptions{})
	require.NoError(t, err)
	before, err := wb.Stats(ctx)
	require.NoError(t, err)
	require.Greater(t, before.ContentNodes, 128)

	e, choice, err := c.OpenEmbedder(ctx, "text-embedding-nomic-embed-text-v1.5")
	require.NoError(t, err)
	stopCtx, stop := context.WithCancel(ctx)
	var seen []ReembedProgress
	_, err = wb.Reembed(stopCtx, e, choice, func(p ReembedProgress) {
		seen = append(seen, p)
		if p.Done > 0 {
			stop() // after the first batch
		}
	})
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	assert.Equal(t, errs.Canceled, errs.CodeOf(err))
	require.Len(t, seen, 2)
	assert.Equal(t, ReembedProgress{Done: 0, Total: before.ContentNodes, Elapsed: seen[0].Elapsed}, seen[0])
	assert.Equal(t, 64, seen[1].Done)
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Embedder, st.Embedder, "nothing committed")
	assert.Equal(t, before.EmbedderInUse, st.EmbedderInUse, "the session keeps its embedder")
	assert.Equal(t, before.ConceptNodes, st.ConceptNodes)
	res, err := wb.Query(ctx, QueryRequest{Question: "How does topic 3 shape the budget?", Budget: 600, NoTouch: true})
	require.NoError(t, err)
	assert.Equal(t, before.Embedder, res.Embedder, "questions still use the old vectors")
	assert.NotEmpty(t, res.Loaded)
	require.NoError(t, wb.Close())

	wb, err = New(ctx, c)
	require.NoError(t, err)
	defer wb.Close()
	wb.ChooseEmbedder(ctx)
	st, err = wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Embedder, st.Embedder)
	assert.Equal(t, before.Embedder, st.EmbedderInUse, "reopened, the workspace keeps the embedder of its vectors")

	e, choice, err = c.OpenEmbedder(ctx, "")
	require.NoError(t, err, "the server's embedding model, found in its list")
	rep, err := wb.Reembed(ctx, e, choice, nil)
	require.NoError(t, err)
	// The question cached a summary of what it loaded: a node more than
	// the ingest made, with no vector of the server's yet.
	assert.Equal(t, st.ContentNodes, rep.Nodes)
	assert.Equal(t, rep.Nodes-64, rep.Embedded, "the first batch's vectors were kept")
	assert.Equal(t, before.Embedder, rep.From)
	st, err = wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, "openai/text-embedding-nomic-embed-text-v1.5", st.Embedder)
	assert.Equal(t, st.Embedder, st.EmbedderInUse)
	assert.Equal(t, choice, st.EmbedderChoice)
	res, err = wb.Query(ctx, QueryRequest{Question: "How does topic 3 shape the budget?", Budget: 600, NoTouch: true})
	require.NoError(t, err)
	assert.Equal(t, st.Embedder, res.Embedder)
	assert.NotEmpty(t, res.Loaded)
}
