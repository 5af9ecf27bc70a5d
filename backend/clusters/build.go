package clusters

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// Options tune Build. Defaults are the measured ones (BENCHMARKS.md,
// "clusters of the concept graph").
type Options struct {
	// Resolution is modularity's: higher makes more, smaller clusters.
	Resolution float64
	// Seed orders Louvain's visits (the same seed, the same clusters).
	Seed uint64
	// MinConcepts: a cluster of fewer concepts folds into the cluster it
	// is most linked to, or into Other when it is linked to none.
	MinConcepts int
	// The weights of the evidence that two concepts belong together:
	// Related times a related edge's cosine; Section for a section about
	// both; Document for a document about both; Link for a link or a
	// symbol edge from a section about one to a section or document about
	// the other. Each piece of evidence is spread over the pairs it
	// makes, so a section about eight concepts weighs no more than one
	// about two (see conceptGraph).
	Related, Section, Document, Link float64
	// Specificity is the power of a concept's specificity that weighs
	// every mention of it: ln(1+D/df)/ln(1+D) for a concept that sections
	// of df of the D documents are about. A concept every document has a
	// section about ("Introduction", "Abstract") otherwise ties unrelated
	// documents together.
	Specificity float64
	// MaxClusters bounds the clusters, Other included: past it, the
	// smallest fold into the cluster they are most linked to.
	MaxClusters int
}

// Defaults are the options Loom clusters with.
var Defaults = Options{Resolution: 1.5, Seed: 1, MinConcepts: 3, MaxClusters: 40, Related: 0.25, Section: 1, Document: 0.5, Link: 0.5, Specificity: 2}

// PaletteSize is the number of colours the page has for clusters: a
// cluster's Colour is an index below it.
const PaletteSize = 12

// OtherID is the id of the cluster that holds the concepts linked to
// nothing else (and their sections); it has no central concept to be
// named after.
const OtherID = "c:other"

// OtherName is that cluster's name.
const OtherName = "Other"

// MaxTop bounds a cluster's Top concepts.
const MaxTop = 5

// Cluster is one community: concepts that belong together, and the
// sections and documents mostly about them.
type Cluster struct {
	// ID is "c:" + the id of its most central concept (OtherID for Other).
	ID     string
	Name   string
	Colour int
	// Concepts are its concepts' ids, most central first (central: the
	// highest weighted degree to the cluster's other concepts).
	Concepts []string
	// Sections and Documents count the content nodes and documents that
	// belong to it (when it was built).
	Sections, Documents int
	sections            []string // their ids, in id order
}

// SectionIDs are the ids of the content nodes that belonged to the cluster
// when it was built (summaries aside), in id order; shared, not to be
// changed.
func (c *Cluster) SectionIDs() []string { return c.sections }

// Top are the ids of its most central concepts, best first (≤ MaxTop).
func (c *Cluster) Top() []string { return c.Concepts[:min(MaxTop, len(c.Concepts))] }

// Result is a workspace's clusters, largest first (most sections, then
// most concepts), with what belongs to each.
type Result struct {
	Clusters []Cluster
	of       map[string]int32 // concept, content node and document id → cluster
}

// Of is the cluster of a concept, content node or document id, −1 when it
// has none (or the id is unknown).
func (r *Result) Of(id string) int {
	if c, ok := r.of[id]; ok {
		return int(c)
	}
	return -1
}

// NodeOf is the cluster of a content node: its own, else (a summary made
// after the clusters were) its source's, else its document's.
func (r *Result) NodeOf(n *model.ContentNode) int {
	if c := r.Of(n.ID); c >= 0 {
		return c
	}
	if n.Source != "" {
		if c := r.Of(n.Source); c >= 0 {
			return c
		}
	}
	return r.Of(n.DocID)
}

// Find is the index of the cluster with this id, −1 when there is none.
func (r *Result) Find(id string) int {
	return slices.IndexFunc(r.Clusters, func(c Cluster) bool { return c.ID == id })
}

