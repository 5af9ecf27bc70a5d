package clusters

import (
	"cmp"
	"slices"
)

// Link is how strongly two clusters are linked: the summed weight and the
// number of the edges between their members. A is the larger cluster (the
// lower index of Result.Clusters), B the other.
type Link struct {
	A, B   int
	Weight float64
	Edges  int
}

// Links sums the edges between clusters.
//
//	var ls clusters.Links
//	for _, e := range edges { ls.Add(r.Of(e.From), r.Of(e.To), e.Weight) }
//	strongest := ls.List()
type Links struct {
	sum map[[2]int]*Link
}

// Add counts an edge between a member of cluster a and one of cluster b;
// an edge inside one cluster, or with an end in none (−1), is no link.
func (ls *Links) Add(a, b int, weight float64) {
	if a < 0 || b < 0 || a == b {
		return
	}
	if a > b {
		a, b = b, a
	}
	if ls.sum == nil {
		ls.sum = map[[2]int]*Link{}
	}
	l := ls.sum[[2]int{a, b}]
	if l == nil {
		l = &Link{A: a, B: b}
		ls.sum[[2]int{a, b}] = l
	}
	l.Weight += weight
	l.Edges++
}

// List is the links, strongest first (by weight, then edges, then the
// clusters' order).
func (ls *Links) List() []Link {
	out := make([]Link, 0, len(ls.sum))
	for _, l := range ls.sum {
		out = append(out, *l)
	}
	slices.SortFunc(out, func(x, y Link) int {
		if x.Weight != y.Weight {
			return cmp.Compare(y.Weight, x.Weight)
		}
		if x.Edges != y.Edges {
			return cmp.Compare(y.Edges, x.Edges)
		}
		if x.A != y.A {
			return cmp.Compare(x.A, y.A)
		}
		return cmp.Compare(x.B, y.B)
	})
	return out
}
