package ingest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ingest/blocks"
)

func TestSectionsFromBlocksFollowTheHeadingsAndKeepPages(t *testing.T) {
	bs := []blocks.Block{
		{Kind: blocks.Paragraph, Text: "Title block text", Page: 1},
		{Kind: blocks.Heading, Level: 1, Text: "Abstract", Page: 1},
		{Kind: blocks.Paragraph, Text: "We study things.", Page: 1},
		{Kind: blocks.Heading, Level: 1, Text: "3 Method", Page: 2},
		{Kind: blocks.Heading, Level: 2, Text: "3.1 Data", Page: 2},
		{Kind: blocks.Paragraph, Text: "The data spans pages.", Page: 2, PageEnd: 3},
		{Kind: blocks.Table, Text: "a | b\n1 | 2", Page: 3},
		{Kind: blocks.Heading, Level: 2, Text: "3.2 Model", Page: 4},
		{Kind: blocks.Paragraph, Text: "A model.", Page: 4},
		{Kind: blocks.Heading, Level: 1, Text: "References", Page: 5},
		{Kind: blocks.Item, Text: "[1] A. Author. A paper. 2020.", Page: 5},
		{Kind: blocks.Item, Text: "[2] B. Author. Another. 2021.", Page: 6},
	}
	secs := sectionsFromBlocks("paper.pdf", bs)
	require.Len(t, secs, 5)
	type got struct {
		Ref      string
		Path     []string
		Pages    [2]int
		Parent   int
		Ancestor []string
	}
	var all []got
	for i, s := range secs {
		assert.Equal(t, i, s.Ordinal)
		all = append(all, got{s.Ref, s.HeadingPath, [2]int{s.PageStart, s.PageEnd}, s.Parent, s.Ancestors})
	}
	assert.Equal(t, []got{
		{"paper.pdf", nil, [2]int{1, 1}, -1, nil},
		{"paper.pdf#abstract", []string{"Abstract"}, [2]int{1, 1}, -1, nil},
		{"paper.pdf#31-data", []string{"3 Method", "3.1 Data"}, [2]int{2, 3}, -1, []string{"paper.pdf#3-method"}},
		{"paper.pdf#32-model", []string{"3 Method", "3.2 Model"}, [2]int{4, 4}, -1, []string{"paper.pdf#3-method"}},
		{"paper.pdf#references", []string{"References"}, [2]int{5, 6}, -1, nil},
	}, all)
	assert.Equal(t, "3.1 Data\n\nThe data spans pages.\n\na | b\n1 | 2", secs[2].Text)
	assert.Equal(t, "References\n\n- [1] A. Author. A paper. 2020.\n\n- [2] B. Author. Another. 2021.", secs[4].Text)
	assert.Zero(t, secs[2].LineStart, "a PDF has no lines to cite")
}

func TestSectionsFromBlocksPointAtTheEnclosingSection(t *testing.T) {
	secs := sectionsFromBlocks("r.pdf", []blocks.Block{
		{Kind: blocks.Heading, Level: 1, Text: "2 Background", Page: 1},
		{Kind: blocks.Paragraph, Text: "Intro to background.", Page: 1},
		{Kind: blocks.Heading, Level: 2, Text: "2.1 Prior work", Page: 2},
		{Kind: blocks.Paragraph, Text: "Others did this.", Page: 2},
	})
	require.Len(t, secs, 2)
	assert.Equal(t, 0, secs[1].Parent)
	assert.Equal(t, []string{"r.pdf#2-background"}, secs[1].Ancestors)
}