// Build clusters the concept graph of ix: concepts are linked by their
// related edges and by the sections and documents about both of them (see
// Options); Louvain finds the communities; tiny ones fold into the
// community they are most linked to (or into Other). A section belongs to
// the cluster its concepts' weights point to most; a section about no
// concept to its enclosing section's, else its document's, else to that of
// what it links to; a document to the cluster most of its sections belong
// to; a summary to its source's. The same index and options always give
// the same clusters.
func Build(ix *index.Graph, opt Options) *Result {
	in := gather(ix)
	in.weighBySpecificity(opt.Specificity)
	g := in.conceptGraph(ix, opt)
	comm := Louvain(g, opt.Resolution, opt.Seed)
	label, other := fold(g, comm, opt.MinConcepts, opt.MaxClusters)
	return in.result(ix, g, label, other)
}

// input is the index as clustering reads it: concepts, sections (every
// content node but summaries) and documents, each in id order.
type input struct {
	concepts []string
	cidx     map[string]int32
	sections []section
	sidx     map[string]int32
	docs     []string
	didx     map[string]int32
	docSecs  [][]int32
}

type section struct {
	id       string
	doc      int32 // −1: no such document
	parent   int32 // −1: none
	mentions []mention
	// links are the sections (t ≥ 0) and documents (−t−1) its links and
	// symbol edges point to.
	links []int32
}

// mention is a section's link to a concept, with its similarity.
type mention struct {
	c int32
	w float64
}

