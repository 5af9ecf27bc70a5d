package clusters

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A library that grows keeps its clusters' ids and colours, even when a
// cluster's most central concept changes.
func TestFollowKeepsTheIdsOfClustersThatContinue(t *testing.T) {
	l := twoSubjects()
	before := Build(l.ix, Defaults)
	require.Len(t, before.Clusters, 2)
	ids := map[string]string{} // a concept of each subject → its cluster's id
	for _, c := range before.Clusters {
		ids[c.Concepts[len(c.Concepts)-1][:1]] = c.ID
	}

	// More about Cargo's least central concept than about anything else:
	// it becomes the cluster's most central, and Build alone names the
	// cluster after it.
	cargo := before.Clusters[before.Of("c1")]
	least := cargo.Concepts[len(cargo.Concepts)-1]
	for s := range 12 {
		l.section(fmt.Sprintf("n-more-%d", s), "d-cargo1", "", least, 0.95, cargo.Concepts[s%4], 0.6)
	}
	after := Build(l.ix, Defaults)
	require.Len(t, after.Clusters, 2)
	moved := after.Clusters[after.Of("c1")]
	require.Equal(t, "c:"+least, moved.ID, "the test needs the central concept to change")

	after.Follow(before)
	for _, c := range after.Clusters {
		assert.Equal(t, ids[c.Concepts[0][:1]], c.ID, "cluster of %v", c.Concepts)
		assert.Equal(t, Colour(c.ID), c.Colour)
	}
	assert.Equal(t, after.Of("c1"), after.Find(cargo.ID), "a scope by the old id finds the cluster")
}

// A split or a merge makes new ids; ids are never shared, and Other stays
// Other.
func TestFollowGivesSplitsNewIdsAndNeverRepeatsOne(t *testing.T) {
	prev := &Result{Clusters: []Cluster{
		{ID: "c:a1", Concepts: []string{"a1", "a2", "a3", "a4"}},
		{ID: "c:b1", Concepts: []string{"b1", "b2", "b3"}},
		{ID: OtherID, Concepts: []string{"x"}},
	}}
	r := &Result{Clusters: []Cluster{
		{ID: "c:a1", Concepts: []string{"a1", "a2"}},             // half of a: a split, no majority
		{ID: "c:a3", Concepts: []string{"a3", "a4", "n1"}},       // the other half
		{ID: "c:b2", Concepts: []string{"b2", "b3", "b1", "n2"}}, // continues b (3 of 3, 3 of 4)
		{ID: "c:n3", Concepts: []string{"n3", "b9"}},
		{ID: OtherID, Concepts: []string{"x", "y"}},
	}}
	r.Follow(prev)
	got := []string{}
	for _, c := range r.Clusters {
		got = append(got, c.ID)
		if c.ID != OtherID {
			assert.Equal(t, Colour(c.ID), c.Colour)
		}
	}
	assert.Equal(t, []string{"c:a1", "c:a3", "c:b1", "c:n3", OtherID}, got)

	// A fresh id that an old cluster's continuation took moves to the next concept.
	prev = &Result{Clusters: []Cluster{{ID: "c:p", Concepts: []string{"p", "q", "r"}}}}
	r = &Result{Clusters: []Cluster{
		{ID: "c:p", Concepts: []string{"p", "s"}},      // p is central here now, but this is not p's old cluster
		{ID: "c:q", Concepts: []string{"q", "r", "t"}}, // this is: it takes "c:p"
	}}
	r.Follow(prev)
	assert.Equal(t, "c:s", r.Clusters[0].ID)
	assert.Equal(t, "c:p", r.Clusters[1].ID)
}
