package index

import (
	"testing"

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