func gather(ix *index.Graph) *input {
	in := &input{cidx: make(map[string]int32, len(ix.Concepts)), didx: make(map[string]int32, len(ix.Docs))}
	for id := range ix.Concepts {
		in.concepts = append(in.concepts, id)
	}
	slices.Sort(in.concepts)
	for i, id := range in.concepts {
		in.cidx[id] = int32(i)
	}
	for id := range ix.Docs {
		in.docs = append(in.docs, id)
	}
	slices.Sort(in.docs)
	for i, id := range in.docs {
		in.didx[id] = int32(i)
	}
	ids := make([]string, 0, len(ix.Nodes))
	for id, n := range ix.Nodes {
		if n.Source == "" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	in.sidx = make(map[string]int32, len(ids))
	for i, id := range ids {
		in.sidx[id] = int32(i)
	}
	in.sections = make([]section, len(ids))
	in.docSecs = make([][]int32, len(in.docs))
	for i, id := range ids {
		n := ix.Nodes[id]
		s := section{id: id, doc: -1, parent: -1}
		if d, ok := in.didx[n.DocID]; ok {
			s.doc = d
			in.docSecs[d] = append(in.docSecs[d], int32(i))
		}
		if p, ok := in.sidx[n.Parent]; ok && n.Parent != "" {
			s.parent = p
		}
		for _, e := range ix.Out[id] {
			if e.Kind == model.EdgeLinks || e.Kind.SymbolEdge() {
				if t, ok := in.sidx[e.To]; ok {
					s.links = append(s.links, t)
				} else if d, ok := in.didx[e.To]; ok {
					s.links = append(s.links, -d-1)
				}
			}
			if e.Kind != model.EdgeAbout {
				continue
			}
			c, ok := in.cidx[e.To]
			if !ok {
				continue
			}
			if k := slices.IndexFunc(s.mentions, func(m mention) bool { return m.c == c }); k >= 0 {
				s.mentions[k].w = max(s.mentions[k].w, e.Weight)
				continue
			}
			s.mentions = append(s.mentions, mention{c, e.Weight})
		}
		// In index order, not the edges' (which differ between an index
		// loaded from the store and one an ingest built): sums of
		// similarities are then made in the same order, to the last bit.
		slices.SortFunc(s.mentions, func(x, y mention) int { return cmp.Compare(x.c, y.c) })
		slices.Sort(s.links)
		in.sections[i] = s
	}
	return in
}

// weighBySpecificity multiplies every mention's similarity by its
// concept's specificity to the power p (see Options.Specificity).
func (in *input) weighBySpecificity(p float64) {
	if p == 0 || len(in.docs) == 0 {
		return
	}
	df := make([]float64, len(in.concepts))
	last := make([]int32, len(in.concepts)) // the last document counted, +1
	for d, secs := range in.docSecs {
		for _, si := range secs {
			for _, m := range in.sections[si].mentions {
				if last[m.c] != int32(d)+1 {
					last[m.c] = int32(d) + 1
					df[m.c]++
				}
			}
		}
	}
	n := float64(len(in.docs))
	weight := make([]float64, len(in.concepts))
	for c := range weight {
		weight[c] = math.Pow(math.Log1p(n/max(1, df[c]))/math.Log1p(n), p)
	}
	for i := range in.sections {
		for k := range in.sections[i].mentions {
			in.sections[i].mentions[k].w *= weight[in.sections[i].mentions[k].c]
		}
	}
}

// maxDocConcepts bounds the concepts a document's evidence pairs (its
// best, by mentions): a long document about everything says little about
// which of its concepts go together, and its pairs grow as the square.
const maxDocConcepts = 48

// maxLinkConcepts bounds the concepts of a link's target document that
// the link pairs with the section's.
const maxLinkConcepts = 8

// conceptGraph is the weighted graph of concepts. A section about
// concepts with similarities w_i adds Section·w_i·w_j/Σw to each pair (so
// each concept gains about its own w_i in all, however many the section
// names); a document does the same with Document and its concepts'
// summed similarities over its sections; a related edge adds Related·cos;
// a link or symbol edge from section s to a section or document t adds
// Link·p_i·q_j, p and q being s's and t's concepts' shares.
func (in *input) conceptGraph(ix *index.Graph, opt Options) *Weighted {
	b := NewBuilder(len(in.concepts))
	pairs := 0 // the edges to come, but links': most of them are pairs within documents
	for _, s := range in.sections {
		pairs += len(s.mentions) * (len(s.mentions) - 1) / 2
	}
	for _, secs := range in.docSecs {
		k := 0
		for _, si := range secs {
			k += len(in.sections[si].mentions)
		}
		k = min(k, maxDocConcepts)
		pairs += k * (k - 1) / 2
	}
	b.Grow(pairs + 3*len(in.concepts))
	for i, id := range in.concepts {
		for _, e := range ix.Out[id] {
			if e.Kind != model.EdgeRelated {
				continue
			}
			if j, ok := in.cidx[e.To]; ok && int(j) != i {
				b.Add(i, int(j), opt.Related*e.Weight)
			}
		}
	}
	for _, s := range in.sections {
		pairUp(b, s.mentions, opt.Section)
	}
	docDist := make([][]mention, len(in.docs))
	mass := make([]float64, len(in.concepts))
	var touched []int32
	for d, secs := range in.docSecs {
		touched = touched[:0]
		for _, si := range secs {
			for _, m := range in.sections[si].mentions {
				if mass[m.c] == 0 {
					touched = append(touched, m.c)
				}
				mass[m.c] += m.w
			}
		}
		dist := make([]mention, len(touched))
		for k, c := range touched {
			dist[k] = mention{c, mass[c]}
			mass[c] = 0
		}
		slices.SortFunc(dist, func(x, y mention) int {
			if x.w != y.w {
				return cmp.Compare(y.w, x.w)
			}
			return cmp.Compare(x.c, y.c)
		})
		docDist[d] = dist[:min(len(dist), maxDocConcepts)]
		pairUp(b, docDist[d], opt.Document)
	}
	for _, s := range in.sections {
		if len(s.mentions) == 0 {
			continue
		}
		for _, t := range s.links {
			if t >= 0 {
				cross(b, s.mentions, in.sections[t].mentions, opt.Link)
			} else {
				d := -t - 1
				cross(b, s.mentions, docDist[d][:min(len(docDist[d]), maxLinkConcepts)], opt.Link)
			}
		}
	}
	return b.Graph()
}

// pairUp adds weight·w_i·w_j/Σw to every pair of ms.
func pairUp(b *Builder, ms []mention, weight float64) {
	if len(ms) < 2 || weight <= 0 {
		return
	}
	sum := 0.0
	for _, m := range ms {
		sum += m.w
	}
	for x := range ms {
		for y := x + 1; y < len(ms); y++ {
			b.Add(int(ms[x].c), int(ms[y].c), weight*ms[x].w*ms[y].w/sum)
		}
	}
}

// cross adds weight·p_i·q_j to every pair of a concept of from and one of
// to (p and q: shares of each side's summed similarities).
func cross(b *Builder, from, to []mention, weight float64) {
	if len(from) == 0 || len(to) == 0 || weight <= 0 {
		return
	}
	sf, st := 0.0, 0.0
	for _, m := range from {
		sf += m.w
	}
	for _, m := range to {
		st += m.w
	}
	for _, x := range from {
		for _, y := range to {
			if x.c != y.c {
				b.Add(int(x.c), int(y.c), weight*(x.w/sf)*(y.w/st))
			}
		}
	}
}

// fold merges every community of fewer than minConcepts concepts into
// the community it has the most weight to, smallest first, and then the
// smallest while there are more than maxClusters; one linked to nothing
// goes to Other. It returns each concept's cluster (labels 0..k-1 in
// order of their lowest concept; Other is label k when it has members,
// else −1).
func fold(g *Weighted, comm []int32, minConcepts, maxClusters int) ([]int32, int32) {
	k := 0
	for _, c := range comm {
		k = max(k, int(c)+1)
	}
	size := make([]int, k)
	for _, c := range comm {
		size[c]++
	}
	parent := make([]int32, k)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	agg := aggregate(g, comm, k)
	order := make([]int32, k)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return cmp.Compare(size[x], size[y]) })
	other := make([]bool, k) // roots that went to Other
	clusters := k            // roots not in Other
	toRoot := map[int32]float64{}
	for _, c := range order {
		r := find(c)
		if other[r] || size[r] >= minConcepts && clusters+1 <= maxClusters { // +1: Other
			continue
		}
		clear(toRoot)
		for e := agg.start[c]; e < agg.start[c+1]; e++ {
			if rd := find(agg.to[e]); rd != r && !other[rd] {
				toRoot[rd] += agg.w[e]
			}
		}
		best, bestW := int32(-1), 0.0
		for rd, w := range toRoot {
			if w > bestW || w == bestW && rd < best {
				best, bestW = rd, w
			}
		}
		clusters--
		if best < 0 {
			other[r] = true
			continue
		}
		parent[r] = best
		size[best] += size[r]
	}
	label := make([]int32, len(comm))
	relabel := make([]int32, k)
	for i := range relabel {
		relabel[i] = -1
	}
	next := int32(0)
	for i, c := range comm {
		if r := find(c); !other[r] {
			if relabel[r] < 0 {
				relabel[r] = next
				next++
			}
			label[i] = relabel[r]
		}
	}
	otherLabel := int32(-1)
	for i, c := range comm {
		if other[find(c)] {
			otherLabel = next
			label[i] = next
		}
	}
	return label, otherLabel
}

