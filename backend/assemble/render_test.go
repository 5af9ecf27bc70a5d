package assemble

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/tokens"
	"github.com/loomwork/loom/internal/golden"
)

func TestManifest(t *testing.T) {
	loaded := []*Candidate{
		{ID: "n-1", Title: "OAuth token analysis", LoadedTokens: 300},
		{ID: "n-2", Title: "Auth error logs summary", LoadedTokens: 120},
	}
	left := []*Candidate{
		{ID: "n-3", ShortID: "n-3", Document: "api.md", Title: "api.md › Endpoints", Tokens: 410},
		{ID: "n-4", Title: "Token [draft] | v2", Tokens: 90},
	}
	t.Run("the counts, the tokens, and what was left out by id, title and size", func(t *testing.T) {
		assert.Equal(t, "[Context loaded: 2 of 7 relevant nodes]\n"+
			"[Additional context available but not loaded: 2 nodes — [n-3] Endpoints (410 tokens); [n-4] Token (draft) / v2 (90 tokens)]", Manifest(loaded, 7, left))
	})
	t.Run("everything relevant loaded", func(t *testing.T) {
		assert.Equal(t, "[Context loaded: 2 of 2 relevant nodes]\n[Additional context available but not loaded: 0 nodes]", Manifest(loaded, 2, nil))
	})
	t.Run("candidates near the question loaded beyond the relevant are counted apart", func(t *testing.T) {
		n := &Candidate{ID: "n-9", Title: "Nearby", LoadedTokens: 50, Near: true}
		assert.Equal(t, "[Context loaded: 2 of 2 relevant nodes; and 1 near the question, as the budget allowed]\n[Additional context available but not loaded: 0 nodes]",
			Manifest(append(slices.Clone(loaded), n), 2, nil))
	})
	t.Run("nothing relevant renders zero of zero", func(t *testing.T) {
		assert.Equal(t, "[Context loaded: 0 of 0 relevant nodes]\n[Additional context available but not loaded: 0 nodes]", Manifest(nil, 0, nil))
	})
	t.Run("never fewer relevant nodes than loaded and left out are claimed", func(t *testing.T) {
		assert.True(t, strings.HasPrefix(Manifest(loaded, 1, left), "[Context loaded: 2 of 4 relevant nodes"))
	})
	t.Run("at most ManifestListed are named, the rest counted: never a line per node", func(t *testing.T) {
		var many []*Candidate
		for i := range 12 {
			many = append(many, &Candidate{ID: fmt.Sprintf("n-%02d", i), Title: "T", Tokens: 10})
		}
		m := Manifest(nil, 12, many)
		assert.Equal(t, 2, strings.Count(m, "\n")+1, "two lines whatever the count: %q", m)
		assert.Equal(t, ManifestListed, strings.Count(m, "(10 tokens)"))
		assert.True(t, strings.HasSuffix(m, "; and 7 more]"), m)
		assert.Equal(t, "[Context loaded: 0 of 12 relevant nodes]\n[Additional context available but not loaded: 12 nodes]", manifest(nil, 12, many, 0), "room for none: counted only")
	})
	t.Run("a long title is named by its first words", func(t *testing.T) {
		long := &Candidate{ID: "n-5", Title: "Effects of vitamin D supplementation on the risk of fractures in older adults", Tokens: 300}
		assert.Contains(t, Manifest(nil, 1, []*Candidate{long}), "[n-5] Effects of vitamin D supplementation on… (300 tokens)")
	})
	t.Run("a long section's parts left out are named together", func(t *testing.T) {
		part := func(id string, n, of, tokens int) *Candidate {
			return &Candidate{ID: id, Document: "s.py", Ref: "s.py#Redirects.resolve", Title: fmt.Sprintf("s.py › method Redirects.resolve (part %d/%d)", n, of), Part: n, Parts: of, Tokens: tokens}
		}
		other := &Candidate{ID: "n-9", Document: "s.py", Ref: "s.py#get", Title: "s.py › func get", Tokens: 40}
		assert.Equal(t, "[Context loaded: 0 of 3 relevant nodes]\n[Additional context available but not loaded: 3 nodes — [n-a1, n-a2] method Redirects.resolve (995 tokens); [n-9] func get (40 tokens)]",
			Manifest(nil, 3, []*Candidate{part("n-a2", 2, 2, 496), other, part("n-a1", 1, 2, 499)}), "the whole section")
		assert.Equal(t, "[Context loaded: 0 of 3 relevant nodes]\n[Additional context available but not loaded: 3 nodes — [n-b2, n-b3] method Redirects.resolve parts 2–3/4 (300 tokens); [n-9] func get (40 tokens)]",
			Manifest(nil, 3, []*Candidate{part("n-b3", 3, 4, 100), part("n-b2", 2, 4, 200), other}), "some of its parts")
		assert.Contains(t, Manifest(nil, 2, []*Candidate{part("n-c1", 1, 4, 100), part("n-c3", 3, 4, 100)}), "[n-c1, n-c3] method Redirects.resolve parts 1, 3/4 (200 tokens)]")
	})
	t.Run("the manifest has no trailing newline", func(t *testing.T) {
		assert.False(t, strings.HasSuffix(Manifest(loaded, 7, left), "\n"))
	})
}

func TestTitlesAreCleaned(t *testing.T) {
	tests := []struct {
		name  string
		title string
		want  string
	}{
		{"a pipe becomes a slash", "read | write", "read / write"},
		{"square brackets become parentheses", "[draft] notes [v2]", "(draft) notes (v2)"},
		{"newlines become spaces", "two\nlines\r\nhere", "two lines  here"},
		{"surrounding space is trimmed", "  padded \n", "padded"},
		{"a plain title is untouched", "Abstraction Levels", "Abstraction Levels"},
		{"everything at once", "\n[a|b]\n", "(a/b)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Candidate{ID: "n-1", Ref: "doc.md#x", Title: tt.title, Score: 0.5, Source: "input", Tokens: 5}
			assert.Equal(t, "[n-1] "+tt.want+" · doc.md#x", BlockHeader(c))
			assert.Equal(t, "[Context loaded: 0 of 1 relevant node]\n[Additional context available but not loaded: 1 node — [n-1] "+tt.want+" (5 tokens)]", Manifest(nil, 1, []*Candidate{c}))
		})
	}
}

