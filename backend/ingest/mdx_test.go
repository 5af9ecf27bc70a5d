package ingest

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMDXText: ESM statements and JSX comments are blanked, components'
// tags give way to their naming attributes, the components' nesting is not
// read as indentation, and everything else — prose inside components,
// HTML, fenced code (less its fence's indent), code spans, expressions —
// stays, each line where it was.
func TestMDXText(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"an import after the front matter", "---\ntitle: A\n---\nimport X from './x.mdx';\n\n# A\n", "---\ntitle: A\n---\n\n\n# A\n"},
		{"a multi-line import and an export", "import {\n  A,\n  B,\n} from 'ab';\nexport const meta = {\n  a: 1,\n};\n\nText.\n", "\n\n\n\n\n\n\n\nText.\n"},
		{"prose that starts like an import", "\nimport the snippet into another file.\nImportant: this stays.\n\nimportant too\n", "\nimport the snippet into another file.\nImportant: this stays.\n\nimportant too\n"},
		{"a callout", "<Note>\n  Keep this.\n</Note>\n", "\nKeep this.\n\n"},
		{"a field's naming attributes", `<ResponseField name="favicon" type="string" required>` + "\n  Path to the favicon.\n</ResponseField>\n", "favicon · string · required\nPath to the favicon.\n\n"},
		{"a tag over lines", "<Card\n  title=\"Quickstart\"\n  icon=\"rocket\"\n  href=\"/quickstart\"\n>\n  Start here.\n</Card>\n", "\n\n\n\nQuickstart\nStart here.\n\n"},
		{"an expression attribute with a '>' inside", "<Step title={'a > b'} icon=\"x\">Do it.</Step>\n", "a > bDo it.\n"},
		{"a self-closing component with nothing to name", "Before <Icon icon=\"check\" /> after.\n", "Before  after.\n"},
		{"comments", "A {/* a note */} B\n{/* one\ntwo */}\nC\n", "A  B\n\n\nC\n"},
		{"HTML, code spans and expressions stay", "<img src=\"a.png\" /> use `<Note>` and {props.x}\n", "<img src=\"a.png\" /> use `<Note>` and {props.x}\n"},
		{"fenced code stays, less the fence's indent", "<CodeGroup>\n  ```py\n  import a\n  <Note>x</Note>\n  def f():\n      return a\n  ```\n</CodeGroup>\n", "\n```py\nimport a\n<Note>x</Note>\ndef f():\n    return a\n```\n\n"},
		{"nesting is not indentation", "<Steps>\n  <Step title=\"Install\">\n    Run the installer.\n\n    - a list\n      - nested\n  </Step>\n</Steps>\n", "\nInstall\nRun the installer.\n\n- a list\n- nested\n\n\n"},
		{"a tag never closed is text", "Text <Broken title=\"x\"\n  more\n\nNext.\n", "Text <Broken title=\"x\"\nmore\n\nNext.\n"},
		{"… to the end", "Text <Broken title=\"x\"", "Text <Broken title=\"x\""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(mdxText([]byte(tt.in)))
			assert.Equal(t, tt.want, got)
			assert.Equal(t, strings.Count(tt.in, "\n"), strings.Count(got, "\n"), "every line keeps its number")
		})
	}
}

