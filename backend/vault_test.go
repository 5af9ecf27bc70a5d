//go:build !js

package backend

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
	"github.com/loomwork/loom/graphdb"
	"github.com/loomwork/loom/internal/golden"
)

// copyVault copies the Obsidian test vault (backend/ingest/testdata/vault)
// into a folder named "vault", its collection.
func copyVault(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "vault")
	require.NoError(t, os.CopyFS(dst, os.DirFS(filepath.Join("ingest", "testdata", "vault"))))
	return dst
}

// vaultLinks are the links edges of g between documents, "from -> to" by
// path, each pair once, sorted; a target not ingested is "? <id>".
func vaultLinks(g *graphdb.GraphJSON) []string {
	path := map[string]string{}
	for _, d := range g.Documents {
		path[d.ID] = d.Path
	}
	docOf := map[string]string{}
	for _, n := range g.ContentNodes {
		docOf[n.ID] = n.DocID
	}
	var out []string
	for _, e := range g.Edges {
		if e.Kind != model.EdgeLinks {
			continue
		}
		to, ok := path[e.To]
		if !ok {
			to = "? " + e.To
		}
		out = append(out, path[docOf[e.From]]+" -> "+to)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestVaultIngestsAsObsidianReadsIt(t *testing.T) {
	ctx := context.Background()
	vault := copyVault(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	rep, err := wb.Ingest(ctx, []string{vault}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	t.Logf("ingested %d files, %d nodes in %v", rep.Files, rep.Nodes, rep.Duration)
	assert.Equal(t, 19, rep.Added, "18 notes and a text file; .obsidian and the image left out")
	assert.Equal(t, 1, rep.Hidden)

	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	links := vaultLinks(g)
	edges := 0
	for _, e := range g.Edges {
		if e.Kind == model.EdgeLinks {
			edges++
		}
	}
	t.Logf("%d links edges between %d pairs of documents", edges, len(links))
	golden.Equal(t, filepath.Join("..", "testdata", "golden", "vault-links.golden"), []byte(strings.Join(links, "\n")+"\n"))

	t.Run("links edges, exactly", func(t *testing.T) {
		has := func(from, to string) bool { return slices.Contains(links, from+" -> "+to) }
		missing := func(p string) string { return "? " + model.DocumentID("vault", p) }
		for _, want := range [][2]string{
			{"Home.md", "Projects/Alpha/Plan.md"},                         // [[folder/Note]]
			{"Home.md", "Glossary.md"},                                    // [[Note|alias]]
			{"Home.md", "Archive/Meeting notes.md"},                       // shared name: nearest the root
			{"Projects/Alpha/Plan.md", "Projects/Alpha/Meeting notes.md"}, // shared name: beside it
			{"Home.md", "Concepts/Graph theory.md"},                       // [[path#Heading|alias]]
			{"Home.md", "People/Ada Lovelace.md"},                         // [[ada lovelace]], any case
			{"Concepts/Budget.md", "Concepts/Graph theory.md"},            // [[Note#^block]]
			{"Concepts/Budget.md", "Glossary.md"},                         // [x](../Glossary.md)
			{"Concepts/Budget.md", "Home.md"},                             // [x](<../Home.md>)
			{"Concepts/Embeddings.md", "Concepts/Budget.md"},              // ![[Note]], [[Note.md]]
			{"Projects/Alpha/Plan.md", "Projects/Alpha/Spec Draft.md"},    // [x](Spec%20Draft.md)
			{"Projects/Alpha/Spec Draft.md", "Projects/Beta/Overview.md"}, // [[../Beta/Overview]]
			{"Daily/2024-01-15.md", "Projects/Alpha/Plan.md"},             // [[path.md#Heading|alias]]
			{"People/Grace Hopper.md", "People/Ada Lovelace.md"},          // ![[path#Heading]]
			{"People/Ada Lovelace.md", "Glossary.md"},                     // [[Note\|alias]] in a table
			{"Reading/Papers/Attention.md", "Reading/notes.txt"},          // a text file by name
			{"Concepts/Graph theory.md", "Concepts/Release 1.2.md"},       // a name that ends like an extension
			{"Home.md", missing("Missing note.md")},                       // not written yet: at the root
			{"Glossary.md", missing("Missing note.md")},
			{"Inbox/Untitled.md", missing("Nonexistent/Deep Note.md")},
			{"Inbox/Untitled.md", missing("Inbox/Old Idea.md")}, // [x](Old%20Idea.md)
			{"Inbox/Quick capture.md", missing("Version 2.0 notes.md")},
		} {
			assert.True(t, has(want[0], want[1]), "%s -> %s", want[0], want[1])
		}
		for _, l := range links {
			from, to, _ := strings.Cut(l, " -> ")
			assert.NotEqual(t, from, to, "no note links to itself ([[#Heading]], [[Own name]])")
		}
		assert.False(t, has("Home.md", "Projects/Alpha/Meeting notes.md"), "the nearest-root twin, not both")
		assert.False(t, has("Archive/Meeting notes.md", "Projects/Alpha/Meeting notes.md"), "[[Meeting notes]] in Archive is itself")
		for _, l := range links {
			for _, never := range []string{"diagram.png", "figure.svg", "Not a link", "Fenced link", "Indented code link", "Daily template"} {
				assert.NotContains(t, l, never)
			}
			assert.NotContains(t, l, model.DocumentID("vault", "Not a link.md"), "a link in a code span makes no edge")
			assert.NotContains(t, l, model.DocumentID("vault", "Fenced link.md"), "nor one in a fence")
		}
	})

	t.Run("titles and what notes say of themselves", func(t *testing.T) {
		docs := map[string]model.Document{}
		for _, d := range g.Documents {
			docs[d.Path] = d
		}
		assert.Equal(t, "Vault home", docs["Home.md"].Title)
		assert.Equal(t, "Glossary of terms", docs["Glossary.md"].Title)
		assert.Equal(t, "Graph theory", docs["Concepts/Graph theory.md"].Title)
		assert.Equal(t, []string{"Start page", "Index of everything"}, docs["Home.md"].Meta.Aliases, "kept with the document")
		assert.Equal(t, []string{"paper", "Reading/ML"}, docs["Reading/Papers/Attention.md"].Meta.Tags)
	})

	// Each word below is said only in a note's front matter (no node's
	// text holds it): a keyword search for it finds that note's first node,
	// and nothing else.
	searches := map[string]string{
		"Vocabulary": "Glossary.md",                 // an alias, from a comma-separated string
		"launch":     "Projects/Alpha/Plan.md",      // alias: one string
		"everything": "Home.md",                     // an alias from a list
		"countess":   "People/Ada Lovelace.md",      // an alias from a flow list
		"paper":      "Reading/Papers/Attention.md", // a tag
		"ML":         "Reading/Papers/Attention.md", // a nested tag's part
		"context":    "Concepts/Budget.md",          // a TOML alias
		"token":      "Concepts/Budget.md",          // a TOML title
	}
	for _, n := range g.ContentNodes {
		text, err := wb.Content(n.ContentHash)
		require.NoError(t, err)
		terms := search.Terms(strings.Join(n.HeadingPath, "\n") + "\n" + text)
		for q := range searches {
			require.NotContains(t, terms, search.Terms(q)[0], "%q is in %s's text: the search would prove nothing", q, n.Ref)
		}
	}
	ask := func(t *testing.T, wb *Workbench) {
		for q, want := range searches {
			res, err := wb.Query(ctx, QueryRequest{Question: q, Budget: 4000, Strategy: "bm25", NoTouch: true})
			require.NoError(t, err, q)
			var hits []string
			for _, c := range res.Candidates {
				if c.Keyword > 0 {
					hits = append(hits, c.Ref)
				}
			}
			require.Len(t, hits, 1, "%q finds one node: %v", q, hits)
			assert.True(t, strings.HasPrefix(hits[0], want), "%q finds %s, not %s", q, want, hits[0])
		}
	}
	t.Run("aliases, tags and titles are searchable", func(t *testing.T) { ask(t, wb) })

	t.Run("and stay so when the keyword index is rebuilt", func(t *testing.T) {
		cache := wb.ws.SearchCachePath()
		require.NoError(t, wb.Close())
		require.NoError(t, os.Remove(cache))
		wb = openBolt(t, dir)
		ask(t, wb)
	})
	require.NoError(t, wb.Close())
}

// The resolver sees the whole run: a note links by name to one that comes
// after it in the walk. And a link to a note not written yet is an edge to
// the document it would be at the root, so ingesting that note later
// connects it.
func TestVaultLinksReachNotesIngestedLater(t *testing.T) {
	ctx := context.Background()
	vault := copyVault(t)
	later := filepath.Join(t.TempDir(), "later.md")
	require.NoError(t, os.Rename(filepath.Join(vault, "Glossary.md"), later))
	wb := openBolt(t, "", InMemory())
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{vault}, IngestOptions{})
	require.NoError(t, err)
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	links := vaultLinks(g)
	assert.Contains(t, links, "Home.md -> People/Grace Hopper.md", "People/ comes after Home.md in the walk")
	assert.Contains(t, links, "Home.md -> ? "+model.DocumentID("vault", "Glossary.md"))

	require.NoError(t, os.Rename(later, filepath.Join(vault, "Glossary.md")))
	_, err = wb.Ingest(ctx, []string{vault}, IngestOptions{})
	require.NoError(t, err)
	g, err = wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	assert.Contains(t, vaultLinks(g), "Home.md -> Glossary.md", "the edge made before Glossary.md existed reaches it")
}
