package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkWatchSetup sets up the watches on a folder of 10,000 notes in
// 100 subfolders: the time New takes (it reads every folder once and adds
// one watch per folder) and the heap the watcher keeps.
//
//	go test -run '^$' -bench WatchSetup -benchtime 20x ./backend/watch/
func BenchmarkWatchSetup(b *testing.B) {
	root := b.TempDir()
	const folders, perFolder = 100, 100
	for i := 0; i < folders; i++ {
		dir := filepath.Join(root, fmt.Sprintf("folder-%03d", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := 0; j < perFolder; j++ {
			text := fmt.Sprintf("# Note %d.%d\n\nA generated note, number %d of folder %d.\n", i, j, j, i)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%03d.md", j)), []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	var total time.Duration
	var heap uint64
	dirs := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		start := time.Now()
		w, err := New([]string{root}, nil, Options{})
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		if after.HeapAlloc > before.HeapAlloc {
			heap += after.HeapAlloc - before.HeapAlloc
		}
		dirs = w.Dirs()
		w.Close()
		b.StartTimer()
	}
	if dirs != folders+1 {
		b.Fatalf("%d folders watched, want %d", dirs, folders+1)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "setup-ms")
	b.ReportMetric(float64(heap)/1024/float64(b.N), "heap-KB")
	b.ReportMetric(float64(dirs), "watches")
	b.ReportMetric(folders*perFolder, "notes")
}
