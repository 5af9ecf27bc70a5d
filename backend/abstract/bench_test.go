package abstract

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/synth"
	"github.com/loomwork/loom/backend/tokens"
)

// benchSections are sections of loom bench's synthetic corpus, the texts
// a fresh workspace's first questions summarise.
func benchSections(n int) []string {
	var out []string
	for i := 0; len(out) < n; i++ {
		for _, s := range strings.Split(synth.File(i, 4, 1), "\n## ") {
			out = append(out, "## "+strings.TrimPrefix(s, "# "))
		}
	}
	return out[:n]
}

// fixtureTexts are the reference sections in testdata.
func fixtureTexts(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []string
	for _, f := range files {
		out = append(out, readFixture(t, filepath.Base(f)))
	}
	return out
}

// BenchmarkExtractive makes the summary and the essence of a section at
// their Target sizes, as a first question does for each oversized node.
func BenchmarkExtractive(b *testing.B) { benchExtractive(b, Summary, Essence) }

// BenchmarkExtractiveSummary makes only the summary, as a question does
// for a node it loads at that level.
func BenchmarkExtractiveSummary(b *testing.B) { benchExtractive(b, Summary) }

func benchExtractive(b *testing.B, levels ...Level) {
	count := tokens.Default().Count
	e := Extractive{Count: Counter(count), Additive: true}
	secs := benchSections(64)
	sizes := make([]int, len(secs))
	for i, s := range secs {
		sizes[i] = count(s)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s, n := secs[i%len(secs)], sizes[i%len(secs)]
		for _, l := range levels {
			if _, err := e.Summarize(ctx, s, l, Target(l, n)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
