package convert

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWordReport(t *testing.T) {
	d := convertGolden(t, "report.docx", DOCX)
	assert.Equal(t, "Field Report on Local Retrieval", d.Title, "the Title paragraph")
	assert.Equal(t, []string{"Maren Holt", "Tomás Ibáñez"}, d.Meta.Authors)
	assert.Equal(t, []string{"retrieval", "evaluation", "local-first"}, d.Meta.Tags)
	assert.Equal(t, "2025", d.Meta.Year, "dcterms:created")
	md := d.Markdown
	assert.NotContains(t, md, "# Field Report", "the title is not repeated as a heading")
	assertHasLines(t, md,
		"# Summary", "## Corpus", "### Notes on latency",
		"- meeting notes from the team wiki",
		"- papers saved as PDF, with their **BibTeX** entries",
		"  - each entry linked to its paper",
		"| Measure | Target | Observed |",
		"| Latency (ms) | 50 | 31 |",
		`\# Not a heading: this paragraph starts with a hash sign in the text.`,
		`1\. Nor is this a numbered item.`,
		`\[1] The trials used forty questions written before the index was built.`,
	)
	assert.Contains(t, md, "a *small* index")
	assert.Contains(t, md, "the [project page](https://example.org/loom) has the numbers.\\[1]", "a hyperlink by relationship, and the footnote's mark")
	assert.Contains(t, md, "[the appendix](#appendix)", "a link to a bookmark")
	assert.Contains(t, md, "end to end,  \nfrom the question", "a line break")
	assert.Contains(t, md, "2 * 3 * 4 = 24", "a lone star is not emphasis")
	assert.Contains(t, md, `snake\_case\_name`)
}

func TestLocalizedStyleIDsAreResolvedByName(t *testing.T) {
	plain, err := DOCX(readTestdata(t, "report.docx"))
	require.NoError(t, err)
	d := convertGolden(t, "report-localized.docx", DOCX)
	assert.Equal(t, "Field Report on Local Retrieval", d.Title, `the style "Titel" is named "Title"`)
	assert.Equal(t, plain.Markdown, d.Markdown, `"berschrift1" is named "heading 1"`)
	assert.True(t, d.Meta.IsZero(), "no docProps/core.xml, no meta")
}

