//go:build !js

package query

import (
	"context"
	"fmt"
	"testing"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/synth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFusedScoresAreTheSemanticSignal: newPool's one-loop fusion computes
// assemble.SemanticRelevance for every slot, for each strategy's keyword weight.
func TestFusedScoresAreTheSemanticSignal(t *testing.T) {
	wb := ingestedFixture(t)
	ctx := context.Background()
	wb.ws.Lock()
	defer wb.ws.Unlock()
	r, err := wb.ws.Search(ctx)
	require.NoError(t, err)
	q := "How does staleness decay with time since last access?"
	qv, err := wb.ws.EmbedderNow().Embed(ctx, []string{q})
	require.NoError(t, err)
	for _, s := range Strategies {
		p := newPool(wb, r, q, qv[0], QueryRequest{}, nil, s, wb.ws.RankingConfig())
		for slot := range r.IDs {
			kw, kwMax := float64(p.kw[slot]), p.kwMax
			if p.kwW == 0 {
				kw, kwMax = 0, 0
			}
			want := assemble.SemanticRelevance(kw, kwMax, float64(p.cos[slot])-p.cosFloor, p.cosMax-p.cosFloor, p.kwW)
			assert.InDelta(t, want, p.semantic(int32(slot)), 1e-5, "%s slot %d", s, slot)
		}
		p.release()
	}
}

// TestOneHopConvention: a result's concept hop distances and its
// candidates' hops are one walk — seed concepts are 0, a section is one
// more than the nearest concept it is about — reaching HopReach, past the
// hop signal's MaxHops (whose signal is 0 beyond it).
func TestOneHopConvention(t *testing.T) {
	ctx := context.Background()
	corpus, dir := t.TempDir(), t.TempDir()
	require.NoError(t, synth.Generate(corpus, 300, 4))
	ingestInto(t, dir, corpus)
	p := openPipeline(t, dir)
	cfg := p.ws.Ranking()
	for _, q := range synth.Questions(20, 4) {
		res, err := p.Query(ctx, QueryRequest{Question: q, Budget: 3000, NoTouch: true})
		require.NoError(t, err)
		for _, s := range res.Seeds {
			assert.Equal(t, 0, res.ConceptHops[s.ID], "a seed is 0 hops away")
		}
		for _, h := range res.ConceptHops {
			assert.LessOrEqual(t, h, max(HopReach, cfg.MaxHops-1))
		}
		ix := p.ws.CurrentIndex()
		for _, c := range res.Candidates {
			want := -1
			for _, e := range ix.Out[c.ID] {
				if d, ok := res.ConceptHops[e.To]; ok && e.Kind == model.EdgeAbout && (want < 0 || d+1 < want) {
					want = d + 1
				}
			}
			assert.Equal(t, want, c.Hops, "%s: one more than its nearest concept", c.Ref)
			assert.Equal(t, assemble.HopSignal(c.Hops, cfg.MaxHops), c.Signals[assemble.Hop], c.Ref)
		}
	}
}

// TestTheHopWalkReachesHopReach: on a chain of related concepts the walk
// from a seed goes HopReach edges, past the hop signal's MaxHops (the
// graph's colouring shows 0 to 4+), and no farther.
func TestTheHopWalkReachesHopReach(t *testing.T) {
	adj := map[string][]string{}
	for i := range 10 {
		a, b := fmt.Sprintf("c%d", i), fmt.Sprintf("c%d", i+1)
		adj[a], adj[b] = append(adj[a], b), append(adj[b], a)
	}
	cfg := assemble.DefaultConfig()
	require.Less(t, cfg.MaxHops, HopReach)
	p := &pool{r: &index.Search{RelAdj: adj}, cfg: cfg, seeds: []ConceptHit{{ID: "c0"}}, dist: map[string]int{"c0": 0}}
	p.bfs()
	want := map[string]int{}
	for i := 0; i <= HopReach; i++ {
		want[fmt.Sprintf("c%d", i)] = i
	}
	assert.Equal(t, want, p.dist)
}

// TestRelevantNeighbours: a definition one symbol edge from a relevant one
// (either way) becomes relevant when it scores at least RelevanceCut × the
// best on its own; not one below it, not one two edges away, not one with
// no edge, not a section of prose. A definition in the file of one of the
// sameFileOf best relevant ones is relevant at sameFileCut × the best; the
// file's own node is not. Neither rule reaches a shape (a struct, a class,
// an interface): it is relevant on its own score or not at all — unless it
// is no larger than smallShape (an exception class), and not a file.
func TestRelevantNeighbours(t *testing.T) {
	g := index.NewGraph()
	for _, id := range []string{"a", "callee", "caller", "weak", "far", "apart"} {
		g.Nodes[id] = &model.ContentNode{ID: id, DocID: "d-" + id, Symbol: &model.Symbol{Name: id}}
	}
	// Definitions in a's file: one scoring at least sameFileCut × the
	// best, one below it; the file's own node does not count.
	g.Nodes["sibling"] = &model.ContentNode{ID: "sibling", DocID: "d-a", Symbol: &model.Symbol{Name: "sibling"}}
	g.Nodes["lowSibling"] = &model.ContentNode{ID: "lowSibling", DocID: "d-a", Symbol: &model.Symbol{Name: "lowSibling"}}
	g.Nodes["file"] = &model.ContentNode{ID: "file", DocID: "d-a", Symbol: &model.Symbol{Name: "a.go", Kind: "file"}}
	g.Nodes["prose"] = &model.ContentNode{ID: "prose", DocID: "d-a"}
	// Shapes: a struct in a's file, a class a calls, an interface a uses
	// that is relevant on its own.
	g.Nodes["fields"] = &model.ContentNode{ID: "fields", DocID: "d-a", Tokens: 200, Symbol: &model.Symbol{Name: "fields", Kind: "struct"}}
	g.Nodes["used"] = &model.ContentNode{ID: "used", DocID: "d-used", Tokens: smallShape + 1, Symbol: &model.Symbol{Name: "used", Kind: "class"}}
	// A small shape a calls: an exception class of a line and a docstring.
	g.Nodes["raised"] = &model.ContentNode{ID: "raised", DocID: "d-raised", Tokens: smallShape, Symbol: &model.Symbol{Name: "raised", Kind: "class"}}
	g.Nodes["named"] = &model.ContentNode{ID: "named", DocID: "d-named", Symbol: &model.Symbol{Name: "named", Kind: "interface"}}
	// Only the files of the sameFileOf (3) best relevant definitions
	// count: a, r1 and r2; not r3's or r4's.
	require.Equal(t, 3, sameFileOf, "the expectations below")
	for i := 1; i <= sameFileOf+1; i++ {
		id := fmt.Sprintf("r%d", i)
		g.Nodes[id] = &model.ContentNode{ID: id, DocID: "d-" + id, Symbol: &model.Symbol{Name: id}}
		g.Nodes[id+"sib"] = &model.ContentNode{ID: id + "sib", DocID: "d-" + id, Symbol: &model.Symbol{Name: id + "sib"}}
	}
	g.Out["a"] = []model.Edge{{From: "a", To: "callee", Kind: model.EdgeCalls}, {From: "a", To: "weak", Kind: model.EdgeCalls}, {From: "a", To: "prose", Kind: model.EdgeLinks},
		{From: "a", To: "used", Kind: model.EdgeCalls}, {From: "a", To: "named", Kind: model.EdgeCalls}, {From: "a", To: "raised", Kind: model.EdgeCalls}}
	g.Out["callee"] = []model.Edge{{From: "callee", To: "far", Kind: model.EdgeCalls}}
	g.Out["caller"] = []model.Edge{{From: "caller", To: "a", Kind: model.EdgeCalls}}
	callers := map[string][]string{} // as index.Search builds it
	for _, es := range g.Out {
		for _, e := range es {
			if e.Kind.SymbolEdge() {
				callers[e.To] = append(callers[e.To], e.From)
			}
		}
	}
	p := &pool{r: &index.Search{Graph: g, Callers: callers}}
	cands := []*assemble.Candidate{
		{ID: "a", Relevance: 1, Relevant: true},
		{ID: "r1", Relevance: 0.99, Relevant: true},
		{ID: "r2", Relevance: 0.98, Relevant: true},
		{ID: "r3", Relevance: 0.97, Relevant: true},
		{ID: "r4", Relevance: 0.96, Relevant: true},
		{ID: "r1sib", Relevance: 0.72},
		{ID: "r2sib", Relevance: 0.72},
		{ID: "r3sib", Relevance: 0.72},
		{ID: "r4sib", Relevance: 0.72},
		{ID: "apart", Relevance: 0.9},
		{ID: "callee", Relevance: 0.7},
		{ID: "caller", Relevance: 0.66},
		{ID: "far", Relevance: 0.8},
		{ID: "prose", Relevance: 0.8},
		{ID: "weak", Relevance: 0.5},
		{ID: "sibling", Relevance: sameFileCut},
		{ID: "lowSibling", Relevance: sameFileCut - 0.01},
		{ID: "file", Relevance: 0.9},
		{ID: "fields", Relevance: 0.9},
		{ID: "used", Relevance: 0.9},
		{ID: "raised", Relevance: 0.9},
		{ID: "named", Relevance: 0.95, Relevant: true},
	}
	cfg := assemble.DefaultConfig()
	require.Less(t, sameFileCut, 0.72, "the rN siblings above")
	initially := map[string]bool{}
	for _, c := range cands {
		c.Near = !c.Relevant // as Rank leaves them: every candidate not relevant is near here
		initially[c.ID] = c.Relevant
	}
	// The widening rules' floor is code's own cut (Config.CodeCut): at
	// 0.68 the caller (0.66) stays out, the callee (0.7) joins.
	strict := cfg
	strict.CodeCut = 0.68
	p.relevantNeighbours(cands, strict)
	for _, c := range cands {
		if c.ID == "caller" || c.ID == "callee" {
			assert.Equal(t, c.ID == "callee", c.Relevant, c.ID)
		}
		c.Relevant, c.Near = initially[c.ID], !initially[c.ID]
	}
	p.relevantNeighbours(cands, cfg)
	got := map[string]bool{}
	for _, c := range cands {
		got[c.ID] = c.Relevant
		assert.False(t, c.Relevant && c.Near, "%s: a candidate made relevant is no longer only near", c.ID)
	}
	assert.Equal(t, map[string]bool{"a": true, "apart": false, "callee": true, "caller": true, "far": false, "prose": false, "weak": false,
		"sibling": true, "lowSibling": false, "file": false, "fields": false, "used": false, "named": true, "raised": true,
		"r1": true, "r2": true, "r3": true, "r4": true, "r1sib": true, "r2sib": true, "r3sib": false, "r4sib": false}, got)

	// Link density in the symbol graph: the share of a definition's
	// neighbours among the best hits.
	p.topHit = map[string]bool{"a": true}
	assert.Equal(t, 0.5, p.symbolShare("callee"), "far and a; a is a best hit")
	assert.Equal(t, 1.0, p.symbolShare("caller"))
	assert.Equal(t, 0.0, p.symbolShare("apart"), "no neighbours")

	// Nothing relevant: nothing spreads.
	for _, c := range cands {
		c.Relevant = false
	}
	p.relevantNeighbours(cands, cfg)
	for _, c := range cands {
		assert.False(t, c.Relevant, c.ID)
	}
}

// TestCodeWords: the words of a question written as code is — an inner
// capital, an underscore, a capital not opening a sentence — and not
// acronyms, numbers or plain words; a qualified name keeps its qualifier
// and drops the type as a word of its own.
func TestCodeWords(t *testing.T) {
	got := codeWords("Close the Vectors before persistPending runs. Check max_tokens, MCP and 2x; How does Library.RemoveDocuments work?\nThe end")
	assert.Equal(t, []codeWord{{name: "Vectors"}, {name: "persistPending"}, {name: "max_tokens"}, {qualifier: "Library", name: "RemoveDocuments"}}, got)
	assert.Empty(t, codeWords("how are wiki links resolved?"))
}

// TestNamedDefinitions: a named definition is found by its name; a name
// that more than maxNamed definitions share is not taken; a qualified name
// picks the method of that type.
func TestNamedDefinitions(t *testing.T) {
	names := map[string][]string{
		"Content":         {"wb.Content"},
		"Close":           {"log.Close", "wb.Close"},
		"RemoveDocuments": {"lib.RemoveDocuments", "store.RemoveDocuments"},
	}
	for i := range maxNamed + 1 {
		names["String"] = append(names["String"], fmt.Sprintf("s%d", i))
	}
	full := map[string]string{"wb.Close": "Workbench.Close", "log.Close": "Log.Close",
		"lib.RemoveDocuments": "Library.RemoveDocuments", "store.RemoveDocuments": "Store.RemoveDocuments"}
	name := func(id string) string { return full[id] }
	assert.Equal(t, []string{"wb.Content", "log.Close", "wb.Close"}, namedDefinitions("why does Content fail after Close, and Close again?", names, name))
	assert.Empty(t, namedDefinitions("a bad String", names, name), "shared by too many")
	assert.Equal(t, []string{"lib.RemoveDocuments"}, namedDefinitions("in Library.RemoveDocuments", names, name))
	assert.Equal(t, []string{"wb.Close"}, namedDefinitions("when Workbench.Close runs", names, name))
}

// A section inherits from every enclosing section, less by Inherit at
// each level; the walk up stops at a node the index does not hold, and
// does not go round a circle of parents (a damaged store).
func TestInheritedRelevance(t *testing.T) {
	g := index.NewGraph()
	node := func(id, parent string) { g.Nodes[id] = &model.ContentNode{ID: id, Parent: parent} }
	node("root", "")
	node("chapter", "root")
	node("section", "chapter")
	node("orphan", "gone")
	node("a", "b")
	node("b", "a")
	slots := map[string]int32{"root": 0, "chapter": 1, "section": 2, "orphan": 3, "a": 4, "b": 5}
	p := &pool{r: &index.Search{Graph: g, Slot: slots}, fused: []float32{1, 0.1, 0.05, 0.2, 0, 0}, cfg: assemble.Config{Inherit: 0.8}}
	assert.InDelta(t, 0.8, p.inherited("root", 0.1), 1e-6, "the chapter: 0.8 × the root's")
	assert.InDelta(t, 0.64, p.inherited("chapter", 0.05), 1e-6, "the section: 0.64 × the root's, more than 0.8 × the chapter's")
	assert.InDelta(t, 0.2, p.inherited("gone", 0.2), 1e-6, "a parent the index does not hold")
	assert.Zero(t, p.inherited("b", 0), "a circle of parents ends")
	p.cfg.Inherit = 0
	assert.InDelta(t, 0.05, p.inherited("chapter", 0.05), 1e-6, "0 turns it off")
}
