package concepts

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

func unit(v ...float32) []float32 {
	var n float32
	for _, x := range v {
		n += x * x
	}
	n = float32(math.Sqrt(float64(n)))
	for i := range v {
		v[i] /= n
	}
	return v
}

func TestLinkThresholdNearMissAndRelated(t *testing.T) {
	l := NewLinker(2, 0.8)
	l.Add("c-x", unit(1, 0))
	l.Add("c-y", unit(0, 1))
	l.Add("c-xy", unit(1, 0.9))

	links, best := l.Link(unit(1, 0.1))
	assert.Equal(t, []string{"c-x", "c-xy"}, ids(links), "every concept at or above the threshold, best first")
	assert.Equal(t, "c-x", best.ID)

	links, best = l.Link(unit(-1, -0.2))
	assert.Empty(t, links)
	assert.Equal(t, "c-y", best.ID, "near-miss is the best concept below the threshold")

	l.RelatedMin = 0.5
	assert.Equal(t, []string{"c-x", "c-y"}, ids(l.Related(unit(1, 0.9), "c-xy")))

	l.Remove(map[string]bool{"c-x": true})
	links, _ = l.Link(unit(1, 0))
	assert.Equal(t, []string{}, append([]string{}, ids(links)...))
	assert.Equal(t, 2, l.Len())
}

func ids(m []Match) []string {
	out := []string{}
	for _, x := range m {
		out = append(out, x.ID)
	}
	return out
}

func TestNames(t *testing.T) {
	text := "## 4.3 Concept Node Creation Threshold\n\nWhen new content is processed, the system generates an embedding and compares it against all existing concept nodes. If any existing concept node exceeds the similarity threshold, the content is linked."
	assert.Equal(t, "Concept Node Creation Threshold", Name("4.3 Concept Node Creation Threshold", text))
	name := Name("", "Vitamin D supplementation reduces fracture risk in elderly women. Vitamin D deficiency is common.")
	assert.Contains(t, name, "fracture risk")
	assert.Equal(t, "When new content is processed, the system generates an embedding and compares it against all existing concept nodes.", Describe(text))
	assert.NotEmpty(t, KeyPhrases(text, 3))
	assert.Empty(t, KeyPhrases("the and of", 3))
	// A definition is named as it is declared, snake_case and all.
	code := "def read_header(self, lines: list) -> dict:\n    \"\"\"Parse the header block.\"\"\"\n"
	assert.Equal(t, "method Parser.read_header", Name("method Parser.read_header", code))
	assert.Equal(t, "func buildGraph", Name("func buildGraph (part 2/3)", code))
	assert.NotContains(t, Name("func (x) = y", "Parse the header block."), "func", "not a definition's heading")
}

// Nearest returns what sorting every concept would: the k best by
// similarity, ties by the smaller id, for every k.
func TestNearestIsTheSortedPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []int{8, 100} {
		l := NewLinker(dim, 0.7)
		var vecs [][]float32
		for i := range 60 {
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32(r.IntN(3) - 1) // few distinct values: ties happen
			}
			vecs = append(vecs, v)
			l.Add(fmt.Sprintf("c-%02d", (i*37)%60), v)
		}
		l.Add("c-dup-b", vecs[0]) // equal similarity to c-00, ordered by id
		l.Add("c-dup-a", vecs[0])
		q := vecs[0]
		all := make([]Match, 0, l.Len())
		for i, id := range l.ids {
			all = append(all, Match{id, float64(Dot(q, l.vecs[i*dim:(i+1)*dim]))})
		}
		slices.SortFunc(all, func(a, b Match) int {
			if a.Sim != b.Sim {
				return cmp.Compare(b.Sim, a.Sim)
			}
			return cmp.Compare(a.ID, b.ID)
		})
		for _, k := range []int{0, 1, 2, 3, 5, 17, l.Len(), l.Len() + 4} {
			got := l.Nearest(q, k)
			want := all[:min(k, len(all))]
			if len(want) == 0 {
				want = nil
			}
			if !slices.Equal(got, want) {
				t.Fatalf("dim %d k %d:\n got %v\nwant %v", dim, k, got, want)
			}
		}
	}
	if got := NewLinker(4, 0.7).Nearest([]float32{1, 0, 0, 0}, 3); got != nil {
		t.Fatalf("empty linker: %v", got)
	}
}

