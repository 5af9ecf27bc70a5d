package bibtex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/errs"
)

func parseLibrary(t *testing.T) ([]Entry, []Problem) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "library.bib"))
	require.NoError(t, err)
	entries, problems, err := Parse(data)
	require.NoError(t, err)
	return entries, problems
}

func byKey(entries []Entry, key string) (Entry, bool) {
	for _, e := range entries {
		if e.Key == key {
			return e, true
		}
	}
	return Entry{}, false
}

func TestOneBrokenEntryDoesNotLoseTheOthers(t *testing.T) {
	entries, problems := parseLibrary(t)
	assert.Equal(t, 29, len(entries), "31 entries, one broken and one with a duplicate key")
	_, found := byKey(entries, "broken2021")
	assert.False(t, found, "the entry whose title is not closed is skipped")
	after, found := byKey(entries, "karpukhin2020dense")
	require.True(t, found, "the entry after the broken one is read")
	assert.Equal(t, 163, after.Line)
	require.NotEmpty(t, problems)
	assert.Equal(t, Problem{Line: 156, Message: "@inproceedings{broken2021} is skipped: it is not closed (a } is missing)"}, problems[0])
}

func TestEntriesKeepFileOrderAndLines(t *testing.T) {
	entries, _ := parseLibrary(t)
	require.NotEmpty(t, entries)
	assert.Equal(t, "vaswani2017attention", entries[0].Key)
	assert.Equal(t, "lastentry", entries[len(entries)-1].Key)
	for i := 1; i < len(entries); i++ {
		assert.Less(t, entries[i-1].EndLine, entries[i].Line, "%s ends before %s starts", entries[i-1].Key, entries[i].Key)
		assert.LessOrEqual(t, entries[i].Line, entries[i].EndLine)
	}
	v, _ := byKey(entries, "vaswani2017attention")
	assert.Equal(t, 14, v.Line)
	assert.Equal(t, 25, v.EndLine)
}

func TestMacrosConcatenationAndDelimiters(t *testing.T) {
	entries, _ := parseLibrary(t)
	bert, _ := byKey(entries, "devlin2019bert")
	assert.Equal(t, "Proceedings of the 2019 Conference of the North American Chapter of the Association for Computational Linguistics", bert.Fields["booktitle"], "@string macro # quoted part")
	assert.Equal(t, "June", bert.Fields["month"], "month macro")
	c, _ := byKey(entries, "concat2020")
	assert.Equal(t, "Part One, Part Two and Part Three", c.Title())
	assert.Equal(t, "Journal of Concatenated Strings", c.Venue())
	assert.Equal(t, "December 1", c.Fields["month"])
	m, found := byKey(entries, "mikolov2013")
	require.True(t, found, "an entry in parentheses is read")
	assert.Equal(t, "2013", m.Year())
	n, _ := byKey(entries, "nonkey")
	assert.Equal(t, "Journal of Machine Learning Research", n.Venue(), "a macro defined with @STRING( … )")
	assert.Equal(t, `Quotes and "braces" inside a quoted value`, n.Title())
	k, _ := byKey(entries, "Knuth1984")
	assert.Equal(t, "article", k.Type, "types are lower-cased")
	assert.Equal(t, "Literate Programming", k.Fields["title"], "field names are lower-cased")
	assert.Equal(t, "Literate Programming", k.Title(), "the first of two entries with the same key wins")
}

