package backend

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

const scifact = "../../shared/eval/scifact/corpus.jsonl"

func scifactPath(b *testing.B) string {
	p, _ := filepath.Abs(scifact)
	if _, err := os.Stat(p); err != nil {
		b.Skipf("SciFact corpus not found at %s (it lives in shared/eval beside the repo)", p)
	}
	return p
}

// BenchmarkIngestSciFact ingests BEIR SciFact (5,183 abstracts, 8 MB) into a
// fresh bolt workspace with the offline embedder. Target: ≤ 10 s on 2 cores.
func BenchmarkIngestSciFact(b *testing.B) {
	corpus := scifactPath(b)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		wb, err := Open(ctx, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		rep, err := wb.Ingest(ctx, []string{corpus}, IngestOptions{})
		if err != nil || len(rep.Errors) > 0 {
			b.Fatal(err, rep.Errors)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapMiB")
		b.ReportMetric(float64(rep.Added), "docs")
		if err := wb.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenStats reopens an ingested SciFact workspace and reads its
// stats. Target: ≤ 300 ms (opening must not rescan quads).
func BenchmarkOpenStats(b *testing.B) {
	corpus := scifactPath(b)
	ctx := context.Background()
	dir := b.TempDir()
	wb, err := Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := wb.Ingest(ctx, []string{corpus}, IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	wb.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		wb, err := Open(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		st, err := wb.Stats(ctx)
		if err != nil || st.Documents != 5183 {
			b.Fatal(err, st)
		}
		wb.Close()
	}
}
