package abstract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/tokens"
	"github.com/loomwork/loom/internal/golden"
)

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}

// TestExtractiveSections summarises real sections of the Loom concept
// documents (testdata/*.md, copied from shared/reference) at their Target
// sizes.
func TestExtractiveSections(t *testing.T) {
	count := tokens.Default().Count
	tests := []struct {
		file string
		// heading is what an essence starts with.
		heading string
		// central is a sentence the summary must keep: the one the section
		// is about.
		central string
		// absent must not be in the summary.
		absent string
	}{
		{
			file:    "concept-threshold.md",
			heading: "Concept Node Creation Threshold: ",
			central: "If no existing concept meets the threshold, a new concept node is created.",
		},
		{
			file:    "loading-decision-tree.md",
			heading: "Loading Decision Tree: ",
			central: "The orchestration engine follows a tiered loading strategy:",
		},
		{
			file:    "ranking-signals.md",
			heading: "Ranking Signals: ",
			central: "The orchestration engine scores every content node against the current query using multiple weighted signals.",
		},
		{
			file:    "manifest-header.md",
			heading: "Context Manifest Header: ",
			central: "Every prompt assembled by the orchestration engine includes a lightweight header block at the top.",
			absent:  "[Context loaded", // the fenced example is code
		},
		{
			file:    "context-store-architecture.md",
			heading: "Architecture: ",
			central: "`get_chunk(chunk_id)`", // code spans survive with their backticks
		},
	}
	e := Extractive{Count: count}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src := readFixture(t, tt.file)
			n := count(src)

			maxTokens := Target(Summary, n)
			require.Less(t, maxTokens, n, "fixture too short to need a summary")
			summary, err := e.Summarize(context.Background(), src, Summary, maxTokens)
			require.NoError(t, err)
			assert.LessOrEqual(t, count(summary), maxTokens)
			assertExtracted(t, src, summary)
			assert.Contains(t, summary, tt.central)
			if tt.absent != "" {
				assert.NotContains(t, summary, tt.absent)
			}
			for _, marker := range []string{"**", "###", "](", "|---"} {
				assert.NotContains(t, summary, marker)
			}

			maxTokens = Target(Essence, n)
			essence, err := e.Summarize(context.Background(), src, Essence, maxTokens)
			require.NoError(t, err)
			assert.LessOrEqual(t, count(essence), min(maxTokens, 30))
			assert.NotContains(t, essence, "\n")
			rest, ok := strings.CutPrefix(essence, tt.heading)
			assert.True(t, ok, "essence %q does not start with the heading %q", essence, tt.heading)
			assertExtracted(t, src, rest)

			checkGolden(t, strings.TrimSuffix(tt.file, ".md"), "summary:\n"+summary+"\n\nessence:\n"+essence+"\n")
		})
	}
}

// checkGolden compares got with testdata/golden/<name>.txt, which -update
// rewrites. A change here changes what Extractive makes: bump ExtractiveID
// so cached summaries are remade.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Equal(t, filepath.Join("testdata", "golden", name+".txt"), []byte(got),
		"Extractive output changed: if on purpose, run go test -update and bump ExtractiveID")
}

// assertExtracted checks that out is made only of sentences, list items
// and table rows of src, in src's order (a final "…" marks a cut one).
// Markdown markers and white space are ignored on both sides.
func assertExtracted(t *testing.T, src, out string) {
	t.Helper()
	plain := squeeze(src)
	at := 0
	for _, line := range strings.Split(out, "\n") {
		line, gist := splitGist(line)
		for _, item := range gist {
			if item = squeeze(strings.TrimSuffix(item, "…")); !strings.Contains(plain, item) {
				t.Errorf("gist item %q is not in the source", item)
			}
		}
		if line == "" {
			continue
		}
		for _, sent := range sentencesOf(strings.TrimPrefix(line, "- ")) {
			piece := squeeze(strings.TrimSuffix(sent, "…"))
			k := strings.Index(plain[at:], piece)
			if k < 0 {
				t.Errorf("%q is not in the source after what comes before it", sent)
				continue
			}
			at += k + len(piece)
		}
	}
}