func TestAccessors(t *testing.T) {
	entries, _ := parseLibrary(t)
	get := func(key string) Entry {
		e, ok := byKey(entries, key)
		require.True(t, ok, key)
		return e
	}
	assert.Equal(t, "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness", get("dao2022flashattention").Title())
	assert.Equal(t, "2205.14135", get("dao2022flashattention").ArXiv(), "eprint with archivePrefix, version dropped")
	assert.Equal(t, "2005.14165", get("brown2020language").ArXiv(), "from the journal")
	assert.Equal(t, "2005.11401", get("lewis2020rag").ArXiv(), "from an arxiv.org url")
	assert.Equal(t, "hep-th/9711200", get("physics1999").ArXiv(), "old-style identifier")
	assert.Equal(t, "10.1093/comjnl/27.2.97", get("Knuth1984").DOI())
	assert.Equal(t, "10.5555/end.2025.1", get("lastentry").DOI(), "doi: prefix and the final period go")
	assert.Equal(t, "10.1000/abc_123", get("concat2020").DOI(), `\_ is _ in a DOI`)
	assert.Equal(t, []string{"Hugo Touvron", "Thibaut Lavril", "Gautier Izacard"}, get("touvron2023llama").Authors())
	assert.Equal(t, []string{"World Health Organization"}, get("who2020").Authors())
	assert.Equal(t, []string{"Paul Erdős", "Alfréd Rényi"}, get("erdos1959").Authors())
	assert.Equal(t, []string{"María José García-Fernández"}, get("garcia2021").Authors())
	assert.Equal(t, []string{"Christopher D. Manning", "Hinrich Schütze"}, get("editedvolume").Authors(), "editors when there is no author")
	assert.Equal(t, []string{"Martin Luther King Jr", "Henry Ford", "Calvin Q. Hobbes"}, get("jr2010").Authors())
	assert.Equal(t, "Über die Verarbeitung natürlicher Sprache mit neuronalen Netzen", get("mueller2019").Title())
	assert.Equal(t, "Technische Universität München", get("mueller2019").Venue(), "school")
	assert.Equal(t, "Guidance on Data Sharing — a Short Report", get("who2020").Title())
	assert.Equal(t, "2024", get("blogpost2024").Year(), "from a biblatex date")
	assert.Equal(t, "https://blog.example.com/2024/sorting~notes--part_1", get("blogpost2024").Fields["url"], "a url keeps ~ and --")
	assert.Equal(t, []string{"transformers", "attention", "sequence models"}, get("vaswani2017attention").Keywords())
	assert.Equal(t, "“Smart” quotes, the & sign, 100% of it and a $5 fee", get("quotes2019").Title())
	assert.Equal(t, "Journal of Lenient Parsing", get("missingcomma").Venue(), "a missing comma between fields is forgiven")
	assert.Equal(t, "Attention Is All You Need\n"+
		"Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Łukasz Kaiser, Illia Polosukhin (2017). Advances in Neural Information Processing Systems.\n"+
		"Keywords: transformers, attention, sequence models\n\n"+
		"We describe a sequence model that drops recurrence and convolution and relies on attention alone; it trains faster and translates better than the models it is compared with.",
		get("vaswani2017attention").Text())
	assert.Equal(t, "The Large N Limit of Superconformal Field Theories and Supergravity\n"+
		"Juan Maldacena (1999). International Journal of Theoretical Physics.\n"+
		"DOI: 10.1023/a:1026654312961 arXiv: hep-th/9711200", get("physics1999").Text())
}

func TestProblemsAreReportedWithTheirLines(t *testing.T) {
	_, problems := parseLibrary(t)
	var lines []int
	for _, p := range problems {
		lines = append(lines, p.Line)
	}
	assert.Equal(t, []int{156, 234, 240, 248, 276}, lines)
	assert.Contains(t, problems[2].Message, "repeats the key of the entry at line 53")
	assert.Contains(t, problems[3].Message, "nosuchmacro, which is not defined")
}