// Names and descriptions a person would use: the reported junk and
// realistic sections of tables, markup and code give words, never
// numbers, markup, code or an empty name.
func TestNamesSkipJunk(t *testing.T) {
	for _, c := range []struct {
		what, heading, text string
		want                string   // exact name, when set
		has                 []string // words the name must contain
		not                 []string // tokens it must not contain
	}{
		{what: "numbers from a table", text: "1024 5.33 1.95 17.20\n2048 6.10 2.01 18.40", want: Untitled, not: []string{"1024", "5.33"}},
		{what: "numbers fall back to the document", text: "1024 5.33 1.95 17.20", want: "Benchmark Results"},
		{what: "markdown table of numbers", heading: "Table 3",
			text: "| batch | latency ms | throughput |\n|---|---|---|\n| 1024 | 5.33 | 1.95 |\n| 2048 | 17.20 | 3.1e-3 |\n\nLatency grows with the batch size while throughput saturates.",
			has:  []string{"latency"}, not: []string{"|", "---", "1024", "5.33", "17.20", "Table 3", "e-3"}},
		{what: "HTML fragment", text: `<div class="note"><span class="hl">Gradient clipping</span> keeps <a href="https://x.org/a">training</a> stable&nbsp;in deep recurrent networks.</div>`,
			has: []string{"gradient clipping"}, not: []string{"span", "div", "class", "href", "nbsp", "https", "x.org"}},
		{what: "HTML words only", text: `<span class="a"></span><div class="b"><br/></div>&amp;&nbsp;`, want: Untitled},
		{what: "escaped markup words", text: "span class div class span class td nbsp\n<td>&nbsp;</td>", want: Untitled},
		{what: "code block", heading: "",
			text: "Retry with exponential backoff when the server is busy.\n\n```go\nfor i := 0; i < n; i++ {\n\terr = do_request(ctx, x=1)\n}\n```\n\nCall `do_request()` from os.Open paths like /usr/local/bin/loom.",
			has:  []string{"exponential backoff"}, not: []string{"do_request", "ctx", "x=1", "os.open", "/usr", "err"}},
		{what: "code only", text: "```\nfoo_bar(1, 2)\nx = 1e-3\n```\n`baz_qux()`", want: Untitled},
		{what: "URLs and paths", text: "See https://example.com/docs/index.html and ./scripts/run.sh or www.example.org.", want: Untitled},
		{what: "markdown syntax", text: "**Sparse retrieval** with [BM25 ranking](https://en.wikipedia.org/wiki/Okapi_BM25) beats *dense* ones ~~sometimes~~.",
			has: []string{"sparse retrieval"}, not: []string{"*", "[", "(", "wikipedia", "okapi_bm25"}},
		{what: "numbered caption heading", heading: "1.2.3", text: "Vitamin D supplementation reduces fracture risk in elderly women.", has: []string{"fracture risk"}},
		{what: "figure caption heading", heading: "Figure 2b:", text: "Mean patch area decreased in the ring road zone.", has: []string{"mean patch area"}},
		{what: "heading with markup", heading: "**Sparse** `retrieval` <em>wins</em>", text: "x", want: "Sparse retrieval wins"},
		{what: "heading with words and a number", heading: "Alternative 3: Full RAG", text: "x", want: "Alternative 3: Full RAG"},
		{what: "short and stop words only", text: "it is as of to an a 1 2 3", want: Untitled},
		{what: "empty", text: "", want: Untitled},
		{what: "empty with a junk fallback first", text: "", want: "Design Notes"},
	} {
		t.Run(c.what, func(t *testing.T) {
			var fallbacks []string
			switch c.what {
			case "numbers fall back to the document":
				fallbacks = []string{"Table 3", "Benchmark Results"}
			case "empty with a junk fallback first":
				fallbacks = []string{"", "1.2", "Design Notes"}
			}
			name := Name(c.heading, c.text, fallbacks...)
			assert.True(t, strings.ContainsFunc(name, unicode.IsLetter), "name %q has letters", name)
			if c.want != "" {
				assert.Equal(t, c.want, name)
			}
			for _, h := range c.has {
				assert.Contains(t, strings.ToLower(name), h)
			}
			for _, n := range c.not {
				assert.NotContains(t, strings.ToLower(name), strings.ToLower(n))
			}
			d := Describe(c.text)
			for _, n := range []string{"<", "&nbsp;", "```", "|", "x=1"} {
				assert.NotContains(t, d, n, "description %q", d)
			}
		})
	}
	assert.Equal(t, "Latency grows with the batch size while throughput saturates.", Describe("| a | b |\n|---|---|\n| 1 | 2 |\n\nLatency grows with the batch size while throughput saturates."))
	assert.Equal(t, "Gradient clipping keeps training stable in deep recurrent networks.", Describe(`<div class="note"><span>Gradient clipping</span> keeps <a href="https://x.org">training</a> stable&nbsp;in deep recurrent networks.</div>`))
	assert.Equal(t, "Retry when busy.", Describe("```\nx := 1\n```\nRetry when busy."))
	assert.Equal(t, "", Describe("| 1024 | 5.33 |\n| 1.95 | 17.20 |"))
}

