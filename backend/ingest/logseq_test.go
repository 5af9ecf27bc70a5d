package ingest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogseqPages: a Logseq page's properties are read as its front matter
// (title, aliases with the title among them, tags one each) and stay its
// text with their links; its blocks' ids and folds are not text, and every
// line keeps its number.
func TestLogseqPages(t *testing.T) {
	src := "title:: Attention mechanisms\nalias:: attention, [[self-attention]]\ntags:: [[machine learning]], #nlp\n\n" +
		"- Attention weighs tokens by relevance.\n  id:: 6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n  collapsed:: true\n" +
		"\t- Scaled dot product divides by the root of the dimension.\n" +
		"- See [[transformers/encoder]]; rating:: 5 stays.\n"
	docs, err := Parse("pages/attention.md", "pages/attention.md", "", []byte(src), Options{})
	require.NoError(t, err)
	require.Len(t, docs, 1)
	d := docs[0]
	assert.Equal(t, "Attention mechanisms", d.Title)
	assert.Equal(t, []string{"Attention mechanisms", "attention", "self-attention"}, d.Meta.Aliases)
	assert.Equal(t, []string{"machine-learning", "nlp"}, d.Meta.Tags)
	require.Len(t, d.Sections, 1)
	s := d.Sections[0]
	assert.Equal(t, [2]int{1, 9}, [2]int{s.LineStart, s.LineEnd}, "the properties are the page's first block, as Logseq shows them")
	assert.NotContains(t, s.Text, "id::")
	assert.NotContains(t, s.Text, "collapsed::")
	assert.Contains(t, s.Text, "alias:: attention, [[self-attention]]")
	assert.Contains(t, s.Text, "rating:: 5 stays", "a property inside a block is the block's text")
	assert.Equal(t, []string{"[[self-attention]]", "[[machine learning]]", "[[transformers/encoder]]"}, s.Links, "a property's links are links")

	// A block nested with a tab under a heading is a list item, not
	// indented code: its text and links are the section's.
	docs, err = Parse("p.md", "pages/p.md", "", []byte("tags:: demo\n\n### Syntax\n\t- See [[Block Reference]]\n\t  id:: 6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n\n\t- And [[Properties]].\n"), Options{})
	require.NoError(t, err)
	var links []string
	for _, s := range docs[0].Sections {
		links = append(links, s.Links...)
	}
	assert.Equal(t, []string{"[[Block Reference]]", "[[Properties]]"}, links)

	// Not Logseq: a note whose first line is prose with "::" in it.
	docs, err = Parse("n.md", "n.md", "", []byte("C++ uses std::vector:: a lot\n\nid:: 6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b is a block's id.\n"), Options{})
	require.NoError(t, err)
	assert.Equal(t, "n", docs[0].Title)
	assert.True(t, strings.HasPrefix(docs[0].Sections[0].Text, "C++ uses"))
	assert.Contains(t, docs[0].Sections[0].Text, "is a block's id", "an id line with more on it is prose")
	assert.True(t, MayHaveFrontMatter([]byte("alias:: x\n- a")))
	assert.False(t, MayHaveFrontMatter([]byte("- a\nalias:: x")))
}

// TestLogseqTabsAreNestingNotCode: a tab that nests a Logseq block is two
// spaces to Markdown, but a tab inside fenced code is the code's own, and
// a tab-indented paragraph of a note that only opens with a Dataview field
// ("rating:: 5", Obsidian's) is indented code, as the note's author wrote
// it.
func TestLogseqTabsAreNestingNotCode(t *testing.T) {
	page := "tags:: go\n\n- A loop:\n\t- ```go\n\t  for {\n\t  \tstep()\n\t  }\n\t  ```\n\t-\n\t\t- nested\n"
	assert.Equal(t, "tags:: go\n\n- A loop:\n  - ```go\n    for {\n    \tstep()\n    }\n    ```\n  -\n    - nested\n", string(logseqText([]byte(page))))

	note := "rating:: 5\n\n# Build\n\n```make\nall:\n\tgo build ./...\n```\n\nRun it:\n\n\tmake all\n\n- a list\n\t- nested\n"
	assert.Equal(t, "rating:: 5\n\n# Build\n\n```make\nall:\n\tgo build ./...\n```\n\nRun it:\n\n\tmake all\n\n- a list\n  - nested\n", string(logseqText([]byte(note))))
	docs, err := Parse("build.md", "build.md", "", []byte(note), Options{})
	require.NoError(t, err)
	var text string
	for _, s := range docs[0].Sections {
		text += s.Text + "\n"
	}
	assert.Contains(t, text, "all:\n\tgo build ./...", "a Makefile's tab stays a tab")
	assert.Contains(t, text, "\tmake all", "indented code stays code")
}

