package backend

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/embed/synthetic"
	"github.com/loomwork/loom/backend/synth"
)

// Run with:
//
//	go test ./backend -run '^$' -bench Query -benchtime 200x
//	go test ./backend -run '^$' -bench OpenWarm -benchtime 5x
//
// Each size is a synthetic workspace (package synth, seed 1) ingested into
// a bolt workspace before the timer starts: about 2 s at 1,000 nodes and
// 10–25 s at 10,000. `loom bench` runs the same at 50,000.

// benchEmbedders are the offline embedder (100-d) and the synthetic
// stand-in for a 768-d Ollama model, each with its concept threshold.
func benchEmbedders(b *testing.B) []struct {
	name      string
	e         embed.Embedder
	threshold float64
} {
	off, err := offline.New()
	if err != nil {
		b.Skip(err)
	}
	return []struct {
		name      string
		e         embed.Embedder
		threshold float64
	}{
		{"offline", off, embed.ConceptThreshold(off.ID())},
		{"768", synthetic.New(), synthetic.ConceptThreshold},
	}
}

// ingestSynthetic writes a synthetic corpus of nodes content nodes and
// ingests it into a new bolt workspace, which it closes.
func ingestSynthetic(b *testing.B, nodes int, opts ...Option) string {
	b.Helper()
	ctx := context.Background()
	corpus, dir := b.TempDir(), b.TempDir()
	if err := synth.Generate(corpus, nodes, 1); err != nil {
		b.Fatal(err)
	}
	wb, err := Open(ctx, dir, opts...)
	if err != nil {
		b.Fatal(err)
	}
	rep, err := wb.Ingest(ctx, []string{corpus}, IngestOptions{})
	if err != nil || len(rep.Errors) > 0 {
		b.Fatal(err, rep.Errors)
	}
	if err := wb.Close(); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkQuery times the whole Query path (classify, candidates, score,
// select, assemble) with a budget of 4,000 tokens over 200 varied
// questions, on a freshly opened and warmed workspace. It reports the
// median and 99th percentile besides the mean.
func BenchmarkQuery(b *testing.B) {
	ctx := context.Background()
	questions := synth.Questions(200, 1)
	for _, nodes := range []int{1000, 10_000} {
		for _, be := range benchEmbedders(b) {
			b.Run(fmt.Sprintf("%dnodes-%s", nodes, be.name), func(b *testing.B) {
				opts := []Option{WithEmbedder(be.e), WithConceptThreshold(be.threshold)}
				dir := ingestSynthetic(b, nodes, opts...)
				wb, err := Open(ctx, dir, opts...)
				if err != nil {
					b.Fatal(err)
				}
				defer wb.Close()
				if err := wb.Warm(ctx); err != nil {
					b.Fatal(err)
				}
				var lat []float64
				for i := 0; b.Loop(); i++ {
					t := time.Now()
					if _, err := wb.Query(ctx, QueryRequest{Question: questions[i%len(questions)], Budget: 4000, NoTouch: true}); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, float64(time.Since(t).Microseconds())/1000)
				}
				slices.Sort(lat)
				b.ReportMetric(lat[len(lat)/2], "p50-ms")
				b.ReportMetric(lat[min(len(lat)-1, len(lat)*99/100)], "p99-ms")
			})
		}
	}
}

// BenchmarkOpenWarm times opening a closed workspace and making it ready
// to answer (Open + Warm) at 10,000 nodes.
func BenchmarkOpenWarm(b *testing.B) {
	ctx := context.Background()
	for _, be := range benchEmbedders(b) {
		b.Run("10000nodes-"+be.name, func(b *testing.B) {
			opts := []Option{WithEmbedder(be.e), WithConceptThreshold(be.threshold)}
			dir := ingestSynthetic(b, 10_000, opts...)
			for b.Loop() {
				wb, err := Open(ctx, dir, opts...)
				if err != nil {
					b.Fatal(err)
				}
				if err := wb.Warm(ctx); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				wb.Close()
				b.StartTimer()
			}
		})
	}
}
