//go:build !js

package query

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/levels"
	"github.com/loomwork/loom/backend/library"
	"github.com/loomwork/loom/backend/workspace"
)

func clock() time.Time { return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC) }

// openPipeline opens the workspace in dir (the default embedder, a fixed
// clock) and returns its query pipeline; the workspace closes with the
// test.
func openPipeline(t *testing.T, dir string, opts ...workspace.Option) *Pipeline {
	t.Helper()
	ws, err := workspace.Open(context.Background(), dir, append([]workspace.Option{workspace.WithClock(clock)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return New(ws, levels.New(ws))
}

// ingestInto ingests the files under src into the workspace in dir and
// closes it.
func ingestInto(t *testing.T, dir string, src ...string) {
	t.Helper()
	ingestWith(t, dir, nil, src...)
}

// ingestWith is ingestInto with workspace options.
func ingestWith(t *testing.T, dir string, opts []workspace.Option, src ...string) {
	t.Helper()
	ws, err := workspace.Open(context.Background(), dir, append([]workspace.Option{workspace.WithClock(clock)}, opts...)...)
	require.NoError(t, err)
	rep, err := library.New(ws).Ingest(context.Background(), src, library.IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	require.NoError(t, ws.Close())
}

// testdataCopy copies the repository's folder testdata/<elem…> into a new
// temporary folder of the same name (references keep it) and returns its
// path: the ingest never writes beside the repository's files.
func testdataCopy(t *testing.T, elem ...string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), elem[len(elem)-1])
	require.NoError(t, os.CopyFS(dst, os.DirFS(filepath.Join(append([]string{"..", "..", "testdata"}, elem...)...))))
	return dst
}

// ingestedFixture is the pipeline of a workspace holding the test
// fixture's notes.
func ingestedFixture(t *testing.T) *Pipeline {
	t.Helper()
	notes := testdataCopy(t, "fixture", "notes")
	dir := t.TempDir()
	ingestInto(t, dir, notes)
	return openPipeline(t, dir)
}

// narrow is the offline embedder cut to its first dim dimensions (its table
// is in PCA order, so these are its principal ones): vectors of at most
// search.SketchMinDim dimensions, which the quantised scan serves.
type narrow struct {
	embed.Embedder
	dim int
}

func narrowOffline(t *testing.T, dim int) workspace.Option {
	t.Helper()
	e, err := offline.New()
	require.NoError(t, err)
	return workspace.WithEmbedder(narrow{e, dim})
}

func (n narrow) ID() string { return fmt.Sprintf("%s/first-%d", n.Embedder.ID(), n.dim) }
func (n narrow) Dim() int   { return n.dim }
func (n narrow) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := n.Embedder.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(vs))
	for i, v := range vs {
		w := append([]float32(nil), v[:n.dim]...)
		norm := 0.0
		for _, x := range w {
			norm += float64(x) * float64(x)
		}
		if norm > 0 {
			for j := range w {
				w[j] = float32(float64(w[j]) / math.Sqrt(norm))
			}
		}
		out[i] = w
	}
	return out, nil
}
