package clusters

import (
	"math/rand/v2"
	"slices"
)

// Weighted is an undirected graph with weighted edges on nodes 0..n-1,
// held as compressed rows: node i's neighbours are to[start[i]:start[i+1]]
// with weights w[start[i]:start[i+1]]. Every edge is in both rows; a loop
// (i, i) is in row i once. Build one with a Builder.
type Weighted struct {
	start []int32
	to    []int32
	w     []float64
}

// Len is the number of nodes.
func (g *Weighted) Len() int { return len(g.start) - 1 }

// Builder gathers edges for a Weighted graph; an edge added twice has the
// sum of its weights.
type Builder struct {
	n     int
	edges []edge
}

type edge struct {
	a, b int32 // a ≤ b
	w    float64
}

// NewBuilder starts a graph of n nodes.
func NewBuilder(n int) *Builder { return &Builder{n: n} }

// Grow makes room for n more edges.
func (b *Builder) Grow(n int) { b.edges = slices.Grow(b.edges, n) }

// Add adds weight w to the edge between a and b (a loop when a == b).
// Weights that are not positive are ignored: modularity has no use for
// them.
func (b *Builder) Add(a, c int, w float64) {
	if !(w > 0) || a < 0 || c < 0 || a >= b.n || c >= b.n {
		return
	}
	if a > c {
		a, c = c, a
	}
	b.edges = append(b.edges, edge{int32(a), int32(c), w})
}

// Graph sorts and merges the edges into compressed rows, neighbours
// ascending. The same edges added in the same order give the same graph
// to the last bit (duplicates are summed in the order Add saw them).
func (b *Builder) Graph() *Weighted {
	b.sortEdges()
	merged := b.edges[:0]
	for _, e := range b.edges {
		if k := len(merged) - 1; k >= 0 && merged[k].a == e.a && merged[k].b == e.b {
			merged[k].w += e.w
			continue
		}
		merged = append(merged, e)
	}
	b.edges = merged
	deg := make([]int32, b.n+1)
	for _, e := range merged {
		deg[e.a]++
		if e.a != e.b {
			deg[e.b]++
		}
	}
	g := &Weighted{start: make([]int32, b.n+1)}
	for i := 0; i < b.n; i++ {
		g.start[i+1] = g.start[i] + deg[i]
	}
	total := g.start[b.n]
	g.to, g.w = make([]int32, total), make([]float64, total)
	fill := slices.Clone(g.start[:b.n])
	// In (a, b) order, row i first receives the smaller nodes a of the
	// edges (a, i), then the nodes b ≥ i of the edges (i, b): every row
	// comes out ascending.
	for _, e := range merged {
		g.to[fill[e.a]], g.w[fill[e.a]] = e.b, e.w
		fill[e.a]++
		if e.a != e.b {
			g.to[fill[e.b]], g.w[fill[e.b]] = e.a, e.w
			fill[e.b]++
		}
	}
	return g
}

// sortEdges orders the edges by (a, b), keeping the order of equal ones:
// two stable counting sorts, by b then by a.
func (b *Builder) sortEdges() {
	by := func(in, out []edge, key func(edge) int32) {
		count := make([]int, b.n+1)
		for _, e := range in {
			count[key(e)+1]++
		}
		for i := 1; i <= b.n; i++ {
			count[i] += count[i-1]
		}
		for _, e := range in {
			out[count[key(e)]] = e
			count[key(e)]++
		}
	}
	tmp := make([]edge, len(b.edges))
	by(b.edges, tmp, func(e edge) int32 { return e.b })
	by(tmp, b.edges, func(e edge) int32 { return e.a })
}

// degrees are the weighted degrees (a loop counted once) and their sum.
func (g *Weighted) degrees() ([]float64, float64) {
	k := make([]float64, g.Len())
	total := 0.0
	for i := range k {
		for e := g.start[i]; e < g.start[i+1]; e++ {
			k[i] += g.w[e]
		}
		total += k[i]
	}
	return k, total
}

