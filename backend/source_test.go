//go:build !js

package backend

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/model"
)

// ingestNotes is a workspace in dir holding the fixture notes, and the
// folder they were read from.
func ingestNotes(t *testing.T, dir string) (*Workbench, string) {
	t.Helper()
	notes := copyFixture(t)
	wb := openBolt(t, dir)
	_, err := wb.Ingest(context.Background(), []string{notes}, IngestOptions{})
	require.NoError(t, err)
	return wb, notes
}

// nodeByRef finds a content node of the workspace by its reference.
func nodeByRef(t *testing.T, wb *Workbench, ref string) model.ContentNode {
	t.Helper()
	g, err := wb.ExportGraph(context.Background(), false)
	require.NoError(t, err)
	for _, n := range g.ContentNodes {
		if n.Ref == ref && n.Source == "" {
			return n
		}
	}
	t.Fatalf("no node %s", ref)
	return model.ContentNode{}
}

func TestAQuestionCitesItsSourcesAsAPersonFindsThem(t *testing.T) {
	wb, _ := ingestNotes(t, t.TempDir())
	defer wb.Close()
	res, err := wb.Query(context.Background(), QueryRequest{Question: "How does staleness decay?", Budget: 4000, NoTouch: true})
	require.NoError(t, err)
	loaded := res.LoadedCandidates()
	require.NotEmpty(t, loaded)
	for _, c := range res.Candidates {
		assert.NotEmpty(t, c.Cite, "%s has a cite", c.Ref)
		path, _, _ := strings.Cut(c.Ref, "#")
		assert.True(t, strings.HasPrefix(c.Cite, path), "%q starts with its file", c.Cite)
		assert.Regexp(t, ` L\d+(–\d+)?$`, c.Cite, "a note's section is cited with its lines")
	}
	for _, c := range loaded {
		require.NotEmpty(t, c.ShortID)
		short, ok := model.FromPromptID(c.ShortID)
		assert.True(t, ok && strings.HasPrefix(c.ID, short), "%s shortens %s, in letters", c.ShortID, c.ID)
		_, lines, _ := strings.Cut(c.Cite, " ")
		first, _, _ := strings.Cut(lines, "–") // full text: its text shows where it ends
		assert.Regexp(t, `\n\[`+regexp.QuoteMeta(c.ShortID)+`\] [^\n]* · `+regexp.QuoteMeta(first)+`\n`, res.Prompt, "the block header: id, title, first line")
		assert.Equal(t, 1, strings.Count(res.Prompt, "["+c.ShortID+"]"), "%s is written once", c.ShortID)
		assert.NotContains(t, res.Manifest, c.Title, "the manifest does not repeat a loaded node")
	}
	assert.Contains(t, res.Prompt, "each block's header gives its source (file and section, and its lines or pages when it names them)")
}

func TestSourceShowsTheDocumentOfANodeInOrder(t *testing.T) {
	ctx := context.Background()
	wb, notes := ingestNotes(t, t.TempDir())
	defer wb.Close()
	edges := nodeByRef(t, wb, "graphs.md#edges")

	v, err := wb.Source(ctx, edges.ID)
	require.NoError(t, err)
	assert.Equal(t, edges.ID, v.Focus)
	assert.Equal(t, "graphs.md#edges L8–15", v.Cite)
	assert.Equal(t, "graphs.md", v.Document.Path)
	assert.Equal(t, "Graphs", v.Document.Title, "its front matter's title")
	assert.Equal(t, "markdown", v.Document.Format)
	assert.Equal(t, filepath.Join(notes, "graphs.md"), v.Document.Key)
	assert.True(t, v.Document.File, "an ingested file can be opened by the system")

	var refs, cites []string
	last := 0
	for _, s := range v.Sections {
		cites = append(cites, s.Cite)
		assert.Greater(t, s.LineStart, last, "sections in document order")
		last = s.LineStart
		assert.Empty(t, s.Unavailable)
		assert.False(t, s.Omitted)
		n := nodeByID(t, wb, s.ID)
		refs = append(refs, n.Ref)
		text, err := wb.Content(n.ContentHash)
		require.NoError(t, err)
		assert.Equal(t, strings.TrimSpace(text), s.Text, "%s: the stored text", n.Ref)
	}
	assert.Equal(t, []string{"graphs.md#knowledge-graphs", "graphs.md#edges", "graphs.md#edges-1"}, refs)
	assert.Equal(t, []string{"graphs.md#knowledge-graphs L4–6", "graphs.md#edges L8–15", "graphs.md#edges-1 L17–19"}, cites)
	assert.Equal(t, []string{"Knowledge graphs", "Edges"}, v.Sections[1].HeadingPath)

	loc, err := wb.Locate(ctx, edges.ID)
	require.NoError(t, err)
	assert.Equal(t, &Location{Document: edges.DocID, Path: "graphs.md", Collection: v.Document.Collection, Format: "markdown",
		Key: v.Document.Key, LineStart: 8, LineEnd: 15}, loc)
	detail, err := wb.Node(ctx, edges.ID)
	require.NoError(t, err)
	assert.Equal(t, v.Cite, detail.Cite, "the details panel shows the same cite")
	assert.Equal(t, loc, detail.Location)
}

