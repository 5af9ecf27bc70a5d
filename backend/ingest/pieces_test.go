package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/loomwork/loom/backend/tokens"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark/text"
)

// A file of 100k headings peaked at 2.2 GB: goldmark's AST of the whole
// file (thirty times its size) was held at once. No parse now sees more
// than a piece of it.
func TestMarkdownIsParsedInPieces(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
	}{
		{"many headings", manyHeadings(100_000)},
		{"mixed markdown", mixedMarkdown(4 << 20)},
		{"a long list", []byte(strings.Repeat("- item\n", 300_000))},
		{"a paragraph of short lines", []byte(strings.Repeat("word\n", 300_000))},
		{"a long quote", []byte(strings.Repeat("> quoted\n", 200_000))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			size := min(max(len(tt.src)/64, minPiece), maxPiece)
			end := 0
			for start := 0; start < len(tt.src); {
				p, _, _ := nextPiece(tt.src, start)
				assert.Equal(t, start, p.start)
				// A cut is tried a piece in, then twice as far (inside a
				// fence or list, or a paragraph not yet long enough to cut).
				assert.LessOrEqual(t, p.parseEnd-p.start, 2*max(size, minParagraphCut)+4096, "a parse of %d bytes", p.parseEnd-p.start)
				require.Greater(t, p.end, start)
				start, end = p.end, p.end
			}
			assert.Equal(t, len(tt.src), end, "the pieces cover the file")
		})
	}
}

// Parsing in pieces finds exactly the headings and links that parsing the
// whole file finds, across every kind of block a cut could fall next to.
func TestPiecewiseParsingFindsWhatAWholeParseFinds(t *testing.T) {
	blocks := []string{
		"# Heading %d\n\nText with a [link](a%d.md) and a [reference][r%d].\n\n",
		"Setext heading %d\n===\n\nbody\n\n",
		"Another %d\n---\n",
		"```\n# not a heading %d\n\n## nor this [x](no%d.md)\n```\n\n",
		"~~~md\n# fenced %d\n~~~\n",
		"- item %d with [a link](item%d.md)\n- # heading in an item %d\n\n- loose item\n\n  continued [in](cont%d.md)\n\n",
		"1. first %d\n2. second [two](two%d.md)\n",
		"> quote %d\n> # heading in a quote\n> [quoted](q%d.md)\n\n",
		"<div>\n# not a heading in html %d\n\n</div>\n\n",
		"| a | b |\n| - | - |\n| [cell](cell%d.md) | `x \\| y` |\n\n",
		"#\n\n####### not a heading %d\n\n",
		"text right before\n# a heading that interrupts %d\n",
		"    # indented code %d\n\n",
		"[r%d]: defined%d.md\n\n",
		"***\n\n",
		"<!-- a comment\n# inside it %d\n-->\n\n",
		"Paragraph with a link [split\nover two lines](wrapped%d.md).\n\n",
		"Early use of [a late definition][late%d].\n\n",
		"A [[wiki %d|link]], ![[embed%d.png]], #tag%d/sub and `[[not %d]]`.\n\n",
	}
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			src := markdownMix(rand.New(rand.NewPCG(seed, 7)), blocks, 400<<10+int(seed)*100<<10)
			sc := scanMarkdown(src)
			heads, links := sc.heads, sc.links
			var want scan
			collect(markdownParser.Parse(text.NewReader(src)), src, 0, &want)
			require.Greater(t, len(want.heads), 1000)
			require.Greater(t, len(want.links), 1000)
			require.Greater(t, len(want.tags), 100)
			assert.Equal(t, want.heads, heads)
			assert.Equal(t, want.links, links)
			assert.Equal(t, want.tags, sc.tags)
			var late int
			for _, l := range links {
				if strings.HasPrefix(l.dest, "late") {
					late++
				}
			}
			assert.Positive(t, late, "references defined at the end resolve at the start")
		})
	}
}

// markdownMix strings blocks together at random up to size bytes, then
// defines the late references they use.
func markdownMix(rng *rand.Rand, blocks []string, size int) []byte {
	var b bytes.Buffer
	n := 0
	for ; b.Len() < size; n++ {
		block := blocks[rng.IntN(len(blocks))]
		args := make([]any, strings.Count(block, "%d"))
		for k := range args {
			args[k] = n
		}
		fmt.Fprintf(&b, block, args...)
	}
	// Definitions at the very end serve references from the start.
	b.WriteString("\n")
	for i := range n {
		fmt.Fprintf(&b, "[late%d]: late%d.md\n", i, i)
	}
	return b.Bytes()
}

// What Parse and Chunk keep of a file of many headings is its sections and
// little else: each section's struct, its strings and shared paths.
func TestSectionsOfManyHeadingsAreCompact(t *testing.T) {
	src := manyHeadings(100_000)
	opts := Options{CountTokens: tokens.Default().Count}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	docs := parseAndChunk(t, "h.md", src, opts)
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := len(docs[0].Sections)
	require.Equal(t, 100_000, n)
	perSection := uint64(unsafe.Sizeof(Section{})) + 96
	assert.Less(t, after.HeapAlloc-before.HeapAlloc, uint64(n)*perSection+uint64(len(src)))
	runtime.KeepAlive(docs)
}
