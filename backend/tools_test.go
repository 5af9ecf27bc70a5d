package backend

import (
	"context"
	"strings"
	"testing"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolsAnswerWithNodeIDs(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	ctx := context.Background()

	res, err := wb.query.SearchContext(ctx, "staleness half-life decay", "", 2)
	require.NoError(t, err)
	require.NotEmpty(t, res.NodeIDs)
	assert.LessOrEqual(t, len(res.NodeIDs), 2)
	assert.NotEmpty(t, shownAs(res.Text, res.NodeIDs[0]), "the text names the ids it shows: %s", res.Text)
	assert.Contains(t, res.Text, "staleness.txt")
	assert.Greater(t, res.Tokens, 0)
	require.Len(t, res.Cites, len(res.NodeIDs), "every node shown has its cite")
	for _, id := range res.NodeIDs {
		// As a prompt writes it: the shortest prefix no other searchable
		// node shares, in letters.
		shown := shownAs(res.Text, id)
		assert.Contains(t, res.Text, "["+shown+"] ", id)
		assert.Less(t, len(shown), len(id)-len("n-"), "%s is shortened", shown)
		assert.Contains(t, res.Text, " — "+res.Cites[id]+" (relevance ", "the text names where %s comes from", id)
		assert.Regexp(t, ` L\d+(–\d+)?$`, res.Cites[id])
	}

	_, err = wb.query.SearchContext(ctx, "decay", "no-such-collection", 3)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no collection")
	_, err = wb.query.SearchContext(ctx, "?!", "", 3)
	require.Error(t, err)

	scoped, err := wb.query.SearchContext(ctx, "decay", "notes", 3)
	require.NoError(t, err)
	assert.NotEmpty(t, scoped.NodeIDs)

	id := res.NodeIDs[0]
	full, err := wb.query.Expand(ctx, id, "detailed")
	require.NoError(t, err)
	assert.Equal(t, []string{id}, full.NodeIDs)
	assert.True(t, strings.HasPrefix(full.Text, "["+shownAs(res.Text, id)+"] "), "expand writes the id as the search did: %s", full.Text)
	assert.Contains(t, strings.SplitN(full.Text, "\n", 2)[0], " — "+res.Cites[id]+" (detailed)")
	assert.Equal(t, map[string]string{id: res.Cites[id]}, full.Cites)
	nb, err := wb.query.Expand(ctx, id, "neighbours")
	require.NoError(t, err)
	assert.NotContains(t, nb.NodeIDs, id)
	for _, n := range nb.NodeIDs {
		assert.Contains(t, nb.Text, "- ["+shownAs(nb.Text, n)+"] ", n)
		assert.Contains(t, nb.Text, " — "+nb.Cites[n]+" (", "a neighbour is listed with its cite")
	}
	_, err = wb.query.Expand(ctx, "n-nosuch", "detailed")
	require.Error(t, err)
	assert.Equal(t, errs.NotFound, errs.CodeOf(err))
	// The prompt writes ids shortened to a prefix no other node shares, in
	// letters: the tools take it, in brackets or not, and in hex, and the
	// whole id in letters.
	for _, raw := range []string{"[" + shownAs(res.Text, id) + "]", shownAs(res.Text, id), id[:len("n-")+6], model.PromptID(id)} {
		short, err := wb.query.Expand(ctx, raw, "detailed")
		require.NoError(t, err, raw)
		assert.Equal(t, []string{id}, short.NodeIDs, raw)
	}
	// Several ids, as a block header or the manifest names the parts of a
	// long section: each, in order, in one result.
	other := res.NodeIDs[len(res.NodeIDs)-1]
	if other == id {
		other = nb.NodeIDs[0]
	}
	both, err := wb.query.Expand(ctx, "["+model.PromptID(id[:len("n-")+6])+", "+model.PromptID(other[:len("n-")+6])+"]", "detailed")
	require.NoError(t, err)
	assert.Equal(t, []string{id, other}, both.NodeIDs)
	assert.True(t, strings.HasPrefix(both.Text, full.Text+"\n\n["+shownAs(both.Text, other)+"] "), both.Text)
	assert.Len(t, both.Cites, 2)
	_, err = wb.query.Expand(ctx, id+", n-nosuch", "detailed")
	assert.Equal(t, errs.NotFound, errs.CodeOf(err), "an id that names nothing is an error, not skipped")
	_, err = wb.query.Expand(ctx, "n-", "detailed")
	assert.Equal(t, errs.NotFound, errs.CodeOf(err), "too short to be a prefix")
	_, err = wb.query.Expand(ctx, id, "tiny")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown level")

	win, err := wb.query.GetWindow(ctx, id, 0, 3)
	require.NoError(t, err)
	assert.Contains(t, win.Text, "Lines ")
	assert.Contains(t, win.Text, "around ["+shownAs(res.Text, id)+"] ("+res.Cites[id]+"):\n", "the window says where it is")
	assert.Contains(t, win.NodeIDs, id)
	assert.Equal(t, res.Cites[id], win.Cites[id])

	cat, err := wb.query.Catalog(ctx)
	require.NoError(t, err)
	assert.Contains(t, cat.Text, "- notes: 3 documents")
	assert.True(t, strings.Contains(cat.Text, "Main concepts: "))
}

func TestCollectionsByHandScopeSearches(t *testing.T) {
	wb, dir := ingested(t)
	ctx := context.Background()
	require.NoError(t, wb.Group(ctx, "reading", []string{"staleness.txt", "budget.md"}, true))
	colls, err := wb.Collections(ctx)
	require.NoError(t, err)
	assert.Equal(t, []CollectionInfo{{Name: "notes", Documents: 3, Sections: 7}, {Name: "reading", Documents: 2, Sections: 4}}, colls)

	res, err := wb.Query(ctx, QueryRequest{Question: "graphs of concepts", Budget: 2000, Scope: "reading", NoTouch: true})
	require.NoError(t, err)
	for _, c := range res.Candidates {
		assert.NotEqual(t, "graphs.md", c.Document, "graphs.md is not in the reading collection")
	}
	require.Error(t, wb.Group(ctx, "reading", []string{"nosuch.md"}, true))
	require.Error(t, wb.Group(ctx, "", []string{"budget.md"}, true))
	require.NoError(t, wb.Close())

	// Grouping persists and can be undone.
	wb = openBolt(t, dir)
	defer wb.Close()
	colls, err = wb.Collections(ctx)
	require.NoError(t, err)
	assert.Len(t, colls, 2)
	require.NoError(t, wb.Group(ctx, "reading", []string{"budget.md"}, false))
	colls, err = wb.Collections(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, colls[1].Documents)
}