func TestEachReferenceIsWrittenOnce(t *testing.T) {
	tests := []struct {
		name string
		c    Candidate
		want string
	}{
		{"markdown: the title says the section, the cite adds the lines",
			Candidate{ID: "n-1a2b", Document: "notes/a.md", Ref: "notes/a.md#split", Cite: "notes/a.md#split L3–12", Title: "notes/a.md › Split"},
			"[n-1a2b] notes/a.md › Split · L3"},
		{"a paper: the pages (its section number is in the title)",
			Candidate{ID: "n-1a2b", Document: "papers/flash.pdf", Ref: "papers/flash.pdf#tiling", Cite: "papers/flash.pdf p. 4–5 §3.2.1", Title: "papers/flash.pdf › 3.2.1 Tiling"},
			"[n-1a2b] papers/flash.pdf › 3.2.1 Tiling · p. 4–5"},
		{"a web page: a long section name, clipped in the cite, is the title's",
			Candidate{ID: "n-1a2b", Document: "web/gnn.html", Ref: "web/gnn.html#challenges", Cite: "web/gnn.html §The challenges of using graphs in machi…", Title: "web/gnn.html › The challenges of using graphs in machine learning (part 1/2)"},
			"[n-1a2b] web/gnn.html › The challenges of using graphs in machine learning part 1/2"},
		{"a web page: the part of a section, which its cite says too, is the title's",
			Candidate{ID: "n-1a2b", Document: "web/gnn.html", Ref: "web/gnn.html#challenges", Cite: "web/gnn.html §The challenges of using graphs in machi… (part 1/2)", Title: "web/gnn.html › The challenges of using graphs in machine learning (part 1/2)"},
			"[n-1a2b] web/gnn.html › The challenges of using graphs in machine learning part 1/2"},
		{"a paper: a part of a section keeps its pages",
			Candidate{ID: "n-1a2b", Document: "papers/flash.pdf", Ref: "papers/flash.pdf#tiling", Cite: "papers/flash.pdf p. 4 §3.2.1 (part 2/2)", Title: "papers/flash.pdf › 3.2.1 Tiling (part 2/2)"},
			"[n-1a2b] papers/flash.pdf › 3.2.1 Tiling part 2/2 · p. 4"},
		{"a web page: its section is the title's",
			Candidate{ID: "n-1a2b", Document: "web/guide.html", Ref: "web/guide.html#set-up", Cite: "web/guide.html §Set up", Title: "web/guide.html › Set up"},
			"[n-1a2b] web/guide.html › Set up"},
		{"a BibTeX entry: the key and lines stay",
			Candidate{ID: "n-1a2b", Document: "refs.bib#dao2022", Ref: "refs.bib#dao2022", Cite: "refs.bib @dao2022 L120–131", Title: "FlashAttention"},
			"[n-1a2b] FlashAttention · @dao2022 L120"},
		{"no document: the whole cite",
			Candidate{ID: "n-1a2b", Ref: "12345", Title: "A claim"},
			"[n-1a2b] A claim · 12345"},
		{"a paragraph-long title is cut to its first words",
			Candidate{ID: "n-1a2b", Ref: "42", Title: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen"},
			"[n-1a2b] one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen… · 42"},
		{"a shortened id is the one written",
			Candidate{ID: "n-1a2b3c4d5e6f7a8b", ShortID: "n-1a2b3c", Document: "a.md", Ref: "a.md", Cite: "a.md L1–4", Title: "a.md", Level: Summary},
			"[n-1a2b3c] a.md · L1–4 · summary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, BlockHeader(&tt.c))
		})
	}
}

// A block whose text opens with its title (a Markdown heading, a record's
// title line) is headed without it: the title is written once. Other
// blocks keep it.
func TestBlockHeaderLeavesOutATitleTheTextOpensWith(t *testing.T) {
	md := &Candidate{ID: "n-1a2b", Document: "notes/a.md", Ref: "notes/a.md#split", Cite: "notes/a.md#split L3–12", Title: "notes/a.md › Split"}
	record := &Candidate{ID: "n-3c4d", Document: "4983", Ref: "4983", Cite: "4983", Title: "4983 Microstructural development of human brain."}
	summary := &Candidate{ID: "n-5e6f", Document: "notes/b.md", Ref: "notes/b.md#levels", Cite: "notes/b.md#levels L1–9", Title: "notes/b.md › Levels", Level: Summary}
	text := ContextText("[M]", "", []Block{
		{Candidate: md, Text: "## Split\n\nThe split divides the window."},
		{Candidate: record, Text: "Microstructural development of human brain\n\nAlterations of the architecture…"},
		{Candidate: summary, Text: "Three levels: detailed, summary, essence."},
	})
	assert.Equal(t, "[M]\n\n"+
		"[n-1a2b] notes/a.md · L3\n## Split\n\nThe split divides the window.\n\n"+
		"[n-3c4d] 4983\nMicrostructural development of human brain\n\nAlterations of the architecture…\n\n"+
		"[n-5e6f] notes/b.md › Levels · L1–9 · summary\nThree levels: detailed, summary, essence.", text)

	// A heading that names its anchor opens with its title too.
	anchored := &Candidate{ID: "n-7a8b", Document: "first-steps.md", Ref: "first-steps.md#first-steps", Cite: "first-steps.md#first-steps L1–5", Title: "first-steps.md › First Steps"}
	assert.Equal(t, "[M]\n\n[n-7a8b] first-steps.md · L1\n# First Steps { #first-steps }\n\nThe simplest file.",
		ContextText("[M]", "", []Block{{Candidate: anchored, Text: "# First Steps { #first-steps }\n\nThe simplest file."}}))
}

