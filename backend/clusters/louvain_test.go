package clusters

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cliques is k cliques of n nodes (weight 1), clique i's last node linked
// to clique i+1's first by an edge of weight bridge (none when 0).
func cliques(k, n int, bridge float64) *Weighted {
	b := NewBuilder(k * n)
	for c := range k {
		for i := range n {
			for j := i + 1; j < n; j++ {
				b.Add(c*n+i, c*n+j, 1)
			}
		}
		if bridge > 0 && c+1 < k {
			b.Add(c*n+n-1, (c+1)*n, bridge)
		}
	}
	return b.Graph()
}

// planted is a random graph of k groups of n nodes: each pair inside a
// group is linked with probability pIn, across groups with pOut.
func planted(k, n int, pIn, pOut float64, seed uint64) *Weighted {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := NewBuilder(k * n)
	for i := range k * n {
		for j := i + 1; j < k*n; j++ {
			p := pOut
			if i/n == j/n {
				p = pIn
			}
			if rng.Float64() < p {
				b.Add(i, j, 0.5+rng.Float64())
			}
		}
	}
	return b.Graph()
}

func TestTwoDenseGroupsJoinedByOneEdgeAreTwoCommunities(t *testing.T) {
	g := cliques(2, 6, 1)
	comm := Louvain(g, 1, 1)
	require.Len(t, comm, 12)
	for i := range 6 {
		assert.Equal(t, comm[0], comm[i], "node %d is in the first group", i)
		assert.Equal(t, comm[6], comm[6+i], "node %d is in the second group", 6+i)
	}
	assert.NotEqual(t, comm[0], comm[6])
	assert.Greater(t, Modularity(g, comm, 1), 0.4)
}

func TestLouvainFindsPlantedGroupsAndBeatsTrivialDivisions(t *testing.T) {
	const k, n = 8, 25
	g := planted(k, n, 0.4, 0.01, 3)
	comm := Louvain(g, 1, 1)
	// Every planted group lies (almost) wholly in one community.
	for grp := range k {
		count := map[int32]int{}
		for i := grp * n; i < (grp+1)*n; i++ {
			count[comm[i]]++
		}
		best := 0
		for _, c := range count {
			best = max(best, c)
		}
		assert.GreaterOrEqual(t, best, n-1, "group %d is split: %v", grp, count)
	}
	all := make([]int32, g.Len())
	alone := make([]int32, g.Len())
	truth := make([]int32, g.Len())
	for i := range alone {
		alone[i], truth[i] = int32(i), int32(i/n)
	}
	q := Modularity(g, comm, 1)
	assert.Greater(t, q, Modularity(g, all, 1))
	assert.Greater(t, q, Modularity(g, alone, 1))
	assert.GreaterOrEqual(t, q, Modularity(g, truth, 1)-1e-9, "at least as good as the planted division")
}

func TestLouvainIsDeterministic(t *testing.T) {
	g := planted(10, 30, 0.2, 0.02, 5)
	first := Louvain(g, 1.5, 1)
	for range 3 {
		assert.Equal(t, first, Louvain(g, 1.5, 1))
	}
	// The same edges added in another order make the same graph.
	b := NewBuilder(4)
	b.Add(2, 3, 1)
	b.Add(0, 1, 2)
	b.Add(1, 0, 0.5)
	b.Add(3, 3, 1)
	c := NewBuilder(4)
	c.Add(0, 1, 2)
	c.Add(3, 3, 1)
	c.Add(1, 0, 0.5)
	c.Add(3, 2, 1)
	assert.Equal(t, b.Graph(), c.Graph())
}

func TestHigherResolutionMakesMoreCommunities(t *testing.T) {
	g := planted(12, 20, 0.3, 0.03, 9)
	count := func(comm []int32) int {
		k := int32(0)
		for _, c := range comm {
			k = max(k, c+1)
		}
		return int(k)
	}
	low, high := count(Louvain(g, 0.3, 1)), count(Louvain(g, 3, 1))
	assert.Less(t, low, high)
}

func TestGraphsWithoutEdgesLeaveEveryNodeAlone(t *testing.T) {
	assert.Empty(t, Louvain(NewBuilder(0).Graph(), 1, 1))
	comm := Louvain(NewBuilder(3).Graph(), 1, 1)
	assert.Equal(t, []int32{0, 1, 2}, comm)
	b := NewBuilder(3)
	b.Add(0, 1, 0) // not positive: ignored
	b.Add(1, 2, -1)
	b.Add(0, 5, 1) // no such node: ignored
	assert.Equal(t, []int32{0, 1, 2}, Louvain(b.Graph(), 1, 1))
}

func TestACommunityInTwoPiecesIsSplit(t *testing.T) {
	g := cliques(2, 3, 0) // two triangles, no edge between
	assert.Equal(t, []int32{0, 0, 0, 1, 1, 1}, splitDisconnected(g, []int32{0, 0, 0, 0, 0, 0}))
}

func TestTinyCommunitiesFoldIntoTheirBestLinkedNeighbour(t *testing.T) {
	// Two cliques of 5 (0–4, 5–9), a pair (10, 11) tied to the second
	// more than the first, and node 12 linked to nothing.
	b := NewBuilder(13)
	for c := range 2 {
		for i := range 5 {
			for j := i + 1; j < 5; j++ {
				b.Add(c*5+i, c*5+j, 1)
			}
		}
	}
	b.Add(10, 11, 3)
	b.Add(10, 2, 0.2)
	b.Add(11, 7, 0.5)
	g := b.Graph()
	comm := []int32{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3}
	label, other := fold(g, comm, 3, 40)
	assert.Equal(t, []int32{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2}, label)
	assert.Equal(t, int32(2), other, "the unlinked node is Other")

	// With room for two clusters only (Other included), the smaller
	// clique folds too.
	label, other = fold(g, comm, 3, 2)
	assert.Equal(t, []int32{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, label)
	assert.Equal(t, int32(1), other)
}
