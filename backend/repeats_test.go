package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A paper in the library twice (its preprint and the published version)
// gives each question its text once: the copy does not load, and the
// block of the one that does names where else the text is.
func TestTheSameTextTwiceLoadsOnce(t *testing.T) {
	ctx := context.Background()
	lib := t.TempDir()
	paper := "# Budgeted context\n\n## The stopping rule\n\n" +
		"Loading stops where relevance drops: a node is relevant when its score is at least a share of the best score and stands out " +
		"of the background, the median score of the candidates ranked eleventh to fortieth. The rule follows each question's curve " +
		"instead of a fixed count, so a question that one section answers loads one section.\n\n" +
		"## Related work\n\nRetrieval systems usually return a fixed number of passages, whatever the question.\n"
	require.NoError(t, os.WriteFile(filepath.Join(lib, "preprint.md"), []byte(paper), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(lib, "published.md"), []byte(paper), 0o644))
	wb, err := Open(ctx, t.TempDir(), WithEmbedder(testEmbedder(t)), WithClock(func() time.Time { return fixedNow }))
	require.NoError(t, err)
	defer wb.Close()
	rep, err := wb.Ingest(ctx, []string{lib}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)

	res, err := wb.Query(ctx, QueryRequest{Question: "Where does loading stop, and what is the background?", Budget: 2000, NoTouch: true})
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(res.Prompt, "the median score of the candidates ranked eleventh to fortieth"), res.Prompt)
	assert.Regexp(t, `\[[a-z]+\] (preprint|published)\.md · L3 · also in (published|preprint)\.md\n`, res.Prompt)
	var copies int
	for _, c := range res.Candidates {
		if c.Repeats != "" {
			copies++
			assert.False(t, c.Loaded)
			assert.Regexp(t, `not loaded: the same text as \[[a-z]+\] `, c.Reason)
		}
	}
	assert.Positive(t, copies)
}