// Louvain finds communities that maximise modularity at the given
// resolution (Blondel et al. 2008): every node moves to the neighbouring
// community that gains the most, until none gains; the communities become
// the nodes of a smaller graph, and so again until nothing moves. Nodes
// are visited in an order shuffled by seed, so the same graph and seed
// always give the same communities. A higher resolution makes more,
// smaller communities. Each community is then split into the pieces that
// are connected within it (Louvain can leave one joined by nodes that
// moved away). It returns each node's community, numbered 0..k-1 in order
// of their lowest node.
func Louvain(g *Weighted, resolution float64, seed uint64) []int32 {
	n := g.Len()
	member := make([]int32, n) // original node → node of the current level
	for i := range member {
		member[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(seed, 0x10c1a5))
	level := g
	for {
		comm, moved := moveNodes(level, resolution, rng)
		k := renumber(comm)
		if !moved || k == level.Len() {
			break
		}
		for i := range member {
			member[i] = comm[member[i]]
		}
		level = aggregate(level, comm, k)
	}
	return splitDisconnected(g, member)
}

// moveNodes is Louvain's first phase on one level: every node starts in a
// community of its own and moves to the neighbouring community with the
// best modularity gain, in rounds over all nodes until a round moves none
// (or gains next to nothing). It reports whether any node moved.
func moveNodes(g *Weighted, resolution float64, rng *rand.Rand) ([]int32, bool) {
	n := g.Len()
	k, m2 := g.degrees()
	comm := make([]int32, n)
	tot := make([]float64, n) // summed degree of each community
	for i := range comm {
		comm[i] = int32(i)
		tot[i] = k[i]
	}
	if m2 == 0 {
		return comm, false
	}
	order := rng.Perm(n)
	weightTo := make([]float64, n) // scratch: node's weight to each community
	var near []int32               // the communities weightTo holds
	moved := false
	for round := 0; round < maxRounds; round++ {
		moves := 0
		gain := 0.0
		for _, i := range order {
			own := comm[i]
			near = near[:0]
			for e := g.start[i]; e < g.start[i+1]; e++ {
				j := g.to[e]
				if int(j) == i {
					continue
				}
				c := comm[j]
				if weightTo[c] == 0 {
					near = append(near, c)
				}
				weightTo[c] += g.w[e]
			}
			tot[own] -= k[i]
			scale := resolution * k[i] / m2
			best, bestGain := own, weightTo[own]-tot[own]*scale
			for _, c := range near {
				if gn := weightTo[c] - tot[c]*scale; gn > bestGain { // strictly: a tie stays
					best, bestGain = c, gn
				}
			}
			if best != own {
				gain += bestGain - (weightTo[own] - tot[own]*scale)
			}
			tot[best] += k[i]
			comm[i] = best
			for _, c := range near {
				weightTo[c] = 0
			}
			weightTo[own] = 0
			if best != own {
				moves++
			}
		}
		if moves == 0 {
			break
		}
		moved = true
		if gain/m2 < minGain {
			break
		}
	}
	return comm, moved
}

// Bounds of a level's first phase: at most maxRounds rounds over the
// nodes, and a round that gains less modularity than minGain is the last.
const (
	maxRounds = 64
	minGain   = 1e-7
)

// renumber makes community labels 0..k-1 in order of their lowest node
// and returns k.
func renumber(comm []int32) int {
	label := make([]int32, len(comm))
	for i := range label {
		label[i] = -1
	}
	k := int32(0)
	for i, c := range comm {
		if label[c] < 0 {
			label[c] = k
			k++
		}
		comm[i] = label[c]
	}
	return int(k)
}

// aggregate is the graph whose nodes are g's communities: the weight
// between two is the sum of the weights between their members, and a
// community's loop holds the weights inside it (each inner edge from both
// ends, so that degrees and the total stay what they were).
func aggregate(g *Weighted, comm []int32, k int) *Weighted {
	members := make([][]int32, k)
	for i, c := range comm {
		members[c] = append(members[c], int32(i))
	}
	out := &Weighted{start: make([]int32, k+1)}
	sum := make([]float64, k)
	var near []int32
	for c := range k {
		near = near[:0]
		loop := 0.0
		for _, i := range members[c] {
			for e := g.start[i]; e < g.start[i+1]; e++ {
				d := comm[g.to[e]]
				if int(d) == c {
					loop += g.w[e]
					continue
				}
				if sum[d] == 0 {
					near = append(near, d)
				}
				sum[d] += g.w[e]
			}
		}
		if loop > 0 {
			near = append(near, int32(c))
			sum[c] = loop
		}
		slices.Sort(near)
		for _, d := range near {
			out.to = append(out.to, d)
			out.w = append(out.w, sum[d])
			sum[d] = 0
		}
		out.start[c+1] = int32(len(out.to))
	}
	return out
}

// splitDisconnected gives every piece of a community that is not
// connected to the rest within it a label of its own, and renumbers.
func splitDisconnected(g *Weighted, comm []int32) []int32 {
	n := g.Len()
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(int32) int32
	find = func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for i := 0; i < n; i++ {
		for e := g.start[i]; e < g.start[i+1]; e++ {
			if j := g.to[e]; comm[j] == comm[i] {
				a, b := find(int32(i)), find(j)
				if a != b {
					parent[max(a, b)] = min(a, b)
				}
			}
		}
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = find(int32(i))
	}
	renumber(out)
	return out
}

// Modularity is the modularity of a division of g into communities at the
// given resolution: the weight inside communities less what a random
// graph with the same degrees would put there, as a share of the whole.
func Modularity(g *Weighted, comm []int32, resolution float64) float64 {
	k, m2 := g.degrees()
	if m2 == 0 {
		return 0
	}
	in := make([]float64, g.Len())
	tot := make([]float64, g.Len())
	for i := 0; i < g.Len(); i++ {
		tot[comm[i]] += k[i]
		for e := g.start[i]; e < g.start[i+1]; e++ {
			if comm[g.to[e]] == comm[i] {
				in[comm[i]] += g.w[e]
			}
		}
	}
	q := 0.0
	for c, t := range tot {
		q += in[c]/m2 - resolution*(t/m2)*(t/m2)
	}
	return q
}