func TestShortIDs(t *testing.T) {
	cs := []*Candidate{{ID: "n-1a2b3c4d00000000"}, {ID: "n-1a2b3c4e00000000"}, {ID: "n-ffff000000000000"}, {ID: "n-1a2b3c4d00000000"}, {ID: "c-12"}, {ID: "n-7777000000000000"}, {ID: "n-ab"}}
	ShortIDs(cs, nil)
	// A prompt writes the hex prefix in letters (model.PromptID): 0 → e,
	// 1 → t, 2 → a, … 7 → r, … c → u, d → m, e → k, f → p.
	assert.Equal(t, "tdacouim", cs[0].ShortID, "n-1a2b3c4d: one digit past what its neighbour shares")
	assert.Equal(t, "tdacouik", cs[1].ShortID, "n-1a2b3c4e")
	assert.Equal(t, "ppp", cs[2].ShortID, "n-fff: at least ShortIDHex digits")
	assert.Equal(t, "tdacouim", cs[3].ShortID, "the same node twice is one id")
	assert.Equal(t, "c-12", cs[4].ShortID, "an id shorter than the least prefix stays whole")
	assert.Equal(t, "rrr", cs[5].ShortID, "n-777")
	assert.Equal(t, "n-ab", cs[6].ShortID, "an id that is no hash (a test's) is written as it is")
	for _, c := range cs {
		prefix, ok := model.FromPromptID(c.ShortID)
		if !ok {
			prefix = c.ShortID
		}
		assert.True(t, strings.HasPrefix(c.ID, prefix), "%s stands for a prefix of %s", c.ShortID, c.ID)
		n := 0
		for _, o := range cs {
			if strings.HasPrefix(o.ID, prefix) && o.ID != c.ID {
				n++
			}
		}
		assert.Zero(t, n, "%s is unique", c.ShortID)
	}

	// Among the workspace's ids too: a node that is no candidate still
	// tells a candidate's prefix apart (the tools resolve it in the
	// workspace), and the candidate's own id there changes nothing.
	workspace := []string{"n-1a2b3c4d00000000", "n-7777a00000000000", "n-ffff000000000000", "n-ffff000100000000"}
	ShortIDs(cs, workspace)
	assert.Equal(t, "tdacouim", cs[0].ShortID)
	assert.Equal(t, "ppppeeee", cs[2].ShortID, "n-ffff0000: n-ffff0001… is in the workspace")
	assert.Equal(t, "rrrre", cs[5].ShortID, "n-77770: n-7777a… is in the workspace")
}

func TestOverheadIsTheHeaderExactly(t *testing.T) {
	count := tokens.Default().Count
	cs := []*Candidate{
		{ID: "n-1", Ref: "a.md#x", Cite: "a.md#x L1–40", Document: "a.md", Title: "a.md › X", Tokens: 40, Score: 0.9, Relevant: true, Source: "input"},
		{ID: "n-2", Ref: "p.pdf#y", Cite: "p.pdf p. 4–5 §3.2.1", Document: "p.pdf", Title: "p.pdf › 3.2.1 Tiling", Tokens: 50, Score: 0.8, Relevant: true, Source: "input"},
		{ID: "n-3", Ref: "b.md", Title: "b.md", Tokens: 30, Score: 0.7, Relevant: true, Source: "output"},
	}
	split, err := PlanSplit(SplitRequest{Budget: 2000, System: 10, Question: 5, Reserve: 0.3})
	require.NoError(t, err)
	a, err := Assemble(cs, split, SelectOptions{Level: Detailed}, "S", "Q?", "", count, fakeText(count))
	require.NoError(t, err)
	require.Len(t, a.Blocks, 3)
	for _, c := range cs {
		assert.Equal(t, count(BlockHeader(c))+3, c.Overhead, "%s: its header %q", c.ID, BlockHeader(c))
		assert.Contains(t, a.Prompt, BlockHeader(c)+"\n")
		assert.NotContains(t, a.Manifest, c.Title, "a loaded node is named by its block, not again in the manifest")
	}
	assert.Equal(t, "[Context loaded: 3 of 3 relevant nodes]\n[Additional context available but not loaded: 0 nodes]", a.Manifest)
}

func TestContextTextAndPrompt(t *testing.T) {
	a := &Candidate{ID: "n-1", Title: "A", Ref: "a.md"}
	b := &Candidate{ID: "n-2", Title: "B", Ref: "b.md#s", Level: Summary}
	blocks := []Block{{Candidate: a, Text: "  alpha text \n"}, {Candidate: b, Text: "beta"}}
	t.Run("blocks follow the manifest, each under its header, trimmed", func(t *testing.T) {
		assert.Equal(t, "M\n\n[n-1] A · a.md\nalpha text\n\n[n-2] B · b.md#s · summary\nbeta", ContextText("M", "", blocks))
	})
	t.Run("the catalog sits between the manifest and the blocks", func(t *testing.T) {
		assert.Equal(t, "M\n\nCAT\n\n[n-1] A · a.md\nalpha text\n\n[n-2] B · b.md#s · summary\nbeta", ContextText("M", "CAT", blocks))
	})
	t.Run("blocks of one document sit under its path, in their order", func(t *testing.T) {
		x1 := &Candidate{ID: "n-1", Document: "x.md", Title: "x.md › One", Ref: "x.md#one", Cite: "x.md#one L1–3"}
		y := &Candidate{ID: "n-2", Document: "y.md", Title: "y.md › Why", Ref: "y.md#why", Cite: "y.md#why L9"}
		x2 := &Candidate{ID: "n-3", Document: "x.md", Title: "x.md › Two", Ref: "x.md#two", Cite: "x.md#two L7–8"}
		got := ContextText("M", "", []Block{{Candidate: x1, Text: "one"}, {Candidate: y, Text: "why"}, {Candidate: x2, Text: "two"}})
		assert.Equal(t, "M\n\nx.md:\n[n-1] One · L1\none\n\n[n-3] Two · L7\ntwo\n\n[n-2] y.md › Why · L9\nwhy", got)
		count := tokens.Default().Count
		assert.GreaterOrEqual(t, frameTokens(count, []Block{{Candidate: x1, Text: ""}, {Candidate: y, Text: ""}, {Candidate: x2, Text: ""}}), count(got)-count("M")-count("one")-count("why")-count("two"),
			"frameTokens bounds what the headers take")
	})
	t.Run("the prompt is system, context and question", func(t *testing.T) {
		assert.Equal(t, "SYS\n\nCTX\n\nQuestion: why?", Prompt("SYS", "CTX", "  why?\n"))
	})
	t.Run("an empty system prompt is left out", func(t *testing.T) {
		assert.Equal(t, "CTX\n\nQuestion: why?", Prompt("", "CTX", "why?"))
	})
}

// fakeText returns, for a candidate at a level, a text that names the node
// and has as many cl100k tokens as the level's size (" x" is one token);
// when the size is smaller than the name it sets the size to the real
// count, as a TextFunc that makes summaries does.
func fakeText(count Counter) TextFunc {
	return func(c *Candidate, l Level) (string, error) {
		name := fmt.Sprintf("<<%s@%s>>", c.ID, l)
		n := c.tokensAt(l)
		used := count(name)
		text := name + strings.Repeat(" x", max(0, n-used))
		// The name ends in ">>", which does not merge with " x", and each
		// " x" is one token (TestFakeTextHasTheDeclaredSize checks both), so
		// the text need not be counted again.
		if real := max(n, used); real != n {
			setSize(c, l, real)
		}
		return text, nil
	}
}

