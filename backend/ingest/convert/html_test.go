package convert

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSavedPageKeepsTheArticleOnly(t *testing.T) {
	d := convertGolden(t, "saved-page.html", HTML)
	assert.Equal(t, "Weaving Notes Into a Graph", d.Title, "the site name goes: the <h1> confirms the shorter title")
	assert.Equal(t, []string{"Ada Lindqvist", "Chidi Okafor"}, d.Meta.Authors, "author, and citation_author turned to reading order")
	assert.Equal(t, []string{"knowledge graphs", "note taking", "retrieval", "graphs"}, d.Meta.Tags)
	assert.Equal(t, "2025", d.Meta.Year)
	assert.Equal(t, "10.5555/loom.2025.0042", d.Meta.DOI)
	assert.Equal(t, "2503.01234", d.Meta.ArXiv)
	md := d.Markdown
	assertHasLines(t, md,
		"# Weaving Notes Into a Graph",
		"## Why a graph?",
		"### What counts as a link",
		"| Kind | Example | Weight |",
		"| Shared concept | two notes about *retrieval* | 0.6 |",
		"```python",
		`    for target in re.findall(r"\[\[(.+?)\]\]", path.read_text()):`,
		"- Measure before tuning: [measuring retrieval](/essays/measuring.html).",
	)
	assert.Contains(t, md, "[earlier essay on folders](../2024/folders-are-not-enough.html)", "a relative link stays relative")
	assert.Contains(t, md, "[primer on graphs](https://example.org/graph-primer)", "an absolute link stays")
	assert.Contains(t, md, "each link as an **edge**")
	assert.Contains(t, md, "a\\_b\\_c", "underscores in text are escaped")
	for _, clutter := range []string{"Skip to content", "cookies", "Accept all", "Home", "Archive", "Search",
		"Breadcrumb", "Popular posts", "Subscribe", "Privacy", "tracking", "dataLayer", "template row",
		"Loom logo", "social.example", "mailto:", "3 comments", "Great read", "font-family", "schema.org"} {
		assert.NotContains(t, md, clutter)
	}
}

func TestDocsPageWithoutMainIsCleanedAsAWholePage(t *testing.T) {
	d := convertGolden(t, "docs-page.html", HTML)
	assert.Equal(t, "Configuring the Indexer", d.Title, `"Loom Docs – " goes: the <h1> confirms the shorter title`)
	assert.Equal(t, []string{"The Loom Authors"}, d.Meta.Authors)
	assert.Equal(t, []string{"configuration", "indexing"}, d.Meta.Tags)
	assert.Equal(t, "2026", d.Meta.Year)
	md := d.Markdown
	assert.True(t, strings.HasPrefix(md, "# Configuring the Indexer\n"), "the header's title heading is kept, its author and date lines are not")
	assert.NotContains(t, md, "2026-01-15")
	assertHasLines(t, md, "# Settings", "## Budget", "### Ignored files", "```toml", "debounce_ms = 250",
		`\# this line is not a heading`, "| `overlap` | 64 | Tokens repeated between adjacent chunks |")
	assert.Contains(t, md, "[workspace guide](../guide/workspace.html)")
	assert.Contains(t, md, `1\. Neither is this a list item`)
}

func TestALegacyCharsetIsDecoded(t *testing.T) {
	d := convertGolden(t, "latin1-page.html", HTML)
	assert.Equal(t, "Métier à tisser", d.Title)
	assert.Contains(t, d.Markdown, "« une carte, une rangée »")
	assert.Contains(t, d.Markdown, "12 £")
}

func TestMainContentChoice(t *testing.T) {
	cases := []struct{ name, page, want, not string }{
		{"main wins over article", `<body><article><p>teaser</p></article><main><p>the main text</p></main></body>`, "the main text", "teaser"},
		{"the largest article", `<body><article><p>short</p></article><article><p>the longer article text here</p></article></body>`, "the longer article text here", "short"},
		{"an empty main is passed over", `<body><main> </main><article><p>article text</p></article><p>outside</p></body>`, "article text", "outside"},
		{"role=main", `<body><div role="navigation">links</div><div role="main"><p>role main text</p></div><p>outside</p></body>`, "role main text", "outside"},
		{"body without clutter", `<body><header>Site</header><nav>nav</nav><div class="content"><p>body text</p></div><aside>side</aside><div class="cookie-notice">c</div><footer>foot</footer></body>`, "body text", "Site"},
		{"an aria-hidden wrapper that holds the h1 stays", `<body><div aria-hidden="true"><h1>Title</h1><p>kept text</p></div></body>`, "kept text", "xxx"},
		{"a form wrapping the page stays", `<body><form id="aspnetForm"><h1>Title</h1><p>form page text</p></form></body>`, "form page text", "xxx"},
		{"a class that merely contains a clutter word stays", `<body><div class="menuitem-list"><p>kept text</p></div><div class="site-menu">gone</div></body>`, "kept text", "gone"},
		{"nav inside main goes", `<body><main><nav>toc</nav><p>main text</p></main></body>`, "main text", "toc"},
		{"no body at all", `just text`, "just text", "xxx"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := HTML([]byte(c.page))
			require.NoError(t, err)
			assert.Contains(t, d.Markdown, c.want)
			assert.NotContains(t, d.Markdown, c.not)
		})
	}
}

