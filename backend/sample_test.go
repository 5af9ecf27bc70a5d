package backend

import (
	"context"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/sample"
)

// The sample library goes into a fresh workspace whole: every note a
// document of the "sample" collection, no file in error, the notes' links
// to one another as edges, and a question about the token budget answered
// from the note on context windows. In both editions' stores (and under
// GOOS=js, as the web edition runs it).
func TestSampleLibraryIngestsIntoAFreshWorkspace(t *testing.T) {
	for _, store := range graphStores() {
		withGraphStore(t, store, func(t *testing.T, storeOpt Option) {
			ctx := context.Background()
			wb, err := Open(ctx, t.TempDir(), WithEmbedder(testEmbedder(t)), WithClock(func() time.Time { return fixedNow }), storeOpt)
			require.NoError(t, err)
			defer wb.Close()

			files, papers := sample.Files(), sample.Papers()
			rep, err := wb.IngestSample(ctx, IngestOptions{})
			require.NoError(t, err)
			assert.Empty(t, rep.Errors)
			assert.Empty(t, rep.Warnings)
			assert.Equal(t, len(files)+len(papers), rep.Files)
			const bibEntries = 5 // papers/references.bib
			assert.Equal(t, len(files)+1+bibEntries, rep.Added, "every note, the paper, every entry of the bibliography")

			docs, err := wb.Documents(ctx)
			require.NoError(t, err)
			var got []string
			byPath := map[string]string{}
			for _, d := range docs {
				assert.Equal(t, sample.Collection, d.Collection, d.Path)
				if d.Format != "bibtex" {
					assert.Greater(t, d.Nodes, 1, "%s is split into its sections", d.Path)
				}
				got = append(got, d.Path)
				byPath[d.Path] = d.ID
			}
			var want []string
			for _, f := range files {
				want = append(want, f.Name)
			}
			want = append(want, "papers/budgeted-context.pdf", "papers/references.bib#cormack2009rrf", "papers/references.bib#karpukhin2020dpr",
				"papers/references.bib#lewis2020rag", "papers/references.bib#robertson2009bm25", "papers/references.bib#weaver2024budgeted")
			assert.ElementsMatch(t, want, got)

			g, err := wb.Graph(ctx)
			require.NoError(t, err)
			links := 0
			for _, e := range g.Edges {
				if e.Kind == "links" {
					links++
				}
			}
			assert.GreaterOrEqual(t, links, len(files), "the notes' relative links become edges")
			paper, entry := byPath["papers/budgeted-context.pdf"], byPath["papers/references.bib#weaver2024budgeted"]
			docOf := map[string]string{}
			for _, n := range g.Nodes {
				docOf[n.ID] = n.Document
			}
			joined := false
			for _, e := range g.Edges {
				// (the view draws a link to a document to its first section)
				if e.Kind == "links" && (docOf[e.Target] == paper && docOf[e.Source] == entry || docOf[e.Target] == entry && docOf[e.Source] == paper) {
					joined = true
				}
			}
			assert.True(t, joined, "the paper and its BibTeX entry are linked (same arXiv id)")

			pq, err := wb.Query(ctx, QueryRequest{Question: "What is the stopping rule, and what is the relevance cut?", Budget: 1200, NoTouch: true})
			require.NoError(t, err)
			var cites []string
			for _, c := range pq.LoadedCandidates() {
				cites = append(cites, c.Cite)
			}
			assert.Contains(t, cites, "papers/budgeted-context.pdf p. 1 §3.2", "the stopping rule is cited by page and section")

			res, err := wb.Query(ctx, QueryRequest{Question: "How is the loadable token budget calculated from the context window?", Budget: 1200, NoTouch: true})
			require.NoError(t, err)
			var loaded []string
			for _, c := range res.LoadedCandidates() {
				loaded = append(loaded, c.Ref)
			}
			assert.Condition(t, func() bool {
				for _, ref := range loaded {
					if strings.HasPrefix(ref, "context-windows.md") {
						return true
					}
				}
				return false
			}, "a budget question loads the note on context windows: %v", loaded)

			again, err := wb.IngestSample(ctx, IngestOptions{})
			require.NoError(t, err)
			assert.Zero(t, again.Added, "a second click adds nothing")
			assert.Equal(t, len(files)+1+bibEntries, again.Unchanged)
		})
	}
}

// The notes stay fit for their purpose as they are edited: a few hundred
// words each, headings, links only to notes that exist, and tables and
// code blocks somewhere among them.
func TestSampleNotesAreShortLinkedMarkdown(t *testing.T) {
	files := sample.Files()
	require.GreaterOrEqual(t, len(files), 6)
	require.LessOrEqual(t, len(files), 10)
	names := map[string]bool{}
	for _, f := range files {
		names[f.Name] = true
	}
	tables, code := 0, 0
	for _, f := range files {
		words := len(strings.Fields(f.Text))
		assert.True(t, words >= 200 && words <= 600, "%s has %d words", f.Name, words)
		assert.True(t, strings.HasPrefix(f.Text, "# "), "%s starts with its title", f.Name)
		assert.Contains(t, f.Text, "\n## ", "%s has sections", f.Name)
		links := 0
		for _, target := range markdownLinks(f.Text) {
			if strings.Contains(target, "://") {
				continue
			}
			file, _, _ := strings.Cut(target, "#")
			assert.True(t, names[path.Clean(file)], "%s links to %s, which is not a note", f.Name, target)
			links++
		}
		assert.Positive(t, links, "%s links to another note", f.Name)
		if strings.Contains(f.Text, "\n| --- |") {
			tables++
		}
		if strings.Contains(f.Text, "\n```") {
			code++
		}
	}
	assert.GreaterOrEqual(t, tables, 2)
	assert.GreaterOrEqual(t, code, 2)
}

// markdownLinks returns the targets of [text](target) links.
func markdownLinks(text string) []string {
	var out []string
	for rest := text; ; {
		i := strings.Index(rest, "](")
		if i < 0 {
			return out
		}
		rest = rest[i+2:]
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return out
		}
		out = append(out, rest[:end])
		rest = rest[end:]
	}
}
