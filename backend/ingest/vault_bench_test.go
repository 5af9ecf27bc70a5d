package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// generatedNote is one note of a generated vault.
type generatedNote struct {
	path string
	text []byte
}

// generatedVault makes n notes shaped like a real vault's (the report
// behind this work: 173 notes, 1,890 wiki links, about eleven a note):
// front matter with aliases and tags, a few headings, paragraphs holding
// eleven wiki links of every form, a markdown link, inline tags, and a
// fenced block whose link must not count. Notes sit in folders four
// deep, and every tenth name is shared with a note in another folder.
// Deterministic: note i links to notes i*7+k.
func generatedVault(n int) []generatedNote {
	notes := make([]generatedNote, n)
	name := func(i int) string {
		if i%10 == 0 {
			return fmt.Sprintf("Shared %d", i/20)
		}
		return fmt.Sprintf("Note %d", i)
	}
	folder := func(i int) string { return fmt.Sprintf("area%d/topic%d/sub%d", i%7, i%13, i%3) }
	for i := range notes {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: Title %d\naliases: [Alias %d, Other %d]\ntags: [area%d, topic/%d]\n---\n", i, i, i, i%7, i%13)
		fmt.Fprintf(&b, "# %s\n\nIntro with #inline%d and #nested/tag%d.\n\n", name(i), i%50, i%9)
		for s := range 3 {
			fmt.Fprintf(&b, "## Part %d\n\n", s)
			for k := range 4 {
				j := (i*7 + s*4 + k) % n
				switch k {
				case 0:
					fmt.Fprintf(&b, "See [[%s]] for the idea. ", name(j))
				case 1:
					fmt.Fprintf(&b, "Also [[%s/%s|shown text]] and [[%s#Part 1]]. ", folder(j), name(j), name(j))
				case 2:
					fmt.Fprintf(&b, "Embedded: ![[%s#^block%d]]. ", name(j), j)
				case 3:
					fmt.Fprintf(&b, "A [markdown link](../%s.md).", strings.ReplaceAll(name(j), " ", "%20"))
				}
			}
			b.WriteString("\n\nSome words of prose about budgets, graphs and retrieval, to make the note the size of one.\n\n")
		}
		b.WriteString("```\n[[not a link]] #notatag\n```\n")
		notes[i] = generatedNote{path: folder(i) + "/" + name(i) + ".md", text: []byte(b.String())}
	}
	return notes
}

// BenchmarkVaultLinkExtraction parses a generated vault of 5,000 notes:
// front matter, headings, wiki links, markdown links and tags, as Parse
// does for each file of an ingest (chunking and the rest excluded).
func BenchmarkVaultLinkExtraction(b *testing.B) {
	notes := generatedVault(5000)
	bytes, links := 0, 0
	for _, n := range notes {
		bytes += len(n.text)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	for b.Loop() {
		links = 0
		for _, n := range notes {
			docs, err := Parse("/v/"+n.path, n.path, "v", n.text, Options{})
			if err != nil {
				b.Fatal(err)
			}
			for _, s := range docs[0].Sections {
				links += len(s.Links)
			}
		}
	}
	if links != 5000*15 {
		b.Fatalf("%d links, want 15 a note", links)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/5000/1000, "µs/note")
}
