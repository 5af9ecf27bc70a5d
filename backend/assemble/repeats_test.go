package assemble

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepeatedTextLoadsOnce: a relevant node whose text repeats a
// better-ranked one's (vectors alike, most word triples shared) does not
// load; the block of the one that does says where else its text is, and
// the budget goes to other nodes. Texts that only look alike, short ones,
// parts of one section and pinned nodes all load; a node that repeats a
// pinned one does not.
func TestRepeatedTextLoadsOnce(t *testing.T) {
	count := counter(t)
	options := "The offline flag prevents Cargo from accessing the network for any reason. Without this flag, Cargo will stop with an error if it needs to access the network and the network is not available. With this flag, Cargo will attempt to proceed without the network if possible."
	texts := map[string]string{}
	vec := func(x, y float32) []float32 { return []float32{x, y} }
	cand := func(id, doc, ref string, score float64, v []float32, text string) *Candidate {
		texts[id] = text
		return &Candidate{ID: id, Ref: doc + "#" + ref, Document: doc, Cite: doc + "#" + ref + " L10–20", Title: doc + " › " + ref,
			Score: score, Relevant: true, Tokens: count(text), Vec: v}
	}
	text := func(c *Candidate, l Level) (string, error) { return texts[c.ID], nil }
	assemble := func(t *testing.T, cs ...*Candidate) *Assembly {
		t.Helper()
		return assembleInFull(t, count, text, cs...)
	}
	loaded := func(a *Assembly) []string {
		var ids []string
		for _, c := range a.Selection.Loaded {
			ids = append(ids, c.ID)
		}
		return ids
	}

	t.Run("copies in other documents", func(t *testing.T) {
		build := cand("n-build", "cargo-build.md", "manifest-options", 0.9, vec(1, 0), options)
		run := cand("n-run", "cargo-run.md", "manifest-options", 0.8, vec(0.99, 0.1), strings.Replace(options, "The offline flag", "The --offline flag", 1))
		bench := cand("n-bench", "cargo-bench.md", "manifest-options", 0.7, vec(0.98, 0.15), options)
		check := cand("n-check", "cargo-check.md", "manifest-options", 0.6, vec(0.98, 0.15), options)
		other := cand("n-faq", "faq.md", "offline", 0.5, vec(0.6, 0.8), "Cargo can work offline once the dependencies are fetched: run cargo fetch while online, then build with the offline flag set.")
		a := assemble(t, build, run, bench, check, other)
		assert.Equal(t, []string{"n-build", "n-faq"}, loaded(a))
		assert.Equal(t, 1, strings.Count(a.Context, "Without this flag"), "the text once")
		assert.Contains(t, a.Context, "[n-bui] cargo-build.md › manifest-options · L10 · also in cargo-run.md, cargo-bench.md and 1 more\n")
		assert.Contains(t, a.Context, "[Context loaded: 2 of 2 relevant nodes]", "copies are not counted as relevant context left out")
		for _, c := range []*Candidate{run, bench, check} {
			assert.Equal(t, "n-build", c.Repeats, c.ID)
			assert.False(t, c.Loaded, c.ID)
			assert.False(t, c.Relevant, "%s: what it says is counted where it loads", c.ID)
			assert.Equal(t, "not loaded: the same text as [n-bui] cargo-build.md › manifest-options", c.Reason)
		}
		assert.Empty(t, build.Repeats)
	})
	t.Run("marks are made again on each assembly", func(t *testing.T) {
		a, b := cand("n-a", "a.md", "x", 0.9, vec(1, 0), options), cand("n-b", "b.md", "x", 0.8, vec(1, 0), options)
		assemble(t, a, b)
		require.Equal(t, "n-a", b.Repeats)
		b.Pinned = true // a pinned node is never marked
		assemble(t, a, b)
		assert.Empty(t, b.Repeats)
		assert.True(t, b.Relevant, "relevant again once it repeats nothing")
		assert.Equal(t, "n-b", a.Repeats, "a node that repeats a pinned one is")
	})
	t.Run("a copy in its own document is named by its title and lines", func(t *testing.T) {
		a := assemble(t, cand("n-a", "guide.md", "setup", 0.9, vec(1, 0), options), cand("n-b", "guide.md", "setup-again", 0.8, vec(1, 0), options))
		assert.Contains(t, a.Context, "[n-a] guide.md › setup · L10 · also in setup-again L10–20\n")
	})
	t.Run("a copy of a part read in its section's block is named in that block's header", func(t *testing.T) {
		rest := "Offline builds need every crate in the local cache. Run cargo fetch while online, and the cache holds what the lock file names. " +
			"Vendored sources serve the same purpose when a team has no shared cache, and a build that finds neither stops with an error naming the crate."
		one := cand("n-p1", "guide.md", "offline", 0.9, vec(1, 0), options)
		two := cand("n-p2", "guide.md", "offline", 0.85, vec(0, 1), rest)
		for i, c := range []*Candidate{one, two} {
			c.Part, c.Parts, c.Cite = i+1, 2, []string{"guide.md#offline L10–20", "guide.md#offline L21–30"}[i]
		}
		copied := cand("n-copy", "faq.md", "offline", 0.7, vec(0, 1), rest)
		a := assemble(t, one, two, copied)
		require.Equal(t, "n-p2", copied.Repeats)
		require.Len(t, a.Blocks, 1, "the two parts read as one block")
		assert.Contains(t, a.Context, "[n-p1, n-p2] guide.md › offline · L10 · also in faq.md\n")
	})
	t.Run("what only looks alike loads", func(t *testing.T) {
		a := assemble(t,
			cand("n-a", "a.md", "x", 0.9, vec(1, 0), options),
			// alike vectors, different words
			cand("n-b", "b.md", "x", 0.8, vec(1, 0), "Network access is needed to download crates from the registry, so the first build of a new project must be online. After that the local cache serves every build until a dependency changes."),
			// the same text, unlike vectors (the vectors decide first)
			cand("n-c", "c.md", "x", 0.7, vec(0, 1), options),
			// short texts alike
			cand("n-d", "d.md", "x", 0.6, vec(0.7, 0.7), "Returns the flag."),
			cand("n-e", "e.md", "x", 0.5, vec(0.7, 0.7), "Returns the flag."))
		assert.Equal(t, []string{"n-a", "n-b", "n-c", "n-d", "n-e"}, loaded(a))
	})
	t.Run("beyond the relevance budget a copy near the question does not load either", func(t *testing.T) {
		near := func(c *Candidate) *Candidate { c.Relevant, c.Near = false, true; return c }
		mk := func() []*Candidate {
			return []*Candidate{cand("n-build", "cargo-build.md", "manifest-options", 0.9, vec(1, 0), options),
				near(cand("n-run", "cargo-run.md", "manifest-options", 0.8, vec(0.99, 0.1), options)),
				near(cand("n-faq", "faq.md", "offline", 0.5, vec(0.6, 0.8), "Cargo can work offline once the dependencies are fetched: run cargo fetch while online, then build with the offline flag set."))}
		}
		split, err := PlanSplit(SplitRequest{Budget: 2 * RelevanceBudget, Reserve: 0.3})
		require.NoError(t, err)
		cs := mk()
		a, err := Assemble(cs, split, SelectOptions{Level: Detailed, Oversize: 1}, "", "q", "", count, text)
		require.NoError(t, err)
		assert.Equal(t, []string{"n-build", "n-faq"}, loaded(a))
		assert.Equal(t, "n-build", cs[1].Repeats)
		assert.Equal(t, "not loaded: the same text as [n-bui] cargo-build.md › manifest-options", cs[1].Reason)
		assert.Contains(t, a.Context, "[Context loaded: 1 of 1 relevant node; and 1 near the question, as the budget allowed]")
		a, err = Assemble(cs, split, SelectOptions{Level: Detailed, Oversize: 1}, "", "q", "", count, text)
		require.NoError(t, err)
		assert.False(t, cs[1].Relevant, "a near candidate is not made relevant when its mark is undone")
		assert.Equal(t, []string{"n-build", "n-faq"}, loaded(a))
		cs = mk()
		assemble(t, cs...) // 4,000 tokens: nothing near loads, and nothing near is read
		assert.Empty(t, cs[1].Repeats)
		assert.Equal(t, []string{"n-build"}, loaded(assemble(t, mk()...)))
	})
	t.Run("parts of one section load", func(t *testing.T) {
		p1, p2 := cand("n-p1", "g.md", "s", 0.9, vec(1, 0), options), cand("n-p2", "g.md", "s", 0.8, vec(1, 0), options)
		p1.Part, p1.Parts, p2.Part, p2.Parts = 1, 2, 2, 2
		a := assemble(t, p1, p2)
		assert.ElementsMatch(t, []string{"n-p1", "n-p2"}, loaded(a))
	})
}

func TestResemblance(t *testing.T) {
	a := triples("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty")
	require.Len(t, a, 18)
	assert.Equal(t, 1.0, resemblance(a, a))
	b := triples("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen other")
	assert.InDelta(t, 17.0/19, resemblance(a, b), 1e-9)
	assert.Nil(t, triples("too few words here"))
}