// result assigns sections and documents, picks each cluster's central
// concepts, id, name and colour, and orders the clusters largest first.
func (in *input) result(ix *index.Graph, g *Weighted, label []int32, other int32) *Result {
	k := 0
	for _, l := range label {
		k = max(k, int(l)+1)
	}
	secOf := in.assignSections(label, k)
	docOf := in.assignDocuments(secOf, k)
	in.followNeighbours(secOf, docOf)
	for d, l := range in.assignDocuments(secOf, k) { // documents whose sections are about no concept
		if docOf[d] < 0 {
			docOf[d] = l
		}
	}

	// Each concept's weight to its own cluster and in all (loops aside),
	// and its summed similarity over the sections about it.
	inner := make([]float64, len(in.concepts))
	total := make([]float64, len(in.concepts))
	for i := range in.concepts {
		for e := g.start[i]; e < g.start[i+1]; e++ {
			j := g.to[e]
			if int(j) == i {
				continue
			}
			total[i] += g.w[e]
			if label[j] == label[i] {
				inner[i] += g.w[e]
			}
		}
	}
	mass := make([]float64, len(in.concepts))
	for _, s := range in.sections {
		for _, m := range s.mentions {
			mass[m.c] += m.w
		}
	}
	members := make([][]int32, k)
	for i, l := range label {
		members[l] = append(members[l], int32(i))
	}
	central := func(x, y int32) int { // most central first
		if inner[x] != inner[y] {
			return cmp.Compare(inner[y], inner[x])
		}
		if mass[x] != mass[y] {
			return cmp.Compare(mass[y], mass[x])
		}
		return cmp.Compare(x, y)
	}
	cls := make([]Cluster, k)
	for l := range k {
		slices.SortFunc(members[l], central)
		c := &cls[l]
		c.Concepts = make([]string, len(members[l]))
		for x, i := range members[l] {
			c.Concepts[x] = in.concepts[i]
		}
		if int32(l) == other {
			c.ID = OtherID
		} else {
			c.ID = "c:" + c.Concepts[0]
		}
		c.Colour = Colour(c.ID)
	}
	for i, l := range secOf {
		if l >= 0 {
			cls[l].Sections++
			cls[l].sections = append(cls[l].sections, in.sections[i].id)
		}
	}
	for _, l := range docOf {
		if l >= 0 {
			cls[l].Documents++
		}
	}
	order := make([]int32, k)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		a, b := &cls[x], &cls[y]
		if (x == other) != (y == other) { // Other last, whatever its size
			if x == other {
				return 1
			}
			return -1
		}
		if a.Sections != b.Sections {
			return cmp.Compare(b.Sections, a.Sections)
		}
		if len(a.Concepts) != len(b.Concepts) {
			return cmp.Compare(len(b.Concepts), len(a.Concepts))
		}
		return cmp.Compare(a.ID, b.ID)
	})
	names(ix, in, cls, order, members, other, inner, total, mass, docOf)
	rank := make([]int32, k)
	r := &Result{Clusters: make([]Cluster, k), of: make(map[string]int32, len(in.concepts)+len(in.sections)+len(in.docs))}
	for pos, l := range order {
		rank[l] = int32(pos)
		r.Clusters[pos] = cls[l]
	}
	for i, l := range label {
		r.of[in.concepts[i]] = rank[l]
	}
	for i, l := range secOf {
		if l >= 0 {
			r.of[in.sections[i].id] = rank[l]
		}
	}
	for d, l := range docOf {
		if l >= 0 {
			r.of[in.docs[d]] = rank[l]
		}
	}
	return r
}