// roughText returns, for a candidate at a level, a text about the level's
// size made of words, numbers, punctuation, line breaks, code and
// non-Latin script, the kind of text whose tokens merge across the seams
// of the context; like a real TextFunc it sets the level's size to the
// text's real count. The same node and level always get the same text.
func roughText(count Counter) TextFunc {
	pieces := []string{" the", " token", " budget", " naïve", " 日本語の文", " 🙂", " 2025", " 3.14159", ",", ".", ";",
		" —", " |", " [draft]", "\n", "\n\n", "\n- item", " func(x int) { return x }", " <|endoftext|>", " #", "```", "\t", "  "}
	type key struct {
		c *Candidate
		l Level
	}
	type sized struct {
		text   string
		tokens int
	}
	made := map[key]sized{}
	return func(c *Candidate, l Level) (string, error) {
		if m, ok := made[key{c, l}]; ok {
			setSize(c, l, m.tokens)
			return m.text, nil
		}
		var seed uint64
		for _, b := range []byte(c.ID + "@" + string(l)) {
			seed = seed*131 + uint64(b)
		}
		r := rand.New(rand.NewPCG(seed, 7))
		var b strings.Builder
		fmt.Fprintf(&b, "<<%s@%s>>", c.ID, l)
		for range c.tokensAt(l) * 2 / 3 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if r.IntN(2) == 0 {
			b.WriteString(pieces[r.IntN(len(pieces))]) // may end in punctuation or a line break
		}
		m := sized{b.String(), count(strings.TrimSpace(b.String()))}
		made[key{c, l}] = m
		setSize(c, l, m.tokens)
		return m.text, nil
	}
}

func setSize(c *Candidate, l Level, n int) {
	switch l {
	case Detailed:
		c.Tokens = n
	case Summary:
		c.SummaryTokens = n
	case Essence:
		c.EssenceTokens = n
	case Chunks:
		c.ChunkTokens = n
	}
}

func counter(t testing.TB) Counter {
	t.Helper()
	bpe, err := tokens.New(tokens.DefaultEncoding)
	require.NoError(t, err)
	return bpe.Count
}

func TestFakeTextHasTheDeclaredSize(t *testing.T) {
	count := counter(t)
	text := fakeText(count)
	for _, n := range []int{12, 13, 100, 2999} {
		c := &Candidate{ID: "n17", Tokens: n}
		s, err := text(c, Detailed)
		require.NoError(t, err)
		assert.Equal(t, n, count(s), "size %d", n)
		assert.Equal(t, n, c.Tokens, "a text of the declared size leaves it alone")
	}
	c := &Candidate{ID: "n17", SummaryTokens: 1}
	s, _ := text(c, Summary)
	assert.Equal(t, count(s), c.SummaryTokens, "a text larger than declared corrects the size")
}

func TestAssembleRefusals(t *testing.T) {
	count := counter(t)
	split, err := PlanSplit(SplitRequest{Budget: 1000, Reserve: 0.3})
	require.NoError(t, err)
	t.Run("a missing counter is refused", func(t *testing.T) {
		_, err := Assemble(nil, split, SelectOptions{}, "", "q", "", nil, fakeText(count))
		assert.ErrorContains(t, err, "no token counter or text source")
	})
	t.Run("a missing text source is refused", func(t *testing.T) {
		_, err := Assemble(nil, split, SelectOptions{}, "", "q", "", count, nil)
		assert.ErrorContains(t, err, "no token counter or text source")
	})
	t.Run("a failing text source names the node", func(t *testing.T) {
		boom := errors.New("disk on fire")
		c := node("a", 0.9, 10)
		_, err := Assemble([]*Candidate{c}, split, SelectOptions{Oversize: 0.5}, "", "q", "", count,
			func(*Candidate, Level) (string, error) { return "", boom })
		require.ErrorIs(t, err, boom)
		assert.Contains(t, err.Error(), "load doc.md#a")
	})
	t.Run("a context too small for the manifest frame is refused", func(t *testing.T) {
		var cs []*Candidate
		for i := range 3 {
			cs = append(cs, node(fmt.Sprint(i), 0.5, 10))
		}
		_, err := Assemble(cs, Split{Context: 10}, SelectOptions{Oversize: 0.5}, "", "q", "", count, fakeText(count))
		assert.ErrorContains(t, err, "raise the budget")
	})
}

func TestAssembleSeedExample(t *testing.T) {
	count := counter(t)
	var cs []*Candidate
	seed := []*Candidate{
		{ID: "n-1", Title: "OAuth token analysis", Score: 0.92, Source: "output"},
		{ID: "n-2", Title: "Auth error logs summary", Score: 0.85, Source: "analysis"},
		{ID: "n-3", Title: "API endpoint docs", Score: 0.81, Source: "input"},
	}
	for i, c := range seed {
		c.Ref, c.Relevant, c.Tokens = fmt.Sprintf("auth.md#part-%d", i+1), true, 300
		cs = append(cs, c)
	}
	for i := range 4 {
		c := node(fmt.Sprintf("n-%d", i+4), 0.80-float64(i)*0.01, 300)
		cs = append(cs, c)
	}
	split, err := PlanSplit(SplitRequest{Budget: 1100, Reserve: 0.3})
	require.NoError(t, err)
	a, err := Assemble(cs, split, SelectOptions{Level: Detailed, Oversize: 1}, "SYSTEM", "Why do tokens expire?", "", count, fakeText(count))
	require.NoError(t, err)

	const manifest = "[Context loaded: 3 of 7 relevant nodes]\n" +
		"[Additional context available but not loaded: 4 nodes — [n-4] Section n-4 (300 tokens); [n-5] Section n-5 (300 tokens); [n-6] Section n-6 (300 tokens); [n-7] Section n-7 (300 tokens)]"
	assert.Equal(t, manifest, a.Manifest, "three of seven fit; four are named as not loaded")
	assert.Equal(t, BranchByScore, a.Selection.Branch)
	assert.LessOrEqual(t, count(a.Context), split.Context)
	assert.Equal(t, 900, a.Split.Loaded)
	assert.True(t, strings.HasPrefix(a.Prompt, "SYSTEM\n\n"+manifest+"\n\n[n-1] OAuth token analysis · auth.md#part-1\n<<n-1@detailed>>"))
	assert.True(t, strings.HasSuffix(a.Prompt, "\n\nQuestion: Why do tokens expire?"))

	golden.Equal(t, filepath.Join("testdata", "seed-prompt.golden"), []byte(a.Prompt))
}

