package assemble

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOverlap(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		want string // the end of a that b repeats
	}{
		{"a paragraph", "Setup starts here.\n\nThe repeated paragraph is here.", "The repeated paragraph is here.\n\nThen new text.", "The repeated paragraph is here."},
		{"two paragraphs", "First.\n\nSecond paragraph.\n\nThird paragraph.", "Second paragraph.\n\nThird paragraph.\n\nFourth.", "Second paragraph.\n\nThird paragraph."},
		{"a sentence of a cut paragraph", "One sentence. Two three four five.", "Two three four five. Six seven.", "Two three four five."},
		{"code lines with their indent", "def f():\n    x = 1\n\n    return total", "    return total\n    z = 3", "    return total"},
		{"code lines stored without the first indent", "def f():\n    x = 1\n\n    return total", "return total\n    z = 3", "return total"},
		{"all of a", "Short but whole part.", "Short but whole part.\n\nAnd more.", "Short but whole part."},
		{"nothing repeated", "Alpha beta gamma.", "Delta epsilon.", ""},
		{"too short to be more than chance", "x = 1\n}", "}\nfunc g() {}", ""},
		{"not at a sentence or line start", "He sat on the mat by the door", "the mat by the door and slept", ""},
		{"b goes on within the word", "Alpha beta gamma.\nEpsilon zeta eta", "Epsilon zeta etaX more", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := overlap(tc.a, tc.b)
			assert.Equal(t, len(tc.want), n, "overlap %q", tc.b[:n])
			joined, added := joinText(tc.a, tc.b, "\n\n", true)
			assert.Equal(t, tc.a+added, joined)
			assert.Equal(t, 1, strings.Count(joined, strings.TrimSpace(tc.b)[len(strings.TrimSpace(tc.want)):]), "b's own text once: %q", joined)
			if tc.want != "" {
				assert.Equal(t, 1, strings.Count(joined, strings.TrimSpace(tc.want)), "the repeated text once: %q", joined)
			}
		})
	}
}

