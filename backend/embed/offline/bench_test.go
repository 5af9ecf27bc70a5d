package offline

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// benchQuestion is a question of 20 words.
const benchQuestion = "What does the paper say about the effect of dropout on the accuracy of small transformer models trained on limited data?"

// BenchmarkEmbedQuestion embeds one 20-word question per call: the cost a
// query pays.
func BenchmarkEmbedQuestion(b *testing.B) {
	e := mustNew(b)
	ctx := context.Background()
	texts := []string{benchQuestion}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbedBatch embeds the 40 paraphrase sentences 25 times in one
// call, spread over GOMAXPROCS; ns/sentence is the figure to compare with
// BenchmarkEmbedQuestion.
func BenchmarkEmbedBatch(b *testing.B) {
	e := mustNew(b)
	ctx := context.Background()
	var texts []string
	for range 25 {
		for _, p := range paraphrases {
			texts = append(texts, p[0], p[1])
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/sentence")
}

// BenchmarkLoad parses the table, as the WebAssembly edition does once it
// has fetched it.
func BenchmarkLoad(b *testing.B) {
	raw := tableBytes(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromBytes(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSciFactCorpus embeds SciFact's 5,183 abstracts (title and text,
// 8 MB) in one call. It needs shared/eval/scifact beside the repository
// (or LOOM_SCIFACT pointing at corpus.jsonl) and skips without it: the
// corpus is evaluation data, not part of this package.
func BenchmarkSciFactCorpus(b *testing.B) {
	path := os.Getenv("LOOM_SCIFACT")
	if path == "" {
		path = filepath.Join("..", "..", "..", "..", "shared", "eval", "scifact", "corpus.jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Skipf("SciFact corpus not found (%v); set LOOM_SCIFACT", err)
	}
	defer f.Close()
	var texts []string
	bytes := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var doc struct{ Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
			b.Fatal(err)
		}
		texts = append(texts, doc.Title+"\n"+doc.Text)
		bytes += len(texts[len(texts)-1])
	}
	e := mustNew(b)
	ctx := context.Background()
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts)), "docs")
}
