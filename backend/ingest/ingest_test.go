package ingest

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/loomwork/loom/backend/tokens"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSlugFollowsGitHub(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Token budget", "token-budget"},
		{"Already-hyphenated_and_underscored", "already-hyphenated_and_underscored"},
		{"What's new? (v2.0)", "whats-new-v20"},
		{"  Leading and trailing  ", "--leading-and-trailing--"},
		{"Ünïcödé 日本語 ✨", "ünïcödé-日本語-"},
		{"C++ & Go", "c--go"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			assert.Equal(t, tt.want, Slug(tt.title))
		})
	}
}

func TestRepeatedSlugsAreNumbered(t *testing.T) {
	s := newSlugger()
	var got []string
	for _, title := range []string{"Notes", "Notes", "Notes-1", "Notes", "Other", ""} {
		got = append(got, s.slug(title))
	}
	assert.Equal(t, []string{"notes", "notes-1", "notes-1-1", "notes-2", "other", ""}, got)
}

func TestFormatOfGoesByExtension(t *testing.T) {
	tests := []struct {
		name string
		want Format
		ok   bool
	}{
		{"a.md", FormatMarkdown, true},
		{"A.MARKDOWN", FormatMarkdown, true},
		{"notes.txt", FormatText, true},
		{"corpus.jsonl", FormatBEIR, true},
		{"paper.PDF", FormatPDF, true},
		{"page.htm", FormatHTML, true},
		{"report.docx", FormatDOCX, true},
		{"refs.bib", FormatBibTeX, true},
		{"model.py", FormatCode, true},
		{"analysis.R", FormatCode, true},
		{"cells.ipynb", FormatNotebook, true},
		{"data.tsv", FormatTable, true},
		{"photo.png", FormatText, false},
		{"archive.zip", FormatText, false},
		{"README", FormatText, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := FormatOf(tt.name)
			assert.Equal(t, tt.want, f)
			assert.Equal(t, tt.ok, ok)
		})
	}
}

// parseOne parses a markdown or text file that must give one document.
func parseOne(t *testing.T, name, src string) Document {
	t.Helper()
	docs, err := Parse("/k/"+name, name, "c", []byte(src), Options{})
	require.NoError(t, err)
	require.Len(t, docs, 1)
	return docs[0]
}

// section is what a test checks of a section.
type section struct {
	Ref          string
	HeadingPath  string
	Lines        [2]int
	FirstLine    string
	ParentRefIdx int
}

func sectionsOf(d Document) []section {
	var out []section
	for _, s := range d.Sections {
		first, _, _ := strings.Cut(s.Text, "\n")
		out = append(out, section{s.Ref, strings.Join(s.HeadingPath, " > "), [2]int{s.LineStart, s.LineEnd}, first, s.Parent})
	}
	return out
}

func TestMarkdownIsCutAtItsHeadings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []section
	}{
		{
			name: "text before the first heading, nesting, a heading with no text",
			src:  "Intro line.\n\n# Title\n\nBody.\n\n## Empty\n### Deep\n\nDeep text.\n",
			want: []section{
				{"n.md", "", [2]int{1, 1}, "Intro line.", -1},
				{"n.md#title", "Title", [2]int{3, 5}, "# Title", -1},
				{"n.md#deep", "Title > Empty > Deep", [2]int{8, 10}, "### Deep", 1},
			},
		},
		{
			name: "a heading inside a fence is not one",
			src:  "# Code\n\n```sh\n# not a heading\necho hi\n```\n\n~~~\n## nor this\n~~~\n",
			want: []section{{"n.md#code", "Code", [2]int{1, 10}, "# Code", -1}},
		},
		{
			name: "front matter is not text and keeps line numbers",
			src:  "---\ntitle: x\ntags: [a, b]\n---\n\n# After\n\ntext\n",
			want: []section{{"n.md#after", "After", [2]int{6, 8}, "# After", -1}},
		},
		{
			name: "setext headings and repeated titles",
			src:  "Top\n===\n\none\n\nTop\n---\n\ntwo\n",
			want: []section{
				{"n.md#top", "Top", [2]int{1, 4}, "Top", -1},
				{"n.md#top-1", "Top > Top", [2]int{6, 9}, "Top", 0},
			},
		},
		{
			name: "heading text as GitHub reads it",
			src:  "# The `budget` *is* [small](x.md) <b>now</b>\n\ntext\n",
			want: []section{{"n.md#the-budget-is-small-now", "The budget is small now", [2]int{1, 3}, "# The `budget` *is* [small](x.md) <b>now</b>", -1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sectionsOf(parseOne(t, "n.md", tt.src)))
		})
	}
}

