package abstract

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/tokens"
)

// referenceDir holds the four Loom reference documents; LOOM_REFERENCE
// overrides it. In a checkout, shared/ sits beside the repository.
func referenceDir() string {
	if dir := os.Getenv("LOOM_REFERENCE"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "reference")
}

// TestExtractiveNeverOverflows cuts the reference documents at random
// places — mid-word, mid-table, inside code fences — and summarises each
// cut at a random maxTokens in [8, 400] (one case in ten in [1, 7]): the
// result is never empty and never counts more than maxTokens.
func TestExtractiveNeverOverflows(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(referenceDir(), "*.md"))
	if len(files) == 0 {
		t.Skipf("no reference documents in %s (set LOOM_REFERENCE to the folder of shared/reference)", referenceDir())
	}
	var docs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		docs = append(docs, string(b))
	}
	count := tokens.Default().Count
	rng := rand.New(rand.NewPCG(2026, 42))
	cases := 600
	if testing.Short() {
		cases = 100
	}
	for i := range cases {
		doc := docs[rng.IntN(len(docs))]
		start := runeStart(doc, rng.IntN(len(doc)))
		end := runeStart(doc, min(len(doc), start+1+rng.IntN(9000)))
		text := doc[start:end]
		if strings.TrimSpace(text) == "" {
			continue
		}
		maxTokens := 8 + rng.IntN(393)
		if i%10 == 0 {
			maxTokens = 1 + rng.IntN(7) // below the range asked for: still never over
		}
		level := Summary
		if rng.IntN(3) == 0 {
			level = Essence
		}
		e := Extractive{Count: count}
		if rng.IntN(4) == 0 {
			e.Query = "budget threshold context tokens"
		}
		out, err := e.Summarize(context.Background(), text, level, maxTokens)
		require.NoError(t, err, "case %d: bytes %d–%d, %s in %d tokens", i, start, end, level, maxTokens)
		e.Additive = true // measured unit by unit: the same summary
		same, err := e.Summarize(context.Background(), text, level, maxTokens)
		require.NoError(t, err)
		require.Equal(t, out, same, "case %d: bytes %d–%d, %s in %d tokens, measured by units", i, start, end, level, maxTokens)
		require.NotEmpty(t, strings.TrimSpace(out), "case %d: bytes %d–%d, %s in %d tokens", i, start, end, level, maxTokens)
		require.LessOrEqual(t, count(out), maxTokens, "case %d: bytes %d–%d, %s in %d tokens:\n%s", i, start, end, level, maxTokens, out)
		if level == Essence {
			require.NotContains(t, out, "\n", "case %d: an essence is one line", i)
		} else if count(text) <= maxTokens {
			require.Equal(t, text, out, "case %d: a text that fits is its own summary", i)
		}
	}
}

// runeStart moves i back to the start of the rune it is in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
