package pdf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loomwork/loom/backend/ingest/blocks"
	"github.com/loomwork/loom/backend/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func loadRaw(t testing.TB, name string) *Raw {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var raw Raw
	require.NoError(t, json.Unmarshal(data, &raw))
	return &raw
}

// The hand-made Raw is laid out so that every expected block is known by
// construction (testdata/handmade.py says what each line is).
func TestLayoutReadsTheHandMadeTwoColumnPagesAsTheirAuthorMeantThem(t *testing.T) {
	doc, err := Layout(loadRaw(t, "handmade.json"))
	require.NoError(t, err)

	assert.Equal(t, "Handmade Layouts for Testing", doc.Title, "the info dict's Word junk loses to the first page's largest line")
	assert.Equal(t, model.DocMeta{
		Authors: []string{"Ada Lovelace", "Alan Turing"},
		Year:    "2024",
		DOI:     "10.1234/hand.made",
		ArXiv:   "2401.00001",
		Pages:   2,
	}, doc.Meta)
	para := func(text string, page, end int) blocks.Block {
		return blocks.Block{Kind: blocks.Paragraph, Text: text, Page: page, PageEnd: end}
	}
	assert.Equal(t, []blocks.Block{
		{Kind: blocks.Heading, Level: 1, Text: "1 Introduction", Page: 1},
		para("The first paragraph explains why a layout needs tests that run without a real PDF and its retrieval of text, so that the logic can be checked on its own.", 1, 0),
		para("A second paragraph starts with an indent and it goes on until the bottom of the left column where it breaks off in the middle of its sentence and continues at the top of the right column without a new indent.", 1, 0),
		{Kind: blocks.Heading, Level: 1, Text: "2 Method", Page: 1},
		para("The method section has one paragraph, with a DOI (doi:10.1234/Hand.Made), that runs to the bottom of the page to show that a paragraph goes on across the page break when its sentence does not end there.", 1, 2),
		{Kind: blocks.Heading, Level: 2, Text: "2.1 Details", Page: 2},
		para("Compound words keep their hyphens: state-of-the-art methods are effective and flexible.", 2, 0),
		{Kind: blocks.Item, Text: "a list item;", Page: 2},
		{Kind: blocks.Item, Text: "another, long enough to go on over a second line.", Page: 2},
		{Kind: blocks.Heading, Level: 1, Text: "References", Page: 2},
		{Kind: blocks.Item, Text: "[1] A. Lovelace. Notes on the analytical engine. Scientific Memoirs, 1843.", Page: 2},
		{Kind: blocks.Item, Text: "[2] A. Turing. On computable numbers. Proc. London Math. Soc., 1936.", Page: 2},
	}, doc.Blocks)
}

func TestRawUnmarshalsFromTheBrowsersJSON(t *testing.T) {
	const js = `{"title":"T","author":"A","outline":[{"title":"Intro","level":1,"page":2,"y":-1}],
		"pages":[{"number":3,"width":612,"height":792,"runs":[
		{"text":"Hi","x0":1,"y0":2,"x1":3,"y1":4,"size":10,"bold":true,"italic":true,"font":"F"}]}]}`
	var raw Raw
	require.NoError(t, json.Unmarshal([]byte(js), &raw))
	assert.Equal(t, Raw{
		Title: "T", Author: "A",
		Outline: []OutlineItem{{Title: "Intro", Level: 1, Page: 2, Y: -1}},
		Pages: []Page{{Number: 3, Width: 612, Height: 792, Runs: []Run{
			{Text: "Hi", X0: 1, Y0: 2, X1: 3, Y1: 4, Size: 10, Bold: true, Italic: true, Font: "F"}}}},
	}, raw)
}