// TestMDXFilesReadAsMarkdown: two pages of a real MDX docs site (Mintlify's
// starter) split at their headings, each section's lines the file's own,
// with the components' tags gone and their prose and code kept.
func TestMDXFilesReadAsMarkdown(t *testing.T) {
	f, ok := FormatOf("docs/page.MDX")
	assert.True(t, ok, "a folder walk reads .mdx")
	assert.Equal(t, FormatMarkdown, f)

	read := func(name string) ([]byte, Document) {
		data, err := os.ReadFile("testdata/mdx/" + name)
		require.NoError(t, err)
		docs, err := Parse(name, name, "", data, Options{})
		require.NoError(t, err)
		require.Len(t, docs, 1)
		return data, docs[0]
	}
	data, doc := read("development.mdx")
	assert.Equal(t, "Development", doc.Title)
	lines := bytes.Split(data, []byte("\n"))
	var headings []string
	text := ""
	for _, s := range doc.Sections {
		text += s.Text
		if len(s.HeadingPath) == 0 {
			continue
		}
		h := s.HeadingPath[len(s.HeadingPath)-1]
		headings = append(headings, h)
		assert.Equal(t, h, strings.TrimLeft(string(lines[s.LineStart-1]), "# "), "%s starts on its heading's line in the file", h)
	}
	assert.Equal(t, []string{"Custom Ports", "Mintlify Versions", "Deployment", "Code Formatting", "Troubleshooting"}, headings)
	for _, tag := range []string{"<Info>", "</Info>", "<CodeGroup>", "<Tip>", "<Frame>", "<AccordionGroup>", "<Accordion", "</Accordion>"} {
		assert.NotContains(t, text, tag)
	}
	for _, kept := range []string{"**Prerequisite**: Please install Node.js", "\nnpm i -g mintlify\n", "Mintlify is not loading\nUpdate to Node v18.",
		`<img src="/images/checks-passed.png"`, "Unlimited editors available"} {
		assert.Contains(t, text, kept)
	}

	_, doc = read("reusable-snippets.mdx")
	text = ""
	for _, s := range doc.Sections {
		text += s.Text
	}
	assert.NotContains(t, text, "import VoiceAgent", "the page's own import is not prose")
	assert.NotContains(t, text, "<VoiceAgent />")
	assert.Contains(t, text, "import MySnippet from '/snippets/path/to/my-snippet.mdx';", "an import shown in a code block stays")
	assert.Contains(t, text, `<MySnippet word="bananas" />`)
	assert.Contains(t, text, "Any page in the `snippets` directory will be treated as a snippet")
}

// FuzzMDXText: whatever an MDX file holds, every line keeps its number and
// nothing is added.
func FuzzMDXText(f *testing.F) {
	for _, name := range []string{"development.mdx", "reusable-snippets.mdx"} {
		data, err := os.ReadFile("testdata/mdx/" + name)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("<A b={'>'}\n\n</A>{/*\n\n*/}import x from 'y'\n```\n<B>\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		got := mdxText(src)
		assert.Equal(t, bytes.Count(src, []byte("\n")), bytes.Count(got, []byte("\n")))
		assert.LessOrEqual(t, len(got), len(src))
	})
}

// TestMarkdownThatSpeaksMDX: a .md page with components (an MDX site's
// export, a Docusaurus page) is read as MDX is; plain Markdown — prose
// with a stray generic, components shown in code — is left as it is.
func TestMarkdownThatSpeaksMDX(t *testing.T) {
	data, err := os.ReadFile("testdata/mdx/development.mdx")
	require.NoError(t, err)
	assert.True(t, speaksMDX(data))
	docs, err := Parse("development.md", "development.md", "", data, Options{})
	require.NoError(t, err)
	mdx, err := Parse("development.mdx", "development.mdx", "", data, Options{})
	require.NoError(t, err)
	require.Len(t, docs[0].Sections, len(mdx[0].Sections))
	for i := range mdx[0].Sections {
		assert.Equal(t, mdx[0].Sections[i].Text, docs[0].Sections[i].Text)
	}
	for _, plain := range []string{
		"# Notes\n\nA List<String> in prose.\n\n```mdx\n<Note>\n  shown, not used\n</Note>\nimport A from 'a';\n```\n",
		"# Import\n\nimport the data first; export it after.\n",
	} {
		assert.False(t, speaksMDX([]byte(plain)), plain)
	}
	for _, mdxish := range []string{"# A\n\n<Tip>\n  Do.\n</Tip>\n", "# A\n{/* note */}\n", "import Tabs from '@theme/Tabs';\n\n# A\n"} {
		assert.True(t, speaksMDX([]byte(mdxish)), mdxish)
	}
}
