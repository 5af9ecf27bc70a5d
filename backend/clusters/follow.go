package clusters

import "fmt"

// Follow gives each cluster of r the id — and so the colour — of the
// cluster of prev it continues, so that what a person chose by a cluster (a
// question's scope, the clusters expanded on the page) and the colours they
// have learnt survive a change to the library that moves the clusters only
// a little. A cluster continues an old one when more than half of each
// one's concepts are the other's: a split or a merge makes new ids, and no
// old id can go to two clusters. Other stays Other. A cluster that
// continues none keeps the id Build gave it, unless a continuing cluster
// took that id; then it takes "c:" + the next of its concepts, most central
// first, that no cluster has. The order of the clusters is Build's.
func (r *Result) Follow(prev *Result) {
	if prev == nil || r == nil {
		return
	}
	oldOf := make(map[string]int)
	for i, c := range prev.Clusters {
		if c.ID == OtherID {
			continue
		}
		for _, id := range c.Concepts {
			oldOf[id] = i
		}
	}
	carried := make([]string, len(r.Clusters))
	taken := map[string]bool{OtherID: true}
	for n, c := range r.Clusters {
		if c.ID == OtherID {
			continue
		}
		shared := make(map[int]int)
		for _, id := range c.Concepts {
			if o, ok := oldOf[id]; ok {
				shared[o]++
			}
		}
		best, bestShared := -1, 0
		for o, k := range shared {
			if 2*k > len(c.Concepts) && 2*k > len(prev.Clusters[o].Concepts) && (k > bestShared || k == bestShared && o < best) {
				best, bestShared = o, k
			}
		}
		if best >= 0 {
			carried[n] = prev.Clusters[best].ID
			taken[carried[n]] = true
		}
	}
	for n := range r.Clusters {
		c := &r.Clusters[n]
		if c.ID == OtherID {
			continue
		}
		switch {
		case carried[n] != "":
			c.ID = carried[n]
		case taken[c.ID]:
			id := c.ID
			for _, concept := range c.Concepts {
				if !taken["c:"+concept] {
					id = "c:" + concept
					break
				}
			}
			if taken[id] { // every one of its concepts names another cluster
				id = fmt.Sprintf("%s#%d", c.ID, n)
			}
			c.ID = id
		}
		taken[c.ID] = true
		c.Colour = Colour(c.ID)
	}
}