func TestAssembleCatalog(t *testing.T) {
	count := counter(t)
	split, err := PlanSplit(SplitRequest{Budget: 400, Reserve: 0.3})
	require.NoError(t, err)
	wide, err := PlanSplit(SplitRequest{Budget: 2000, Reserve: 0.3})
	require.NoError(t, err)
	t.Run("a catalog that fits is kept between manifest and blocks", func(t *testing.T) {
		cs := []*Candidate{node("a", 0.9, 100)}
		a, err := Assemble(cs, wide, SelectOptions{Oversize: 0.5}, "", "q", "CATALOG: a, b, c", count, fakeText(count))
		require.NoError(t, err)
		assert.Equal(t, "CATALOG: a, b, c", a.Catalog)
		assert.True(t, strings.HasPrefix(a.Context, a.Manifest+"\n\nCATALOG: a, b, c\n\n[a] "))
		assert.Equal(t, count("CATALOG: a, b, c"), a.Split.Catalog)
		assert.LessOrEqual(t, count(a.Context), wide.Context)
	})
	t.Run("the catalog's last lines are left out beyond the frame's share of the budget", func(t *testing.T) {
		cs := []*Candidate{node("a", 0.9, 100)}
		catalog := "[Catalog: 3 documents]\n[Documents near:" + strings.Repeat(" d", 150) + "]\n[Concepts near:" + strings.Repeat(" c", 150) + "]"
		a, err := Assemble(cs, wide, SelectOptions{Oversize: 0.5}, "", "q", catalog, count, fakeText(count))
		require.NoError(t, err)
		assert.Equal(t, "[Catalog: 3 documents]", a.Catalog, "room for the first line only")
		assert.LessOrEqual(t, a.Split.Manifest+a.Split.Catalog, wide.Context*FramePercent/100)
		assert.Contains(t, a.Context, "[a] ", "the nodes are all there")
		assert.Equal(t, 100, a.Split.Loaded)
	})
	t.Run("a catalog that does not fit is dropped, not the nodes", func(t *testing.T) {
		cs := []*Candidate{node("a", 0.9, 300)}
		a, err := Assemble(cs, split, SelectOptions{Oversize: 1}, "", "q", strings.Repeat(" y", 200), count, fakeText(count))
		require.NoError(t, err)
		assert.Empty(t, a.Catalog)
		assert.Zero(t, a.Split.Catalog)
		assert.Len(t, a.Blocks, 1)
		assert.NotContains(t, a.Context, " y y")
	})
}

func TestAssembleWithTextsLargerThanAnnounced(t *testing.T) {
	count := counter(t)
	// Each call makes a text larger than the size the node had, and
	// reports it (as the TextFunc contract asks), so selections overflow
	// until Assemble takes room away or gives up nodes.
	growths := []struct {
		name string
		grow func(size, call int) int
	}{
		{"twice as large", func(n, _ int) int { return 2 * n }},
		{"five tokens more for every call so far", func(n, call int) int { return n + 5*call }},
	}
	for _, g := range growths {
		for _, level := range []Level{Detailed, Adaptive, Summary} {
			t.Run("texts "+g.name+" at level "+string(level)+" still fit", func(t *testing.T) {
				calls := 0
				text := func(c *Candidate, l Level) (string, error) {
					calls++
					n := g.grow(c.tokensAt(l), calls)
					setSize(c, l, n)
					return strings.TrimSpace(strings.Repeat(" x", n)), nil
				}
				var cs []*Candidate
				for i := range 40 {
					c := node(fmt.Sprintf("n%02d", i), 0.9-float64(i)*0.01, 100+i)
					c.SummaryTokens, c.EssenceTokens = 60, 12
					cs = append(cs, c)
				}
				split, err := PlanSplit(SplitRequest{Budget: 1200, Reserve: 0.3})
				require.NoError(t, err)
				a, err := Assemble(cs, split, SelectOptions{Level: level, Oversize: 0.5}, "", "q", "", count, text)
				require.NoError(t, err)
				assert.LessOrEqual(t, count(a.Context), split.Context)
				assert.Equal(t, a.Selection.NotLoaded, a.Selection.Relevant-len(a.Selection.Loaded))
				for _, c := range a.Selection.Loaded {
					assert.Equal(t, c.tokensAt(c.Level), c.LoadedTokens, "the loaded size is the reported one")
				}
			})
		}
	}
}

