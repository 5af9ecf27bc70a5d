package minilm

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

const benchQuestion = "What does the paper say about the effect of dropout on the accuracy of small transformer models trained on limited data?"

// benchSection is prose of about 200 tokens, like a section of a document.
var benchSection = strings.Repeat("Transformers encode each token of a sentence by attending to every other token, "+
	"so the cost of a forward pass grows with the square of the sequence length. "+
	"Sentence embedders such as MiniLM average the final hidden states into one vector. ", 4)

func benchEncode(b *testing.B, text string) {
	e := realEncoder(b)
	b.Logf("%d tokens", len(e.Tokenizer().Encode(text)))
	b.ResetTimer()
	var took []time.Duration
	for b.Loop() {
		t := time.Now()
		if _, err := e.Encode([]string{text}); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t))
	}
	slices.Sort(took)
	var sum time.Duration
	for _, d := range took {
		sum += d
	}
	b.ReportMetric(float64(sum.Microseconds())/1000/float64(len(took)), "ms/op")
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkEncodeQuestion encodes a 20-word question (about 25 tokens).
func BenchmarkEncodeQuestion(b *testing.B) { benchEncode(b, benchQuestion) }

// BenchmarkEncodeSection encodes a section of about 200 tokens.
func BenchmarkEncodeSection(b *testing.B) { benchEncode(b, benchSection) }

// BenchmarkLoad loads the model from disk; MiB-kept is the heap one loaded
// Encoder holds once the file's bytes are garbage.
func BenchmarkLoad(b *testing.B) {
	realEncoder(b) // skips without the weights
	for b.Loop() {
		if _, err := Load(weightsDir()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	e, err := Load(weightsDir())
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-kept")
	runtime.KeepAlive(e)
}

// BenchmarkEncodeBatch encodes 16 texts of 25 to 200 tokens in one call,
// as an ingest does; ms/text is the cost of one.
func BenchmarkEncodeBatch(b *testing.B) {
	e := realEncoder(b)
	var texts []string
	for i := range 16 {
		texts = append(texts, benchSection[:len(benchSection)*(i+2)/17]+" "+benchQuestion)
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := e.Encode(texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N*len(texts)), "ms/text")
}