// assignSections gives each section about concepts the cluster their
// similarities sum highest in (ties: the lower label); −1 for the rest.
func (in *input) assignSections(label []int32, k int) []int32 {
	secOf := make([]int32, len(in.sections))
	score := make([]float64, k)
	var touched []int32
	for i, s := range in.sections {
		secOf[i] = -1
		touched = touched[:0]
		for _, m := range s.mentions {
			l := label[m.c]
			if score[l] == 0 {
				touched = append(touched, l)
			}
			score[l] += m.w
		}
		best, bestScore := int32(-1), 0.0
		for _, l := range touched {
			if score[l] > bestScore || score[l] == bestScore && l < best {
				best, bestScore = l, score[l]
			}
			score[l] = 0
		}
		secOf[i] = best
	}
	return secOf
}

// assignDocuments gives each document the cluster most of its sections
// belong to (ties: the lower label); −1 when none of them belongs to one.
func (in *input) assignDocuments(secOf []int32, k int) []int32 {
	docOf := make([]int32, len(in.docs))
	count := make([]int, k)
	var touched []int32
	for d, secs := range in.docSecs {
		touched = touched[:0]
		for _, s := range secs {
			if l := secOf[s]; l >= 0 {
				if count[l] == 0 {
					touched = append(touched, l)
				}
				count[l]++
			}
		}
		best, bestN := int32(-1), 0
		for _, l := range touched {
			if count[l] > bestN || count[l] == bestN && l < best {
				best, bestN = l, count[l]
			}
			count[l] = 0
		}
		docOf[d] = best
	}
	return docOf
}

// followNeighbours gives a section about no concept its enclosing
// section's cluster, else its document's, else that of a document or
// section it links to (the first, in id order, that has one).
func (in *input) followNeighbours(secOf, docOf []int32) {
	for i := range in.sections {
		if secOf[i] >= 0 {
			continue
		}
		s := &in.sections[i]
		for p, hops := s.parent, 0; p >= 0 && hops < 64; p, hops = in.sections[p].parent, hops+1 {
			if len(in.sections[p].mentions) > 0 {
				secOf[i] = secOf[p]
				break
			}
		}
		if secOf[i] < 0 && s.doc >= 0 {
			secOf[i] = docOf[s.doc]
		}
		if secOf[i] >= 0 {
			continue
		}
		for _, t := range s.links {
			if t >= 0 && len(in.sections[t].mentions) > 0 {
				secOf[i] = secOf[t]
			} else if t < 0 {
				secOf[i] = docOf[-t-1]
			}
			if secOf[i] >= 0 {
				break
			}
		}
	}
}

// Colour is a cluster's colour: its id's hash, modulo PaletteSize, so it
// stays the same while the id does.
func Colour(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % PaletteSize)
}