// TestAssembleNeverOverflows is a property test: whatever the candidates,
// levels, pins and budget, the measured context fits the split, the parts
// of the split add up, every loaded text is in the prompt and the manifest
// opens the context.
func TestAssembleNeverOverflows(t *testing.T) {
	count := counter(t)
	r := rand.New(rand.NewPCG(2025, 603))
	allLevels := []Level{Adaptive, Detailed, Summary, Essence}
	titles := []string{"Plain", "Pipes | in | title", "[Bracketed] title", "Two\nlines", "Ünïcödé — dash", ""}
	cites := []string{"", "doc.md#x L12–30", "papers/flash.pdf p. 4–5 §3.2.1", "web/[draft] | guide.html §Set up", `answer "Why?"`}
	type propertyCase struct {
		cands   []*Candidate
		split   Split
		opts    SelectOptions
		catalog string
		rough   bool
	}
	// The cases are drawn up front from one seeded source, so they are the
	// same on every run whatever order the parallel subtests run in.
	const cases = 300
	all := make([]propertyCase, cases)
	for i := range all {
		var cs []*Candidate
		base := map[string]string{} // a long section's title without its part mark
		for j := range r.IntN(41) {
			c := randomCandidate(r, fmt.Sprintf("n%02d", j))
			c.Overhead = 0 // Assemble sets it
			c.Title = titles[r.IntN(len(titles))] + " " + c.ID
			c.Cite = cites[j%len(cites)]
			if j > 0 && r.IntN(2) == 0 { // the next part of the one before's section
				prev := cs[j-1]
				if prev.Parts == 0 {
					prev.Document, prev.Ref, prev.Part = "long/"+prev.ID+".md", "long/"+prev.ID+".md#s", 1
					base[prev.Ref] = prev.Title
				}
				c.Document, c.Ref, c.Part, c.Cite = prev.Document, prev.Ref, prev.Part+1, prev.Cite
				for k := j - c.Part + 1; k <= j-1; k++ {
					cs[k].Parts = c.Part
				}
				c.Parts = c.Part
			}
			cs = append(cs, c)
		}
		for _, c := range cs {
			if c.Parts > 1 {
				c.Title = base[c.Ref] + fmt.Sprintf(" (part %d/%d)", c.Part, c.Parts)
			}
		}
		Rank(cs, Weights{}, Config{}) // only sorts: Relevant is reset below
		for _, c := range cs {
			c.Relevant = r.IntN(3) > 0
		}
		split, err := PlanSplit(SplitRequest{Budget: MinContext + r.IntN(8000-MinContext+1), System: 50, Question: 10, Reserve: 0.3, Complexity: r.Float64()})
		require.NoError(t, err)
		o := SelectOptions{Level: allLevels[r.IntN(len(allLevels))], Oversize: 0.2 + 0.8*r.Float64(), Novelty: r.Float64() * 0.5}
		catalog := ""
		if r.IntN(3) == 0 {
			catalog = "Catalog:" + strings.Repeat(" doc.md", 1+r.IntN(300))
		}
		all[i] = propertyCase{cs, split, o, catalog, r.IntN(2) == 0}
	}
	const system = "You are a test."
	for i, pc := range all {
		cs, split, o, catalog := pc.cands, pc.split, pc.opts, pc.catalog
		text, kind := fakeText(count), "exact"
		if pc.rough {
			text, kind = roughText(count), "rough"
		}
		name := fmt.Sprintf("case %03d fits %d candidates with %s texts at level %s into %d tokens", i, len(cs), kind, o.Level, split.Context)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, err := Assemble(cs, split, o, system, "What now?", catalog, count, text)
			require.NoError(t, err)

			measured := count(a.Context)
			require.LessOrEqual(t, measured, split.Context, "the measured context overflows")
			require.Equal(t, split.Context, a.Split.Context)
			require.GreaterOrEqual(t, a.Split.Free, 0)
			if a.Split.Free > 0 {
				require.Equal(t, a.Split.Context, a.Split.Manifest+a.Split.Catalog+a.Split.Loaded+a.Split.Free, "%+v", a.Split)
			}
			require.Equal(t, a.Selection.Used, a.Split.Loaded)
			require.True(t, strings.HasPrefix(a.Prompt, system+"\n\n"+a.Manifest+"\n\n"),
				"the manifest is the first thing after the system prompt")
			require.True(t, strings.HasSuffix(a.Prompt, "\n\nQuestion: What now?"))
			var forms []string // naming fewer of those left out when room is short
			for k := range ManifestListed + 1 {
				forms = append(forms, manifest(a.Selection.Loaded, a.Selection.Relevant, notLoaded(cs), k))
			}
			require.Contains(t, forms, a.Manifest)
			loaded, inBlocks := 0, map[*Candidate]int{}
			for _, bl := range a.Blocks {
				ids := []string{bl.Candidate.short()}
				for _, c := range append([]*Candidate{bl.Candidate}, bl.Joined...) {
					inBlocks[c]++
					require.True(t, c.Relevant || c.Pinned)
					loaded += c.LoadedTokens
				}
				for k, c := range bl.Joined {
					ids = append(ids, c.short())
					before := bl.Candidate
					if k > 0 {
						before = bl.Joined[k-1]
					}
					require.Equal(t, bl.Candidate.Level, c.Level, "parts joined at one level")
					if c.Level == Detailed {
						require.Equal(t, before.Part+1, c.Part, "parts in full joined when adjacent, in order")
					} else {
						require.Greater(t, c.Part, before.Part, "summaries of parts joined in order")
					}
				}
				require.Contains(t, a.Prompt, "\n["+strings.Join(ids, ", ")+"] ", "%s has its header", bl.Candidate.ID)
				require.Contains(t, a.Prompt, "\n"+BlockText(bl.Text), "%s is not in the prompt", bl.Candidate.ID)
			}
			for _, c := range a.Selection.Loaded {
				require.Equal(t, 1, inBlocks[c], "%s is in one block", c.ID)
			}
			require.Len(t, inBlocks, len(a.Selection.Loaded))
			require.Equal(t, loaded, a.Split.Loaded)
			if a.Catalog != "" {
				require.Equal(t, catalog, a.Catalog)
				require.Contains(t, a.Context, a.Manifest+"\n\n"+catalog)
			}
			for _, c := range cs {
				require.NotEmpty(t, c.Reason, "%s has no reason", c.ID)
			}
		})
	}
}

