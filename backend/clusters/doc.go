// Package clusters finds the communities of a workspace's concept graph:
// groups of concepts that belong together, with the sections and
// documents mostly about them. The graph view draws each as one node when
// zoomed out, and a question can be asked of one ("cluster:ID" scope).
//
//	r := clusters.Build(ix, clusters.Defaults)
//	for _, c := range r.Clusters { fmt.Println(c.ID, c.Name, len(c.Concepts), c.Sections) }
//	c := r.Of(sectionID) // its cluster's index, −1 when none
//
// # The concept graph
//
// Concepts are linked by what says they go together: sections about both
// (the strongest evidence), documents about both, a link or a call from a
// section about one to a section or document about the other, and their
// related edges. Related edges count for little (Options.Related): they
// are made once, from vector similarity alone, when a concept is created,
// and on a library of unrelated subjects one in nine joins two of them at
// the same similarity as the rest. Every mention of a concept is weighed
// by how specific the concept is (Options.Specificity): a concept that
// sections of nearly every document are about ("Introduction",
// "Abstract") would otherwise tie unrelated documents together.
//
// # Communities
//
// Louvain (Blondel et al. 2008, written here on compressed rows: gonum's
// graph/community.Modularize took 40 s on a graph of 50,000 nodes and
// 500,000 edges that this one divides in 0.3 s, to the same modularity)
// finds
// the division of highest modularity at Options.Resolution, visiting nodes
// in an order shuffled by a fixed seed, so the same workspace always gets
// the same clusters. A cluster of fewer than Options.MinConcepts concepts
// folds into the one it is most linked to — a pair of concepts is too
// small to be a subject of its own, and on the graph they sit best beside
// their nearest neighbour — and one linked to nothing goes to the Other
// cluster, which says honestly that they belong nowhere. Past
// Options.MaxClusters the smallest fold the same way.
//
// # Names, ids, colours
//
// A cluster's id is "c:" + its most central concept's id (the highest
// weighted degree inside it), so it lives as long as that concept stays
// central; its colour is a hash of the id modulo PaletteSize. Its name is
// made of its two or three best concepts — central, its own rather than
// shared with other clusters, and with a name few other clusters have —
// led by a word most of its documents' titles share when they do.
package clusters