func TestNameInFallsBackOutward(t *testing.T) {
	assert.Equal(t, "Benchmarks", NameIn([]string{"Results", "Benchmarks", "Table 3"}, "Paper", "p.md", "| 1 | 2 |\n|---|---|\n| 3 | 4 |"))
	assert.Equal(t, "Results · Paper", NameIn([]string{"Results", "1.2", "Table 3"}, "Paper", "p.md", "1024 5.33"))
	assert.Equal(t, "Paper", NameIn(nil, "Paper", "p.md", "1024 5.33"))
	assert.Equal(t, "bench results", NameIn(nil, "Table 3", "/data/bench_results.csv", "1024 5.33"))
	assert.Equal(t, Untitled, NameIn(nil, "", "", "1024 5.33"))
	assert.Equal(t, Untitled, NameIn(nil, "", "/x/2024-01.md", "1024 5.33"))
	assert.Equal(t, "Latency", NameIn([]string{"Results", "Latency"}, "Paper", "p.md", "1024 5.33"))
}

func TestHeadingsKeepTheirWords(t *testing.T) {
	assert.Equal(t, "Configuring loom.yaml", Name("Configuring loom.yaml", "x"))
	assert.Equal(t, "Links", Name("Links https://example.com", "x"))
	assert.Equal(t, "Tables and figures", Name("Tables and figures", "x"))
	assert.Equal(t, "Untitled topic", Name("Table 3", "1 2 3"))
}

func TestShortWordsOfIdeographicScripts(t *testing.T) {
	assert.Equal(t, "知识 · 图谱", Name("", "知识，图谱。"))
	assert.Contains(t, Name("", "Body mass index &amp; nothing else"), "body mass index", "prose words stay when the text has an entity")
}

// A heading any document may have names its concept with what says more:
// the nearest outer heading, else the title, else the file's name.
func TestGenericHeadingsAreQualified(t *testing.T) {
	assert.Equal(t, "Description · cargo-build(1)", NameIn([]string{"cargo-build(1)", "DESCRIPTION"}, "", "commands/cargo-build.md", "Compile local packages and all of their dependencies."))
	assert.Equal(t, "Acknowledgments · Why Momentum Really Works", NameIn([]string{"Acknowledgments"}, "Why Momentum Really Works", "momentum.html", "We are deeply indebted to the editorial contributions of Shan Carter."))
	assert.Equal(t, "Introduction · ctc", NameIn([]string{"Introduction"}, "", "papers/ctc.html", "Consider speech recognition."), "the file's name when nothing else says more")
	assert.Equal(t, "See also · Growing Neural Cellular Automata", NameIn([]string{"Growing Neural Cellular Automata", "Appendix", "SEE ALSO"}, "", "x.md", "cargo-build(1)"), "past outer headings that are generic too")
	assert.Equal(t, "Summary · A rather long title that goes o…", NameIn([]string{"Summary"}, "A rather long title that goes on and on about attention", "x.md", "Text."), "a long qualifier is clipped")
	assert.Equal(t, "Introduction", NameIn([]string{"Introduction"}, "", "", "Some text."), "nothing to qualify it with")
	assert.Equal(t, "Latency", NameIn([]string{"Results", "Latency"}, "Paper", "p.md", "Text."), "a heading that says what the section is about is the name")
	assert.Equal(t, "Acknowledgments · Sequence Modeling With CTC", NameIn([]string{"Conclusion & Future Work", "Acknowledgments"}, "Sequence Modeling With CTC", "ctc.html", "We thank the reviewers."),
		"a part of the whole document is named with its title, whatever heading the page put it under")
	assert.Equal(t, "Examples · The features section", NameIn([]string{"The features section", "Examples"}, "The Manifest Format", "manifest.md", "Text."),
		"a generic heading of one section is named with that section")
	assert.Equal(t, "Index · Glossary", NameIn([]string{"Glossary", "Index"}, "Glossary", "glossary.md", "Artifact. Crate. Edition."),
		"a generic qualifier when nothing else says more")
	assert.Equal(t, "DOI · A Gentle Introduction to Graph…", NameIn([]string{"Updates and Corrections", "DOI"}, "A Gentle Introduction to Graph Neural Networks", "gnn-intro.html", "10.23915/distill.00033"),
		"a citation's heading is the document's")
}

