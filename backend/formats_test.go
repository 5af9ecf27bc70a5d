//go:build !js

package backend

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/assemble"
)

// copyInto copies files (paths relative to this package) into dir.
func copyInto(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644))
	}
}

// Everything a researcher brings goes in through the real engine: papers,
// web pages, Word, EPUB, notebooks, tables, BibTeX, source files. Bad files
// — encrypted, scanned, truncated, a renamed zip of garbage, a 200 MB PDF, a
// 50 MB web page — are each an error naming the file and the problem, and cost
// the rest of the batch nothing; what was stored before is kept.
func TestEveryFormatGoesInAndBadFilesLoseNothing(t *testing.T) {
	ctx := context.Background()
	lib := t.TempDir()
	copyInto(t, lib,
		"ingest/pdf/testdata/twocolumn.pdf", "ingest/pdf/testdata/report.pdf",
		"ingest/pdf/testdata/encrypted.pdf", "ingest/pdf/testdata/scanned.pdf",
		"sample/papers/budgeted-context.pdf", "sample/papers/references.bib",
		"ingest/convert/testdata/saved-page.html", "ingest/convert/testdata/report.docx",
		"ingest/convert/testdata/book.epub", "ingest/convert/testdata/tokens.ipynb",
		"ingest/convert/testdata/measures.csv", "ingest/testdata/mdx/development.mdx", "ingest/testdata/headings/authentication.rst", "workbench.go")
	pdfBytes, err := os.ReadFile("ingest/pdf/testdata/twocolumn.pdf")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(lib, "truncated.pdf"), pdfBytes[:len(pdfBytes)/3], 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(lib, "garbage.docx"), []byte("PK\x03\x04 this is no zip at all, only a renamed file of garbage"), 0o644))
	for name, size := range map[string]int64{"huge.pdf": 200 << 20, "huge.html": 50 << 20} {
		f, err := os.Create(filepath.Join(lib, name))
		require.NoError(t, err)
		require.NoError(t, f.Truncate(size)) // sparse: over the limit before a byte is read
		require.NoError(t, f.Close())
	}
	require.NoError(t, os.WriteFile(filepath.Join(lib, "photo.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644))

	wb, err := Open(ctx, t.TempDir(), WithEmbedder(testEmbedder(t)), WithClock(func() time.Time { return fixedNow }))
	require.NoError(t, err)
	defer wb.Close()
	// What was stored before the bad batch must survive it.
	_, err = wb.Ingest(ctx, []string{"../testdata/fixture/notes"}, IngestOptions{})
	require.NoError(t, err)
	before, err := wb.Stats(ctx)
	require.NoError(t, err)

	rep, err := wb.Ingest(ctx, []string{lib}, IngestOptions{})
	require.NoError(t, err)
	problems := map[string]string{}
	for _, e := range rep.Errors {
		msg := e.Error()
		for _, name := range []string{"encrypted.pdf", "scanned.pdf", "truncated.pdf", "garbage.docx", "huge.pdf", "huge.html"} {
			if strings.Contains(msg, name) {
				problems[name] = msg
			}
		}
	}
	assert.Len(t, rep.Errors, 6, "%v", rep.Errors)
	assert.Contains(t, problems["encrypted.pdf"], "is encrypted")
	assert.Contains(t, problems["scanned.pdf"], "has no text layer")
	assert.Contains(t, problems["truncated.pdf"], "truncated.pdf: ")
	assert.Contains(t, problems["garbage.docx"], "zip")
	assert.Contains(t, problems["huge.pdf"], "too large")
	assert.Contains(t, problems["huge.html"], "too large")
	require.Len(t, rep.Skipped, 1)
	assert.Contains(t, rep.Skipped[0].String(), "photo.png: skipped: ")

	docs, err := wb.Documents(ctx)
	require.NoError(t, err)
	formats := map[string]int{}
	for _, d := range docs {
		formats[d.Format]++
	}
	assert.Equal(t, map[string]int{"markdown": 3, "text": 2, "pdf": 3, "bibtex": 5, "html": 1, "docx": 1, "epub": 1,
		"notebook": 1, "table": 1, "code": 1}, formats)
	after, err := wb.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Documents+16, after.Documents, "the fixture's documents are all still there")

	// ask puts a question and reports whether a loaded section's citation
	// is one cited accepts.
	ask := func(question string, cited func(string) bool) (*QueryResult, bool) {
		res, err := wb.Query(ctx, QueryRequest{Question: question, Budget: 1500, NoTouch: true})
		require.NoError(t, err)
		return res, slices.ContainsFunc(res.LoadedCandidates(), func(c *assemble.Candidate) bool { return cited(c.Cite) })
	}
	is := func(cite string) func(string) bool { return func(c string) bool { return c == cite } }

	// A paper's sections are cited by page and section.
	_, found := ask("What is the stopping rule, and what is the relevance cut?", func(c string) bool { return strings.HasPrefix(c, "budgeted-context.pdf p. ") })
	assert.True(t, found, "a loaded section of the paper is cited by page")

	// An MDX page reads as its prose: its sections by their headings and
	// the file's own lines, the components' tags gone.
	res, found := ask("How do I run Mintlify dev on a port other than 3000?", is("development.mdx#custom-ports L62–74"))
	assert.True(t, found, "the MDX page's section on ports loads, cited by its lines in the file")
	assert.Contains(t, res.Prompt, "mintlify dev --port 3333")
	assert.NotContains(t, res.Prompt, "<CodeGroup>")
	assert.NotContains(t, res.Prompt, "</Accordion>")

	// Sphinx's reStructuredText splits at its own titles.
	_, found = ask("How do I use HTTP Digest authentication with Requests?", is("authentication.rst#digest-authentication L47–56"))
	assert.True(t, found, "the section on digest authentication loads, cited by its title's anchor and lines")
}

// A .bib edited to drop an entry loses that entry's document on the next
// ingest; the entries it still holds stay as they were.
func TestReingestedBibliographyDropsTheEntriesItNoLongerHolds(t *testing.T) {
	ctx := context.Background()
	lib := t.TempDir()
	bib := filepath.Join(lib, "refs.bib")
	a := "@article{a2020,\n  title = {Attention over long documents in retrieval},\n  year = {2020}\n}\n"
	b := "@article{b2021,\n  title = {Budgets for context windows of language models},\n  year = {2021}\n}\n"
	require.NoError(t, os.WriteFile(bib, []byte(a+"\n"+b), 0o644))
	wb, err := Open(ctx, t.TempDir(), WithEmbedder(testEmbedder(t)), WithClock(func() time.Time { return fixedNow }))
	require.NoError(t, err)
	defer wb.Close()
	rep, err := wb.Ingest(ctx, []string{lib}, IngestOptions{})
	require.NoError(t, err)
	require.Equal(t, 2, rep.Added)

	require.NoError(t, os.WriteFile(bib, []byte(a), 0o644))
	rep, err = wb.Ingest(ctx, []string{lib}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Removed, "b2021 is gone from the file")
	assert.Equal(t, 1, rep.Unchanged, "a2020 is as it was")
	docs, err := wb.Documents(ctx)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.Equal(t, "refs.bib#a2020", docs[0].Path)
}
