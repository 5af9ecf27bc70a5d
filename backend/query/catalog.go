package query

import (
	"fmt"
	"strings"

	"github.com/loomwork/loom/backend/assemble"
)

// catalog is the short "what exists" block (context-loading-jit tier 2):
// counts, the documents the candidates came from, the concepts near the
// question.
func (w *Pipeline) catalog(p *pool) string {
	ix := p.r.Graph
	var b strings.Builder
	fmt.Fprintf(&b, "[Catalog: %d documents, %d sections, %d concepts in this workspace]", len(ix.Docs), len(p.r.Slot), len(ix.Concepts))
	seen := map[string]bool{}
	var docs []string
	for _, s := range p.slots {
		n := ix.Nodes[p.r.IDs[s]]
		if d := ix.Docs[n.DocID]; d != nil && !seen[d.ID] && len(docs) < 6 {
			seen[d.ID] = true
			docs = append(docs, fmt.Sprintf("%s (%s)", d.Path, plural(ix.Sections(d.ID), "section")))
		}
	}
	if len(docs) > 0 {
		fmt.Fprintf(&b, "\n[Documents near this question: %s]", strings.Join(docs, "; "))
	}
	var names []string
	said := map[string]bool{} // concepts of one name are listed once
	for _, s := range p.seeds {
		if name := clean(s.Name); len(names) < 8 && !said[strings.ToLower(name)] {
			said[strings.ToLower(name)] = true
			names = append(names, name)
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(&b, "\n[Concepts near this question: %s]", strings.Join(names, "; "))
	}
	return b.String()
}

// clean is assemble.Clean, with ";" (the catalog's separator) as ",".
func clean(s string) string { return strings.ReplaceAll(assemble.Clean(s), ";", ",") }