// splitGist parts a line that ends with the gist of a list or table
// ("lead-in: a; b; c", "Table of x, y: a; b") into its lead-in (with its
// colon; "" for a table's) and the gist's items, each of which begins an
// item, a row's cell or a code line of the source.
func splitGist(line string) (string, []string) {
	if rest, ok := strings.CutPrefix(line, "Table of "); ok {
		head, rows, _ := strings.Cut(rest, ": ")
		return "", append(strings.Split(head, ", "), strings.Split(rows, "; ")...)
	}
	k := strings.Index(line, ": ")
	for k >= 0 && !strings.Contains(line[k:], "; ") && !strings.HasPrefix(line[k+2:], "`") {
		next := strings.Index(line[k+2:], ": ")
		if next < 0 {
			return line, nil
		}
		k += 2 + next
	}
	if k < 0 {
		return line, nil
	}
	items := strings.Split(line[k+2:], "; ")
	for i, it := range items {
		items[i] = strings.Trim(it, "`")
	}
	return line[:k+1], items
}

// squeeze drops white space and emphasis markers.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '*' {
			return -1
		}
		return r
	}, s)
}

// sentencesOf splits at ". ", "! ", "? " and ": " before a capital letter:
// enough for the fixtures, and independent of the package's splitter.
func sentencesOf(s string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if strings.IndexByte(".!?:", s[i]) >= 0 && s[i+1] == ' ' && unicode.IsUpper(rune(s[i+2])) {
			out = append(out, s[start:i+1])
			start = i + 2
		}
	}
	return append(out, s[start:])
}

func TestExtractiveQueryBias(t *testing.T) {
	count := tokens.Default().Count
	src := readFixture(t, "ranking-signals.md")
	maxTokens := Target(Summary, count(src))
	staleness := "| Staleness (Decay Curve) | How recently the node was accessed; exponential decay, not linear | Medium |"

	plain, err := Extractive{Count: count}.Summarize(context.Background(), src, Summary, maxTokens)
	require.NoError(t, err)
	assert.NotContains(t, plain, staleness)

	biased, err := Extractive{Count: count, Query: "how does staleness decay?"}.Summarize(context.Background(), src, Summary, maxTokens)
	require.NoError(t, err)
	assert.Contains(t, biased, staleness)
	assert.LessOrEqual(t, count(biased), maxTokens)
	assertExtracted(t, src, biased)
}

func TestExtractiveEdgeCases(t *testing.T) {
	count := tokens.Default().Count
	e := Extractive{Count: count}
	ctx := context.Background()
	longCode := "```go\n" + strings.Repeat("func f() int { return 1 } // one line of code\n", 40) + "```\n"

	t.Run("a summary of a text that fits is the text", func(t *testing.T) {
		src := "# Title\n\nShort *text* with `code`.\n\n```\nx := 1\n```\n"
		got, err := e.Summarize(ctx, src, Summary, 100)
		require.NoError(t, err)
		assert.Equal(t, src, got)
	})
	t.Run("detailed is the text when it fits", func(t *testing.T) {
		got, err := e.Summarize(ctx, "Some text.", Detailed, 10)
		require.NoError(t, err)
		assert.Equal(t, "Some text.", got)
		_, err = e.Summarize(ctx, strings.Repeat("word ", 50), Detailed, 10)
		assert.ErrorContains(t, err, "more than maxTokens 10")
	})
	t.Run("only code keeps its first lines", func(t *testing.T) {
		got, err := e.Summarize(ctx, "## Helpers\n\n"+longCode, Summary, 40)
		require.NoError(t, err)
		assert.LessOrEqual(t, count(got), 40)
		assert.True(t, strings.HasPrefix(longCode[6:], got+"\n"), "%q is not the first lines of the code", got)
		essence, err := e.Summarize(ctx, "## Helpers\n\n"+longCode, Essence, 30)
		require.NoError(t, err)
		assert.Equal(t, "Helpers: func f() int { return 1 } // one line of code", essence)
	})
	t.Run("code next to prose is left out", func(t *testing.T) {
		src := "The helper returns one, always, and callers rely on that.\n\n" + longCode
		got, err := e.Summarize(ctx, src, Summary, 30)
		require.NoError(t, err)
		assert.Equal(t, "The helper returns one, always, and callers rely on that.", got)
	})
	t.Run("a sentence too long for the budget is cut at a word", func(t *testing.T) {
		src := strings.Repeat("alpha beta gamma delta ", 30) + "end."
		got, err := e.Summarize(ctx, src, Summary, 10)
		require.NoError(t, err)
		assert.LessOrEqual(t, count(got), 10)
		assert.True(t, strings.HasSuffix(got, "…"))
		assert.True(t, strings.HasPrefix(src, strings.TrimSuffix(got, "…")))
	})
	t.Run("essence without a heading is the best sentence", func(t *testing.T) {
		src := "Budgets bound context. The budget is split between nodes by score. Scores come from signals such as recency and the budget share."
		got, err := e.Summarize(ctx, src, Essence, 20)
		require.NoError(t, err)
		assert.Equal(t, "The budget is split between nodes by score.", got)
	})
	t.Run("a text that is only a heading", func(t *testing.T) {
		got, err := e.Summarize(ctx, "# A heading that is rather long for the budget given", Essence, 6)
		require.NoError(t, err)
		assert.LessOrEqual(t, count(got), 6)
		assert.True(t, strings.HasPrefix(got, "A heading"))
	})
	t.Run("the same input gives the same output", func(t *testing.T) {
		src := readFixture(t, "ranking-signals.md")
		first, err := e.Summarize(ctx, src, Summary, 50)
		require.NoError(t, err)
		for range 20 {
			again, err := e.Summarize(ctx, src, Summary, 50)
			require.NoError(t, err)
			require.Equal(t, first, again)
		}
	})
}

