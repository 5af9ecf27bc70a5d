package clusters

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// Run with:
//
//	go test ./backend/clusters -run '^$' -bench . -benchtime 5x
//
// BenchmarkBuild is the whole of Build (concept graph, Louvain, folding,
// assignment, names) on synthetic libraries of 50,000 sections; the
// graph view's cluster work at that size is Fingerprint plus Build once,
// then Fingerprint per new generation. BenchmarkLouvain is Louvain alone
// on a graph of 50,000 nodes, each with about 20 edges.

// syntheticLibrary is sections sections in documents of 40, about
// concepts concepts in subjects of 50: each section is about one to four
// concepts of its document's subject and, one time in ten, one of another
// subject; each concept has a few related edges, one in nine to another
// subject.
func syntheticLibrary(sections, concepts int) *index.Graph {
	rng := rand.New(rand.NewPCG(1, 2))
	ix := index.NewGraph()
	const perSubject, perDoc = 50, 40
	subjects := max(1, concepts/perSubject)
	concept := func(subject int) string {
		return fmt.Sprintf("c-%06d", (subject*perSubject+rng.IntN(perSubject))%concepts)
	}
	for c := range concepts {
		id := fmt.Sprintf("c-%06d", c)
		ix.Concepts[id] = &model.Concept{ID: id, Name: fmt.Sprintf("topic %c%c word%d", 'a'+c%26, 'a'+c/26%26, c%7)}
	}
	for c := range concepts {
		s := c / perSubject
		for range 3 {
			to := concept(s)
			if rng.IntN(9) == 0 {
				to = concept(rng.IntN(subjects))
			}
			ix.AddEdge(model.Edge{Kind: model.EdgeRelated, From: fmt.Sprintf("c-%06d", c), To: to, Weight: 0.6 + 0.3*rng.Float64()})
		}
	}
	for n := range sections {
		d := n / perDoc
		doc := fmt.Sprintf("d-%05d", d)
		if ix.Docs[doc] == nil {
			ix.Docs[doc] = &model.Document{ID: doc, Key: doc, Path: doc + ".md", Title: fmt.Sprintf("Notes on subject %d, part %d", d%subjects, d)}
		}
		id := fmt.Sprintf("n-%06d", n)
		ix.Nodes[id] = &model.ContentNode{ID: id, DocID: doc}
		ix.DocNodes[doc] = append(ix.DocNodes[doc], id)
		s := d % subjects
		for range 1 + rng.IntN(4) {
			ix.AddEdge(model.Edge{Kind: model.EdgeAbout, From: id, To: concept(s), Weight: 0.7 + 0.3*rng.Float64()})
		}
		if rng.IntN(10) == 0 {
			ix.AddEdge(model.Edge{Kind: model.EdgeAbout, From: id, To: concept(rng.IntN(subjects)), Weight: 0.7})
		}
	}
	return ix
}

func BenchmarkBuild(b *testing.B) {
	for _, concepts := range []int{2_000, 12_500} {
		ix := syntheticLibrary(50_000, concepts)
		b.Run(fmt.Sprintf("50000sections-%dconcepts", concepts), func(b *testing.B) {
			var r *Result
			for b.Loop() {
				r = Build(ix, Defaults)
			}
			b.ReportMetric(float64(len(r.Clusters)), "clusters")
		})
	}
}

func BenchmarkFingerprint(b *testing.B) {
	ix := syntheticLibrary(50_000, 2_000)
	for b.Loop() {
		Fingerprint(ix)
	}
}

func BenchmarkLouvain(b *testing.B) {
	const n, groups, degree = 50_000, 500, 20
	rng := rand.New(rand.NewPCG(3, 4))
	bl := NewBuilder(n)
	size := n / groups
	for i := range n {
		for range degree / 2 {
			j := (i/size)*size + rng.IntN(size)
			if rng.IntN(10) == 0 {
				j = rng.IntN(n)
			}
			bl.Add(i, j, 0.5+rng.Float64())
		}
	}
	g := bl.Graph()
	var comm []int32
	for b.Loop() {
		comm = Louvain(g, Defaults.Resolution, 1)
	}
	k := int32(0)
	for _, c := range comm {
		k = max(k, c+1)
	}
	b.ReportMetric(float64(k), "communities")
	b.ReportMetric(Modularity(g, comm, 1), "modularity")
}