func TestLayoutRefusesWhatHasNothingToRead(t *testing.T) {
	word := func(text string, x, y float64) Run {
		return Run{Text: text, X0: x, Y0: y, X1: x + 6*float64(len(text)), Y1: y + 10, Size: 10}
	}
	page := func(n int, runs ...Run) Page { return Page{Number: n, Width: 612, Height: 792, Runs: runs} }
	garbage := make([]Run, 0, 20)
	for i := range 20 {
		garbage = append(garbage, word("\uFFFD\uFFFD\uFFFD\uFFFD", 50, 100+12*float64(i)))
	}
	tests := []struct {
		name string
		raw  *Raw
		want error
	}{
		{"nil", nil, ErrNoTextLayer},
		{"no pages", &Raw{}, ErrNoTextLayer},
		{"pages without runs", &Raw{Pages: []Page{page(1), page(2)}}, ErrNoTextLayer},
		{"glyphs that map to no character", &Raw{Pages: []Page{page(1, garbage...)}}, ErrUnreadableText},
		{"only a running header and page numbers", &Raw{Pages: []Page{
			page(1, word("Journal of Nothing", 50, 30), word("1", 300, 760)),
			page(2, word("Journal of Nothing", 50, 30), word("2", 300, 760)),
		}}, ErrNothingReadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Layout(tt.raw)
			assert.ErrorIs(t, err, tt.want)
			assert.Nil(t, doc)
		})
	}
}

func TestLayoutNeverPanicsOnOddRuns(t *testing.T) {
	odd := []Run{
		{Text: "", X0: 1, Y0: 1, X1: 2, Y1: 2},
		{Text: "inverted", X0: 50, Y0: 60, X1: 10, Y1: 20, Size: 10},
		{Text: "zero", X0: 50, Y0: 60, X1: 50, Y1: 60},
		{Text: "huge", X0: -1e308, Y0: -1e308, X1: 1e308, Y1: 1e308, Size: 1e308},
		{Text: "negative size", X0: 10, Y0: 10, X1: 90, Y1: 20, Size: -5},
		{Text: "   ", X0: 10, Y0: 30, X1: 90, Y1: 40, Size: 10},
		{Text: "Fine words here", X0: 10, Y0: 50, X1: 90, Y1: 60, Size: 10},
	}
	doc, err := Layout(&Raw{Pages: []Page{{Number: 1, Width: 0, Height: 0, Runs: odd}}, Outline: []OutlineItem{{Title: "Fine", Level: 0, Page: 9, Y: 3}}})
	require.NoError(t, err)
	assert.Contains(t, blockText(doc), "Fine words here")
	assert.NotContains(t, blockText(doc), "huge")
}

func FuzzLayout(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "handmade.json"))
	require.NoError(f, err)
	f.Add(seed)
	f.Add([]byte(`{"pages":[{"number":1,"width":10,"height":10,"runs":[{"text":"a","x0":0,"y0":0,"x1":1,"y1":1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw Raw
		if json.Unmarshal(data, &raw) != nil {
			return
		}
		_, err := Layout(&raw)
		assert.NotErrorIs(t, err, errLayoutFailed, "the layout code panicked")
	})
}

// blockText is every block's text, one block a line.
func blockText(doc *blocks.Doc) string {
	var b strings.Builder
	for _, bl := range doc.Blocks {
		b.WriteString(bl.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// FuzzLayoutRuns lays out pages made from the fuzzer's bytes, six to a
// run (x, y, width, size, word, style), so that it explores positions
// rather than JSON syntax.
func FuzzLayoutRuns(f *testing.F) {
	f.Add([]byte("\x10\x10\x40\x0a\x01\x00\x10\x1c\x40\x0a\x02\x00\x80\x10\x40\x0a\x03\x01"))
	f.Add([]byte("\x05\x05\x05\x05\x05\x05\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00"))
	words := []string{"1 Introduction", "References", "[1] A. B.", "Table 1:", "retrie-", "val", "ﬁrst", "•", "10.1000/x", "the", "State-of-", "2.1", "Abstract", "arXiv:2101.00001v2", "7"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var pages []Page
		for i := 0; i+6 <= len(data) && i < 6*400; i += 6 {
			b := data[i : i+6]
			if len(pages) == 0 || b[5]&0x80 != 0 {
				pages = append(pages, Page{Number: len(pages) + 1, Width: 612, Height: 792})
			}
			x, y, size := float64(b[0])*2.4, float64(b[1])*3.1, 4+float64(b[3]%20)
			p := &pages[len(pages)-1]
			p.Runs = append(p.Runs, Run{Text: words[int(b[4])%len(words)], X0: x, Y0: y, X1: x + float64(b[2]), Y1: y + size, Size: size, Bold: b[5]&1 != 0})
		}
		_, err := Layout(&Raw{Pages: pages})
		assert.NotErrorIs(t, err, errLayoutFailed, "the layout code panicked")
	})
}