// Words that say how the writer feels about a thing, or how much, are not
// part of its key phrases; a qualifier of two words or more comes before
// one of a single word.
func TestKeyPhrasesLeaveFillerWordsOut(t *testing.T) {
	ps := KeyPhrases("Momentum gives us a beautiful free lunch indeed. A little known formula bounds the rate of convergence.", 4)
	assert.Contains(t, ps, "free lunch")
	for _, p := range ps {
		for _, w := range strings.Fields(p) {
			assert.False(t, fillerWords[w], "%q in %q", w, p)
		}
	}
	assert.Equal(t, "What it does · lint group", QualifyByText("What it does", "Already covered by the lint group, with nothing more.", nil),
		"two words before one")
}

// A placeholder in a heading's code ("profile.<name>.split-debuginfo") is
// kept as a word in capitals; HTML's own tags go.
func TestHeadingPlaceholdersAreKept(t *testing.T) {
	assert.Equal(t, "profile.NAME.split-debuginfo", Name("profile.<name>.split-debuginfo", "Text."))
	assert.Equal(t, "target.TRIPLE.linker", Name("`target.<triple>.linker`", "Text."))
	assert.Equal(t, "Install the CLI", Name("Install the <code>CLI</code>", "Text."))
	assert.Equal(t, "Setup", Name(`<span class="x">Setup</span>`, "Text."))
}

// A TOML table's name in brackets and a heading's explicit anchor are not
// markup a name must lose its words to.
func TestHeadingBracketsAndAnchors(t *testing.T) {
	assert.Equal(t, "The workspace section", Name("The [workspace] section", "The workspace section of Cargo.toml defines which packages are members."))
	assert.Equal(t, "build", Name("[build]", "The [build] table controls build-time operations and compiler settings."))
	assert.Equal(t, "target.TRIPLE", Name("[target.<triple>]", "Text."))
	assert.Equal(t, "Major: renaming/moving/removing any public items", Name("Major: renaming/moving/removing any public items {#item-remove}", "Text."))
	assert.Equal(t, "See the guide", Name("See [the guide](guide.md)", "Text."), "a link keeps its text")
}

// A name another concept has is told apart by what its section's outer
// headings, title or file name say besides it.
func TestQualify(t *testing.T) {
	assert.Equal(t, "Configuration format · Registry Index", Qualify("Configuration format", []string{"Registry Index", "Configuration format"}, "", "reference/registry-index.md"))
	assert.Equal(t, "Feature-wise transformations · Distill", Qualify("Feature-wise transformations", []string{"Feature-wise transformations"}, "Distill", "feature-wise-transformations.html"), "not the file's name, which says the same")
	assert.Equal(t, "", Qualify("Feature-wise transformations", []string{"Feature-wise transformations"}, "", "feature-wise-transformations.html"), "nothing says anything else")
}

func TestGeneric(t *testing.T) {
	assert.True(t, Generic("Introduction"))
	assert.True(t, Generic("Description · cargo-build(1)"))
	assert.False(t, Generic("graph neural networks · gentle introduction"))
	assert.False(t, Generic("Token Budgets"))
}

// Two parts of one long section tell their concepts apart by what each
// is about.
func TestQualifyByText(t *testing.T) {
	text := "The global credential provider list names the commands Cargo runs for a token."
	assert.Equal(t, "Configuration format · commands cargo runs", QualifyByText("Configuration format", text, nil))
	taken := func(n string) bool { return n == "Configuration format · commands cargo runs" }
	q := QualifyByText("Configuration format", text, taken)
	assert.NotEqual(t, "Configuration format · commands cargo runs", q, "a qualified name taken too gives way to the next phrase")
	assert.True(t, strings.HasPrefix(q, "Configuration format · "), q)
	assert.Equal(t, "", QualifyByText("Configuration format", "configuration format", nil), "nothing the name does not say")
}
