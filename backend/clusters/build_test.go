package clusters

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// library builds a working index by hand: documents, concepts, sections
// about concepts, related edges.
type library struct{ ix *index.Graph }

func newLibrary() *library { return &library{ix: index.NewGraph()} }

func (l *library) concept(id, name string) {
	l.ix.Concepts[id] = &model.Concept{ID: id, Name: name}
}

func (l *library) doc(id, title string) {
	l.ix.Docs[id] = &model.Document{ID: id, Key: id, Path: id, Title: title}
}

// section adds a section of doc about concepts (id, similarity, id,
// similarity, …).
func (l *library) section(id, doc, parent string, about ...any) {
	l.ix.Nodes[id] = &model.ContentNode{ID: id, DocID: doc, Parent: parent, Ref: id}
	l.ix.DocNodes[doc] = append(l.ix.DocNodes[doc], id)
	for i := 0; i+1 < len(about); i += 2 {
		l.ix.AddEdge(model.Edge{Kind: model.EdgeAbout, From: id, To: about[i].(string), Weight: about[i+1].(float64)})
	}
	if parent != "" {
		l.ix.AddEdge(model.Edge{Kind: model.EdgeParent, From: id, To: parent, Weight: 1})
	}
}

func (l *library) related(a, b string, w float64) {
	l.ix.AddEdge(model.Edge{Kind: model.EdgeRelated, From: a, To: b, Weight: w})
}

// twoSubjects is a library on two subjects, optimisation (concepts o1–o5,
// three documents) and Cargo (c1–c5, three documents), with one section
// about both and a related edge between them.
func twoSubjects() *library {
	l := newLibrary()
	opt := []string{"Gradient descent", "Momentum", "Learning rate", "Convergence", "Loss landscape"}
	cargo := []string{"Build scripts", "Feature flags", "Workspaces", "Registries", "Lockfiles"}
	for i := range 5 {
		l.concept(fmt.Sprintf("o%d", i+1), opt[i])
		l.concept(fmt.Sprintf("c%d", i+1), cargo[i])
	}
	l.doc("d-opt1", "Why momentum really works")
	l.doc("d-opt2", "An overview of gradient descent")
	l.doc("d-opt3", "Learning rate schedules")
	l.doc("d-cargo1", "Cargo build scripts")
	l.doc("d-cargo2", "Cargo features")
	l.doc("d-cargo3", "Cargo workspaces")
	for d := 1; d <= 3; d++ {
		for s := range 4 {
			a, b := (d+s)%5+1, (d+2*s+1)%5+1
			if a == b {
				b = a%5 + 1
			}
			l.section(fmt.Sprintf("n-o%d-%d", d, s), fmt.Sprintf("d-opt%d", d), "", fmt.Sprintf("o%d", a), 0.9, fmt.Sprintf("o%d", b), 0.8)
			l.section(fmt.Sprintf("n-c%d-%d", d, s), fmt.Sprintf("d-cargo%d", d), "", fmt.Sprintf("c%d", a), 0.9, fmt.Sprintf("c%d", b), 0.8)
		}
	}
	l.section("n-bridge", "d-opt1", "", "o1", 0.7, "c1", 0.7)
	l.related("o2", "c2", 0.8)
	return l
}

// members lists each cluster's concepts, as a set.
func members(r *Result) []map[string]bool {
	out := make([]map[string]bool, len(r.Clusters))
	for i, c := range r.Clusters {
		out[i] = map[string]bool{}
		for _, id := range c.Concepts {
			out[i][id] = true
		}
	}
	return out
}

func TestTwoSubjectsWithOneBridgeMakeTwoClusters(t *testing.T) {
	l := twoSubjects()
	r := Build(l.ix, Defaults)
	require.Len(t, r.Clusters, 2, "%+v", r.Clusters)
	for _, c := range r.Clusters {
		require.Len(t, c.Concepts, 5)
		prefix := c.Concepts[0][:1]
		for _, id := range c.Concepts {
			assert.Equal(t, prefix, id[:1], "cluster %s mixes subjects: %v", c.ID, c.Concepts)
		}
		assert.Equal(t, "c:"+c.Concepts[0], c.ID, "the id is the most central concept's")
		assert.Equal(t, c.Concepts[:5], c.Top())
		assert.Equal(t, Colour(c.ID), c.Colour)
		assert.GreaterOrEqual(t, c.Colour, 0)
		assert.Less(t, c.Colour, PaletteSize)
		assert.Equal(t, 3, c.Documents)
	}
	// Every section and document is in the cluster of its subject (the
	// bridge section, about one concept of each at 0.7, is in one of the
	// two: a tie, broken the same way every time).
	for id, n := range l.ix.Nodes {
		ci := r.NodeOf(n)
		require.GreaterOrEqual(t, ci, 0, "section %s has a cluster", id)
		if id == "n-bridge" {
			continue
		}
		want := "o"
		if strings.HasPrefix(id, "n-c") {
			want = "c"
		}
		assert.True(t, members(r)[ci][want+"1"], "section %s is in the %s cluster", id, want)
		assert.Equal(t, ci, r.Of(n.DocID), "section %s is in its document's cluster", id)
	}
	assert.Equal(t, 25, r.Clusters[0].Sections+r.Clusters[1].Sections)
	cargo := r.Of("c1")
	assert.True(t, strings.HasPrefix(r.Clusters[cargo].Name, "Cargo"), "the documents' shared title word leads: %q", r.Clusters[cargo].Name)
}