// wordDoc wraps body XML in a document part in the transitional namespace.
func wordDoc(body string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>` + body + `</w:body></w:document>`
}

func p(style, runs string) string {
	if style == "" {
		return "<w:p>" + runs + "</w:p>"
	}
	return `<w:p><w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>` + runs + "</w:p>"
}

func r(text string) string { return `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r>` }

func TestWordConstructs(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string // lines the markdown must have
		not        []string
	}{
		{"headings by id without styles.xml", p("Heading2", r("Second level")) + p("heading3", r("Third")),
			[]string{"## Second level", "### Third"}, nil},
		{"a tab and a break", p("", r("a")+`<w:r><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t></w:r>`),
			[]string{"a b  ", "c"}, nil},
		{"bold switched off", p("", `<w:r><w:rPr><w:b w:val="0"/></w:rPr><w:t xml:space="preserve">not bold </w:t></w:r><w:r><w:rPr><w:b/><w:i/></w:rPr><w:t>both</w:t></w:r>`),
			[]string{"not bold ***both***"}, []string{"**not"}},
		{"a tracked deletion is left out", p("", r("kept ")+`<w:del w:id="1"><w:r><w:delText>deleted</w:delText></w:r></w:del>`+`<w:ins w:id="2">`+r("inserted")+`</w:ins>`),
			[]string{"kept inserted"}, []string{"deleted"}},
		{"a simple hyperlink field", p("", `<w:fldSimple w:instr=" HYPERLINK &quot;https://example.org/f&quot; ">`+r("field link")+`</w:fldSimple>`),
			[]string{"[field link](https://example.org/f)"}, nil},
		{"a complex hyperlink field", p("", `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "https://example.org/c" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>`+r("complex")+`<w:r><w:fldChar w:fldCharType="end"/></w:r>`+r(" after")),
			[]string{"[complex](https://example.org/c) after"}, []string{"HYPERLINK"}},
		{"nested lists", `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr>` + r("one") + `</w:p>` +
			`<w:p><w:pPr><w:numPr><w:ilvl w:val="2"/><w:numId w:val="3"/></w:numPr></w:pPr>` + r("deep") + `</w:p>` +
			`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr>` + r("two") + `</w:p>` + p("", r("after")),
			[]string{"- one", "  - deep", "- two", "after"}, nil},
		{"numId 0 is no list", `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="0"/></w:numPr></w:pPr>` + r("plain") + `</w:p>`,
			[]string{"plain"}, []string{"- plain"}},
		{"a table in a table becomes text of its cell", `<w:tbl><w:tr><w:tc>` + p("", r("H1")) + `</w:tc><w:tc>` + p("", r("H2")) + `</w:tc></w:tr><w:tr><w:tc><w:tbl><w:tr><w:tc>` + p("", r("in")) + `</w:tc><w:tc>` + p("", r("ner")) + `</w:tc></w:tr></w:tbl></w:tc><w:tc>` + p("", r("x|y")) + p("", r("second para")) + `</w:tc></w:tr></w:tbl>`,
			[]string{"| H1 | H2 |", `| in ner | x\|y second para |`}, nil},
		{"a ragged table is padded", `<w:tbl><w:tr><w:tc>` + p("", r("A")) + `</w:tc></w:tr><w:tr><w:tc>` + p("", r("1")) + `</w:tc><w:tc>` + p("", r("2")) + `</w:tc></w:tr></w:tbl>`,
			[]string{"| A |  |", "| 1 | 2 |"}, nil},
		{"a text box's fallback is not read twice", p("", r("before ")+`<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>`+p("", r("boxed"))+`</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>`+p("", r("boxed"))+`</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>`+r("after")),
			[]string{"before boxed after"}, []string{"boxed boxed"}},
		{"markdown characters stay text", p("", r("# hash")) + p("", r("* star")) + p("", r("1. one")) + p("", r("[not](a link) `tick`")),
			[]string{`\# hash`, `\* star`, `1\. one`, "\\[not](a link) \\`tick\\`"}, nil},
		{"a title without styles.xml, only once", p("Title", r("The Title")) + p("Title", r("A second title")),
			[]string{"A second title"}, []string{"The Title"}},
		{"empty paragraphs vanish", p("", "") + p("", r("   ")) + p("", r("text")),
			[]string{"text"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := DOCX(makeZip(t, map[string]string{"word/document.xml": wordDoc(c.body)}))
			require.NoError(t, err)
			assertHasLines(t, d.Markdown, c.want...)
			for _, n := range c.not {
				assert.NotContains(t, d.Markdown, n)
			}
		})
	}
}

func TestWordStylesXML(t *testing.T) {
	styles := `<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:styleId="Titre1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:basedOn w:val="Titre1"/></w:style>
<w:style w:type="paragraph" w:styleId="Outline"><w:name w:val="My Outline"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Titre"><w:name w:val="Title"/></w:style>
<w:style w:type="paragraph" w:styleId="Soustitre"><w:name w:val="Subtitle"/><w:basedOn w:val="Titre"/></w:style>
<w:style w:type="paragraph" w:styleId="TM1"><w:name w:val="toc 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Puce"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="7"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Code"><w:name w:val="Source Code"/></w:style>
<w:style w:type="character" w:styleId="Fort"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Loop1"><w:name w:val="Loop"/><w:basedOn w:val="Loop2"/></w:style>
<w:style w:type="paragraph" w:styleId="Loop2"><w:name w:val="Loop"/><w:basedOn w:val="Loop1"/></w:style>
</w:styles>`
	body := p("Titre", r("Le titre")) + p("Soustitre", r("Sous-titre")) + p("TM1", r("Introduction 3")) +
		p("Titre1", r("Introduction")) + p("Chapter", r("Chapitre")) + p("Outline", r("Outlined")) +
		p("Puce", r("item")) + p("Code", r("x := 1")) + p("Code", r("y := 2")) +
		p("", `<w:r><w:rPr><w:rStyle w:val="Fort"/></w:rPr><w:t>strong</w:t></w:r>`) + p("Loop1", r("loop"))
	d, err := DOCX(makeZip(t, map[string]string{"word/document.xml": wordDoc(body), "word/styles.xml": styles}))
	require.NoError(t, err)
	assert.Equal(t, "Le titre", d.Title)
	assert.Equal(t, "Sous-titre\n\n# Introduction\n\n# Chapitre\n\n## Outlined\n\n- item\n\n```\nx := 1\ny := 2\n```\n\n**strong**\n\nloop\n", d.Markdown)
}

