package convert

import (
	"fmt"
	"strings"
	"testing"
)

// generatePage writes a saved article of about size bytes: sections with
// headings, paragraphs with relative and absolute links and inline
// formatting, lists, tables and code, inside a page with navigation,
// a sidebar and a footer.
func generatePage(size int) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Generated | Site</title><style>p{margin:0}</style></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/docs/">Docs</a></li></ul></nav></header><div class="layout"><article><h1>Generated</h1>`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<h2 id=\"s%d\">Section %d</h2>\n", i, i)
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&b, `<p>Paragraph %d.%d explains <em>one idea</em> with <strong>care</strong>, cites <a href="../notes/n%d.html">a related note</a> and <a href="https://example.org/p/%d">a source</a>, and quotes <code>config_%d</code> — then it goes on for a while so that it reads like prose and not like a list of links, as real pages do.</p>`+"\n", i, j, i, j, i)
		}
		if i%3 == 0 {
			fmt.Fprintf(&b, "<ul><li>first point of %d</li><li>second point with a <a href=\"#s%d\">link back</a></li><li>third</li></ul>\n", i, i)
		}
		if i%5 == 0 {
			fmt.Fprintf(&b, "<table><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody><tr><td>k%d</td><td>%d</td></tr><tr><td>size</td><td>large</td></tr></tbody></table>\n", i, i*i)
		}
		if i%7 == 0 {
			fmt.Fprintf(&b, "<pre><code class=\"language-go\">func f%d() int {\n\treturn %d\n}\n</code></pre>\n", i, i)
		}
	}
	b.WriteString(`</article><aside class="sidebar"><h2>Related</h2><ul><li><a href="/r">r</a></li></ul></aside></div><footer><p>© Site</p></footer></body></html>`)
	return []byte(b.String())
}

func benchmarkHTML(b *testing.B, size int) {
	data := generatePage(size)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := HTML(data)
		if err != nil || len(d.Markdown) < len(data)/4 {
			b.Fatalf("%v (%d bytes of markdown)", err, len(d.Markdown))
		}
	}
}

// BenchmarkHTML5MB converts a 5 MB page.
func BenchmarkHTML5MB(b *testing.B) { benchmarkHTML(b, 5<<20) }

// BenchmarkHTML50MB converts a 50 MB page; run it alone to read its peak
// memory: /usr/bin/time -v go test -run '^$' -bench HTML50MB -benchtime 1x
func BenchmarkHTML50MB(b *testing.B) { benchmarkHTML(b, 50<<20) }

// BenchmarkDOCX converts the committed report.
func BenchmarkDOCX(b *testing.B) {
	data := readTestdata(b, "report.docx")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DOCX(data); err != nil {
			b.Fatal(err)
		}
	}
}
