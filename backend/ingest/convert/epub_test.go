package convert

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBookInSpineOrder(t *testing.T) {
	d := convertGolden(t, "book.epub", EPUB)
	assert.Equal(t, "A Short Book About Looms", d.Title)
	assert.Equal(t, []string{"Ingrid Vasquez", "Oluwaseun Bello"}, d.Meta.Authors)
	assert.Equal(t, []string{"weaving"}, d.Meta.Tags)
	assert.Equal(t, "2024", d.Meta.Year)
	assert.Equal(t, "10.5555/looms.2024", d.Meta.DOI)
	md := d.Markdown
	hand, jacquard, graph := strings.Index(md, "# The Hand Loom"), strings.Index(md, "# The Jacquard Loom"), strings.Index(md, "# The Graph Loom")
	assert.True(t, 0 < hand && hand < jacquard && jacquard < graph, "chapters in spine order")
	assertHasLines(t, md, "## Parts of a loom", "## Cards as programs", "| Heddles | Lift some warp threads to open a shed |", "- links become edges")
	assert.Contains(t, md, "See [the first chapter](#the-hand-loom) for", "a link to another chapter points at its heading")
	assert.NotContains(t, md, "stylesheet")
	assert.NotContains(t, md, "code{white-space")
}

// epubOf builds an EPUB from an OPF spine and chapter files under OEBPS/.
func epubOf(t *testing.T, opf string, chapters map[string]string) []byte {
	files := map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OEBPS/content.opf":      opf,
	}
	for name, text := range chapters {
		files["OEBPS/"+name] = text
	}
	return makeZip(t, files)
}

const twoChapterOPF = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Two&nbsp;Chapters</dc:title><dc:creator>A. Writer</dc:creator><dc:date>2001-02-03</dc:date><dc:identifier>urn:isbn:9780000000000</dc:identifier></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="Text/one%20a.xhtml" media-type="application/xhtml+xml"/><item id="img" href="cover.png" media-type="image/png"/><item id="c2" href="Text/two.xhtml" media-type="application/xhtml+xml"/><item id="gone" href="Text/missing.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine><itemref idref="nav"/><itemref idref="c2"/><itemref idref="img"/><itemref idref="gone"/><itemref idref="c1"/><itemref idref="unknown"/></spine></package>`

func TestEPUBSpineAndXHTML(t *testing.T) {
	data := epubOf(t, twoChapterOPF, map[string]string{
		"nav.xhtml":        `<html><body><nav><ol><li><a href="Text/two.xhtml">Two</a></li></ol></nav></body></html>`,
		"Text/one a.xhtml": `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title/><script/></head><body><h1>One</h1><p>First <a href="two.xhtml">chapter two</a> and <a href="https://example.org/x">outside</a>.</p></body></html>`,
		"Text/two.xhtml":   `<html><head><title>Two</title><style>p{}</style></head><body><h1 id="two">Two</h1><p>Second.</p><div class="sidebar"><p>A boxed aside in a book is text.</p></div></body></html>`,
	})
	d, err := EPUB(data)
	require.NoError(t, err)
	assert.Equal(t, "Two Chapters", d.Title, "HTML entities in the OPF are read")
	assert.Equal(t, []string{"A. Writer"}, d.Meta.Authors)
	assert.Equal(t, "2001", d.Meta.Year)
	assert.Empty(t, d.Meta.DOI, "an ISBN is not a DOI")
	assert.Equal(t, "# Two\n\nSecond.\n\nA boxed aside in a book is text.\n\n# One\n\nFirst chapter two and [outside](https://example.org/x).\n", d.Markdown,
		"spine order, the nav document, image and missing chapter left out, <title/> does not swallow the chapter, a link to a whole chapter loses its address")
}

func TestEPUBProblems(t *testing.T) {
	container := func(rootfile string) string {
		return `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>` + rootfile + `</rootfiles></container>`
	}
	cases := []struct {
		name    string
		data    []byte
		message string
	}{
		{"not a zip", []byte("<html>an e-book?</html>"), "is not a zip archive (an .epub must be one)"},
		{"no container", makeZip(t, map[string]string{"mimetype": "application/epub+zip"}), "is not an EPUB: the zip has no META-INF/container.xml (it has mimetype)"},
		{"a container naming nothing", makeZip(t, map[string]string{"META-INF/container.xml": container("")}), "is an EPUB whose META-INF/container.xml names no package (.opf) file"},
		{"a container naming a missing package", makeZip(t, map[string]string{"META-INF/container.xml": container(`<rootfile full-path="book.opf"/>`)}), "is an EPUB whose container names book.opf, which the zip does not have"},
		{"a damaged package", makeZip(t, map[string]string{"META-INF/container.xml": container(`<rootfile full-path="book.opf"/>`), "book.opf": "<package><metadata"}), "is an EPUB with a damaged book.opf"},
		{"an empty spine", epubOf(t, `<package><manifest/><spine/></package>`, nil), "is an EPUB without a readable spine: its package lists no chapters"},
		{"a spine of missing chapters", epubOf(t, twoChapterOPF, nil), "is an EPUB without a readable spine: none of its 3 chapters can be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := EPUB(c.data)
			assert.Nil(t, d)
			requireBadFile(t, err, c.message)
		})
	}
}

func TestExpandRawTextTags(t *testing.T) {
	cases := []struct{ in, want string }{
		{`<title/><p>x</p>`, `<title></title><p>x</p>`},
		{`<TITLE /><script src="a.js"/><br/>`, `<TITLE ></title><script src="a.js"></script><br/>`},
		{`<titles/><style>a</style>`, `<titles/><style>a</style>`},
		{`a < b / c >`, `a < b / c >`},
		{`<title`, `<title`},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, string(expandRawTextTags([]byte(c.in))), c.in)
	}
}