// A long section loaded in several adjacent parts reads as one block, in
// part order, with the text each part repeats of the one before written
// once; its header names every part and spans their lines.
func TestAdjacentPartsReadAsOneBlock(t *testing.T) {
	count := counter(t)
	p1 := "## Setup\n\nInstall the tool first. It needs a recent compiler.\n\nThe configuration file lives in your home folder."
	p2 := "The configuration file lives in your home folder.\n\nEach key sets one option. Unknown keys are an error."
	p3 := "Unknown keys are an error. Values are strings unless quoted otherwise.\n\nRestart after a change."
	p4 := "Restart after a change.\n\nThe end of the section."
	texts := map[string]string{}
	part := func(id string, n, of int, lines string, score float64, text string) *Candidate {
		texts[id] = text
		return &Candidate{ID: id, Ref: "guide.md#setup", Document: "guide.md", Cite: "guide.md#setup " + lines,
			Title: fmt.Sprintf("guide.md › Setup (part %d/%d)", n, of), Part: n, Parts: of, Score: score, Relevant: true,
			Tokens: count(text)}
	}
	other := &Candidate{ID: "n-other", Ref: "notes.md#x", Document: "notes.md", Cite: "notes.md#x L1–3", Title: "notes.md › Aside",
		Score: 0.85, Relevant: true}
	texts[other.ID] = "An aside that is not part of the section."
	other.Tokens = count(texts[other.ID])
	// code is part n of 2 of a Go function, its text already in texts.
	code := func(id, file, name string, n int, lines string) *Candidate {
		return &Candidate{ID: id, Ref: file + "#" + name, Document: file, Cite: file + " " + lines, Title: fmt.Sprintf("%s › func %s (part %d/2)", file, name, n),
			Part: n, Parts: 2, Score: 0.9, Relevant: true, Tokens: count(texts[id])}
	}
	text := func(c *Candidate, l Level) (string, error) { return texts[c.ID], nil }
	assemble := func(t *testing.T, cs ...*Candidate) *Assembly {
		t.Helper()
		a := assembleInFull(t, count, text, cs...)
		loaded := 0
		for _, c := range a.Selection.Loaded {
			loaded += c.LoadedTokens
		}
		require.Equal(t, loaded, a.Split.Loaded, "the split counts what each node adds")
		for _, bl := range a.Blocks {
			require.GreaterOrEqual(t, bl.tokens(), count(strings.TrimSpace(bl.Text)), "a block's size is an upper bound of its text's")
		}
		return a
	}

	t.Run("the whole section, loaded out of order, is one block in order", func(t *testing.T) {
		a := assemble(t, part("n-p3", 3, 4, "L30–41", 0.9, p3), other, part("n-p1", 1, 4, "L10–20", 0.8, p1),
			part("n-p4", 4, 4, "L40–44", 0.75, p4), part("n-p2", 2, 4, "L19–31", 0.7, p2))
		require.Len(t, a.Selection.Loaded, 5)
		assert.Equal(t, "[Context loaded: 5 of 5 relevant nodes]\n[Additional context available but not loaded: 0 nodes]\n\n"+
			"[n-p1, n-p2, n-p3, n-p4] guide.md · L10\n"+
			"## Setup\n\nInstall the tool first. It needs a recent compiler.\n\nThe configuration file lives in your home folder.\n\n"+
			"Each key sets one option. Unknown keys are an error. Values are strings unless quoted otherwise.\n\n"+
			"Restart after a change.\n\nThe end of the section.\n\n"+
			"[n-oth] notes.md › Aside · L1\nAn aside that is not part of the section.", a.Context)
		for _, c := range a.Selection.Loaded {
			switch c.ID {
			case "n-p1", "n-other":
				assert.Equal(t, c.Tokens, c.LoadedTokens, c.ID)
			default:
				assert.Less(t, c.LoadedTokens, c.Tokens, "%s is charged what it adds", c.ID)
				assert.Contains(t, c.Reason, "read on from part")
			}
		}
	})
	t.Run("a run of some parts says which, and where it starts", func(t *testing.T) {
		a := assemble(t, part("n-p2", 2, 4, "L19–31", 0.9, p2), part("n-p3", 3, 4, "L30–41", 0.8, p3))
		assert.Contains(t, a.Context, "\n[n-p2, n-p3] guide.md › Setup parts 2–3/4 · L19\nThe configuration file lives")
		assert.Equal(t, 1, strings.Count(a.Context, "Unknown keys are an error."))
	})
	t.Run("parts that are not adjacent stay apart", func(t *testing.T) {
		a := assemble(t, part("n-p1", 1, 4, "L10–20", 0.9, p1), part("n-p3", 3, 4, "L30–41", 0.8, p3))
		require.Len(t, a.Blocks, 2)
		assert.Contains(t, a.Context, "[n-p1] part 1/4 · L10\n## Setup", "the first part opens with the section's heading: its title is written once")
		assert.Contains(t, a.Context, "[n-p3] Setup part 3/4 · L30\n")
	})
	t.Run("code cut between two lines goes on at the next line", func(t *testing.T) {
		texts["n-c1"], texts["n-c2"] = "func weigh(x int) int {\n\ty := x * 2", "return y + 1\n}"
		a := assemble(t, code("n-c1", "w.go", "weigh", 1, "L10–11"), code("n-c2", "w.go", "weigh", 2, "L12–13"))
		assert.Contains(t, a.Context, "\n[n-c1, n-c2] w.go · L10\nfunc weigh(x int) int {\n\ty := x * 2\nreturn y + 1\n}")
	})
	t.Run("parts at other levels read in order, each after the first headed by its part", func(t *testing.T) {
		one, two, three := part("n-p1", 1, 4, "L10–20", 0.9, p1), part("n-p2", 2, 4, "L19–31", 0.8, p2), part("n-p3", 3, 4, "L30–41", 0.7, p3)
		two.Level, two.LoadedTokens, one.Level, three.Level = Summary, 4, Detailed, Detailed
		one.LoadedTokens, three.LoadedTokens = one.Tokens, three.Tokens
		aside := *other
		aside.Level, aside.LoadedTokens = Detailed, aside.Tokens
		blocks := joinParts([]Block{{Candidate: three, Text: p3}, {Candidate: &aside, Text: texts[other.ID]}, {Candidate: two, Text: "Keys set options."}, {Candidate: one, Text: p1}}, count)
		require.Len(t, blocks, 4)
		assert.Equal(t, "[M]\n\n"+
			"guide.md:\n[n-p1] part 1/4 · L10\n"+p1+"\n\n"+
			"[n-p2] part 2/4 · L19–31 · summary\nKeys set options.\n\n"+
			"[n-p3] part 3/4 · L30\n"+p3+"\n\n"+
			"[n-oth] notes.md › Aside · L1\nAn aside that is not part of the section.", ContextText("[M]", "", blocks))
	})
	t.Run("a part whose lines start after the last one's repeats nothing of it", func(t *testing.T) {
		texts["n-r1"], texts["n-r2"] = "func twice() {\n\tfmt.Println(\"a line said twice\")", "\tfmt.Println(\"a line said twice\")\n}"
		a := assemble(t, code("n-r1", "t.go", "twice", 1, "L1–2"), code("n-r2", "t.go", "twice", 2, "L3–4"))
		assert.Equal(t, 2, strings.Count(a.Context, `fmt.Println("a line said twice")`), "the source says it twice: %s", a.Context)
	})
	t.Run("parts loaded as summaries read as one block under one header", func(t *testing.T) {
		split, err := PlanSplit(SplitRequest{Budget: 4000, Reserve: 0.3})
		require.NoError(t, err)
		cs := []*Candidate{part("n-p1", 1, 4, "L10–20", 0.9, p1), part("n-p2", 2, 4, "L19–31", 0.8, p2), part("n-p4", 4, 4, "L40–44", 0.7, p4)}
		for _, c := range cs {
			c.SummaryTokens = 5
		}
		summary := func(c *Candidate, l Level) (string, error) { return "Summary of " + c.ID + ".", nil }
		a, err := Assemble(cs, split, SelectOptions{Level: Summary, Oversize: 1}, "", "q", "", count, summary)
		require.NoError(t, err)
		require.Len(t, a.Blocks, 1)
		assert.Equal(t, "[Context loaded: 3 of 3 relevant nodes]\n[Additional context available but not loaded: 0 nodes]\n\n"+
			"[n-p1, n-p2, n-p4] guide.md › Setup parts 1, 2, 4/4 · L10–44 · summary\n"+
			"Summary of n-p1.\n\nSummary of n-p2.\n\n…\n\nSummary of n-p4.", a.Context,
			"the ids in part order; a blank line between parts that follow each other, a \"…\" where one is left out")
		loaded := 0
		for _, c := range a.Selection.Loaded {
			loaded += c.LoadedTokens
		}
		assert.Equal(t, loaded, a.Split.Loaded)
		assert.LessOrEqual(t, count(a.Context), a.Split.Manifest+a.Split.Loaded, "the split is an upper bound of the context")
		assert.Contains(t, cs[2].Reason, "read after part 2, in its block")
	})
	t.Run("a summary and an essence of one section stay apart", func(t *testing.T) {
		one, two := part("n-p1", 1, 4, "L10–20", 0.9, p1), part("n-p2", 2, 4, "L19–31", 0.8, p2)
		one.Level, two.Level = Summary, Essence
		blocks := joinParts([]Block{{Candidate: one, Text: "Setup in short."}, {Candidate: two, Text: "Keys set options."}}, count)
		require.Len(t, blocks, 2)
		assert.Equal(t, "[M]\n\nguide.md:\n[n-p1] Setup part 1/4 · L10–20 · summary\nSetup in short.\n\n"+
			"[n-p2] part 2/4 · L19–31 · essence\nKeys set options.", ContextText("[M]", "", blocks))
	})
}

// assembleInFull assembles cs at the Detailed level in a 4,000-token
// budget, and checks the context fits.
func assembleInFull(t *testing.T, count Counter, text TextFunc, cs ...*Candidate) *Assembly {
	t.Helper()
	split, err := PlanSplit(SplitRequest{Budget: 4000, Reserve: 0.3})
	require.NoError(t, err)
	a, err := Assemble(cs, split, SelectOptions{Level: Detailed, Oversize: 1}, "", "q", "", count, text)
	require.NoError(t, err)
	require.LessOrEqual(t, count(a.Context), split.Context)
	return a
}