// A whole definition's block is headed without its kind and name when its
// first line declares the name, and so is its first part's (which says
// only which part it is); a later part's block keeps them (they say which
// definition it is part of), as does a block whose first line names
// something else.
func TestBlockHeaderLeavesOutADefinitionTheTextDeclares(t *testing.T) {
	def := &Candidate{ID: "n-1a2b", Document: "query/catalog.go", Ref: "query/catalog.go#Pipeline.catalog", Cite: "query/catalog.go L10–41", Title: "query/catalog.go › method Pipeline.catalog"}
	part := &Candidate{ID: "n-3c4d", Document: "query/render.go", Ref: "query/render.go#Assemble", Cite: "query/render.go L431–477", Title: "query/render.go › func Assemble (part 2/4)"}
	other := &Candidate{ID: "n-5e6f", Document: "query/x.go", Ref: "query/x.go#Catalog", Cite: "query/x.go L1–3", Title: "query/x.go › func catalog"}
	text := ContextText("[M]", "", []Block{
		{Candidate: def, Text: "func (w *Pipeline) catalog(p *pool) string {\n\treturn \"\"\n}"},
		{Candidate: part, Text: "\tfor _, c := range cands {"},
		{Candidate: other, Text: "func catalogue() {}"},
	})
	assert.Contains(t, text, "[n-1a2b] query/catalog.go · L10\nfunc (w *Pipeline) catalog(")
	assert.Contains(t, text, "[n-3c4d] query/render.go › func Assemble part 2/4 · L431\n")
	assert.Contains(t, text, "[n-5e6f] query/x.go › func catalog · L1\n", "catalogue is not catalog")

	// A method whose line does not say its type (Python's, unlike Go's
	// receiver) is headed by its type when another block defines the same
	// name: Session.get is not the top-level get.
	method := &Candidate{ID: "n-9c0d", Document: "requests/sessions.py", Ref: "requests/sessions.py#Session.get", Cite: "requests/sessions.py L655–671", Title: "requests/sessions.py › method Session.get"}
	fn := &Candidate{ID: "n-1e2f", Document: "requests/api.py", Ref: "requests/api.py#get", Cite: "requests/api.py L62–75", Title: "requests/api.py › func get"}
	send := &Candidate{ID: "n-3a4b", Document: "requests/adapters.py", Ref: "requests/adapters.py#HTTPAdapter.send", Cite: "requests/adapters.py L590–700", Title: "requests/adapters.py › method HTTPAdapter.send"}
	blocks := []Block{
		{Candidate: method, Text: "def get(self, url, **kwargs):\n    return self.request(\"GET\", url, **kwargs)"},
		{Candidate: fn, Text: "def get(url, params=None, **kwargs):"},
		{Candidate: send, Text: "def send(self, request, stream=False):"},
	}
	text = ContextText("[M]", "", blocks)
	assert.Contains(t, text, "[n-9c0d] requests/sessions.py › Session · L655\ndef get(self")
	assert.Contains(t, text, "[n-1e2f] requests/api.py · L62\ndef get(url")
	assert.Contains(t, text, "[n-3a4b] requests/adapters.py · L590\ndef send(self", "a name no other block defines needs no type")
	assert.GreaterOrEqual(t, frameTokens(counter(t), blocks), counter(t)(text)-counter(t)("[M]")-counter(t)(blocks[0].Text)-counter(t)(blocks[1].Text)-counter(t)(blocks[2].Text),
		"the frame's count has the type-named header too")

	// A first part, alone and beside a block that defines the same name.
	first := &Candidate{ID: "n-7a7a", Document: "query/render.go", Ref: "query/render.go#Assemble", Cite: "query/render.go L365–411",
		Title: "query/render.go › func Assemble (part 1/4)", Part: 1, Parts: 4, Level: Summary}
	text = ContextText("[M]", "", []Block{{Candidate: first, Text: "func Assemble(cands []*Candidate) (*Assembly, error) {\nAssemble selects and renders."}})
	assert.Contains(t, text, "[n-7a7a] query/render.go › part 1/4 · L365–411 · summary\nfunc Assemble(", "a summary keeps the lines it stands for")
	long := &Candidate{ID: "n-8b8b", Document: "requests/sessions.py", Ref: "requests/sessions.py#Session.get", Cite: "requests/sessions.py L655–690",
		Title: "requests/sessions.py › method Session.get (part 1/2)", Part: 1, Parts: 2}
	text = ContextText("[M]", "", []Block{{Candidate: long, Text: "def get(self, url, **kwargs):\n    r\"\"\"Sends a GET request."}, blocks[1]})
	assert.Contains(t, text, "[n-8b8b] requests/sessions.py › Session part 1/2 · L655\ndef get(self")
	later := &Candidate{ID: "n-9c9c", Document: "requests/sessions.py", Ref: "requests/sessions.py#Session.get", Cite: "requests/sessions.py L691–700",
		Title: "requests/sessions.py › method Session.get (part 2/2)", Part: 2, Parts: 2}
	text = ContextText("[M]", "", []Block{{Candidate: later, Text: "return self.get(url)"}})
	assert.Contains(t, text, "[n-9c9c] requests/sessions.py › method Session.get part 2/2 · L691\n", "a later part that calls the name does not declare it")

	// An essence is a sentence of the doc comment, which names the
	// definition (Go's convention) but does not declare it: the header
	// says which definition it is (Client.Do, not Transport's Do).
	essence := &Candidate{ID: "n-4b7f", Document: "http/client.go", Ref: "http/client.go#Client.Do", Cite: "http/client.go L587–640",
		Title: "http/client.go › method Client.Do", Level: Essence}
	text = ContextText("[M]", "", []Block{{Candidate: essence, Text: "Do sends an HTTP request and returns an HTTP response."}})
	assert.Contains(t, text, "[n-4b7f] http/client.go › method Client.Do · L587–640 · essence\nDo sends", "a sentence names Do but does not declare it")

	prose := &Candidate{ID: "n-7a8b", Document: "paper.pdf", Ref: "paper.pdf#related", Cite: "paper.pdf p. 2", Title: "paper.pdf › Related work"}
	text = ContextText("[M]", "", []Block{{Candidate: prose, Text: "Earlier work on retrieval weighed terms by their rarity."}})
	assert.Contains(t, text, "[n-7a8b] paper.pdf › Related work · p. 2\n", "a two-word prose title is no definition")
}

// TestAssembleUsesTheRoomMadeSummariesLeave: summaries not made yet are
// offered at an upper bound of their size; when they come out smaller,
// the room left is used for what did not load in full.
func TestAssembleUsesTheRoomMadeSummariesLeave(t *testing.T) {
	count := counter(t)
	fake := fakeText(count)
	text := func(c *Candidate, l Level) (string, error) {
		if l == Summary {
			c.SummaryTokens = 40 // made: smaller than its bound
		}
		return fake(c, l)
	}
	var cs []*Candidate
	for i := range 6 {
		c := node(fmt.Sprintf("n%d", i), 0.9-float64(i)*0.01, 300)
		c.SummaryTokens = 150
		cs = append(cs, c)
	}
	split, err := PlanSplit(SplitRequest{Budget: 1400, Reserve: 0.3})
	require.NoError(t, err)
	a, err := Assemble(cs, split, SelectOptions{Level: Adaptive, Oversize: 1}, "", "q", "", count, text)
	require.NoError(t, err)

	assert.LessOrEqual(t, count(a.Context), split.Context)
	assert.Len(t, a.Selection.Loaded, 6)
	detailed := 0
	for _, c := range a.Selection.Loaded {
		if c.Level == Detailed {
			detailed++
		}
		assert.Equal(t, c.tokensAt(c.Level), c.LoadedTokens)
	}
	assert.GreaterOrEqual(t, detailed, 2, "the room the summaries left loads nodes in full: %+v", a.Split)
	assert.Less(t, a.Split.Free, 300, "%+v", a.Split)
}

