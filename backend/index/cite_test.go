package index

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/model"
)

func TestCiteFollowsAnalysisNodesToTheirSource(t *testing.T) {
	ix := NewGraph()
	ix.Docs["d-note"] = &model.Document{ID: "d-note", Path: "notes/a.md", Format: "markdown"}
	ix.Docs["d-answer"] = &model.Document{ID: "d-answer", Path: "conv-1/t1.md", Format: "markdown", Title: "Why?"}
	ix.Nodes["n-sec"] = &model.ContentNode{ID: "n-sec", DocID: "d-note", Ref: "notes/a.md#b", LineStart: 3, LineEnd: 8, Kind: model.KindInput}
	ix.Nodes["n-sum"] = &model.ContentNode{ID: "n-sum", DocID: "d-note", Ref: "notes/a.md#b", LineStart: 3, LineEnd: 8, Kind: model.KindAnalysis, Source: "n-sec"}
	ix.Nodes["n-ans"] = &model.ContentNode{ID: "n-ans", DocID: "d-answer", Ref: "conv-1/t1.md#why", LineStart: 1, Kind: model.KindOutput}
	ix.Nodes["n-anssum"] = &model.ContentNode{ID: "n-anssum", DocID: "d-answer", Ref: "conv-1/t1.md#why", LineStart: 1, Kind: model.KindAnalysis, Source: "n-ans"}
	ix.Nodes["n-orphan"] = &model.ContentNode{ID: "n-orphan", DocID: "d-note", Ref: "notes/a.md#c", LineStart: 9, LineEnd: 9, Kind: model.KindAnalysis, Source: "n-gone"}

	assert.Equal(t, "notes/a.md#b L3–8", ix.Cite("n-sec"))
	assert.Equal(t, "notes/a.md#b L3–8", ix.Cite("n-sum"), "a summary is cited as its section")
	assert.Equal(t, `answer "Why?"`, ix.Cite("n-anssum"), "a summary of an answer is cited as the answer")
	assert.Equal(t, "notes/a.md#c L9", ix.Cite("n-orphan"), "a summary whose source is gone: the place it carries")
	assert.Empty(t, ix.Cite("n-unknown"))
	assert.Equal(t, map[string]string{"n-sec": "notes/a.md#b L3–8", "n-ans": `answer "Why?"`}, ix.Cites([]string{"n-sec", "n-unknown", "n-ans"}))
	assert.Nil(t, ix.Cites([]string{"n-unknown"}))
}
