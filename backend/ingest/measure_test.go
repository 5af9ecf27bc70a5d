package ingest

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/loomwork/loom/backend/tokens"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleTexts are texts of every kind the counter meets: the corpora, and
// random strings drawn from every rune class of the pre-split pattern.
func sampleTexts(t *testing.T) map[string]string {
	texts := map[string]string{}
	for name, p := range goldenFiles(t) {
		if strings.HasSuffix(name, ".jsonl") {
			continue
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		texts[name] = string(data)
	}
	alphabet := []string{"a", "Z", "é", "ж", "日本", "语", "1", "٣", "42", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000",
		".", ",", "'s", "'", "—", "─", "|", "-", "=", "`", "#", "\u0301", "😀", "x/y", "https://x.io/a?b=1"}
	rng := rand.New(rand.NewPCG(16, 1))
	for i := range 300 {
		var b strings.Builder
		for range rng.IntN(400) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		texts["random-"+string(rune('a'+i%26))+strings.Repeat("_", i/26)] = b.String()
	}
	return texts
}

// The pre-split breaks where breaks says it does: a text counts the sum of
// its parts cut at every such place, which is what lets the chunker count
// a long text word by word.
func TestTextCutWherePiecesAlwaysBreakCountsTheSumOfItsParts(t *testing.T) {
	count := tokens.Default().Count
	for name, text := range sampleTexts(t) {
		sum, from := 0, 0
		var prev uint8
		digits := 0 // digits are grouped by three from the start of their run
		for i, r := range text {
			class := classOf(r)
			br := breaks[prev][class]
			if prev == classNumber && class == classNumber {
				br = digits%3 == 0
			}
			if i > 0 && br {
				sum += count(text[from:i])
				from = i
			}
			if digits++; class != classNumber {
				digits = 0
			}
			prev = class
		}
		sum += count(text[from:])
		assert.Equal(t, count(text), sum, name)
	}
}

// countTokens is the counter itself on everything people write; only a
// stretch of hundreds of bytes without a break is counted in slices.
func TestCountTokensIsTheCountOfOrdinaryText(t *testing.T) {
	count := tokens.Default().Count
	for name, text := range sampleTexts(t) {
		assert.Equal(t, count(text), countTokens(count, text), name)
	}
	long := strings.Repeat("x", 3000)
	sliced := countTokens(count, long)
	assert.InDelta(t, count(long), sliced, float64(len(long)/runSlice), "a long run is counted in slices, within a token a slice")
}

func TestForcedCutsSliceOnlyLongRuns(t *testing.T) {
	tests := []struct {
		name string
		text string
		cuts int
	}{
		{"prose", strings.Repeat("the budget is the window minus the prompt. ", 100), 0},
		{"a run at the limit", strings.Repeat("=", maxRun), 0},
		{"a run past it", strings.Repeat("=", maxRun+1), maxRun / runSlice},
		{"a long run", strings.Repeat("-", 10*runSlice), 9},
		{"long runs apart", strings.Repeat("x", 1000) + " " + strings.Repeat("y", 1000), 2 * (1000 / runSlice)},
		{"digits group by three", strings.Repeat("7", 5000), 0},
		{"runes are not split", strings.Repeat("語", 1000), 3000 / 66}, // 22 runes a slice
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cuts []int
			forcedCuts(tt.text, func(at int) { cuts = append(cuts, at) })
			assert.Len(t, cuts, tt.cuts)
			for i, at := range cuts {
				assert.True(t, at > 0 && at < len(tt.text), "cut inside the text")
				assert.True(t, i == 0 || at > cuts[i-1], "cuts in order")
				assert.True(t, strings.HasPrefix(tt.text[at:], string([]rune(tt.text[at:])[0])), "cut at a character boundary")
			}
		})
	}
}

// The prefix measure gives, at every word boundary, what counting the
// whole prefix gives: cutting a long paragraph word by word makes the same
// cuts as counting it again at every word did.
func TestPrefixMeasureAgreesWithCountingThePrefix(t *testing.T) {
	count := tokens.Default().Count
	texts := sampleTexts(t)
	texts["diagram"] = "│" + strings.Repeat(" ", 78) + "│\n│  ┌" + strings.Repeat("─", 70) + "┐    │\n"
	texts["aligned table"] = "| name" + strings.Repeat(" ", 200) + "| value |\n|" + strings.Repeat("-", 300) + "|\n| x | y |"
	for name, text := range texts {
		for _, start := range []int{0, len(text) / 3} {
			for start < len(text) && !isWordStart(text, start) {
				start++
			}
			m := prefixMeasure{s: text, count: count, spaces: map[int]int{}}
			m.reset(start)
			for i := start + 1; i <= len(text); i++ {
				if i < len(text) && text[i] != ' ' && text[i] != '\n' {
					continue
				}
				want := count(text[start:i])
				if !m.exceeds(i, want-1) || m.exceeds(i, want) {
					t.Fatalf("%s: the measure of [%d:%d] is not %d", name, start, i, want)
				}
			}
		}
	}
}

func isWordStart(s string, i int) bool { return i == 0 || s[i] == ' ' || s[i] == '\n' }

func TestPrefixMeasureOfTheEstimateIsTheEstimate(t *testing.T) {
	text := strings.Repeat("word  ", 500)
	m := prefixMeasure{s: text, count: func(s string) int { return (len(s) + 3) / 4 }, estimate: true}
	m.reset(6)
	for i := 7; i < len(text); i++ {
		if text[i] == ' ' {
			want := (i - 6 + 3) / 4
			assert.True(t, m.exceeds(i, want-1) && !m.exceeds(i, want), "at %d", i)
		}
	}
}
