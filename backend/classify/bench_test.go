package classify

import (
	"strings"
	"testing"
)

// query200 is a realistic 200-byte query.
var query200 = func() string {
	q := "How does Loom decide which concept nodes to load when the budget is tight, and what happens to the skipped ones on the next turn of the same session? Please also cover the manifest."
	return q + strings.Repeat(" ", 200-len(q))
}()

// doc100K is a 100 KB markdown document with code blocks, logs and JSON.
var doc100K = func() string {
	var b strings.Builder
	for b.Len() < 100<<10 {
		b.WriteString(longProse(3000))
		b.WriteString("```go\n" + goCode + "```\n\n")
		b.WriteString(logLines(10))
		b.WriteString("\n" + prettyJSON + "\n")
	}
	return b.String()[:100<<10]
}()

func BenchmarkClassify(b *testing.B) {
	for _, bc := range []struct {
		name string
		text string
	}{
		{"query_200B", query200},
		{"doc_100KB", doc100K},
		{"prose_100KB", longProse(100 << 10)},
		{"logs_100KB", logLines(1100)},
		{"single_line_100KB", strings.Repeat("loom graph node edge weight ", 100<<10/28)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				Classify(bc.text)
			}
		})
	}
}

func BenchmarkSplit(b *testing.B) {
	text := "Why does the ingest worker crash on startup since the upgrade?\n\n" + logLines(60)
	for _, bc := range []struct {
		name string
		text string
	}{
		{"question_60_logs", text},
		{"doc_100KB", doc100K},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				Split(bc.text)
			}
		})
	}
}
