package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
)

// lines makes n lines "[nI] w w w …" of width words each.
func lines(n, width int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "[n%d]%s\n", i, strings.Repeat(" w", width-1))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestFitText(t *testing.T) {
	long := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three twenty-four twenty-five twenty-six twenty-seven twenty-eight twenty-nine thirty thirty-one thirty-two thirty-three thirty-four thirty-five thirty-six thirty-seven thirty-eight thirty-nine forty"
	for _, tc := range []struct {
		name        string
		text        string
		allowed     int
		wantOK      bool
		wantTrimmed bool
		wantPrefix  string
		wantLines   int // whole lines kept (-1: do not check)
	}{
		{"fits", lines(3, 10), 30, true, false, lines(3, 10), 3},
		{"trimmed at a line", lines(10, 10), 55, true, true, lines(4, 10) + "\n[trimmed to fit the budget: 4 of 10 lines shown]", 4},
		{"too small to be useful", lines(10, 10), 10, false, true, "", -1},
		{"one long line cut at a word", long, 30, true, true, "one two three", -1},
		{"one long line with no spaces", strings.Repeat("x", 1000), 30, false, true, "", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			count := words
			if !strings.Contains(tc.text, " ") {
				count = estimateLen
			}
			kept, trimmed, ok := fitText(tc.text, tc.allowed, count)
			assert.Equal(t, tc.wantOK, ok)
			assert.Equal(t, tc.wantTrimmed, trimmed)
			if !ok {
				assert.Empty(t, kept)
				return
			}
			assert.LessOrEqual(t, count(kept), tc.allowed)
			assert.True(t, strings.HasPrefix(kept, tc.wantPrefix), kept)
			if tc.wantLines >= 0 && trimmed {
				assert.Equal(t, tc.wantPrefix, kept)
			}
		})
	}
}

func TestIDsShown(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ids        []string
		full, kept string
		want       []string
	}{
		{"all shown", []string{"n1", "n2"}, "[n1] a\n[n2] b", "[n1] a\n[n2] b", []string{"n1", "n2"}},
		{"trimmed away", []string{"n1", "n2"}, "[n1] a\n[n2] b", "[n1] a", []string{"n1"}},
		{"ids not in the text: keep all", []string{"x", "y"}, "a\nb", "a", []string{"x", "y"}},
		{"none", nil, "a", "a", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, idsShown(tc.ids, tc.full, tc.kept))
		})
	}
}

func TestMessageTokens(t *testing.T) {
	args := api.NewToolCallFunctionArguments()
	args.Set("query", "x")
	m := api.Message{Role: "assistant", Content: "a b", Thinking: "c", ToolCalls: []api.ToolCall{{Function: api.ToolCallFunction{Name: "search_context", Arguments: args}}}}
	assert.Equal(t, messageOverhead+2+1+1, messageTokens(m, words))
	assert.Equal(t, 0, toolsTokens(nil, words))
	assert.Positive(t, toolsTokens(Definitions(), estimateLen))
}

// words counts whitespace-separated words: a simple, exact counter.
func words(s string) int { return len(strings.Fields(s)) }
