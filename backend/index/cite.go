package index

import "github.com/loomwork/loom/backend/model"

// Cite is the human-readable reference of a content node (model.Cite): an
// analysis node is cited as the node it condenses, followed back to the
// section or answer it came from. "" for an id the graph does not hold.
func (ix *Graph) Cite(id string) string {
	n := ix.CitedNode(id)
	if n == nil {
		return ""
	}
	return model.Cite(ix.Docs[n.DocID], n)
}

// CitedNode is the node a cite of id names: id's own node, or for an
// analysis node the node it was made from (nil for an unknown id).
func (ix *Graph) CitedNode(id string) *model.ContentNode {
	n := ix.Nodes[id]
	for range 4 { // a summary of a summary at most; a cycle cannot loop
		if n == nil || n.Source == "" {
			break
		}
		src := ix.Nodes[n.Source]
		if src == nil {
			break // the source is gone: the location the summary carries
		}
		n = src
	}
	return n
}

// Cites maps ids to their cites, leaving out ids the graph does not hold;
// nil when none are known.
func (ix *Graph) Cites(ids []string) map[string]string {
	var out map[string]string
	for _, id := range ids {
		if c := ix.Cite(id); c != "" {
			if out == nil {
				out = make(map[string]string, len(ids))
			}
			out[id] = c
		}
	}
	return out
}
