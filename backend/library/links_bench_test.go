package library

import (
	"fmt"
	"testing"

	"github.com/loomwork/loom/backend/ingest"
)

// BenchmarkVaultLinkResolution resolves the links of a generated vault of
// 5,000 notes in folders three deep, every tenth name shared with a note
// elsewhere, fifteen links a note (twelve wiki links of each form and
// three markdown links), as one ingest run does: one resolver, built on
// the first link, for every note.
func BenchmarkVaultLinkResolution(b *testing.B) {
	const n = 5000
	name := func(i int) string {
		if i%10 == 0 {
			return fmt.Sprintf("Shared %d", i/20)
		}
		return fmt.Sprintf("Note %d", i)
	}
	folder := func(i int) string { return fmt.Sprintf("area%d/topic%d/sub%d", i%7, i%13, i%3) }
	files := make([]ingest.File, n)
	docs := make([]ingest.Document, n)
	links := make([][]string, n)
	for i := range n {
		p := folder(i) + "/" + name(i) + ".md"
		files[i] = ingest.File{Path: p, Collection: "v"}
		docs[i] = ingest.Document{Path: p, Collection: "v", Format: ingest.FormatMarkdown}
		for s := range 3 {
			j := (i*7 + s*4) % n
			links[i] = append(links[i], "[["+name(j)+"]]", "[["+folder(j)+"/"+name(j)+"|shown text]]",
				"[["+name(j)+"#Part 1]]", "![["+name(j)+"#^block]]", "../"+name(j)+".md")
		}
	}
	b.ReportAllocs()
	edges := 0
	for b.Loop() {
		r := newLinkResolver(nil, files)
		edges = 0
		for i := range docs {
			edges += len(r.resolve(docs[i], links[i]))
		}
	}
	if edges < n*3 {
		b.Fatalf("%d edges for %d notes", edges, n)
	}
	b.ReportMetric(float64(edges), "edges")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n/1000, "µs/note")
}