func TestBuildIsDeterministic(t *testing.T) {
	first := Build(randomLibrary(1).ix, Defaults)
	require.Greater(t, len(first.Clusters), 3)
	for range 3 {
		// A new index of the same content: its maps iterate in another
		// order.
		assert.Equal(t, first, Build(randomLibrary(1).ix, Defaults))
	}
	// The same index with every node's edges in another order (an
	// ingest adds them in its order, the store returns them sorted).
	shuffled := randomLibrary(1)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, es := range shuffled.ix.Out {
		rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	}
	assert.Equal(t, first, Build(shuffled.ix, Defaults))
	other := Build(randomLibrary(2).ix, Defaults)
	assert.NotEqual(t, first.Clusters, other.Clusters, "another library, other clusters")
}

// randomLibrary is 12 subjects of 8 concepts each, 40 documents of 6
// sections, each section about 1–3 concepts of its document's subject
// and sometimes one of another, and a few related edges at random.
// Concept names come from a small vocabulary, so that many repeat.
func randomLibrary(seed uint64) *library {
	rng := rand.New(rand.NewPCG(seed, 11))
	l := newLibrary()
	words := []string{"Overview", "Tokens", "Budget", "Vectors", "Graphs", "Cache", "Index", "Queries", "Introduction", "Storage"}
	const subjects, per = 12, 8
	for s := range subjects {
		for c := range per {
			name := words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
			if c == 0 {
				name = "Introduction" // each subject's first concept, which its sections name most
			}
			l.concept(fmt.Sprintf("k%02d-%d", s, c), name)
		}
	}
	for d := range 40 {
		s := d % subjects
		doc := fmt.Sprintf("d%02d", d)
		l.doc(doc, fmt.Sprintf("Notes %d on %s", d, words[s%len(words)]))
		for n := range 6 {
			var about []any
			about = append(about, fmt.Sprintf("k%02d-0", s), 0.9)
			for range rng.IntN(3) {
				about = append(about, fmt.Sprintf("k%02d-%d", s, 1+rng.IntN(per-1)), 0.7+0.3*rng.Float64())
			}
			if rng.IntN(5) == 0 {
				about = append(about, fmt.Sprintf("k%02d-%d", rng.IntN(subjects), rng.IntN(per)), 0.7)
			}
			l.section(fmt.Sprintf("n%02d-%d", d, n), doc, "", about...)
		}
	}
	for range 30 {
		l.related(fmt.Sprintf("k%02d-%d", rng.IntN(subjects), rng.IntN(per)), fmt.Sprintf("k%02d-%d", rng.IntN(subjects), rng.IntN(per)), 0.7)
	}
	return l
}

func TestTinyClustersFoldAndLoneConceptsGoToOther(t *testing.T) {
	l := twoSubjects()
	// A pair of concepts of their own document, tied to the optimisation
	// subject by one section about one of them and o3.
	l.concept("t1", "Nesterov acceleration")
	l.concept("t2", "Heavy ball method")
	l.doc("d-tiny", "Acceleration")
	l.section("n-t1", "d-tiny", "", "t1", 0.9, "t2", 0.9)
	l.section("n-t2", "d-tiny", "", "t1", 0.8, "t2", 0.85)
	l.section("n-t3", "d-opt2", "", "t2", 0.7, "o3", 0.7)
	// A concept nothing links to.
	l.concept("z", "Knitting patterns")
	l.doc("d-z", "Knitting")
	l.section("n-z", "d-z", "", "z", 0.9)
	r := Build(l.ix, Defaults)
	require.Len(t, r.Clusters, 3)
	assert.Equal(t, r.Of("o3"), r.Of("t1"), "the pair folds into the subject it is linked to")
	assert.Equal(t, r.Of("o3"), r.Of("t2"))
	assert.Equal(t, r.Of("o3"), r.Of("d-tiny"))
	other := r.Clusters[r.Of("z")]
	assert.Equal(t, OtherID, other.ID)
	assert.Equal(t, OtherName, other.Name)
	assert.Equal(t, 2, r.Of("z"), "Other comes last")
	assert.Equal(t, 1, other.Sections)
	assert.Equal(t, 1, other.Documents)
	assert.Equal(t, r.Find(OtherID), r.Of("n-z"))

	// Without the fold the pair stands alone.
	opt := Defaults
	opt.MinConcepts = 1
	assert.Len(t, Build(l.ix, opt).Clusters, 4)
}

