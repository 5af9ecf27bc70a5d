//go:build !js

package backend

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestALogseqGraphLinksAsLogseqReadsIt: a Logseq graph's links reach the
// pages they name — a namespaced page ([[transformers/encoder]] is the file
// transformers___encoder.md), a page by its title:: and by an alias:: —
// in one run and from a note ingested alone later; its properties are
// its title and aliases.
func TestALogseqGraphLinksAsLogseqReadsIt(t *testing.T) {
	graph := filepath.Join(t.TempDir(), "graph")
	files := map[string]string{
		"pages/Attention.md": "title:: Attention mechanisms\nalias:: self-attention\n\n- Attention weighs tokens by relevance.\n" +
			"  id:: 6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n",
		"pages/transformers___encoder.md": "- The encoder stacks [[self-attention]] layers.\n- Background: [[Attention mechanisms]].\n",
		"journals/2026_11_29.md":          "- Read about [[transformers/encoder]] today.\n",
	}
	writeTree(t, graph, files)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	g := ingestedGraph(t, wb, graph)
	want := []string{"journals/2026_11_29.md -> pages/transformers___encoder.md", "pages/transformers___encoder.md -> pages/Attention.md"}
	assert.Equal(t, want, vaultLinks(g))
	for _, d := range g.Documents {
		if d.Path == "pages/Attention.md" {
			assert.Equal(t, "Attention mechanisms", d.Title)
			assert.Equal(t, []string{"Attention mechanisms", "self-attention"}, d.Meta.Aliases)
		}
	}

	// A note at the graph's root ingested alone: the stored page's aliases
	// answer.
	require.NoError(t, os.WriteFile(filepath.Join(graph, "contents.md"), []byte("- Start at [[Self-Attention]].\n"), 0o644))
	g = ingestedGraph(t, wb, filepath.Join(graph, "contents.md"))
	assert.Equal(t, append([]string{"contents.md -> pages/Attention.md"}, want...), vaultLinks(g))
}

// TestALogseqBlockReferenceLinksToItsPage: a block reference to a block of
// another page is an edge to that page — in one run, and from a page
// ingested alone later — and the prompt shows its words, not its id.
func TestALogseqBlockReferenceLinksToItsPage(t *testing.T) {
	const id = "6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
	graph := filepath.Join(t.TempDir(), "graph")
	writeTree(t, graph, map[string]string{
		"pages/Variance.md": "- Variance is spread around the mean.\n  id:: " + id + "\n",
		"pages/Power.md":    "- Statistical power grows with the sample, and falls with ((" + id + ")).\n",
	})
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	g := ingestedGraph(t, wb, graph)
	want := []string{"pages/Power.md -> pages/Variance.md"}
	assert.Equal(t, want, vaultLinks(g))

	// A note at the graph's root ingested alone: the stored page's ids answer.
	require.NoError(t, os.WriteFile(filepath.Join(graph, "design.md"), []byte("- A design fixes {{embed (("+id+"))}} before the study.\n"), 0o644))
	g = ingestedGraph(t, wb, filepath.Join(graph, "design.md"))
	assert.Equal(t, []string{"design.md -> pages/Variance.md", want[0]}, vaultLinks(g))

	res, err := wb.Query(t.Context(), QueryRequest{Question: "How does statistical power change with the sample?", Budget: 2000, NoTouch: true})
	require.NoError(t, err)
	assert.Contains(t, res.Prompt, "falls with block reference.")
	assert.NotContains(t, res.Prompt, id)
}
