package abstract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReadMarkdown(t *testing.T) {
	type u struct {
		text  string
		kind  unitKind
		depth int
	}
	tests := []struct {
		name    string
		src     string
		heading string
		units   []u
		code    []string
	}{
		{
			name:    "heading, emphasis, links, code spans",
			src:     "## 6.2 *Loading* Tree\n\nSome **bold** and _em_ text with a [link](http://x.y/z.html) and `code.span(). X`. Second ![alt text](i.png) sentence\nwraps here.",
			heading: "6.2 Loading Tree",
			units: []u{
				{text: "Some bold and em text with a link and `code.span(). X`.", kind: sentence},
				{text: "Second alt text sentence wraps here.", kind: sentence},
			},
		},
		{
			name:  "escapes, entities, autolinks, snake_case",
			src:   "Cost \\*not\\* emphasis &amp; more at <https://ollama.com>. select_within_budget stays whole.",
			units: []u{{text: "Cost *not* emphasis & more at https://ollama.com. select_within_budget stays whole.", kind: sentence}},
		},
		{
			name: "abbreviations, decimals and initials do not end sentences",
			src:  "Use e.g. Ollama or vs. the rest. The value 0.8 is tunable. Ask J. Smith! Really? Yes.",
			units: []u{
				{text: "Use e.g. Ollama or vs. the rest.", kind: sentence},
				{text: "The value 0.8 is tunable.", kind: sentence},
				{text: "Ask J. Smith!", kind: sentence},
				{text: "Really?", kind: sentence},
				{text: "Yes.", kind: sentence},
			},
		},
		{
			name:    "a heading later in the text is not a unit",
			src:     "Intro sentence here.\n\n### Later heading\n\nBody sentence.",
			heading: "",
			units:   []u{{text: "Intro sentence here.", kind: sentence}, {text: "Body sentence.", kind: sentence}},
		},
		{
			name: "list items are whole units, nested ones deeper; a lead-in takes their first words",
			src:  "Steps:\n\n- First item. It has two sentences.\n  continued line\n  - nested *item*\n- Second item\n\n1. ordered one",
			units: []u{
				{text: "Steps: First item; Second item.", kind: sentence},
				{text: "First item. It has two sentences. continued line", kind: listItem},
				{text: "nested item", kind: listItem, depth: 1},
				{text: "Second item", kind: listItem},
				{text: "ordered one", kind: listItem},
			},
		},
		{
			name: "table rows are units, the header row is the table's gist, the delimiter row is nothing",
			src:  "|Signal |Weight|\n|-------|------|\n|**Hop Distance** |High |\n| `x` | |\n",
			units: []u{
				{text: "Table of Signal, Weight: Hop Distance; `x`", kind: tableGist},
				{text: "| Hop Distance | High |", kind: tableRow},
				{text: "| `x` |  |", kind: tableRow},
			},
		},
		{
			name:  "fenced code goes to code, not units",
			src:   "Example:\n\n```go\nfunc main() {\n\tprintln(\"hi. There\")  \n}\n```\n\n> Quoted text.",
			units: []u{{text: "Example: `func main()`.", kind: sentence}, {text: "Quoted text.", kind: sentence}},
			code:  []string{"func main() {", "\tprintln(\"hi. There\")", "}"},
		},
		{
			name: "a lead-in that announces nothing goes; a list item's takes its sub-items",
			src:  "First part. It ends:\n\nAnother paragraph.\n\n- Storage:\n  - disk files\n  - a **JSONL** index\n",
			units: []u{
				{text: "First part.", kind: sentence},
				{text: "Another paragraph.", kind: sentence},
				{text: "Storage: disk files; a JSONL index", kind: listItem},
				{text: "disk files", kind: listItem, depth: 1},
				{text: "a JSONL index", kind: listItem, depth: 1},
			},
		},
		{
			name: "a list item's label is its lead",
			src:  "Ways:\n\n- **Speculative loading** - pre-fetch likely-needed context\n- Natural growth: the dataset grows as Loom is built\n",
			units: []u{
				{text: "Ways: Speculative loading; Natural growth.", kind: sentence},
				{text: "Speculative loading - pre-fetch likely-needed context", kind: listItem},
				{text: "Natural growth: the dataset grows as Loom is built", kind: listItem},
			},
		},
		{
			name:  "HTML and rules are dropped",
			src:   "<!-- note -->\n\n---\n\nOnly this.",
			units: []u{{text: "Only this.", kind: sentence}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := readMarkdown(tt.src)
			assert.Equal(t, tt.heading, d.heading)
			var got []u
			for _, x := range d.units {
				got = append(got, u{text: x.text, kind: x.kind, depth: x.depth})
			}
			assert.Equal(t, tt.units, got)
			assert.Equal(t, tt.code, d.code)
		})
	}
}

func TestSplitSentencesKeepsCodeSpansWhole(t *testing.T) {
	s := "Call `a. B()` first. Then `x`! Done"
	assert.Equal(t, []string{"Call `a. B()` first.", "Then `x`!", "Done"},
		splitSentences(s, []span{{5, 13}, {26, 29}}))
}

func TestTerms(t *testing.T) {
	assert.Equal(t, []string{"node", "query", "loaded", "budget", "status", "analysis", "chunk", "id"},
		terms("The Nodes' queries are loaded into a budget: status, analysis, chunk_id."))
}
