package clusters

import (
	"hash/maphash"
	"math"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// seed keys Fingerprint for this process (fingerprints are compared in
// memory only, never stored).
var seed = maphash.MakeSeed()

// Fingerprint is a hash of everything Build reads from ix: concepts and
// their names, documents and their titles, sections (summaries aside)
// with their documents and parents, and the about, related, links and
// symbol edges from them. Two indexes with the same fingerprint get the
// same clusters, so a workspace keeps its clusters across writes that
// change none of it (access times, summaries). Items are hashed one by
// one and summed, so map order does not matter; it costs a pass over the
// index, a fraction of Build.
func Fingerprint(ix *index.Graph) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	var sum uint64
	item := func() {
		sum += h.Sum64()
		h.Reset()
	}
	edges := func(es []model.Edge) {
		for _, e := range es {
			if e.Kind == model.EdgeAbout || e.Kind == model.EdgeRelated || e.Kind == model.EdgeLinks || e.Kind.SymbolEdge() {
				h.WriteString(string(e.Kind))
				h.WriteByte(0)
				h.WriteString(e.From)
				h.WriteByte(0)
				h.WriteString(e.To)
				var w [8]byte
				bits := math.Float64bits(e.Weight)
				for i := range w {
					w[i] = byte(bits >> (8 * i))
				}
				h.Write(w[:])
				item()
			}
		}
	}
	for id, c := range ix.Concepts {
		h.WriteByte('c')
		h.WriteString(id)
		h.WriteByte(0)
		h.WriteString(c.Name)
		item()
		edges(ix.Out[id])
	}
	for id, d := range ix.Docs {
		h.WriteByte('d')
		h.WriteString(id)
		h.WriteByte(0)
		h.WriteString(d.Title)
		item()
	}
	for id, n := range ix.Nodes {
		if n.Source != "" {
			continue
		}
		h.WriteByte('n')
		h.WriteString(id)
		h.WriteByte(0)
		h.WriteString(n.DocID)
		h.WriteByte(0)
		h.WriteString(n.Parent)
		item()
		edges(ix.Out[id])
	}
	return sum
}
