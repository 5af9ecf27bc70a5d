package backend

// The browser edition's workspace test. Under GOOS=js (make test-wasm runs
// it under node, whose file system the program sees) the graph lives in
// Cayley's memstore saved to <ws>/graph.snapshot; natively the same test
// runs over bolt and over the snapshot store.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/embed/synthetic"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/graphdb"
)

var testEmb struct {
	once sync.Once
	e    embed.Embedder // nil without the table
	err  error
}

// tableEmbedder is the offline embedder read from its table file, as the
// browser edition will fetch it (the WebAssembly build does not embed the
// table); nil when scripts/embeddings.sh has not built it.
func tableEmbedder(t testing.TB) embed.Embedder {
	t.Helper()
	testEmb.once.Do(func() {
		path := filepath.Join("embed", "offline", "table", offline.TableFile)
		if _, err := os.Stat(path); err == nil {
			testEmb.e, testEmb.err = offline.FromFile(path)
		}
	})
	require.NoError(t, testEmb.err)
	return testEmb.e
}

// testEmbedder is the offline embedder from its table file, or the
// synthetic one when the table has not been fetched.
func testEmbedder(t testing.TB) embed.Embedder {
	if e := tableEmbedder(t); e != nil {
		return e
	}
	return synthetic.New()
}

// graphStores are the stores this build can keep a workspace's graph in.
func graphStores() []string {
	if graphdb.HasBolt {
		return []string{"bolt", "snapshot"}
	}
	return []string{"snapshot"}
}

// withGraphStore runs f with the Option that opens the named store.
func withGraphStore(t *testing.T, name string, f func(t *testing.T, store Option)) {
	t.Run(name, func(t *testing.T) {
		kind := storage.BoltGraph
		if name == "snapshot" {
			kind = storage.SnapshotGraph
		}
		f(t, WithGraphStore(kind))
	})
}

type queryAnswer struct {
	Prompt     string
	Loaded     []string
	Candidates []string
}

func answer(t *testing.T, wb *Workbench, q string) queryAnswer {
	t.Helper()
	res, err := wb.Query(context.Background(), QueryRequest{Question: q, Budget: 600, NoTouch: true})
	require.NoError(t, err)
	a := queryAnswer{Prompt: res.Prompt, Loaded: loadedRefs(res)}
	for _, c := range res.Candidates {
		a.Candidates = append(a.Candidates, fmt.Sprintf("%s %v %.6f", c.Ref, c.Loaded, c.Score))
	}
	return a
}

func TestWasmWorkspaceSurvivesReopen(t *testing.T) {
	for _, store := range graphStores() {
		withGraphStore(t, store, func(t *testing.T, storeOpt Option) {
			ctx := context.Background()
			start := time.Now()
			lap := func(what string) { // go test -v shows where the time goes
				t.Logf("%-28s %v", what, time.Since(start).Round(time.Millisecond))
				start = time.Now()
			}
			e := testEmbedder(t)
			lap("embedder")
			notes := copyFixture(t)
			dir := t.TempDir()
			now := fixedNow
			open := func() *Workbench {
				t.Helper()
				wb, err := Open(ctx, dir, WithEmbedder(e), WithClock(func() time.Time { return now }), storeOpt)
				require.NoError(t, err)
				return wb
			}
			const question = "How is the loadable token budget calculated from the window?"

			wb := open()
			rep, err := wb.Ingest(ctx, []string{filepath.Join(notes, "budget.md"), filepath.Join(notes, "graphs.md")}, IngestOptions{})
			require.NoError(t, err)
			require.Empty(t, rep.Errors)
			require.Equal(t, 2, rep.Added)
			lap("open + ingest 2 files")
			stats, err := wb.Stats(ctx)
			require.NoError(t, err)
			wantBackend := "bolt"
			if store == "snapshot" {
				wantBackend = "memory"
			}
			assert.Equal(t, wantBackend, stats.Backend)
			docs, err := wb.Documents(ctx)
			require.NoError(t, err)
			graph, err := wb.ExportGraph(ctx, false)
			require.NoError(t, err)
			before := answer(t, wb, question)
			require.NotEmpty(t, before.Loaded)
			lap("stats, documents, query")

			// The workspace is held while open.
			_, err = Open(ctx, dir, WithEmbedder(e), storeOpt)
			assert.Error(t, err, "a second open of an open workspace")
			require.NoError(t, wb.Close())
			lap("close")

			if store == "snapshot" {
				_, err := os.Stat(filepath.Join(dir, SnapshotFile))
				require.NoError(t, err, "the graph is in %s", SnapshotFile)
				_, err = os.Stat(filepath.Join(dir, "graph"))
				assert.ErrorIs(t, err, os.ErrNotExist, "no bolt store")
			}

			// Reopened: the same documents, graph and answer.
			wb = open()
			got, err := wb.Stats(ctx)
			require.NoError(t, err)
			stats.EmbedderInUse, stats.EmbedderDims = "", 0 // this session's, chosen on first need
			assert.Equal(t, stats, got)
			gotDocs, err := wb.Documents(ctx)
			require.NoError(t, err)
			assert.Equal(t, docs, gotDocs)
			gotGraph, err := wb.ExportGraph(ctx, false)
			require.NoError(t, err)
			assert.Equal(t, graph, gotGraph)
			assert.Equal(t, before, answer(t, wb, question))
			lap("reopen, same answer")

			// A query's access times are written on Close and survive it;
			// so does a removal.
			now = fixedNow.Add(time.Hour)
			res, err := wb.Query(ctx, QueryRequest{Question: question, Budget: 600})
			require.NoError(t, err)
			touched := res.LoadedCandidates()[0].Ref
			require.NoError(t, wb.Close())
			wb = open()
			g, err := wb.ExportGraph(ctx, false)
			require.NoError(t, err)
			found := false
			for _, n := range g.ContentNodes {
				if n.Ref == touched {
					found = true
					assert.Equal(t, now, n.LastAccess.UTC(), "%s was touched", n.Ref)
				}
			}
			assert.True(t, found)
			require.NoError(t, wb.RemoveDocuments(ctx, []string{docs[0].ID}))
			require.NoError(t, wb.Close())
			wb = open()
			st, err := wb.Stats(ctx)
			require.NoError(t, err)
			assert.Equal(t, 1, st.Documents)
			assert.Greater(t, st.Generation, stats.Generation)
			require.NoError(t, wb.Close())
			lap("touch, remove, reopens")
		})
	}
}

func TestWasmCorruptSnapshotIsAnError(t *testing.T) {
	withGraphStore(t, "snapshot", func(t *testing.T, storeOpt Option) {
		ctx := context.Background()
		notes := copyFixture(t)
		dir := t.TempDir()
		wb, err := Open(ctx, dir, WithEmbedder(testEmbedder(t)), WithClock(clock), storeOpt)
		require.NoError(t, err)
		_, err = wb.Ingest(ctx, []string{filepath.Join(notes, "budget.md")}, IngestOptions{})
		require.NoError(t, err)
		require.NoError(t, wb.Close())

		path := filepath.Join(dir, SnapshotFile)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b[:len(b)-10], 0o644))
		_, err = Open(ctx, dir, WithEmbedder(testEmbedder(t)), storeOpt)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path)
		assert.Contains(t, err.Error(), "truncated or corrupt")
		var damaged *DamagedError
		assert.ErrorAs(t, err, &damaged, "a damaged snapshot is a DamagedError, as a damaged bolt store is")
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, b[:len(b)-10], after, "the corrupt file is left as it was")
	})
}
