package graphdb

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
)

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// validGraph is a small graph.json with every kind of edge and its texts.
func validGraph() *GraphJSON {
	g := &GraphJSON{Version: GraphJSONVersion, Content: map[string]string{}}
	g.Documents = []model.Document{{ID: "d-a", Path: "a.md"}, {ID: "d-b", Path: "b.md"}}
	for i, id := range []string{"n-1", "n-2", "n-3"} {
		text := "text " + id
		n := model.ContentNode{ID: id, DocID: "d-a", ContentHash: hashOf(text), Tokens: 10 * (i + 1), LineStart: 1, LineEnd: 3}
		if i == 1 {
			n.Parent = "n-1"
		}
		if i == 2 {
			n.DocID, n.Source, n.Kind = "d-b", "n-1", model.KindAnalysis
		}
		g.ContentNodes = append(g.ContentNodes, n)
		g.Content[n.ContentHash] = text
	}
	g.ConceptNodes = []model.Concept{{ID: "c-1", Seed: "n-1"}, {ID: "c-2", Seed: "n-2"}}
	g.Edges = []model.Edge{
		{Kind: model.EdgeAbout, From: "n-1", To: "c-1"}, {Kind: model.EdgeRelated, From: "c-2", To: "c-1"},
		{Kind: model.EdgeParent, From: "n-2", To: "n-1"}, {Kind: model.EdgeDerived, From: "n-3", To: "n-1"},
		{Kind: model.EdgeLinks, From: "n-1", To: "d-not-yet-ingested"},
	}
	return g
}

func TestValidateAcceptsAWholeGraph(t *testing.T) {
	g := validGraph()
	require.NoError(t, g.Validate())
	f := g.Facts()
	assert.Equal(t, model.Meta{Documents: 2, ContentNodes: 3, ConceptNodes: 2, Edges: 5, Tokens: 60}, f)
}

func TestValidateRefusesWhatLoomCannotHold(t *testing.T) {
	for _, c := range []struct {
		name, want string
		spoil      func(g *GraphJSON)
	}{
		{"tokens that overflow the total", "not a possible size", func(g *GraphJSON) { g.ContentNodes[0].Tokens = 1 << 62 }},
		{"negative tokens", "not a possible size", func(g *GraphJSON) { g.ContentNodes[1].Tokens = math.MinInt32 }},
		{"a node without its document", `document "d-gone" is not in the file`, func(g *GraphJSON) { g.ContentNodes[0].DocID = "d-gone" }},
		{"an about edge to a missing concept", "c-gone is not a concept", func(g *GraphJSON) { g.Edges[0].To = "c-gone" }},
		{"an edge from a missing node", "n-gone is not a content node", func(g *GraphJSON) { g.Edges[2].From = "n-gone" }},
		{"a related edge to a section", "n-1 is not a concept", func(g *GraphJSON) { g.Edges[1].To = "n-1" }},
		{"an unknown edge kind", `unknown kind "likes"`, func(g *GraphJSON) { g.Edges[0].Kind = "likes" }},
		{"a link to a section", "a link points at a document id", func(g *GraphJSON) { g.Edges[4].To = "n-2" }},
		{"a duplicate id", "the id is used twice", func(g *GraphJSON) { g.ContentNodes[1].ID = "n-1" }},
		{"an id of the wrong kind", `must start with "c-"`, func(g *GraphJSON) { g.ConceptNodes[0].ID = "x-1" }},
		{"a text that does not match its hash", "does not match its hash", func(g *GraphJSON) { g.Content[g.ContentNodes[0].ContentHash] = "changed" }},
		{"a hash that is not one", "is not a content hash", func(g *GraphJSON) { g.ContentNodes[0].ContentHash = "../../etc/passwd" }},
		{"a missing parent", "its parent n-9 is not in the file", func(g *GraphJSON) { g.ContentNodes[1].Parent = "n-9" }},
		{"a missing seed", "its seed n-9 is not in the file", func(g *GraphJSON) { g.ConceptNodes[0].Seed = "n-9" }},
		{"lines backwards", "lines 3–1", func(g *GraphJSON) { g.ContentNodes[0].LineStart, g.ContentNodes[0].LineEnd = 3, 1 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := validGraph()
			c.spoil(g)
			err := g.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "nothing was imported")
		})
	}
}

func TestValidateListsAFewProblemsAndCountsTheRest(t *testing.T) {
	g := validGraph()
	for i := 0; i < 20; i++ {
		g.Edges = append(g.Edges, model.Edge{Kind: model.EdgeAbout, From: "n-1", To: "c-missing"})
	}
	err := g.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "20 problem(s)")
	assert.Contains(t, err.Error(), "… and 12 more")
}
