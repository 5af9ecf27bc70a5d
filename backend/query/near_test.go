//go:build !js

package query

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/assemble"
)

// TestALargerContextTakesWhatIsNearTheQuestion: a context no larger than
// the budget relevance is judged at loads the relevant nodes alone; a
// larger one also loads, beyond that budget, candidates that are not
// relevant but stand above the background, says so in their reasons and
// in the manifest, and keeps every relevant node it loaded before.
func TestALargerContextTakesWhatIsNearTheQuestion(t *testing.T) {
	guide := testdataCopy(t, "eval", "cargo-book", "docs", "guide")
	dir := t.TempDir()
	ingestInto(t, dir, guide)
	p := openPipeline(t, dir)
	ask := func(budget int) *QueryResult {
		res, err := p.Query(context.Background(), QueryRequest{Question: "How do I add a dependency from crates.io to my package?", Budget: budget, NoTouch: true})
		require.NoError(t, err)
		return res
	}
	loaded := func(res *QueryResult) (relevant, near []string) {
		for _, c := range res.Candidates {
			switch {
			case c.Loaded && c.Relevant:
				relevant = append(relevant, c.ID)
			case c.Loaded:
				near = append(near, c.ID)
				assert.True(t, strings.HasPrefix(c.Reason, "near the question"), c.Reason)
			}
		}
		return relevant, near
	}
	small, large := ask(assemble.RelevanceBudget), ask(4*assemble.RelevanceBudget)
	relSmall, nearSmall := loaded(small)
	relLarge, nearLarge := loaded(large)
	require.NotEmpty(t, relSmall)
	assert.Empty(t, nearSmall, "within the relevance budget only the relevant load")
	assert.NotContains(t, small.Manifest, "near the question")
	assert.Equal(t, relSmall, relLarge, "the relevant set does not depend on the budget")
	require.NotEmpty(t, nearLarge, "a larger context takes what is near the question")
	assert.Zero(t, small.Near)
	assert.Zero(t, small.RelevanceBudget, "nothing near loaded: no budget to name")
	assert.Equal(t, len(nearLarge), large.Near)
	assert.Equal(t, assemble.RelevanceBudget, large.RelevanceBudget, "the page names the budget they were loaded beyond")
	assert.Equal(t, len(relLarge)+len(nearLarge), large.Loaded)
	assert.Contains(t, large.Manifest, fmt.Sprintf("and %d near the question, as the budget allowed", len(nearLarge)))
	assert.Less(t, len(nearLarge), len(large.Candidates)-len(relLarge), "what does not stand above the background stays out")
}