func TestPageTitle(t *testing.T) {
	cases := []struct {
		title string
		h1s   []string
		want  string
	}{
		{"Intro | Site", []string{"Intro"}, "Intro"},
		{"Site – Intro", []string{"Intro"}, "Intro"},
		{"Intro - Guide - Site", []string{"Intro - Guide"}, "Intro - Guide"},
		{"Go: the language", []string{"Something else"}, "Go: the language"},
		{"Intro | Site", nil, "Intro | Site"},
		{"Intro | Site", []string{"intro"}, "Intro"},
		{"", []string{"First", "Second"}, "First"},
		{"", nil, ""},
		{"Same", []string{"Same"}, "Same"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, pageTitle(c.title, c.h1s), "pageTitle(%q, %q)", c.title, c.h1s)
	}
}

func TestCodeLanguagesFromHighlighters(t *testing.T) {
	cases := []struct{ page, fence string }{
		{`<pre class="sourceCode go"><code class="sourceCode go">x := 1</code></pre>`, "```go"},
		{`<div class="highlight-python notranslate"><div class="highlight"><pre>x = 1</pre></div></div>`, "```python"},
		{`<div class="highlight highlight-source-rust"><pre>let x = 1;</pre></div>`, "```rust"},
		{`<pre><code class="language-ts" data-lang="ts">let x = 1</code></pre>`, "```ts"},
		{`<pre data-lang="sh"><code>ls</code></pre>`, "```sh"},
		{`<pre><code>plain</code></pre>`, "```"},
	}
	for _, c := range cases {
		d, err := HTML([]byte("<main>" + c.page + "</main>"))
		require.NoError(t, err)
		assert.Equal(t, c.fence, strings.SplitN(d.Markdown, "\n", 2)[0], c.page)
	}
}

func TestHTMLProblems(t *testing.T) {
	cases := []struct {
		name    string
		data    []byte
		message string
	}{
		{"empty", []byte(" \n "), "is empty"},
		{"binary", []byte("%PDF-1.7\x00\x00\x01binary"), "is binary data, not HTML"},
		{"undeclared legacy bytes", []byte("<p>caf\xe9</p>"), "is not UTF-8 and declares no character set"},
		{"an unknown charset", []byte(`<meta charset="klingon-8"><p>x</p>`), `declares the character set "klingon-8", which Loom does not know`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := HTML(c.data)
			assert.Nil(t, d)
			requireBadFile(t, err, c.message)
		})
	}
}

func TestHTMLLargerThanTheLimitIsRefused(t *testing.T) {
	data := bytes.Repeat([]byte("<p>x</p>"), MaxHTMLBytes/8+1)
	_, err := HTML(data)
	requireBadFile(t, err, "is 64 MiB of HTML, more than the 64 MiB Loom converts")
}

func TestCharsets(t *testing.T) {
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "<title>Grüße</title><p>Grüße</p>" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	cases := []struct {
		name string
		data []byte
	}{
		{"UTF-8 with a byte-order mark", []byte("\xef\xbb\xbf<title>Grüße</title><p>Grüße</p>")},
		{"UTF-16 with a byte-order mark", utf16},
		{"windows-1252 declared late in a long head", []byte("<head><style>" + strings.Repeat(" ", 2000) + "</style><meta charset=\"windows-1252\"><title>Gr\xfc\xdfe</title></head><p>Gr\xfc\xdfe</p>")},
		{"a declared UTF-16 without a mark is UTF-8", []byte(`<meta charset="utf-16"><title>Grüße</title><p>Grüße</p>`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := HTML(c.data)
			require.NoError(t, err)
			assert.Equal(t, "Grüße", d.Title)
			assert.Equal(t, "Grüße\n", d.Markdown)
		})
	}
}
