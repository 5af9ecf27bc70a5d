package ingest

import (
	"runtime"
	"strings"
	"testing"

	"github.com/loomwork/loom/backend/tokens"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bounds that do not depend on the machine: bytes handed to the counter,
// bytes allocated or kept, sizes of parses. Time and peak memory are
// measured by the benchmarks (bench_test.go).

// countingCounter is the real counter, noting what it was given.
type countingCounter struct {
	bytes   int
	longest map[string]int // per character set, the longest run of it in one call
	sets    []string
}

func (c *countingCounter) count(s string) int {
	c.bytes += len(s)
	for _, set := range c.sets {
		c.longest[set] = max(c.longest[set], longestRunOf(s, set))
	}
	return tokens.Default().Count(s)
}

func longestRunOf(s, set string) int {
	longest, run := 0, 0
	for _, r := range s {
		if strings.ContainsRune(set, r) {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// A stretch without a place where the BPE pre-split breaks is one piece,
// whose merges cost the square of its length: a 40k-column delimiter row
// took 18 s. The counter must only ever see short ones.
func TestTheCounterNeverSeesALongUnbrokenRun(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		set  string
	}{
		{"a 40k-column table", wideTable(40_000), "|-"},
		{"a line of one letter", []byte("# Run\n\n" + strings.Repeat("x", 200_000) + "\n"), "x"},
		{"a rule of equals signs", []byte("Text\n\n" + strings.Repeat("=", 100_000) + "\n"), "="},
		{"a megabyte of spaces", []byte("# Gap\n\nstart" + strings.Repeat(" ", 1<<20) + "end\n"), " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingCounter{longest: map[string]int{}, sets: []string{tt.set}}
			parseAndChunk(t, "file.md", tt.src, Options{CountTokens: c.count})
			assert.LessOrEqual(t, c.longest[tt.set], maxRun)
		})
	}
}

// Cutting a 31 MB line once took 72 s: its prefix was counted again at
// every word. Now each byte is counted a few times, whatever the input.
func TestTokensCountedGrowLinearlyWithTheInput(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
	}{
		{"one long line", oneLine(1 << 20)},
		{"a wide table", wideTable(40_000)},
		{"many headings", manyHeadings(20_000)},
		{"mixed markdown", mixedMarkdown(1 << 20)},
		{"a diagram of spaces", []byte("```\n" + strings.Repeat("│"+strings.Repeat(" ", 300)+"│\n", 2000) + "```\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, name := range []string{"file.md", "file.txt"} {
				c := &countingCounter{}
				parseAndChunk(t, name, tt.src, Options{CountTokens: c.count})
				assert.LessOrEqual(t, c.bytes, 8*len(tt.src), "%s: bytes counted", name)
			}
		})
	}
}

// Chunking sections that all fit rewrites nothing: a file of a million
// sections is not copied once more.
func TestChunkingSectionsThatFitAllocatesAlmostNothing(t *testing.T) {
	src := manyHeadings(100_000)
	opts := Options{CountTokens: tokens.Default().Count}
	docs, err := Parse("/k", "h.md", "c", src, opts)
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	docs[0].Chunk(opts)
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(len(src)/16))
	assert.Equal(t, 1, docs[0].Sections[0].Parts)
}

// TestAReaderThatFailsRefusesTheFile: a reader's panic on a file is that
// file's error, naming it, and not the process's end; a line Go calls blank
// and goldmark does not ("\v") before a setext underline was one.
func TestAReaderThatFailsRefusesTheFile(t *testing.T) {
	_, err := Parse("vt.md", "vt.md", "", []byte("\v\n-\n"), Options{})
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "vt.md: has no text to index, only headings or markup", err.Error(), "read, not failed")

	parseHook = func(path string) { panic("a reader's bug") }
	defer func() { parseHook = nil }()
	_, err = Parse("/notes/a.md", "a.md", "", []byte("# A\n\ntext\n"), Options{})
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "a.md", fe.Path)
	assert.Contains(t, err.Error(), "a reader's bug")
}
