package ingest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCitationsAreLinks: a note's Pandoc and Org citations are links to
// their keys, in prose only — not an e-mail address, code, a heading, a
// wiki link or a link's destination — and a key keeps its inner
// punctuation, not the comma or full stop after it.
func TestCitationsAreLinks(t *testing.T) {
	src := "# On attention @inheading\n\n" +
		"Transformers [@vaswani2017] replaced recurrence [see @bahdanau2015, p. 3; @luong2015:effective].\n" +
		"As @devlin2019 showed, pretraining helps [-@radford2018]. Org says [cite:@brown2020].\n\n" +
		"Mail jane@example.org or `@decorator`, see [[@zotero-note]] and [docs](https://x.org/@user).\n\n" +
		"```python\n@property\ndef x(self): ...\n```\n"
	docs, err := Parse("draft.md", "draft.md", "", []byte(src), Options{})
	require.NoError(t, err)
	require.Len(t, docs, 1)
	var links []string
	for _, s := range docs[0].Sections {
		links = append(links, s.Links...)
	}
	assert.Equal(t, []string{"@vaswani2017", "@bahdanau2015", "@luong2015:effective", "@devlin2019", "@radford2018", "@brown2020",
		"[[@zotero-note]]", "https://x.org/@user"}, links)
	for _, l := range links[:6] {
		key, ok := CitedKey(l)
		assert.True(t, ok, l)
		assert.Equal(t, l[1:], key)
	}
	_, ok := CitedKey("[[@zotero-note]]")
	assert.False(t, ok)
	_, ok = CitedKey("https://x.org/@user")
	assert.False(t, ok)
}
