package classify

import (
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestRobustness(t *testing.T) {
	bigLine := strings.Repeat("loom graph node edge weight ", 100<<10/28)
	tests := []struct {
		name string
		text string
		want ContentType
	}{
		{"empty", "", TypeProse},
		{"only spaces", "     ", TypeProse},
		{"only whitespace mix", " \t\r\n\n\v\f ", TypeProse},
		{"only punctuation", "?!.,;:--()[]{}", TypePastedData},
		{"question marks only", "???", TypePastedData},
		{"invalid utf-8", "\xff\xfe\xfd\xc3\x28\xa0\xa1", TypePastedData},
		{"invalid utf-8 inside a question", "What is \xff\xfe X?", TypeSimpleQuery},
		{"binary", "\x00\x01\x02ELF\x7f\x00\x00\x10abc\x00\x03", TypePastedData},
		{"crlf question", "What is a concept node?\r\n", TypeSimpleQuery},
		{"crlf code", strings.ReplaceAll(goCode, "\n", "\r\n"), TypeCode},
		{"crlf logs", strings.ReplaceAll(logLines(10), "\n", "\r\n"), TypeLogs},
		{"100 KB single line", bigLine, TypeProse},
		{"100 KB single json line", `{"a":"` + strings.Repeat("x", 100<<10) + `"}`, TypeStructured},
		{"deep json nesting", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), TypePastedData},
		{"unclosed fence", "```go\nfunc main() {\n", TypeCode},
		{"lone fence", "```", TypePastedData},
		{"unicode prose", "Le graphe relie les nœuds de concept aux nœuds de contenu. 概念ノードとコンテンツノード。", TypeProse},
		{"emoji query", "Why is the graph empty 🤔?", TypeSimpleQuery},
		{"nul bytes only", "\x00\x00\x00", TypePastedData},
		{"lone carriage returns", "a\rb\rc", TypeProse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.text)
			assert.Equal(t, tt.want, got.Type, "signals: %+v", got.Signals)
			assertSane(t, tt.text, got)
			requireCovers(t, tt.text, Split(tt.text))
		})
	}
}

// TestPathologicalInputsAreLinear guards against quadratic blow-ups in the
// multi-line detectors (JSON blocks, fences, smoothing).
func TestPathologicalInputsAreLinear(t *testing.T) {
	for name, text := range map[string]string{
		"open braces":       strings.Repeat("{\n", 50000),
		"open brackets":     strings.Repeat("[\n", 50000) + "x",
		"string starts":     strings.Repeat("{\"a\n", 30000),
		"fences":            strings.Repeat("```\n", 30000),
		"newlines":          strings.Repeat("\n", 100<<10),
		"alternating kinds": strings.Repeat("x := 1;\nhello there friend\n", 5000),
		"one huge word":     strings.Repeat("a", 100<<10),
		"question marks":    strings.Repeat("? ", 50<<10),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			c := Classify(text)
			Split(text)
			assert.Less(t, time.Since(start), 500*time.Millisecond)
			assertSane(t, text, c)
		})
	}
}

func assertSane(t *testing.T, text string, c Classification) {
	t.Helper()
	assert.False(t, math.IsNaN(c.Complexity))
	assert.GreaterOrEqual(t, c.Complexity, 0.0)
	assert.LessOrEqual(t, c.Complexity, 1.0)
	assert.Equal(t, len(text), c.Signals.Bytes)
	s := c.Signals
	for _, f := range []float64{s.LexicalDiversity, s.WhitespaceRatio, s.Shares.Prose, s.Shares.Code, s.Shares.Logs, s.Shares.Data, s.Shares.Structured} {
		assert.False(t, math.IsNaN(f))
		assert.GreaterOrEqual(t, f, 0.0)
		assert.LessOrEqual(t, f, 1.0+1e-9)
	}
	if utf8.ValidString(text) && !strings.ContainsAny(text, "\x00\x01\x02\x03\x7f") {
		assert.Zero(t, s.NonTextBytes)
	}
}
