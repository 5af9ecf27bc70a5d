//go:build !js

package query

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/workspace"
)

// TestASentenceEncodersWorkspaceRanksWithTheEncoderSettings: a question in
// a workspace whose vectors a sentence encoder made is cut by the ranking's
// encoder block, one on the offline table by the top-level cut. The two
// workspaces hold the same vectors (the encoder here is the offline table
// under a model server's name), so only the settings differ: an encoder
// cut of 1 leaves the best candidate alone relevant.
func TestASentenceEncodersWorkspaceRanksWithTheEncoderSettings(t *testing.T) {
	table, err := offline.New()
	require.NoError(t, err)
	notes := testdataCopy(t, "fixture", "notes")
	relevant := func(opts ...workspace.Option) int {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, workspace.ConfigFile),
			[]byte(`{"ranking": {"relevance_cut": 0.3, "background_cut": 0, "encoder": {"keyword_weight": 0.85, "relevance_cut": 1}}}`), 0o644))
		ingestWith(t, dir, opts, notes)
		res, err := openPipeline(t, dir, opts...).Query(context.Background(), QueryRequest{Question: "How is the token budget split?", Budget: 4000, NoTouch: true})
		require.NoError(t, err)
		n := 0
		for _, c := range res.Candidates {
			if c.Relevant {
				n++
			}
		}
		return n
	}
	assert.Greater(t, relevant(), 1, "the offline table: the top-level cut")
	assert.Equal(t, 1, relevant(workspace.WithEmbedder(idEmbedder{table, "ollama/table-by-another-name"})), "a sentence encoder: the encoder's cut")
}