func TestWordStrictNamespaceAndMainPartFromRels(t *testing.T) {
	strict := strings.NewReplacer("http://schemas.openxmlformats.org/wordprocessingml/2006/main", "http://purl.oclc.org/ooxml/wordprocessingml/main").
		Replace(wordDoc(p("Heading1", r("Strict"))))
	rels := `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" Target="/word/main.xml"/></Relationships>`
	d, err := DOCX(makeZip(t, map[string]string{"_rels/.rels": rels, "word/main.xml": strict}))
	require.NoError(t, err)
	assert.Equal(t, "# Strict\n", d.Markdown)
}

func TestWordProblems(t *testing.T) {
	report := readTestdata(t, "report.docx")
	cases := []struct {
		name    string
		data    []byte
		message string
	}{
		{"empty", nil, "is empty"},
		{"garbage renamed .docx", []byte("this is a text file someone renamed to .docx\n"), "is not a zip archive (a .docx must be one): zip: not a valid zip file"},
		{"truncated", report[:len(report)/2], "is a damaged or truncated zip archive (a .docx is one)"},
		{"a zip without word/document.xml", makeZip(t, map[string]string{"notes.txt": "hello", "img/a.png": "x"}), "is not a Word document: the zip has no word/document.xml (it has img/a.png, notes.txt)"},
		{"an .epub is not a Word document", readTestdata(t, "book.epub"), "is not a Word document: the zip has no word/document.xml (it has 11 entries)"},
		{"damaged XML", makeZip(t, map[string]string{"word/document.xml": "<w:document><w:body><w:p>"}), "is a Word document with a damaged word/document.xml: XML syntax error"},
		{"a zip bomb", zipDeclaring(t, 300<<20), "would unpack to more than 256 MiB, more than Loom reads from one archive (a zip bomb?)"},
		{"a zip that lies about its size", zipLying(t, 8<<20), "has an entry word/document.xml that cannot be unpacked"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := DOCX(c.data)
			assert.Nil(t, d)
			requireBadFile(t, err, c.message)
		})
	}
}

// zipDeclaring is a zip whose one entry claims to unpack to size bytes.
func zipDeclaring(t *testing.T, size uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, UncompressedSize64: size, CompressedSize64: 2})
	require.NoError(t, err)
	_, err = f.Write([]byte{3, 0})
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// zipLying is a zip whose word/document.xml claims 100 bytes and
// inflates to size.
func zipLying(t *testing.T, size int) []byte {
	t.Helper()
	plain := []byte(wordDoc(p("", r(strings.Repeat("a", size)))))
	var deflated bytes.Buffer
	fw, err := flate.NewWriter(&deflated, flate.BestSpeed)
	require.NoError(t, err)
	_, err = fw.Write(plain)
	require.NoError(t, err)
	require.NoError(t, fw.Close())
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate,
		UncompressedSize64: 100, CompressedSize64: uint64(deflated.Len()), CRC32: crc32.ChecksumIEEE(plain)})
	require.NoError(t, err)
	_, err = f.Write(deflated.Bytes())
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}