func TestLinksBelongToTheirSection(t *testing.T) {
	d := parseOne(t, "n.md", "See [a](a.md).\n\n# One\n\n[b](b.md) and [ref][r]\n\n# Two\n\n| x | [c](c.md) |\n| - | - |\n\n[r]: r.md\n")
	var got [][]string
	for _, s := range d.Sections {
		got = append(got, s.Links)
	}
	assert.Equal(t, [][]string{{"a.md"}, {"b.md", "r.md"}, {"c.md"}}, got)
}

// utf16Bytes encodes s as UTF-16 with a byte-order mark.
func utf16Bytes(s string, bigEndian bool) []byte {
	order := binary.AppendByteOrder(binary.LittleEndian)
	out := []byte{0xff, 0xfe}
	if bigEndian {
		order, out = binary.BigEndian, []byte{0xfe, 0xff}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = order.AppendUint16(out, u)
	}
	return out
}

// Text saved by other tools goes in as it would read in an editor: same
// sections, same line numbers, whatever the encoding and line ends.
func TestEncodingsAndLineEndsReadAsTheSameText(t *testing.T) {
	const src = "# Café notes\n\nFirst paragraph, naïve.\n\n## Second\n\nMore text\non two lines.\n"
	want := sectionsOf(parseOne(t, "n.md", src))
	require.Len(t, want, 2)
	inputs := map[string][]byte{
		"CRLF":                []byte(strings.ReplaceAll(src, "\n", "\r\n")),
		"CR only (old Mac)":   []byte(strings.ReplaceAll(src, "\n", "\r")),
		"UTF-8 with a BOM":    append([]byte{0xef, 0xbb, 0xbf}, src...),
		"UTF-16 LE":           utf16Bytes(src, false),
		"UTF-16 BE":           utf16Bytes(src, true),
		"UTF-16 LE with CRLF": utf16Bytes(strings.ReplaceAll(src, "\n", "\r\n"), false),
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			docs, err := Parse("/k/n.md", "n.md", "c", data, Options{})
			require.NoError(t, err)
			assert.Equal(t, want, sectionsOf(docs[0]))
			assert.Equal(t, "Café notes", docs[0].Title)
			assert.Equal(t, HashBytes(data), docs[0].Hash, "the hash is the file's, so an unchanged file stays unchanged")
			assert.NotContains(t, docs[0].Sections[1].Text, "\r")
		})
	}
	t.Run("plain text with CR line ends", func(t *testing.T) {
		d := parseOne(t, "n.txt", "one\rtwo\r\rthree\r")
		require.Len(t, d.Sections, 1)
		assert.Equal(t, "one\ntwo\n\nthree", d.Sections[0].Text)
		assert.Equal(t, [2]int{1, 4}, [2]int{d.Sections[0].LineStart, d.Sections[0].LineEnd})
	})
}

