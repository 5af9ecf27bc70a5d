package index

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/model"
)

func TestDefinitionName(t *testing.T) {
	for in, want := range map[string]string{
		"Close":           "Close",
		"Workbench.Close": "Close",
		"init-2":          "init",
		"a.b.c":           "c",
		"x-y":             "x-y", // not a numbered duplicate
		"-2":              "-2",
	} {
		assert.Equal(t, want, DefinitionName(in), in)
	}
}

// TestNamesIndexDefinitions: definitions by name, methods without their
// receiver, in id order; not files, later parts of a long definition, or
// summaries.
func TestNamesIndexDefinitions(t *testing.T) {
	g := NewGraph()
	g.Nodes["n-b"] = &model.ContentNode{ID: "n-b", Symbol: &model.Symbol{Kind: "method", Name: "Workbench.Close"}}
	g.Nodes["n-a"] = &model.ContentNode{ID: "n-a", Symbol: &model.Symbol{Kind: "method", Name: "Log.Close"}}
	g.Nodes["n-a2"] = &model.ContentNode{ID: "n-a2", Part: 2, Symbol: &model.Symbol{Kind: "method", Name: "Log.Close"}}
	g.Nodes["n-file"] = &model.ContentNode{ID: "n-file", Symbol: &model.Symbol{Kind: "file", Name: "query"}}
	g.Nodes["n-sum"] = &model.ContentNode{ID: "n-sum", Source: "n-b", Symbol: &model.Symbol{Kind: "method", Name: "Workbench.Close"}}
	g.Nodes["n-prose"] = &model.ContentNode{ID: "n-prose"}
	r := NewSearch(g, 4)
	r.IndexNodes()
	assert.Equal(t, map[string][]string{"Close": {"n-a", "n-b"}}, r.Names)
}

// TestTheLatestSummaryStands: a node summarised twice at one level (to the
// room two questions had) is read with the later summary, whatever order
// the graph's map gives: the same question gets the same context from one
// run to the next.
func TestTheLatestSummaryStands(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for i := range 50 { // a map's order differs from one range to the next
		g := NewGraph()
		g.Nodes["n-src"] = &model.ContentNode{ID: "n-src"}
		g.Nodes["n-z-old"] = &model.ContentNode{ID: "n-z-old", Source: "n-src", Level: "summary", Created: at}
		g.Nodes["n-a-new"] = &model.ContentNode{ID: "n-a-new", Source: "n-src", Level: "summary", Created: at.Add(time.Minute)}
		g.Nodes["n-ess-1"] = &model.ContentNode{ID: "n-ess-1", Source: "n-src", Level: "essence", Created: at}
		g.Nodes["n-ess-2"] = &model.ContentNode{ID: "n-ess-2", Source: "n-src", Level: "essence", Created: at}
		r := NewSearch(g, 4)
		r.IndexNodes()
		assert.Equal(t, "n-a-new", r.AnalysisOf("n-src", "summary").ID, fmt.Sprint("round ", i))
		assert.Equal(t, "n-ess-2", r.AnalysisOf("n-src", "essence").ID, "made at once: by id")
	}
}
