//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/library"
)

// countingEmbedder is hashEmbedder that records how many texts each call
// was given.
type countingEmbedder struct {
	hashEmbedder
	calls []int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls = append(c.calls, len(texts))
	return c.hashEmbedder.Embed(ctx, texts)
}

// A document with more sections than one embedding call takes reports its
// progress inside the file: sections embedded of those to embed, rising
// to the whole, then back to 0 for the next file; a short file embeds in
// one call and reports nothing inside it.
func TestIngestReportsEmbeddingInsideALongFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var long strings.Builder
	long.WriteString("# A long report\n\n")
	for i := range 100 {
		fmt.Fprintf(&long, "## Finding %d\n\nMeasurement %d of the reactor's coolant flow, taken at station %d, agrees with the model.\n\n", i, i, i*7)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a-long.md"), []byte(long.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b-short.md"), []byte("# Short\n\nOne section only.\n"), 0o644))

	e := &countingEmbedder{}
	wb, err := Open(ctx, t.TempDir(), WithEmbedder(e), WithClock(clock))
	require.NoError(t, err)
	defer wb.Close()
	var seen []Progress
	rep, err := wb.Ingest(ctx, []string{dir}, IngestOptions{Progress: func(p Progress) { seen = append(seen, p) }})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)

	var inside []Progress
	for _, p := range seen {
		if p.ToEmbed > 0 {
			inside = append(inside, p)
			assert.True(t, strings.HasSuffix(p.Current, "a-long.md"), "inside %s", p.Current)
		}
	}
	require.NotEmpty(t, inside, "no progress inside the long file")
	total := inside[0].ToEmbed
	assert.GreaterOrEqual(t, total, 100)
	assert.Equal(t, 0, inside[0].Embedded)
	assert.Equal(t, total, inside[len(inside)-1].Embedded)
	for i := 1; i < len(inside); i++ {
		assert.Greater(t, inside[i].Embedded, inside[i-1].Embedded, "progress rises")
		assert.Equal(t, total, inside[i].ToEmbed)
	}
	assert.Len(t, inside, 2+(total-1)/library.EmbedChunk, "a report before the first call and after each")
	for _, n := range e.calls {
		assert.LessOrEqual(t, n, library.EmbedChunk)
	}
	last := seen[len(seen)-1]
	assert.Zero(t, last.ToEmbed, "the last report is between files")
	assert.Equal(t, 2, rep.Added)
}
