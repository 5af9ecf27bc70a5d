package library

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
)

// loomSource parses Go files of Loom's own packages (paths relative to
// backend/library) as an ingest would, in the order given.
func loomSource(t *testing.T, globs ...string) []ingest.Document {
	t.Helper()
	var docs []ingest.Document
	for _, g := range globs {
		files, err := filepath.Glob(g)
		require.NoError(t, err)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			rel := filepath.ToSlash(filepath.Join("backend", "library", f))
			ds, err := ingest.Parse(f, filepath.Clean(rel), "loom", data, ingest.Options{})
			require.NoError(t, err, f)
			docs = append(docs, ds...)
		}
	}
	require.Greater(t, len(docs), 40)
	return docs
}

// edgesOf is every symbol edge the table makes for the documents.
func edgesOf(t *symbolTable, docs []ingest.Document) map[string][]string {
	out := map[string][]string{}
	now := time.Unix(0, 0)
	for i := range docs {
		d := &docs[i]
		id := model.DocumentID(d.Collection, d.Path)
		nodes := make([]model.ContentNode, len(d.Sections))
		for j, s := range d.Sections {
			nodes[j].ID = model.CodeNodeID(id, s.Ref, s.Part)
		}
		for _, e := range t.symbolEdges(d, nodes, now) {
			out[e.From] = append(out[e.From], string(e.Kind)+" "+e.To)
		}
	}
	return out
}

// The symbol graph of the same files is the same whatever the order they
// come in: an ingest at once and one in rounds, or two ingests of the
// same folder, link an import to the same files of a package (at most
// maxImportFiles of them) and a definition to the same definitions (at
// most maxSymbolEdges).
func TestTheSymbolGraphDoesNotDependOnTheOrderOfTheFiles(t *testing.T) {
	docs := loomSource(t, "*.go", "../ingest/*.go", "../index/*.go", "../model/*.go")
	want := edgesOf(newSymbolTable(&index.Graph{}, docs), docs)
	capped, imports := 0, 0
	for _, es := range want {
		if len(es) == maxSymbolEdges {
			capped++
		}
		for _, e := range es {
			if e[:len(model.EdgeImports)] == string(model.EdgeImports) {
				imports++
			}
		}
	}
	require.Positive(t, capped, "some definition reaches the bound on its edges")
	require.Positive(t, imports)

	reversed := slices.Clone(docs)
	slices.Reverse(reversed)
	assert.Equal(t, want, edgesOf(newSymbolTable(&index.Graph{}, reversed), docs), "the files in the other order")
	rotated := append(slices.Clone(docs[len(docs)/2:]), docs[:len(docs)/2]...)
	assert.Equal(t, want, edgesOf(newSymbolTable(&index.Graph{}, rotated), docs), "the files in another order")
}
