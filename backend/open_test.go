//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/graphdb"
)

// Older Looms made the bolt file in place; a kill before it was filled
// left a workspace no command could open. An unfinished store in a
// workspace that holds nothing else is made again.
func TestAnUnfinishedGraphInAnEmptyWorkspaceIsMadeAgain(t *testing.T) {
	for name, make := range map[string]func(path string){
		"empty file": func(path string) { require.NoError(t, os.WriteFile(path, nil, 0o644)) },
		"bolt file without a graph": func(path string) {
			db, err := bolt.Open(path, 0o644, nil)
			require.NoError(t, err)
			require.NoError(t, db.Close())
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, GraphDir), 0o755))
			make(filepath.Join(dir, GraphDir, graphdb.BoltFile))
			wb := openBolt(t, dir)
			_, err := wb.Ingest(ctx, []string{copyFixture(t)}, IngestOptions{})
			require.NoError(t, err)
			require.NoError(t, wb.Close())
			wb = openBolt(t, dir)
			st, err := wb.Stats(ctx)
			require.NoError(t, err)
			assert.Equal(t, 3, st.Documents)
			require.NoError(t, wb.Close())
		})
	}
}

// A graph store that is missing, unfinished or damaged in a workspace that
// holds data is an error that names the file and the way out; nothing is
// replaced, so nothing is hidden.
func TestALostOrDamagedGraphBesideDataIsAnErrorWithAWayOut(t *testing.T) {
	ctx := context.Background()
	for name, damage := range map[string]func(gdir string){
		"missing": func(gdir string) { require.NoError(t, os.RemoveAll(gdir)) },
		"empty file": func(gdir string) {
			require.NoError(t, os.WriteFile(filepath.Join(gdir, graphdb.BoltFile), nil, 0o644))
		},
		"garbage": func(gdir string) {
			require.NoError(t, os.WriteFile(filepath.Join(gdir, graphdb.BoltFile), []byte("not a database at all, sorry"), 0o644))
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			wb := openBolt(t, dir)
			_, err := wb.Ingest(ctx, []string{copyFixture(t)}, IngestOptions{})
			require.NoError(t, err)
			require.NoError(t, wb.Close())
			gdir := filepath.Join(dir, GraphDir)
			damage(gdir)
			before := filesOf(t, dir)
			for _, opts := range [][]Option{nil, {ReadOnly()}, {ReadOnlyWhenBusy()}} {
				_, err = Open(ctx, dir, opts...)
				var de *DamagedError
				require.ErrorAs(t, err, &de)
				assert.Contains(t, err.Error(), gdir)
				assert.Contains(t, err.Error(), "loom doctor --workspace "+dir)
				assert.Contains(t, err.Error(), "loom repair --workspace "+dir)
			}
			assert.Equal(t, before, filesOf(t, dir), "nothing was replaced")
		})
	}
}

// A stored text that went missing or was changed on disk costs its node,
// not the question: the node is left out with the reason, the others load,
// and the damage is named.
func TestAMissingOrDamagedTextLeavesOneNodeOut(t *testing.T) {
	for name, spoil := range map[string]func(path string){
		"missing": func(path string) { require.NoError(t, os.Remove(path)) },
		"damaged": func(path string) { require.NoError(t, os.WriteFile(path, []byte("other words entirely"), 0o644)) },
	} {
		for _, dropCaches := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, caches dropped %v", name, dropCaches), func(t *testing.T) {
				ctx := context.Background()
				dir := t.TempDir()
				wb := openBolt(t, dir)
				_, err := wb.Ingest(ctx, []string{copyFixture(t)}, IngestOptions{})
				require.NoError(t, err)
				q := QueryRequest{Question: "How is the loadable budget calculated?", Budget: 2000, NoTouch: true}
				before, err := wb.Query(ctx, q)
				require.NoError(t, err)
				loaded := before.LoadedCandidates()
				require.GreaterOrEqual(t, len(loaded), 2)
				victim := loaded[0]
				hash := wb.ws.CurrentIndex().Nodes[victim.ID].ContentHash
				require.NoError(t, wb.Close())
				spoil(filepath.Join(dir, "content", hash[:2], hash))
				if dropCaches {
					os.Remove(filepath.Join(dir, "index.cache"))
					os.Remove(filepath.Join(dir, "search.cache"))
				}

				wb = openBolt(t, dir)
				defer wb.Close()
				res, err := wb.Query(ctx, q)
				require.NoError(t, err, "the question is answered without the node")
				require.NotEmpty(t, res.LoadedCandidates())
				var got *assemble.Candidate
				for _, c := range res.Candidates {
					if c.ID == victim.ID {
						got = c
					}
					if c.Loaded {
						assert.NotEqual(t, victim.ID, c.ID)
					}
				}
				require.NotNil(t, got, "the node is still a candidate")
				assert.Contains(t, got.Unavailable, hash)
				assert.Contains(t, got.Reason, "not loaded")
				require.Len(t, res.Warnings, 1)
				assert.Contains(t, res.Warnings[0], victim.ID)
				assert.Contains(t, res.Warnings[0], hash, "the warning names the text")
				assert.NotContains(t, res.Prompt, victim.ID, "the model is not told about it")
				_, err = wb.Node(ctx, victim.ID)
				var te *TextError
				require.ErrorAs(t, err, &te)
				assert.Equal(t, filepath.Join(dir, "content", hash[:2], hash), te.File)
			})
		}
	}
}
