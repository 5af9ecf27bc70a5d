package ingest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
)

func TestFrontMatterShapes(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		title   string
		meta    model.DocMeta
		problem string // a part of the problem's text; "" for none
	}{
		{name: "block lists",
			src:   "---\ntitle: A note\naliases:\n  - First\n  - Second\ntags:\n  - one\n  - \"#two\"\n---\n",
			title: "A note", meta: model.DocMeta{Aliases: []string{"First", "Second"}, Tags: []string{"one", "two"}}},
		{name: "flow lists",
			src:  "---\naliases: [X, Y]\ntags: [a, b/c]\n---\n",
			meta: model.DocMeta{Aliases: []string{"X", "Y"}, Tags: []string{"a", "b/c"}}},
		{name: "strings: aliases by commas, tags by commas or spaces, singular keys",
			src:  "---\nalias: Terms, Vocabulary\ntag: \"#ref glossary, Words\"\n---\n",
			meta: model.DocMeta{Aliases: []string{"Terms", "Vocabulary"}, Tags: []string{"ref", "glossary", "Words"}}},
		{name: "keys in any case, tags deduplicated without regard to case",
			src:   "---\nTitle: Upper\nTAGS: [Idea, idea, IDEA, other]\n---\n",
			title: "Upper", meta: model.DocMeta{Tags: []string{"Idea", "other"}}},
		{name: "tag and tags both, in key order every time",
			src:  "---\ntags: [b]\ntag: a\n---\n",
			meta: model.DocMeta{Tags: []string{"a", "b"}}},
		{name: "numbers and invalid tags are not tags",
			src:  "---\ntags: [2024, \"#\", ok-1, x y]\n---\n",
			meta: model.DocMeta{Tags: []string{"ok-1", "x", "y"}}},
		{name: "authors and a date",
			src:  "---\nauthors:\n  - Vaswani\n  - Shazeer\ndate: 2017-06-12\n---\n",
			meta: model.DocMeta{Authors: []string{"Vaswani", "Shazeer"}, Year: "2017"}},
		{name: "one author, a year that wins over the date",
			src:  "---\nauthor: Ada\ndate: 1999-01-01\nyear: 1843\n---\n",
			meta: model.DocMeta{Authors: []string{"Ada"}, Year: "1843"}},
		{name: "a date written as text",
			src:  "---\ndate: \"2021-03 (spring)\"\n---\n",
			meta: model.DocMeta{Year: "2021"}},
		{name: "a title that YAML reads as a number",
			src:   "---\ntitle: 1984\n---\n",
			title: "1984"},
		{name: "closed by three dots", src: "---\ntitle: Dots\n...\n", title: "Dots"},
		{name: "empty", src: "---\n---\n"},
		{name: "unknown keys are ignored", src: "---\nstatus: draft\ncssclasses: [wide]\n---\n"},
		{name: "malformed YAML names the file's line",
			src: "---\ntitle: ok\nx: y\ntags: : :\n---\n", problem: "not valid YAML (line 4: mapping values"},
		{name: "a list is not front matter",
			src: "---\n- a\n- b\n---\n", problem: "not a list of \"key: value\" lines"},
		{name: "TOML",
			src:   "+++\ntitle = \"Token budget\"  \ntags = [\"llm\", 'Budget']\naliases = [\"Context budget\"]\nyear = 2024 # a comment\n# a comment line\n[extra]\ntitle = \"not the note's\"\n+++\n",
			title: "Token budget", meta: model.DocMeta{Aliases: []string{"Context budget"}, Tags: []string{"llm", "Budget"}, Year: "2024"}},
		{name: "malformed TOML",
			src: "+++\ntitle: yaml in toml\n+++\n", problem: "not valid TOML (line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm := ReadFrontMatter([]byte(tt.src + "Body.\n"))
			assert.Equal(t, len(tt.src), fm.End, "the block ends after its closing line")
			assert.Equal(t, tt.title, fm.Title)
			assert.Equal(t, tt.meta, fm.Meta)
			if tt.problem == "" {
				assert.Empty(t, fm.Problem)
			} else {
				assert.Contains(t, fm.Problem, tt.problem)
			}
		})
	}
}

func TestWhatIsNotFrontMatter(t *testing.T) {
	for name, src := range map[string]string{
		"never closed":                        "---\ntitle: x\n# A\n",
		"not at the very start":               "\n---\ntitle: x\n---\n# A\n",
		"dashes with text after them":         "--- x\ntitle: y\n---\n",
		"four dashes":                         "----\ntitle: y\n----\n",
		"a TOML fence that never closes":      "+++\ntitle = \"x\"\n",
		"a YAML block closed by a TOML fence": "---\ntitle: x\n+++\n",
		"a TOML block closed by a YAML fence": "+++\ntitle = \"x\"\n---\n",
		"plain text":                          "# A\n\ntext\n",
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, FrontMatter{}, ReadFrontMatter([]byte(src)))
		})
	}
}