// What cannot be read is refused with the file's name, what is wrong and
// what to do.
func TestUnreadableFilesSayWhyAndWhatToDo(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want []string
	}{
		{"empty", nil, []string{"file is empty"}},
		{"blank", []byte("  \n\t\n"), []string{"only whitespace"}},
		{"latin-1", []byte("# Caf\xe9\n"), []string{"not valid UTF-8 (first bad byte at line 1, column 6)", "0xE9", "Latin-1", "save it as UTF-8"}},
		{"a PNG", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), []string{"binary", "PNG image"}},
		{"a PDF", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\x00"), []string{"binary", "PDF", "does not read"}},
		{"UTF-16 without a byte-order mark", utf16Bytes("# Notes\n\nplain text written as UTF-16\n", false)[2:], []string{"UTF-16", "byte-order mark", "save it as UTF-8"}},
		{"UTF-32", append([]byte{0xff, 0xfe, 0, 0}, "#\x00\x00\x00"...), []string{"UTF-32", "save it as UTF-8"}},
		{"UTF-16 cut short", []byte{0xff, 0xfe, '#', 0, ' '}, []string{"odd number of bytes"}},
		{"headings only", []byte("# One\n## Two\n"), []string{"no text to index"}},
		{"too large", []byte(strings.Repeat("line\n", 100)), []string{"too large", "split it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("/k/notes/x.md", "notes/x.md", "c", tt.data, Options{MaxFileBytes: 256})
			require.Error(t, err)
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, "notes/x.md", fe.Path)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestBEIRReadsPastAByteOrderMark(t *testing.T) {
	data := append([]byte{0xef, 0xbb, 0xbf}, `{"_id":"d1","title":"T","text":"body"}`+"\r\n"+`{"_id":"d2","text":"two"}`+"\r\n"...)
	docs, err := Parse("/k/corpus.jsonl", "corpus.jsonl", "c", data, Options{})
	require.NoError(t, err)
	require.Len(t, docs, 2)
	assert.Equal(t, "T\n\nbody", docs[0].Sections[0].Text)
	assert.Equal(t, "d2", docs[1].Path)
}

func TestChunkCutsOnlyWhatIsTooLarge(t *testing.T) {
	count := tokens.Default().Count
	para := strings.Repeat("The loadable budget is the window minus the prompt and the reservation. ", 8)
	long := "# Long\n\n" + strings.Repeat(para+"\n\n", 12) + "See [the notes](notes.md).\n"
	opts := Options{CountTokens: count, MaxSectionTokens: 200, OverlapTokens: 40}
	tests := []struct {
		name  string
		src   string
		parts int
	}{
		{"a section that fits stays whole", "# Short\n\n" + para + "\n", 1},
		{"a long section is cut at paragraphs", long, 12},
		{"a long paragraph is cut at sentences", "# P\n\n" + strings.Repeat(para, 4) + "\n", 3},
		{"a long sentence is cut at words", "# S\n\n" + strings.Repeat("word ", 700) + "\n", 5},
		{"a word longer than a chunk is cut into slices", "# W\n\n" + strings.Repeat("x", 5000) + "\n", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Parse("/k/n.md", "n.md", "c", []byte(tt.src), opts)
			require.NoError(t, err)
			d := docs[0]
			d.Chunk(opts)
			require.Equal(t, tt.parts, len(d.Sections))
			for i, s := range d.Sections {
				assert.Equal(t, i, s.Ordinal)
				assert.Equal(t, i+1, s.Part)
				assert.Equal(t, tt.parts, s.Parts)
				assert.LessOrEqual(t, s.Tokens, opts.MaxSectionTokens, "part %d", i+1)
				assert.InDelta(t, count(s.Text), s.Tokens, 2, "part %d counts its text", i+1)
				assert.LessOrEqual(t, s.LineStart, s.LineEnd)
				assert.Equal(t, d.Sections[0].Ref, s.Ref, "parts share their section's reference")
			}
		})
	}
	t.Run("parts overlap and keep their links and lines", func(t *testing.T) {
		docs, err := Parse("/k/n.md", "n.md", "c", []byte(long), opts)
		require.NoError(t, err)
		d := docs[0]
		d.Chunk(opts)
		first, second, last := d.Sections[0], d.Sections[1], d.Sections[len(d.Sections)-1]
		assert.Equal(t, 1, first.LineStart)
		assert.True(t, strings.HasPrefix(second.Text, para[:40]) && second.LineStart == 5, "the second part starts with the first's last paragraph")
		assert.Equal(t, []string{"notes.md"}, last.Links)
		assert.Nil(t, first.Links)
		assert.Equal(t, strings.Count(long, "\n"), last.LineEnd)
	})
}

// Chunking without a counter uses the 4-bytes-a-token estimate throughout.
func TestChunkWithTheEstimate(t *testing.T) {
	d := parseOne(t, "n.txt", strings.Repeat("word ", 1000))
	d.Chunk(Options{MaxSectionTokens: 100})
	require.Greater(t, len(d.Sections), 10)
	for _, s := range d.Sections {
		assert.LessOrEqual(t, s.Tokens, 100)
		assert.Equal(t, (len(s.Text)+3)/4, s.Tokens)
	}
}

// A part of a long definition keeps the indent of its first line: in
// Python the nesting is the meaning.
func TestAPartOfADefinitionKeepsItsIndent(t *testing.T) {
	count := tokens.Default().Count
	var b strings.Builder
	b.WriteString("class Session:\n    def send(self, request):\n        \"\"\"Send a prepared request.\"\"\"\n")
	for i := range 40 {
		fmt.Fprintf(&b, "\n        if request.hook_%d:\n            request = request.hook_%d(request, retries=%d)\n", i, i, i)
	}
	opts := Options{CountTokens: count, MaxSectionTokens: 200, OverlapTokens: 40}
	docs, err := Parse("/k/session.py", "session.py", "c", []byte(b.String()), opts)
	require.NoError(t, err)
	d := docs[0]
	d.Chunk(opts)
	var parts []Section
	for _, s := range d.Sections {
		if s.Parts > 1 && strings.HasSuffix(s.Ref, "#Session.send") {
			parts = append(parts, s)
		}
	}
	require.Greater(t, len(parts), 2, "the method is cut into parts")
	for _, p := range parts[1:] {
		assert.True(t, strings.HasPrefix(p.Text, "        if request.hook_"), "part %d starts at its line's indent: %q", p.Part, p.Text[:min(40, len(p.Text))])
		assert.InDelta(t, count(p.Text), p.Tokens, 2, "part %d counts its indent", p.Part)
	}
}

// A long Go function with no blank line in it (a switch of many cases,
// gofmt's tabs) is cut between two of its lines, never inside one: a line
// break before a tab is a place to cut, as one before a space is.
func TestATabIndentedDefinitionIsCutBetweenItsLines(t *testing.T) {
	count := tokens.Default().Count
	var b strings.Builder
	b.WriteString("package status\n\n// Text names a code.\nfunc Text(code int) string {\n\tswitch code {\n")
	for i := range 80 {
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn \"Status number %d of the table\"\n", 100+i, i)
	}
	b.WriteString("\t}\n\treturn \"\"\n}\n")
	src := b.String()
	lines := map[string]bool{}
	for l := range strings.Lines(src) {
		lines[strings.TrimSpace(l)] = true
	}
	opts := Options{CountTokens: count, MaxSectionTokens: 200, OverlapTokens: 40}
	docs, err := Parse("/k/status.go", "status.go", "c", []byte(src), opts)
	require.NoError(t, err)
	d := docs[0]
	d.Chunk(opts)
	parts := 0
	for _, s := range d.Sections {
		if s.Parts <= 1 || !strings.HasSuffix(s.Ref, "#Text") {
			continue
		}
		parts++
		first, _, _ := strings.Cut(s.Text, "\n")
		last := s.Text[strings.LastIndexByte(s.Text, '\n')+1:]
		assert.True(t, lines[strings.TrimSpace(first)], "part %d starts at a line's start: %q", s.Part, first)
		assert.True(t, lines[strings.TrimSpace(last)], "part %d ends at a line's end: %q", s.Part, last)
	}
	assert.Greater(t, parts, 2, "the function is cut into parts")
}