func nodeByID(t *testing.T, wb *Workbench, id string) model.ContentNode {
	t.Helper()
	g, err := wb.ExportGraph(context.Background(), false)
	require.NoError(t, err)
	for _, n := range g.ContentNodes {
		if n.ID == id {
			return n
		}
	}
	t.Fatalf("no node %s", id)
	return model.ContentNode{}
}

func TestSourceOfWhatIsNotANodeIsRefused(t *testing.T) {
	ctx := context.Background()
	wb, _ := ingestNotes(t, t.TempDir())
	defer wb.Close()
	_, err := wb.Source(ctx, "n-0000000000000000")
	assert.Equal(t, errs.NotFound, errs.CodeOf(err), "%v", err)
	_, err = wb.Locate(ctx, "n-0000000000000000")
	assert.Equal(t, errs.NotFound, errs.CodeOf(err), "%v", err)
	g, err := wb.Graph(ctx)
	require.NoError(t, err)
	for _, n := range g.Nodes {
		if n.Kind == "concept" {
			_, err = wb.Source(ctx, n.ID)
			assert.Equal(t, errs.Invalid, errs.CodeOf(err), "a concept has no source: %v", err)
			break
		}
	}
}

func TestSourceMarksSectionsWhoseTextIsLostAndStillOpens(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	wb, _ := ingestNotes(t, dir)
	edges := nodeByRef(t, wb, "graphs.md#edges")
	require.NoError(t, wb.Close())
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "content")))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "content"), 0o755))

	wb = openBolt(t, dir)
	defer wb.Close()
	v, err := wb.Source(ctx, edges.ID)
	require.NoError(t, err, "a lost text is not a failure of the view")
	require.Len(t, v.Sections, 3)
	for _, s := range v.Sections {
		assert.Empty(t, s.Text)
		assert.Contains(t, s.Unavailable, "missing", s.ID)
		assert.NotEmpty(t, s.Cite, "its place is still known")
	}
}

func TestSourceOfASummaryOpensAtTheSectionItCondenses(t *testing.T) {
	ctx := context.Background()
	notes := copyFixtureWithLongSection(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	_, err = wb.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated from the window and the output reservation?", Budget: 300, Level: "summary", NoTouch: true})
	require.NoError(t, err)
	require.NoError(t, wb.Close())

	wb = openBolt(t, dir)
	defer wb.Close()
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	var summary *model.ContentNode
	for i, n := range g.ContentNodes {
		if n.Kind == model.KindAnalysis {
			summary = &g.ContentNodes[i]
			break
		}
	}
	require.NotNil(t, summary, "the tight question made a summary")
	v, err := wb.Source(ctx, summary.ID)
	require.NoError(t, err)
	assert.Equal(t, summary.Source, v.Focus, "the viewer opens at the section the summary condenses")
	for _, s := range v.Sections {
		assert.NotEqual(t, summary.ID, s.ID, "summaries are not sections of the document")
	}
	src := nodeByID(t, wb, summary.Source)
	assert.Equal(t, model.Cite(&model.Document{Path: "window.md", Format: "markdown"}, &src), v.Cite)
}
