package ingest

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/tokens"
)

// Inputs that once blew up memory or time although they are under the 32
// MiB limit. They are built, not stored: each is deterministic.

// manyHeadings is n sections, each a heading and one short line, cycling
// through the six heading levels (about 35 bytes a section).
func manyHeadings(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 36)
	for i := range n {
		b.WriteString(strings.Repeat("#", i%6+1))
		b.WriteString(" Heading ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\n\ntext ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(".\n\n")
	}
	return b.Bytes()
}

// mixedMarkdown repeats a block of ordinary markdown (headings, prose,
// links, a list, a code fence, a table, a quote) up to size bytes.
func mixedMarkdown(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 4096)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "# Chapter %d\n\nThe budget for chapter %d is the window minus the prompt and the reservation. "+
			"See [the notes](notes/n%d.md) and <https://example.com/%d>.\n\n", i, i, i, i)
		fmt.Fprintf(&b, "## Details %d\n\n- first point with `code`\n- second point with *emphasis*\n  - nested\n\n", i)
		b.WriteString("```go\n# not a heading\nfunc f() int { return 1 }\n```\n\n")
		b.WriteString("| name | value | link |\n| --- | ---: | :-: |\n")
		for r := range 4 {
			fmt.Fprintf(&b, "| row %d | %d | [r](r%d.md) |\n", r, r*i, r)
		}
		fmt.Fprintf(&b, "\n> A quoted remark about section %d.\n\n### Notes %d\n\n", i, i)
		for p := range 3 {
			fmt.Fprintf(&b, "Paragraph %d of part %d: ranking signals are normalised, weighted and summed; "+
				"staleness decays with time since last access, and novelty is measured against what is selected.\n\n", p, i)
		}
	}
	return b.Bytes()
}

// wideTable is one table whose header, delimiter and single row have cols
// columns each (40k columns make about 350 KB).
func wideTable(cols int) []byte {
	var b bytes.Buffer
	b.Grow(cols * 9)
	b.WriteString("# Wide\n\n")
	for i := range cols {
		fmt.Fprintf(&b, "|h%d", i%1000)
	}
	b.WriteString("|\n")
	for range cols {
		b.WriteString("|-")
	}
	b.WriteString("|\n")
	for i := range cols {
		fmt.Fprintf(&b, "|c%d", i%100)
	}
	b.WriteString("|\n")
	return b.Bytes()
}

// oneLine is a single line of size bytes of words: no sentence end, no
// line break, so nothing splits it but word boundaries.
func oneLine(size int) []byte {
	words := []string{"graph", "node", "concept", "budget", "token", "window", "manifest", "ranking", "signal", "staleness"}
	var b bytes.Buffer
	b.Grow(size + 16)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(words[(i*7+i/10)%len(words)])
		b.WriteByte(' ')
	}
	b.Truncate(size)
	return b.Bytes()
}

// parseAndChunk is the ingest of one file as the pipeline does it.
func parseAndChunk(tb testing.TB, name string, data []byte, opts Options) []Document {
	docs, err := Parse("/bench/"+name, name, "bench", data, opts)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range docs {
		docs[i].Chunk(opts)
	}
	return docs
}

// peakHeap samples the live heap while f runs and returns the highest
// value seen (a sample every 100 µs, so short spikes can be missed; the
// benchmarks report it beside B/op, which counts every allocation).
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				peak = max(peak, read())
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	peak = max(peak, read())
	if peak < base {
		return 0
	}
	return peak - base
}

// peakRSS is the process's peak resident set since the last reset (Linux).
func peakRSS() (uint64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

func resetPeakRSS() bool {
	runtime.GC()
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

func benchIngest(b *testing.B, name string, data []byte) {
	opts := Options{CountTokens: tokens.Default().Count}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	rss := resetPeakRSS()
	var peak uint64
	b.ResetTimer()
	for range b.N {
		peak = max(peak, peakHeap(func() { parseAndChunk(b, name, data, opts) }))
	}
	b.StopTimer()
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(peak)/float64(len(data)), "peak-heap/input")
	if hwm, ok := peakRSS(); ok && rss {
		b.ReportMetric(float64(hwm)/(1<<20), "peak-RSS-MiB")
	}
}

// go test ./backend/ingest -run '^$' -bench Ingest -benchtime 1x
func BenchmarkIngest100kHeadings(b *testing.B) {
	benchIngest(b, "headings.md", manyHeadings(100_000))
}

func BenchmarkIngestHeadings32MiB(b *testing.B) {
	benchIngest(b, "headings.md", manyHeadings(32<<20/36))
}

func BenchmarkIngestMixedMarkdown32MiB(b *testing.B) {
	benchIngest(b, "mixed.md", mixedMarkdown(32<<20-4096))
}

func BenchmarkIngestTable40kColumns(b *testing.B) {
	benchIngest(b, "table.md", wideTable(40_000))
}

func BenchmarkIngestOneLine31MB(b *testing.B) {
	benchIngest(b, "line.md", oneLine(31_000_000))
}