// TestBlockTextCollapsesBlankRuns: a block's text in the prompt has one
// blank line where its section had a run of them (an Org drawer's lines,
// left blank to keep line numbers), but not inside fenced code, and no
// blank lines around it; a link to an Org-roam id is its words.
func TestBlockTextCollapsesBlankRuns(t *testing.T) {
	in := "\n### Local Beam Search\n\n\n\n\nIt keeps n states.\n\n```python\nx = 1\n\n\n\ny = 2\n```\n\n\nDone.\n\n"
	assert.Equal(t, "### Local Beam Search\n\nIt keeps n states.\n\n```python\nx = 1\n\n\n\ny = 2\n```\n\nDone.", BlockText(in))
	assert.Equal(t, "a\n\nb", BlockText("a\n\nb"), "one blank line stays")
	assert.Equal(t, "~~~~\n\n\n~~~~\nafter\n\nend", BlockText("~~~~\n\n\n~~~~\nafter\n\n\n\nend"))
	assert.Equal(t, "See Power analysis and [the site](https://x.org).", BlockText("See [Power analysis](id:7b2d-a1c3-5e6f) and [the site](https://x.org)."),
		"an Org-roam id link is its words")
}

// A frame over its share of the context, with relevant text left out: the
// headers leave out their lines (and pages), and the room that frees goes
// to text. When all that is relevant loads, or the frame is within its
// share, they keep them.
func TestHeadersLeaveOutLinesWhenTheFrameIsOverItsShare(t *testing.T) {
	count := counter(t)
	small := func(size int, cite func(i int) string) []*Candidate {
		var cs []*Candidate
		for i := range 40 {
			id := fmt.Sprintf("n-%02x00", i)
			cs = append(cs, &Candidate{ID: id, Ref: "code.go#f" + id, Cite: cite(i), Document: "code.go",
				Title: "code.go › f" + id, Source: "input", Score: 0.9 - float64(i)/100, Tokens: size, Relevant: true})
		}
		return cs
	}
	lines := func(i int) string { return fmt.Sprintf("code.go L%d–%d", 100*i+1, 100*i+60) }
	assemble := func(cs []*Candidate, split Split) *Assembly {
		a, err := Assemble(cs, split, SelectOptions{Level: Detailed}, "", "q", "", count, fakeText(count))
		require.NoError(t, err)
		return a
	}
	split, err := PlanSplit(SplitRequest{Budget: 400, Reserve: 0.3})
	require.NoError(t, err)

	placed := small(12, lines)
	a := assemble(placed, split)
	assert.NotEmpty(t, notLoaded(placed), "not all of it fits")
	assert.NotRegexp(t, `\] .*L\d`, a.Context, "no header writes its lines")
	assert.Contains(t, a.Context, "[n-000] fn-0000\n", "the title stays")
	assert.LessOrEqual(t, count(a.Context), split.Context)

	// As many blocks as when the nodes have no lines to write at all: the
	// room the lines would take went to text.
	none := small(12, func(int) string { return "code.go" })
	assert.Len(t, a.Blocks, len(assemble(none, split).Blocks))

	// Everything relevant fits: the lines stay, whatever the frame's share
	// (also for candidates an earlier assembly left without them).
	for i, c := range placed {
		c.Relevant = i < 3
	}
	c := assemble(placed, split)
	require.Len(t, c.Blocks, 3, "the three relevant ones")
	assert.Greater(t, c.Split.Manifest*100, split.Context*FramePercent, "the frame is over its share")
	assert.Contains(t, c.Context, "[n-000] fn-0000 · L1\n")

	// A budget with room for the frame's share: the lines stay.
	wide, err := PlanSplit(SplitRequest{Budget: 4000, Reserve: 0.3})
	require.NoError(t, err)
	large := small(200, lines)
	d := assemble(large, wide)
	assert.NotEmpty(t, notLoaded(large), "not all of it fits")
	assert.LessOrEqual(t, d.Split.Manifest*100, wide.Context*FramePercent)
	assert.Contains(t, d.Context, "[n-000] fn-0000 · L1\n")
}

func TestWithoutSpans(t *testing.T) {
	for loc, want := range map[string]string{
		"L3–12":              "",
		"L7":                 "",
		"p. 4–5 §3.2 Tiling": "§3.2 Tiling",
		"§3.2 Tiling p. 4":   "§3.2 Tiling",
		"@smith2020":         "@smith2020",
		"":                   "",
	} {
		assert.Equal(t, want, withoutSpans(loc), "%q", loc)
	}
}

func TestBarePartsDropsOnlyAClosingPartMarksBrackets(t *testing.T) {
	for in, want := range map[string]string{
		"method Client.do (part 2/4)":        "method Client.do part 2/4",
		"(part 5/7)":                         "part 5/7",
		"Setup (parts 2–3/5)":                "Setup parts 2–3/5",
		"Setup (parts 1, 2, 4/4)":            "Setup parts 1, 2, 4/4",
		"Nouns (part of speech)":             "Nouns (part of speech)",
		"Ratios (part 1/2) compared":         "Ratios (part 1/2) compared",
		"func Redirect":                      "func Redirect",
		"Release notes (parts 2/3 and more)": "Release notes (parts 2/3 and more)",
	} {
		assert.Equal(t, want, bareParts(in), in)
	}
}

func TestTheManifestNamesFewerWhenTheFrameIsStillOverItsShare(t *testing.T) {
	count := counter(t)
	// Forty small relevant definitions with long names at a small budget:
	// even with headers that leave out their lines, the frame is over its
	// share, and naming two of the nodes left out rather than five lets
	// more text in.
	var cs []*Candidate
	for i := range 40 {
		id := fmt.Sprintf("n-%02x00", i)
		name := fmt.Sprintf("method transportConnectionPool.acquireIdleConnectionForHost%d", i)
		cs = append(cs, &Candidate{ID: id, Ref: "pool.go#" + name, Cite: fmt.Sprintf("pool.go L%d–%d", 100*i+1, 100*i+60), Document: "pool.go",
			Title: "pool.go › " + name, Source: "input", Score: 0.9 - float64(i)/100, Tokens: 12, Relevant: true})
	}
	split, err := PlanSplit(SplitRequest{Budget: 900, Reserve: 0.3})
	require.NoError(t, err)
	a, err := Assemble(cs, split, SelectOptions{Level: Detailed}, "", "q", "", count, fakeText(count))
	require.NoError(t, err)
	left := notLoaded(cs)
	require.Greater(t, len(left), ShortListed, "not all of it fits")
	assert.Equal(t, ShortListed, strings.Count(a.Manifest, " tokens)"), "the manifest names %d: %s", ShortListed, a.Manifest)
	assert.Contains(t, a.Manifest, fmt.Sprintf("[%s] ", left[0].short()), "the best of those left out")
	assert.Contains(t, a.Manifest, fmt.Sprintf("; and %d more]", len(left)-ShortListed))
	assert.LessOrEqual(t, count(a.Context), split.Context)
}
