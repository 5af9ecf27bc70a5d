package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/clusters"
	"github.com/loomwork/loom/backend/errs"
)

// twoSubjectLibrary copies two unrelated corpora into one folder: the
// seven Distill articles (machine learning) and the sample library's
// notes (retrieval and context windows), with the fixture notes.
func twoSubjectLibrary(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for name, src := range map[string]string{
		"distill": filepath.Join("..", "testdata", "eval", "distill", "docs"),
		"notes":   filepath.Join("sample", "notes"),
		"fixture": filepath.Join("..", "testdata", "fixture", "notes"),
	} {
		require.NoError(t, os.CopyFS(filepath.Join(dst, name), os.DirFS(src)))
	}
	return dst
}

// clustered ingests twoSubjectLibrary into a bolt workspace in dir.
func clustered(t *testing.T, dir string) *Workbench {
	t.Helper()
	wb := openBolt(t, dir)
	rep, err := wb.Ingest(context.Background(), []string{twoSubjectLibrary(t)}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	return wb
}

func TestGraphPutsEveryNodeInAClusterThatExists(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	wb := clustered(t, dir)
	g, err := wb.Graph(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(g.Clusters), 3, "a library of several subjects has several clusters")

	byID := map[string]*GraphCluster{}
	names := map[string]bool{}
	for i := range g.Clusters {
		c := &g.Clusters[i]
		require.Nil(t, byID[c.ID], "cluster ids are unique")
		byID[c.ID] = c
		assert.False(t, names[c.Name], "two clusters are named %q", c.Name)
		names[c.Name] = true
		assert.True(t, strings.HasPrefix(c.ID, "c:"))
		assert.GreaterOrEqual(t, c.Colour, 0)
		assert.Less(t, c.Colour, clusters.PaletteSize)
		assert.NotEmpty(t, c.Top)
		assert.LessOrEqual(t, len(c.Top), 5)
		if i > 0 && c.ID != clusters.OtherID && g.Clusters[i-1].ID != clusters.OtherID {
			assert.GreaterOrEqual(t, g.Clusters[i-1].Sections, c.Sections, "largest first")
		}
	}
	nodes := map[string]GraphNode{}
	concepts, sections := map[string]int{}, map[string]int{}
	for _, n := range g.Nodes {
		nodes[n.ID] = n
		require.NotEmpty(t, n.Cluster, "node %s (%s) has a cluster", n.ID, n.Label)
		require.NotNil(t, byID[n.Cluster], "node %s is in cluster %s, which exists", n.ID, n.Cluster)
		if n.Kind == "concept" {
			concepts[n.Cluster]++
		} else {
			sections[n.Cluster]++
		}
	}
	docs := 0
	for _, c := range g.Clusters {
		assert.Equal(t, c.Concepts, concepts[c.ID], "%s counts its concepts", c.ID)
		assert.Equal(t, c.Sections, sections[c.ID], "%s counts its sections", c.ID)
		docs += c.Documents
		if c.ID != clusters.OtherID {
			central := strings.TrimPrefix(c.ID, "c:")
			assert.Equal(t, c.ID, nodes[central].Cluster, "the concept %s names its own cluster", central)
			assert.Equal(t, central, c.Top[0])
		}
		for _, id := range c.Top {
			assert.Equal(t, c.ID, nodes[id].Cluster, "top concept %s is the cluster's", id)
		}
	}
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, st.Documents, docs, "every document is in one cluster")

	// Links join two different clusters, strongest first, and add up to
	// the edges between clusters.
	require.NotEmpty(t, g.ClusterLinks)
	crossing := 0
	for _, e := range g.Edges {
		from, okFrom := nodes[e.Source]
		to, okTo := nodes[e.Target]
		if okFrom && okTo && from.Cluster != to.Cluster { // (a link may name a document that is not there)
			crossing++
		}
	}
	linked := 0
	for i, l := range g.ClusterLinks {
		assert.NotEqual(t, l.Source, l.Target)
		assert.NotNil(t, byID[l.Source])
		assert.NotNil(t, byID[l.Target])
		assert.Positive(t, l.Edges)
		if i > 0 {
			assert.GreaterOrEqual(t, g.ClusterLinks[i-1].Weight, l.Weight)
		}
		linked += l.Edges
	}
	assert.Equal(t, crossing, linked)

	// The two subjects stay apart: the Distill articles are not in the
	// cluster of the notes on retrieval.
	docCluster := func(path string) string {
		for _, d := range mustDocuments(t, wb) {
			if d.Path == path || strings.HasSuffix(d.Path, "/"+path) {
				for _, n := range g.Nodes {
					if n.Document == d.ID {
						return n.Cluster
					}
				}
			}
		}
		t.Fatalf("no document %s", path)
		return ""
	}
	assert.NotEqual(t, docCluster("momentum.html"), docCluster("hybrid-retrieval.md"))
	assert.NotEqual(t, docCluster("gnn-intro.html"), docCluster("embeddings.md"))

	// The same workspace, opened again (its index from index.cache), has
	// the same clusters.
	require.NoError(t, wb.Close())
	wb = openBolt(t, dir)
	defer wb.Close()
	again, err := wb.Graph(ctx)
	require.NoError(t, err)
	assert.Equal(t, g.Clusters, again.Clusters)
	assert.Equal(t, g.ClusterLinks, again.ClusterLinks)
	assert.Equal(t, g.Nodes, again.Nodes)
}

