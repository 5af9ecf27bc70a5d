package backend

import (
	"context"
	"fmt"
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

// BenchmarkReingestOneSavedNote is what a watched folder costs after one
// save (issue 21): a folder of 10,000 notes (one section each, in 100
// folders) ingested once, then each round one note is rewritten and the
// folder ingested again with prune, as `loom watch` and the desktop's live
// folders do after their quiet period (500 ms, not counted here).
//
//	go test -run x -bench ReingestOneSavedNote -benchtime 20x ./backend/
func BenchmarkReingestOneSavedNote(b *testing.B) {
	ctx := context.Background()
	lib := filepath.Join(b.TempDir(), "notes")
	for i := range 10000 {
		dir := filepath.Join(lib, fmt.Sprintf("folder-%02d", i%100))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		text := fmt.Sprintf("# Note %d\n\nThis note %d is about topic %d and links the budget, the window and the staleness of note %d.\n", i, i, i%37, (i*7)%10000)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%05d.md", i)), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	wb, err := Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer wb.Close()
	if rep, err := wb.Ingest(ctx, []string{lib}, IngestOptions{Prune: true}); err != nil || rep.Added != 10000 {
		b.Fatal(err, rep)
	}
	saved := filepath.Join(lib, "folder-42", "note-00042.md")
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		text := fmt.Sprintf("# Note 42\n\nRewritten, save %d: the budget, the window and what changed.\n", i)
		if err := os.WriteFile(saved, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep, err := wb.Ingest(ctx, []string{lib}, IngestOptions{Prune: true})
		if err != nil || rep.Updated != 1 || rep.Added != 0 || rep.Removed != 0 {
			b.Fatal(err, rep.Added, rep.Updated, rep.Removed)
		}
	}
}