// Front matter is no section's text, and every line number stays the
// file's: the first section starts on its own first line.
func TestFrontMatterKeepsTheFileLines(t *testing.T) {
	tests := []struct {
		name, src string
		first     [2]int // lines of the first section
		text      string // its text
		title     string
	}{
		{"text after the block", "---\ntitle: T\n---\n\n\nFirst words.\n\n# H\n\nmore\n", [2]int{6, 6}, "First words.", "T"},
		{"a heading right after it", "---\ntags: [x]\n---\n# Head\n\nbody\n", [2]int{4, 6}, "# Head\n\nbody", "Head"},
		{"Windows line ends", "---\r\ntitle: W\r\n---\r\n# A\r\n\r\nbody\r\n", [2]int{4, 6}, "# A\n\nbody", "W"},
		{"malformed: the block stays as text", "---\ntitle: [x\n---\nbody\n", [2]int{1, 4}, "---\ntitle: [x\n---\nbody", "n"},
		{"malformed front matter is not read as markdown", "---\nkey: [\nSetext?\n---\n# Real\n\ntext\n", [2]int{1, 4}, "---\nkey: [\nSetext?\n---", "Real"},
		{"a note of front matter only", "---\naliases: [Tue]\n---\n", [2]int{1, 3}, "---\naliases: [Tue]\n---", "n"},
		{"a thematic break later is not front matter", "text\n\n---\ntitle: x\n---\n", [2]int{1, 3}, "text\n\n---", "n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := parseOne(t, "n.md", tt.src)
			require.NotEmpty(t, d.Sections)
			s := d.Sections[0]
			assert.Equal(t, tt.first, [2]int{s.LineStart, s.LineEnd})
			assert.Equal(t, tt.text, s.Text)
			assert.Equal(t, tt.title, d.Title)
			for _, s := range d.Sections {
				assert.NotContains(t, s.HeadingPath, "Setext?", "no heading is made of front matter")
			}
		})
	}
}

func TestTitleComesFromFrontMatterThenH1ThenFileName(t *testing.T) {
	for src, want := range map[string]string{
		"---\ntitle: From front matter\n---\n# From H1\n\nx\n": "From front matter",
		"---\ntitle: \"\"\n---\n## Not H1\n\n# From H1\n\nx\n": "From H1",
		"## Only H2\n\nx\n":             "Deep Note",
		"---\ntitle: [broken\n---\nx\n": "Deep Note",
	} {
		assert.Equal(t, want, parseOne(t, "notes/Deep Note.md", src).Title, "%q", src)
	}
}

func TestInlineTags(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"plain and nested", "#one and #topic/sub here\n", []string{"one", "topic/sub"}},
		{"after front matter tags, once each whatever the case", "---\ntags: [Idea]\n---\n#idea #IDEA #new\n", []string{"Idea", "new"}},
		{"letters of any script, digits, _ and -", "#日本 #v2_x #a-b\n", []string{"日本", "v2_x", "a-b"}},
		{"a trailing slash is not the tag's", "#a/ b\n", []string{"a"}},
		{"ends at punctuation, starts after a space", "(#not), see #tag, #other.\n", []string{"tag", "other"}},
		{"in a heading", "# Title #intitle\n\ntext\n", []string{"intitle"}},
		{"in a list and a quote", "- item #inlist\n\n> quoted #inquote\n", []string{"inlist", "inquote"}},
		{"not headings", "# Heading\n\n## Sub\n\ntext\n", nil},
		{"not numbers", "issue #123 and #2024/01\n", nil},
		{"not after a word", "C# and a#b and x.com/#frag\n", nil},
		{"not in code", "`#code` and\n\n```\n#fenced\n```\n\n    #indented\n", nil},
		{"not in URLs", "<https://example.com/#frag> and https://example.com/ #real\n", []string{"real"}},
		{"not in link destinations", "[text](other.md#heading) #real\n", []string{"real"}},
		{"escaped", "\\#escaped\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, parseOne(t, "n.md", tt.src).Meta.Tags)
		})
	}
}

// A heading that holds a tag or a wiki link reads and is slugged as it was
// before either was parsed.
func TestHeadingsWithTagsAndWikiLinksKeepTheirSlugs(t *testing.T) {
	d := parseOne(t, "n.md", "# About [[Note|shown]] #tag\n\ntext\n")
	require.Len(t, d.Sections, 1)
	assert.Equal(t, "n.md#about-noteshown-tag", d.Sections[0].Ref)
	assert.Equal(t, []string{"About [[Note|shown]] #tag"}, d.Sections[0].HeadingPath)
	assert.Equal(t, []string{"[[Note|shown]]"}, d.Sections[0].Links)
	assert.Equal(t, []string{"tag"}, d.Meta.Tags)
	assert.True(t, strings.HasPrefix(d.Sections[0].Text, "# About"))
}

// A "---" that closes only far below the first is a pair of thematic
// breaks: what lies between them is markdown.
func TestFarClosingDashesAreThematicBreaks(t *testing.T) {
	src := "---\n# Heading\n\n" + strings.Repeat("words and more words\n\n", maxFrontMatter/22+1) + "---\n"
	d := parseOne(t, "n.md", src)
	assert.Equal(t, "Heading", d.Title)
	assert.Equal(t, []string{"Heading"}, d.Sections[len(d.Sections)-1].HeadingPath)
}