func mustDocuments(t *testing.T, wb *Workbench) []DocumentInfo {
	t.Helper()
	ds, err := wb.Documents(context.Background())
	require.NoError(t, err)
	return ds
}

func TestClustersAreKeptUntilTheLibraryChanges(t *testing.T) {
	ctx := context.Background()
	wb := clustered(t, t.TempDir())
	defer wb.Close()
	wb.ws.Lock()
	first, err := wb.ws.Clusters(ctx)
	gen := wb.ws.Meta().Generation
	wb.ws.Unlock()
	require.NoError(t, err)

	// A write that changes no cluster's input (a pin) moves the
	// generation on and keeps the clusters.
	g, err := wb.Graph(ctx)
	require.NoError(t, err)
	require.NoError(t, wb.Pin(ctx, []string{g.Nodes[len(g.Nodes)-1].ID}, true))
	wb.ws.Lock()
	kept, err := wb.ws.Clusters(ctx)
	moved := wb.ws.Meta().Generation
	wb.ws.Unlock()
	require.NoError(t, err)
	assert.Greater(t, moved, gen)
	assert.Same(t, first, kept)

	// An ingest makes them again, and the new sections have clusters.
	extra := filepath.Join(t.TempDir(), "extra")
	require.NoError(t, os.MkdirAll(extra, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(extra, "knitting.md"), []byte("# Knitting\n\n## Cables\n\nCable stitches cross two groups of stitches over each other.\n\n## Lace\n\nLace knitting makes holes with yarn overs and decreases.\n"), 0o644))
	_, err = wb.Ingest(ctx, []string{extra}, IngestOptions{})
	require.NoError(t, err)
	wb.ws.Lock()
	remade, err := wb.ws.Clusters(ctx)
	wb.ws.Unlock()
	require.NoError(t, err)
	assert.NotSame(t, first, remade)
	// The clusters that continue keep their ids: a question scoped to one
	// before the ingest still finds it.
	for _, c := range first.Clusters {
		assert.GreaterOrEqual(t, remade.Find(c.ID), 0, "cluster %s (%s) kept its id", c.ID, c.Name)
	}
	g, err = wb.Graph(ctx)
	require.NoError(t, err)
	for _, n := range g.Nodes {
		assert.NotEmpty(t, n.Cluster, "node %s", n.ID)
	}
}

func TestAQuestionScopedToAClusterLoadsOnlyItsSections(t *testing.T) {
	ctx := context.Background()
	wb := clustered(t, t.TempDir())
	defer wb.Close()
	g, err := wb.Graph(ctx)
	require.NoError(t, err)
	clusterOf := map[string]string{}
	for _, n := range g.Nodes {
		clusterOf[n.ID] = n.Cluster
	}
	// The cluster of the Distill article on momentum, asked about
	// something every subject here mentions.
	var target string
	for _, d := range mustDocuments(t, wb) {
		if d.Path == "distill/momentum.html" {
			for _, n := range g.Nodes {
				if n.Document == d.ID {
					target = n.Cluster
				}
			}
		}
	}
	require.NotEmpty(t, target)
	question := "how do the weights change from one step to the next?"
	all, err := wb.Query(ctx, QueryRequest{Question: question, Budget: 3000, NoTouch: true})
	require.NoError(t, err)
	outside := 0
	for _, c := range all.Candidates {
		if clusterOf[c.ID] != target {
			outside++
		}
	}
	require.Positive(t, outside, "unscoped, the question finds sections of other clusters")

	res, err := wb.Query(ctx, QueryRequest{Question: question, Budget: 3000, NoTouch: true, Scope: "cluster:" + target})
	require.NoError(t, err)
	require.NotEmpty(t, res.LoadedCandidates())
	for _, c := range res.Candidates {
		assert.Equal(t, target, clusterOf[c.ID], "candidate %s (%s) is in the cluster", c.ID, c.Ref)
	}

	// search_context takes the same scope, in every mode.
	for _, mode := range []string{"", "keyword", "semantic", "regex"} {
		q := question
		if mode == "regex" {
			q = "(?i)step"
		}
		r, err := wb.SearchContext(ctx, q, "cluster:"+target, 10, mode)
		require.NoError(t, err, mode)
		require.NotEmpty(t, r.NodeIDs, mode)
		for _, id := range r.NodeIDs {
			assert.Equal(t, target, clusterOf[id], "%s: %s is in the cluster", mode, id)
		}
	}

	// The catalog tool tells the model which scopes there are.
	cat, err := wb.Tools().Catalog(ctx)
	require.NoError(t, err)
	assert.Contains(t, cat.Text, "cluster:"+g.Clusters[0].ID)

	// A cluster that is not there is an error that says so.
	_, err = wb.Query(ctx, QueryRequest{Question: question, Budget: 3000, Scope: "cluster:c:c-nothere"})
	require.Error(t, err)
	assert.Equal(t, errs.NotFound, errs.CodeOf(err))
	assert.Contains(t, err.Error(), `no cluster "c:c-nothere"`)
	_, err = wb.SearchContext(ctx, question, "cluster:c:c-nothere", 5, "")
	assert.Equal(t, errs.NotFound, errs.CodeOf(err))
}
