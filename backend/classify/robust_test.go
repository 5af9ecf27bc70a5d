package classify

import (
	"math"
	"runtime"
	"strings"
	"testing"
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

// pathological are inputs that once made multi-line detectors (JSON
// blocks, fences, smoothing) quadratic, by size n.
var pathological = map[string]func(n int) string{
	"open braces":       func(n int) string { return strings.Repeat("{\n", n) },
	"open brackets":     func(n int) string { return strings.Repeat("[\n", n) + "x" },
	"string starts":     func(n int) string { return strings.Repeat("{\"a\n", n) },
	"fences":            func(n int) string { return strings.Repeat("```\n", n) },
	"newlines":          func(n int) string { return strings.Repeat("\n", n) },
	"alternating kinds": func(n int) string { return strings.Repeat("x := 1;\nhello there friend\n", n/10) },
	"one huge word":     func(n int) string { return strings.Repeat("a", n) },
	"question marks":    func(n int) string { return strings.Repeat("? ", n) },
}

// TestPathologicalInputsAreLinear checks that four times the input costs
// about four times the memory, not sixteen (a count that does not depend
// on how fast or busy the machine is; the time is in
// BenchmarkPathologicalInputs), and that the classification stays sane.
func TestPathologicalInputsAreLinear(t *testing.T) {
	for name, make := range pathological {
		t.Run(name, func(t *testing.T) {
			var alloc [2]uint64
			for i, n := range []int{12500, 50000} {
				text := make(n)
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				c := Classify(text)
				Split(text)
				runtime.ReadMemStats(&after)
				alloc[i] = after.TotalAlloc - before.TotalAlloc
				assertSane(t, text, c)
			}
			ratio := float64(alloc[1]) / float64(max(alloc[0], 1))
			assert.Less(t, ratio, 6.0, "4× the input allocated %.1f× the memory (%d → %d bytes)", ratio, alloc[0], alloc[1])
		})
	}
}

// BenchmarkPathologicalInputs times Classify and Split on each
// pathological input of 50,000 repeats.
func BenchmarkPathologicalInputs(b *testing.B) {
	for name, make := range pathological {
		text := make(50000)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Classify(text)
				Split(text)
			}
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
