//go:build !js

package backend

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/graphdb"
)

// TestOrgRoamNotesLinkAsOrgReadsThem: an Org-roam folder goes in with its
// links as graph edges — to a file, to a heading of a file, and by
// Org-roam's ids, to a note of the same run or one already stored, from a
// literature note to its source's entry (:ROAM_REFS:) — and with its tags
// and aliases; an id found nowhere makes no edge, and the
// keywords and drawers are not text.
func TestOrgRoamNotesLinkAsOrgReadsThem(t *testing.T) {
	ctx := context.Background()
	roam := filepath.Join(t.TempDir(), "roam")
	files := map[string]string{
		"index.org": ":PROPERTIES:\n:ID: idx-1\n:END:\n#+title: Reading list\n#+filetags: :reading:\n\n" +
			"Start with [[id:meth-2][the methods note]] and [[file:sub/results.org::*Effect sizes][the results]].\n" +
			"See [[https://example.org][a site]] and [[*Local][below]].\n* Local\nNothing else here.\n",
		"methods.org": ":PROPERTIES:\n:ID: meth-2\n:ROAM_ALIASES: \"Study design\"\n:ROAM_REFS: cite:cochran1977\n:END:\n#+title: Methods\n\n" +
			"We sampled 40 sites at random; see [[id:nowhere][a lost note]].\n",
		"refs.bib": "@book{cochran1977,\n  title = {Sampling Techniques},\n  year = {1977}\n}\n",
		"sub/results.org": "#+title: Results\n* Effect sizes\n:PROPERTIES:\n:ID: res-3\n:END:\n" +
			"The effect was small (d = 0.2), as [[id:meth-2][the design]] predicted.\n",
	}
	writeTree(t, roam, files)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	g := ingestedGraph(t, wb, roam)
	require.Len(t, g.Documents, 4)
	want := []string{"index.org -> methods.org", "index.org -> sub/results.org", "methods.org -> refs.bib#cochran1977", "sub/results.org -> methods.org"}
	assert.Equal(t, want, vaultLinks(g), "links by file, by heading and by id, and a literature note to its source; none to the lost note")
	for _, d := range g.Documents {
		switch d.Path {
		case "methods.org":
			assert.Equal(t, "Methods", d.Title)
			assert.Equal(t, []string{"Study design"}, d.Meta.Aliases)
			assert.Equal(t, []string{"meth-2"}, d.Meta.IDs)
		case "index.org":
			assert.Equal(t, []string{"reading"}, d.Meta.Tags)
		}
	}
	for _, n := range g.ContentNodes {
		d, err := wb.Node(ctx, n.ID)
		require.NoError(t, err)
		assert.NotContains(t, d.Text, ":PROPERTIES:", n.Ref)
		assert.NotContains(t, d.Text, "#+", n.Ref)
	}

	// The prompt writes an id link as its words: the id means nothing to
	// a model (the stored text keeps it for the edge).
	res, err := wb.Query(ctx, QueryRequest{Question: "Which note should I start with, the methods note or the results?", Budget: 2000})
	require.NoError(t, err)
	assert.Contains(t, res.Prompt, "Start with the methods note and [the results](sub/results.org#effect-sizes).")
	assert.NotContains(t, res.Prompt, "(id:")

	// A note changed and ingested alone still reaches the one it names by
	// id: the stored document's ids say where it is.
	require.NoError(t, os.WriteFile(filepath.Join(roam, "index.org"),
		[]byte("#+title: Reading list\n\nOnly [[id:res-3][the results]] now.\n"), 0o644))
	g = ingestedGraph(t, wb, filepath.Join(roam, "index.org"))
	assert.Equal(t, []string{"index.org -> sub/results.org", "methods.org -> refs.bib#cochran1977", "sub/results.org -> methods.org"}, vaultLinks(g))
}

// writeTree writes files (path below dir → text) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
}

// ingestedGraph ingests each of paths in turn (a run each, none with an error)
// and returns the graph as it then stands.
func ingestedGraph(t *testing.T, wb *Workbench, paths ...string) *graphdb.GraphJSON {
	t.Helper()
	ctx := context.Background()
	for _, p := range paths {
		rep, err := wb.Ingest(ctx, []string{p}, IngestOptions{})
		require.NoError(t, err)
		require.Empty(t, rep.Errors, p)
	}
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	return g
}