func TestParseCases(t *testing.T) {
	cases := []struct {
		name, in string
		keys     []string
		problems int
		err      string // a part of the error's message, "" for none
	}{
		{"empty file", "", nil, 0, ""},
		{"only text and comments", "% nothing\nfree text @ here\n@comment{a {nested} comment}\n", nil, 0, ""},
		{"an email address in free text", "mail me at someone@example.org\n@misc{a, title={A}}", []string{"a"}, 0, ""},
		{"a key and no fields", "@misc{lonely}", []string{"lonely"}, 0, ""},
		{"a trailing comma", "@misc{a, title = {A},}", []string{"a"}, 0, ""},
		{"@comment hides an entry-like text", "@comment{ @misc{hidden, title={H}} }\n@misc{seen, title={S}}", []string{"seen"}, 0, ""},
		{"preamble with parentheses", `@preamble( "\def\x{(y)}" )` + "\n@misc{a,title={A}}", []string{"a"}, 0, ""},
		{"a string list", "@string{a = {Alpha}, b = a # { Beta}}\n@misc{k, title = b}", []string{"k"}, 0, ""},
		{"nothing readable", "@article{title = {x}}\n\n@book{, title={y}}", nil, 2, "has no readable BibTeX entry: line 1: an @article entry has no citation key"},
		{"an unclosed last entry", "@misc{a, title={A}}\n@misc{b, title = {B}", []string{"a"}, 1, ""},
		{"a value that is not closed runs into the next entry", "@misc{a, title = {A\n}\n@misc{b, title = {B}}\n", []string{"b"}, 1, ""},
		{"a stray closing brace", "@misc{a, title = A}}, year = 2000}\n@misc{b}", []string{"a", "b"}, 1, ""},
		{"a missing comma after the key is forgiven", "@misc{a\n title={T}}", []string{"a"}, 1, ""},
		{"a number where a key's comma should be", "@misc{a 2000, title={T}}\n@misc{b}", []string{"b"}, 1, ""},
		{"no value", "@misc{a, title = , year = 1}\n@misc{b}", []string{"b"}, 1, ""},
		{"case-insensitive keys clash", "@misc{Key}\n@misc{key}", []string{"Key"}, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entries, problems, err := Parse([]byte(c.in))
			var keys []string
			for _, e := range entries {
				keys = append(keys, e.Key)
			}
			assert.Equal(t, c.keys, keys)
			assert.Len(t, problems, c.problems, "%v", problems)
			if c.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
			assert.Equal(t, errs.BadFile, errs.CodeOf(err))
		})
	}
}

func TestAStringListDefinesEveryMacro(t *testing.T) {
	entries, _, err := Parse([]byte("@string{a = {Alpha}, b = a # { Beta}}\n@misc{k, title = b, note = a}"))
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "Alpha Beta", entries[0].Title())
	assert.Equal(t, "Alpha", entries[0].Fields["note"])
}

func TestWindows1252IsReadAndSaidSo(t *testing.T) {
	data := []byte("@misc{a,\n  title = {Caf\xe9 and cr\xe8me}\n}\n")
	entries, problems, err := Parse(data)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "Café and crème", entries[0].Title())
	require.Len(t, problems, 1)
	assert.Equal(t, 2, problems[0].Line)
	assert.Contains(t, problems[0].Message, "Windows-1252")
}

func TestAByteOrderMarkAndCRLFAreRead(t *testing.T) {
	data := []byte("\xef\xbb\xbf@misc{a,\r\n  title = {One\r\n  Two}\r\n}\r\n@misc{b}\r\n")
	entries, problems, err := Parse(data)
	require.NoError(t, err)
	assert.Empty(t, problems)
	require.Len(t, entries, 2)
	assert.Equal(t, "One Two", entries[0].Title())
	assert.Equal(t, 4, entries[0].EndLine)
	assert.Equal(t, 5, entries[1].Line)
}

func TestLongFilesParseWhole(t *testing.T) {
	data := generateBib(500)
	entries, problems, err := Parse(data)
	require.NoError(t, err)
	assert.Empty(t, problems)
	require.Len(t, entries, 500)
	assert.Equal(t, "entry499", entries[499].Key)
	assert.True(t, strings.HasPrefix(entries[499].Title(), "Generated Title Number 499"))
}