// TestLogseqBlockReferences: a reference to a block, an embed of one and
// a link whose destination is one are links to the block's id, worded by
// the block when it is on the page ("block reference" when not); a
// reference in code stays as written; every line keeps its number, and the
// page's block ids are its ids.
func TestLogseqBlockReferences(t *testing.T) {
	const here, there = "6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "61024cd6-1951-47cc-8050-25f68960d729"
	src := "- Variance is [[spread]] around [the mean](https://en.wikipedia.org/wiki/Mean).\n  id:: " + here + "\n" +
		"- As ((" + here + ")) says, and ((" + strings.ToUpper(there) + ")) too.\n" +
		"\t- {{embed ((" + there + "))}}\n" +
		"\t- [the API key](((" + there + ")))\n" +
		"- Write `((" + here + "))` to refer to it.\n" +
		"- ```\n  ((" + here + "))\n  ```\n"
	want := "- Variance is [[spread]] around [the mean](https://en.wikipedia.org/wiki/Mean).\n  id:: " + here + "\n" +
		"- As [Variance is spread around the mean.](id:" + here + ") says, and [block reference](id:" + there + ") too.\n" +
		"\t- [block reference](id:" + there + ")\n" +
		"\t- [the API key](id:" + there + ")\n" +
		"- Write `((" + here + "))` to refer to it.\n" +
		"- ```\n  ((" + here + "))\n  ```\n"
	assert.Equal(t, want, string(blockRefs([]byte(src))))
	assert.Equal(t, []string{here}, LogseqIDs([]byte(src)))
	assert.Equal(t, []string{here}, NoteIDs("pages/Variance.md", []byte(src)))

	docs, err := Parse("pages/Variance.md", "pages/Variance.md", "", []byte(src), Options{})
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.Equal(t, []string{here}, docs[0].Meta.IDs)
	var links []string
	for _, s := range docs[0].Sections {
		links = append(links, s.Links...)
		assert.LessOrEqual(t, s.LineEnd, 9, "every line keeps its number")
	}
	assert.Contains(t, links, "id:"+there)
	assert.Contains(t, links, "[[spread]]")

	// An Org page of Logseq's: its ids are in drawers, its references the same.
	org := "* Variance\n:PROPERTIES:\n:id: " + here + "\n:END:\nSpread around the mean.\n* Use\nSee ((" + here + ")).\n"
	docs, err = Parse("pages/Variance.org", "pages/Variance.org", "", []byte(org), Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{here}, docs[0].Meta.IDs)
	var text string
	for _, s := range docs[0].Sections {
		text += s.Text
	}
	assert.Contains(t, text, "See [Variance](id:"+here+").")
}

// FuzzNotes: a note in any mix of front matter, Logseq properties,
// citations and wiki links parses without a panic, its sections on the
// file's own lines, every citation link a key CitedKey reads back.
func FuzzNotes(f *testing.F) {
	f.Add([]byte("title:: A\nalias:: b, [[c]]\n\n- x [@k1; @k2]\n  id:: 6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n"))
	f.Add([]byte("---\naliases: [x]\n---\n# H @no\n\nSee [[n]] and @doe99, jane@x.org `@d`.\n"))
	f.Add([]byte("tags:: a\n# T\n[cite:@a] (@b) [-@c]\n"))
	f.Add([]byte("- a\n  id:: 6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n- ((6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b)) {{embed ((6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b))}}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		docs, err := Parse("n.md", "n.md", "", src, Options{})
		if err != nil {
			return
		}
		text := bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
		lines := bytes.Count(text, []byte("\n")) + 1 // as the decoder breaks lines
		for _, d := range docs {
			for _, s := range d.Sections {
				if s.LineStart < 1 || s.LineEnd > lines || s.LineStart > s.LineEnd {
					t.Fatalf("section %q on lines %d–%d of %d", s.Ref, s.LineStart, s.LineEnd, lines)
				}
				for _, l := range s.Links {
					if strings.HasPrefix(l, "@") {
						if _, ok := CitedKey(l); !ok {
							t.Fatalf("citation link %q has no key", l)
						}
					}
				}
			}
		}
	})
}
