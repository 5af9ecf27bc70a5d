//go:build !js

package pdf

import (
	"testing"
)

var benchPapers = []string{"twocolumn.pdf", "report.pdf"}

// BenchmarkRead reads the test papers, pdfium and layout, after the
// one-time start of the engine; pages/s is the figure to watch.
func BenchmarkRead(b *testing.B) {
	for _, name := range benchPapers {
		b.Run(name, func(b *testing.B) {
			data := pdfBytes(b, name)
			doc, err := Read(data) // starts the engine outside the timing
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for b.Loop() {
				if _, err := Read(data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(doc.Meta.Pages*b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// BenchmarkLayout is the pure-Go half alone, as the browser runs it.
func BenchmarkLayout(b *testing.B) {
	for _, name := range benchPapers {
		b.Run(name, func(b *testing.B) {
			raw, err := Extract(pdfBytes(b, name))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := Layout(raw); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(raw.Pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// BenchmarkEngineStart is the one-time cost of the first Read: compiling
// pdfium.wasm, or loading it from wazero's cache in the user's cache
// folder; without the cache it is a few seconds.
func BenchmarkEngineStart(b *testing.B) {
	for _, cached := range []bool{true, false} {
		name := "cache"
		if !cached {
			name = "nocache"
		}
		b.Run(name, func(b *testing.B) {
			defer func(old bool) { useCompilationCache = old }(useCompilationCache)
			useCompilationCache = cached
			for b.Loop() {
				if err := Close(); err != nil {
					b.Fatal(err)
				}
				if _, err := enginePool(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if err := Close(); err != nil {
		b.Fatal(err)
	}
}
