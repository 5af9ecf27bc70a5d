package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseWikiLink(t *testing.T) {
	tests := []struct {
		link string
		want WikiLink
		ok   bool
	}{
		{"[[Note]]", WikiLink{Target: "Note"}, true},
		{"[[Note|shown text]]", WikiLink{Target: "Note", Shown: "shown text"}, true},
		{"[[Note#Heading]]", WikiLink{Target: "Note", Heading: "Heading"}, true},
		{"[[Note#Part#Sub|x]]", WikiLink{Target: "Note", Heading: "Part#Sub", Shown: "x"}, true},
		{"[[Note#^block1]]", WikiLink{Target: "Note", Block: "block1"}, true},
		{"[[Note^block1]]", WikiLink{Target: "Note", Block: "block1"}, true},
		{"[[#Heading]]", WikiLink{Heading: "Heading"}, true},
		{"[[#^block]]", WikiLink{Block: "block"}, true},
		{"![[image.png]]", WikiLink{Target: "image.png", Embed: true}, true},
		{"![[Note#Bio]]", WikiLink{Target: "Note", Heading: "Bio", Embed: true}, true},
		{"[[folder/Note.md]]", WikiLink{Target: "folder/Note.md"}, true},
		{"[[ spaced |  shown ]]", WikiLink{Target: "spaced", Shown: "shown"}, true},
		{`[[Note\|in a table]]`, WikiLink{Target: "Note", Shown: "in a table"}, true},
		{"other.md", WikiLink{}, false},
		{"Other%20Note.md#x", WikiLink{}, false},
		{"[[unclosed", WikiLink{}, false},
		{"!other.md", WikiLink{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.link, func(t *testing.T) {
			got, ok := ParseWikiLink(tt.link)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestWikiLinksAreFoundOutsideCodeOnly(t *testing.T) {
	src := "A [[One]], [[Two|shown]], ![[three.png]] and [md](four.md).\n\n" +
		"Not `[[InSpan]]`, not ``x [[InDouble]] y``.\n\n" +
		"```\n[[InFence]]\n```\n\n" +
		"~~~md\n![[InTilde]]\n~~~\n\n" +
		"    [[InIndented]]\n\n" +
		"Not links: [[]], [[|x]], [[a\nb]], [[x [y] z]], [single] and [[unclosed.\n\n" +
		"> quoted [[Five#H]]\n\n" +
		"- listed [[Six#^b]]\n\n" +
		"| a | b |\n| - | - |\n| [[Seven\\|s]] | x |\n\n" +
		"[label [[Eight]]](nine.md)\n"
	d := parseOne(t, "n.md", src)
	require.Len(t, d.Sections, 1)
	assert.Equal(t, []string{"[[One]]", "[[Two|shown]]", "![[three.png]]", "four.md",
		"[[Five#H]]", "[[Six#^b]]", `[[Seven\|s]]`, "nine.md", "[[Eight]]"}, d.Sections[0].Links,
		"in the order met: a markdown link before the wiki link in its text")
	assert.Equal(t, src[:len(src)-1], d.Sections[0].Text, "the text stays as written")
}

// A reference definition does not turn [[x]] into brackets around a link.
func TestWikiLinksWinOverShortcutReferences(t *testing.T) {
	d := parseOne(t, "n.md", "See [[Note]] and [Note].\n\n[note]: elsewhere.md\n")
	assert.Equal(t, []string{"[[Note]]", "elsewhere.md"}, d.Sections[0].Links)
}

// A section cut into parts keeps each wiki link with the part that holds
// it, whether the parts are matched by text (what people write) or, for a
// section too big for that, by where the links were found.
func TestWikiLinksSurviveChunking(t *testing.T) {
	for _, n := range []int{40, 4000} {
		t.Run(fmt.Sprint(n, " paragraphs"), func(t *testing.T) {
			var b strings.Builder
			b.WriteString("# Long\n\n")
			for i := range n {
				fmt.Fprintf(&b, "Paragraph %d names [[Note %d|the note]] and [a file](f%d.md), then some words of filler text.\n\n", i, i, i)
			}
			opts := Options{MaxSectionTokens: 64, OverlapTokens: -1}
			docs, err := Parse("/k/long.md", "long.md", "c", []byte(b.String()), opts)
			require.NoError(t, err)
			d := docs[0]
			require.Len(t, d.Sections, 1)
			if n > 1000 {
				require.Greater(t, len(d.Sections[0].Links)*len(d.Sections[0].Text), linkWork, "placed by position")
			}
			d.Chunk(opts)
			require.Greater(t, len(d.Sections), n/4, "the section was cut")
			seen := 0
			for _, s := range d.Sections {
				var want []string
				for _, line := range strings.Split(s.Text, "\n") {
					var i int
					if _, err := fmt.Sscanf(line, "Paragraph %d", &i); err == nil {
						want = append(want, fmt.Sprintf("[[Note %d|the note]]", i), fmt.Sprintf("f%d.md", i))
					}
				}
				assert.Equal(t, want, s.Links, "part %d", s.Part)
				seen += len(s.Links)
			}
			assert.Equal(t, 2*n, seen, "no link lost, none twice")
		})
	}
}