func TestSectionsWithoutConceptsFollowTheirParentOrDocumentAndSummariesTheirSource(t *testing.T) {
	l := twoSubjects()
	l.section("n-child", "d-cargo2", "n-c2-0") // about nothing, under a Cargo section
	l.doc("d-mixed", "Mixed")
	l.section("n-m1", "d-mixed", "", "o1", 0.9, "o2", 0.9)
	l.section("n-m2", "d-mixed", "", "o4", 0.8)
	l.section("n-m3", "d-mixed", "", "c3", 0.75)
	l.section("n-m4", "d-mixed", "") // about nothing, no parent
	l.doc("d-linker", "Links")
	l.section("n-link", "d-linker", "") // about nothing; links to a Cargo document
	l.ix.AddEdge(model.Edge{Kind: model.EdgeLinks, From: "n-link", To: "d-cargo3", Weight: 1})
	r := Build(l.ix, Defaults)
	assert.Equal(t, r.Of("d-cargo3"), r.Of("n-link"))
	assert.Equal(t, r.Of("d-cargo3"), r.Of("d-linker"), "and so does its document")
	assert.Equal(t, r.Of("n-c2-0"), r.Of("n-child"))
	assert.Equal(t, r.Of("o1"), r.Of("d-mixed"), "two of its three sections are about optimisation")
	assert.Equal(t, r.Of("d-mixed"), r.Of("n-m4"))
	assert.Equal(t, r.Of("c3"), r.Of("n-m3"))

	summary := &model.ContentNode{ID: "n-summary", DocID: "d-cargo2", Source: "n-m3"}
	assert.Equal(t, -1, r.Of(summary.ID))
	assert.Equal(t, r.Of("n-m3"), r.NodeOf(summary), "a summary made later is in its source's cluster")
	assert.Equal(t, -1, r.Find("c:nothing"))
}

func TestNamesAreReadableAndUnique(t *testing.T) {
	for seed := range uint64(8) {
		r := Build(randomLibrary(seed).ix, Defaults)
		seen := map[string]bool{}
		for _, c := range r.Clusters {
			assert.NotEmpty(t, c.Name)
			assert.True(t, strings.ContainsFunc(c.Name, unicode.IsLetter), "%q has letters", c.Name)
			assert.False(t, seen[strings.ToLower(c.Name)], "seed %d: two clusters named %q", seed, c.Name)
			seen[strings.ToLower(c.Name)] = true
			assert.LessOrEqual(t, len([]rune(c.Name)), 2*maxNameRunes)
			assert.True(t, unicode.IsUpper([]rune(c.Name)[0]), "%q starts with a capital", c.Name)
			for _, part := range strings.Split(c.Name, ", ") {
				assert.True(t, c.ID == OtherID || !concepts.Generic(part), "%q: a generic heading names nothing", c.Name)
			}
		}
	}
}

func TestNamesPreferConceptsOfTheirOwn(t *testing.T) {
	l := twoSubjects()
	// The optimisation subject's busiest concept is named like a heading
	// every document has; the Cargo subject has a concept of that name too.
	l.ix.Concepts["o1"].Name = "Introduction"
	l.ix.Concepts["c5"].Name = "Momentum"
	r := Build(l.ix, Defaults)
	name := r.Clusters[r.Of("o1")].Name
	assert.NotContains(t, name, "Introduction")
	assert.NotEqual(t, name, r.Clusters[r.Of("c1")].Name)
	for _, c := range r.Clusters {
		assert.NotRegexp(t, `^[0-9 ,.]*$`, c.Name)
	}
}

// TestCodeClustersAreNamedByTheirFolders: a cluster of source files leads
// its name with the folders most of them are in, spelt as paths; a
// cluster of notes keeps its title words and concepts.
func TestCodeClustersAreNamedByTheirFolders(t *testing.T) {
	l := twoSubjects()
	for i, id := range []string{"d-cargo1", "d-cargo2", "d-cargo3"} {
		d := l.ix.Docs[id]
		d.Path = []string{"src/cargo/build/scripts.rs", "src/cargo/build/features.rs", "src/cargo/ops/workspace.rs"}[i]
		d.Meta.Language = "rust"
	}
	r := Build(l.ix, Defaults)
	var code, notes string
	for _, c := range r.Clusters {
		switch {
		case strings.HasPrefix(c.Name, "cargo/"):
			code = c.Name
		case c.ID != OtherID:
			notes = c.Name
		}
	}
	assert.True(t, strings.HasPrefix(code, "cargo/build, cargo/ops"), "code cluster: %q", code)
	assert.NotEmpty(t, notes)
	assert.NotContains(t, notes, "/", "notes are named by their words")
	assert.Equal(t, "cargo/build", shortFolder("src/cargo/build/scripts.rs"))
	assert.Equal(t, "src", shortFolder("src/main.rs"))
	assert.Equal(t, "main.go", shortFolder("main.go"), "a file at the top is named, not called \".\"")
}