func TestExtractiveErrors(t *testing.T) {
	count := tokens.Default().Count
	ctx := context.Background()
	tests := []struct {
		name      string
		e         Extractive
		text      string
		level     Level
		maxTokens int
		want      string
	}{
		{"empty", Extractive{Count: count}, "", Summary, 50, "nothing to summarise: the text is empty or only white space"},
		{"white space", Extractive{Count: count}, " \n\t ", Essence, 50, "nothing to summarise"},
		{"no counter", Extractive{}, "Text.", Summary, 50, "no token Counter"},
		{"no room", Extractive{Count: count}, "Text.", Summary, 0, "maxTokens 0: want at least 1"},
		{"adaptive", Extractive{Count: count}, "Text.", Adaptive, 50, "level adaptive is a choice"},
		{"unknown level", Extractive{Count: count}, "Text.", Level("brief"), 50, `unknown abstraction level "brief"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.e.Summarize(ctx, tt.text, tt.level, tt.maxTokens)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "summarise with extractive/v5: ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err := Extractive{Count: count}.Summarize(ctx, "", Summary, 5)
	assert.ErrorIs(t, err, ErrEmptyText)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = Extractive{Count: count}.Summarize(cancelled, strings.Repeat("Many words here. ", 40), Summary, 10)
	assert.ErrorIs(t, err, context.Canceled)
}

func ExampleExtractive() {
	count := tokens.Default().Count
	text := `## Concept Node Creation Threshold

When new content is processed, the system generates an embedding and compares it against all existing concept nodes. If any existing concept node exceeds the similarity threshold (starting value: 0.8, tunable), the content is linked to all concepts above the threshold. If no existing concept meets the threshold, a new concept node is created. The system also records the highest-scoring near-miss for debugging.`
	e := Extractive{Count: count}
	essence, _ := e.Summarize(context.Background(), text, Essence, Target(Essence, count(text)))
	fmt.Println(essence)
	// Output:
	// If no existing concept meets the threshold, a new concept node is created.
}

// TestExtractiveConcurrent shares one Extractive (and the package's
// markdown parser) between goroutines; run with -race.
func TestExtractiveConcurrent(t *testing.T) {
	files := []string{"ranking-signals.md", "context-store-architecture.md", "manifest-header.md", "concept-threshold.md"}
	e := Extractive{Count: tokens.Default().Count}
	want := map[string]string{}
	for _, f := range files {
		out, err := e.Summarize(context.Background(), readFixture(t, f), Summary, 40)
		require.NoError(t, err)
		want[f] = out
	}
	var wg sync.WaitGroup
	for i := range 8 {
		f := files[i%len(files)]
		src := readFixture(t, f)
		wg.Go(func() {
			out, err := e.Summarize(context.Background(), src, Summary, 40)
			assert.NoError(t, err)
			assert.Equal(t, want[f], out)
		})
	}
	wg.Wait()
}

// TestExtractiveNeverOnlyTheHeading: a section whose body has no sentence
// (an HTML table, say) is summarised by its words, not by its heading;
// the heading is the answer only when nothing else is there.
func TestExtractiveNeverOnlyTheHeading(t *testing.T) {
	count := tokens.Default().Count
	e := Extractive{Count: count}
	src := "## Aliases\n\n<table><tr><td>loom q</td><td>loom query</td></tr><tr><td>loom a</td><td>loom ask</td></tr></table>\n"
	for _, level := range []Level{Summary, Essence} {
		got, err := e.Summarize(context.Background(), src, level, Target(level, count(src)))
		require.NoError(t, err)
		assert.NotEqual(t, "Aliases", got, level)
		assert.True(t, strings.HasPrefix(got, "loom q"), "%s: %q", level, got)
		assert.NotContains(t, got, "<", level)
	}
	got, err := e.Summarize(context.Background(), "## Aliases\n\n<!-- none yet -->\n", Essence, 10)
	require.NoError(t, err)
	assert.Equal(t, "Aliases", got, "nothing but the heading has words")
}

// TestExtractiveLeadIns: a lead-in ending on a colon never ends a summary
// or an essence; it carries the gist of the list or table it announces.
func TestExtractiveLeadIns(t *testing.T) {
	count := tokens.Default().Count
	e := Extractive{Count: count}
	src := "## Adaptive\n\nThe system chooses a level for every node, weighing three things at once. It chooses based on:\n\n- Available budget, after the manifest and the reserved output\n- Belief importance, from the utility score\n- Redundancy with other selections already made\n"
	for _, level := range []Level{Summary, Essence} {
		got, err := e.Summarize(context.Background(), src, level, 24)
		require.NoError(t, err)
		assert.False(t, strings.HasSuffix(strings.TrimSuffix(got, "…"), ":"), "%s ends on a colon: %q", level, got)
	}
	got, err := e.Summarize(context.Background(), src, Summary, 40)
	require.NoError(t, err)
	assert.Contains(t, got, "It chooses based on: Available budget, after the manifest…; Belief importance, from the utility…; Redundancy with other selections already…")
}

// A paragraph that stops on "is", with no full stop, announced a formula
// the text does not hold (Distill's momentum article, its HTML's math
// gone): it says nothing, in an essence or at a summary's end. The same
// lead-in before a list takes the list's gist, as one ending on a colon
// does.
func TestExtractiveLeadInsThatLostTheirFormula(t *testing.T) {
	count := tokens.Default().Count
	e := Extractive{Count: count}
	src := "## Example: The Colorization Problem\n\nMomentum speeds up the colorization problem, where colour spreads from a few pixels to their neighbours. " +
		"Each step moves colour one pixel further.\n\nIn vectorized form, the colorization problem is\n\n$$\\text{minimize} \\frac{1}{2}\\sum_{i\\in D} x^T e_i e_i^T x$$\n"
	for _, level := range []Level{Summary, Essence} {
		got, err := e.Summarize(context.Background(), src, level, 30)
		require.NoError(t, err)
		assert.NotContains(t, got, "the colorization problem is", "%s: %q", level, got)
	}
	list := "## Options\n\nMomentum has two settings, and both matter for how quickly and how smoothly the iterates converge to the minimum. The settings are\n\n" +
		"- the step size, alpha, which scales each gradient step taken along the way\n- the momentum, beta, which keeps a share of the previous step's velocity\n"
	got, err := e.Summarize(context.Background(), list, Summary, 40)
	require.NoError(t, err)
	assert.Contains(t, got, "The settings are the step size, alpha…; the momentum, beta, which keeps…", got)
}

// A list's gist clips each item to its first words; a clipped item ends on
// a word that says something, not on "can be" (Cargo's book, its targets).
func TestExtractiveGistItemsEndOnAWord(t *testing.T) {
	e := Extractive{Count: tokens.Default().Count}
	src := "## Benchmarks\n\nBenchmarks provide a way to test the performance of your code using the `cargo bench` command. They follow the same structure as tests:\n\n" +
		"- Benchmarks are placed in the `benches` directory of the package.\n" +
		"- The `bench` field can be used to disable benchmarks for a target.\n" +
		"- The `harness` field can be set to false to use a custom harness.\n"
	got, err := e.Summarize(context.Background(), src, Summary, 45)
	require.NoError(t, err)
	assert.Contains(t, got, "The `bench` field…; The `harness` field…", got)
	assert.NotContains(t, got, "can be…", got)
}

// An essence cut short by its budget ends on a word that says something,
// at every budget.
func TestExtractiveEssenceCutShortEndsOnAWord(t *testing.T) {
	e := Extractive{Count: tokens.Default().Count}
	src := "## Task analogies\n\nPerez et al. report that this sort of task analogy is not always successful in correcting the model's answer, but it does point to an interesting property of the conditioning that a reader can use to probe what the network has learned about each of the tasks.\n"
	cuts := 0
	for budget := 8; budget <= 40; budget++ {
		got, err := e.Summarize(context.Background(), src, Essence, budget)
		require.NoError(t, err)
		cut, ok := strings.CutSuffix(got, "…")
		if !ok {
			continue
		}
		cuts++
		f := strings.Fields(cut)
		last := strings.ToLower(f[len(f)-1])
		assert.False(t, danglingWords[last] || stopWords[last], "at %d: %q", budget, got)
	}
	assert.Greater(t, cuts, 10, "the budgets cut the sentence")
}
