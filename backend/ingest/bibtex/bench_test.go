package bibtex

import (
	"fmt"
	"strings"
	"testing"
)

// generateBib writes n varied entries: macros, accents, concatenation,
// abstracts of a few hundred bytes, as exported libraries have.
func generateBib(n int) []byte {
	var b strings.Builder
	b.WriteString("@string{conf = {Proceedings of the Conference on Generated Text}}\n\n")
	kinds := []string{"article", "inproceedings", "misc", "book", "phdthesis"}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "@%s{entry%d,\n", kinds[i%len(kinds)], i)
		fmt.Fprintf(&b, "  title = {Generated Title Number %d: On {M}odels of {\\\"U}bersetzung and $O(n \\log n)$ Search},\n", i)
		fmt.Fprintf(&b, "  author = {M{\\\"u}ller, J{\\\"o}rg and Smith, Anna and van der Berg, Jan and others},\n")
		fmt.Fprintf(&b, "  booktitle = conf # { %d},\n  year = %d,\n  month = %s,\n", i, 1990+i%35, []string{"jan", "jun", "dec"}[i%3])
		fmt.Fprintf(&b, "  doi = {10.5555/gen.%d},\n  eprint = {2301.%05d},\n  archivePrefix = {arXiv},\n", i, i)
		fmt.Fprintf(&b, "  keywords = {retrieval, generation; evaluation},\n")
		fmt.Fprintf(&b, "  abstract = {%s}\n}\n\n", strings.Repeat("We study a problem with \\emph{care} -- and report what we found. ", 6))
	}
	return []byte(b.String())
}

// BenchmarkParse200 parses a 200-entry library (about 160 KB).
func BenchmarkParse200(b *testing.B) {
	data := generateBib(200)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if entries, _, err := Parse(data); err != nil || len(entries) != 200 {
			b.Fatalf("%d entries, %v", len(entries), err)
		}
	}
}

// BenchmarkParse200AndText also renders each entry's text, the whole work
// of ingesting a .bib file before embedding.
func BenchmarkParse200AndText(b *testing.B) {
	data := generateBib(200)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		entries, _, err := Parse(data)
		if err != nil || len(entries) != 200 {
			b.Fatalf("%d entries, %v", len(entries), err)
		}
		for _, e := range entries {
			_ = e.Text()
		}
	}
}
