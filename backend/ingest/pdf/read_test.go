//go:build !js

package pdf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/loomwork/loom/backend/ingest/blocks"
	"github.com/loomwork/loom/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var readCache sync.Map // file name → *blocks.Doc

func pdfBytes(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// readPDF reads a test PDF once per test binary.
func readPDF(t testing.TB, name string) *blocks.Doc {
	t.Helper()
	if doc, ok := readCache.Load(name); ok {
		return doc.(*blocks.Doc)
	}
	doc, err := Read(pdfBytes(t, name))
	require.NoError(t, err)
	readCache.Store(name, doc)
	return doc
}

func headingList(doc *blocks.Doc) []string {
	var out []string
	for _, b := range doc.Blocks {
		if b.Kind == blocks.Heading {
			out = append(out, fmt.Sprintf("%d|%s", b.Level, b.Text))
		}
	}
	return out
}

func blocksOf(doc *blocks.Doc, kind blocks.Kind) []blocks.Block {
	var out []blocks.Block
	for _, b := range doc.Blocks {
		if b.Kind == kind {
			out = append(out, b)
		}
	}
	return out
}

func indexOf(doc *blocks.Doc, substr string) int {
	for i, b := range doc.Blocks {
		if strings.Contains(b.Text, substr) {
			return i
		}
	}
	return -1
}

// sectionList is the golden form of a document: what it says of itself,
// then its headings, indented by level, with the pages each section
// spans (to the next heading).
func sectionList(doc *blocks.Doc) string {
	var b strings.Builder
	m := doc.Meta
	fmt.Fprintf(&b, "title: %s\nauthors: %s\ndoi: %s\narxiv: %s\nyear: %s\npages: %d\n\n",
		doc.Title, strings.Join(m.Authors, "; "), m.DOI, m.ArXiv, m.Year, m.Pages)
	for i, h := range doc.Blocks {
		if h.Kind != blocks.Heading {
			continue
		}
		last := h.LastPage()
		for _, next := range doc.Blocks[i+1:] {
			if next.Kind == blocks.Heading {
				break
			}
			last = max(last, next.LastPage())
		}
		pages := fmt.Sprintf("p. %d", h.Page)
		if last > h.Page {
			pages = fmt.Sprintf("pp. %d–%d", h.Page, last)
		}
		fmt.Fprintf(&b, "%s%s  (%s)\n", strings.Repeat("  ", h.Level-1), h.Text, pages)
	}
	return b.String()
}

var kindNames = map[blocks.Kind]string{
	blocks.Paragraph: "paragraph", blocks.Heading: "heading", blocks.Table: "table",
	blocks.Item: "item", blocks.Code: "code", blocks.Caption: "caption",
}

// blockList is every block, one paragraph of the golden file each.
func blockList(doc *blocks.Doc) string {
	var b strings.Builder
	for _, bl := range doc.Blocks {
		pages := fmt.Sprint(bl.Page)
		if bl.PageEnd > 0 {
			pages += fmt.Sprintf("–%d", bl.PageEnd)
		}
		level := ""
		if bl.Kind == blocks.Heading {
			level = fmt.Sprint(" ", bl.Level)
		}
		fmt.Fprintf(&b, "[%s%s p. %s]\n%s\n\n", kindNames[bl.Kind], level, pages, bl.Text)
	}
	return b.String()
}

func TestGoldenSectionsAndBlocks(t *testing.T) {
	for _, name := range []string{"twocolumn", "report"} {
		t.Run(name, func(t *testing.T) {
			doc := readPDF(t, name+".pdf")
			golden.Equal(t, filepath.Join("testdata", name+".sections.golden"), []byte(sectionList(doc)))
			golden.Equal(t, filepath.Join("testdata", name+".blocks.golden"), []byte(blockList(doc)))
		})
	}
}

func TestHeadingsAreTheLaTeXSectionsAtTheirLevels(t *testing.T) {
	for _, name := range []string{"twocolumn", "report"} {
		t.Run(name, func(t *testing.T) {
			want := readTex(t, name+".tex").headings()
			require.NotEmpty(t, want)
			assert.Equal(t, want, headingList(readPDF(t, name+".pdf")))
		})
	}
}

// Every plain paragraph of the source comes out whole, in one block:
// lines in reading order across the columns, a paragraph cut by a column
// break, a page break or a float joined again, hyphenation and ligatures
// undone.
func TestPlainParagraphsOfTheSourceComeOutWhole(t *testing.T) {
	for _, tt := range []struct {
		name string
		min  int
	}{{"twocolumn", 15}, {"report", 8}} {
		t.Run(tt.name, func(t *testing.T) {
			paras := readTex(t, tt.name+".tex").paragraphs()
			require.GreaterOrEqual(t, len(paras), tt.min, "the source has enough plain paragraphs to mean something")
			doc := readPDF(t, tt.name+".pdf")
			for _, p := range paras {
				assert.GreaterOrEqual(t, indexOf(doc, p), 0, "paragraph missing or cut: %q", p)
			}
		})
	}
}

// Each word pdfium saw broken at a line's end by a hyphen comes out whole
// when the source writes it whole, and keeps its hyphen when the source
// writes it with one.
func TestLineEndHyphenationIsUndone(t *testing.T) {
	raw, err := Extract(pdfBytes(t, "twocolumn.pdf"))
	require.NoError(t, err)
	words := readTex(t, "twocolumn.tex").words()
	text := blockText(readPDF(t, "twocolumn.pdf"))
	lower := regexp.MustCompile(`^\p{Ll}+`)
	joined, kept := 0, 0
	for _, p := range raw.Pages {
		for i := 0; i+1 < len(p.Runs); i++ {
			r, next := p.Runs[i], p.Runs[i+1]
			if !strings.HasSuffix(r.Text, "-") || next.Y0 < r.Y1-1 && next.X0 > r.X0 {
				continue // no hyphen, or the next run is on the same line
			}
			head := lower.FindString(lastWord(strings.TrimSuffix(r.Text, "-")))
			tail := lower.FindString(next.Text)
			if head == "" || tail == "" || lastWord(strings.TrimSuffix(r.Text, "-")) != head {
				continue
			}
			switch {
			case words[head+tail]:
				joined++
				assert.Contains(t, text, head+tail)
				assert.NotContains(t, text, head+"- "+tail)
				assert.NotContains(t, text, head+"-"+tail)
			case words[head+"-"+tail]:
				kept++
				assert.Contains(t, text, head+"-"+tail)
			}
		}
	}
	assert.GreaterOrEqual(t, joined, 20, "the paper hyphenates enough words to test")
	assert.Contains(t, text, "retrieval problem", "re-/trieval on page 1 is one word")
	assert.NotContains(t, text, "retrie-")
}

func TestLigaturesAreUndone(t *testing.T) {
	words := readTex(t, "twocolumn.tex").words()
	text := blockText(readPDF(t, "twocolumn.pdf"))
	assert.False(t, strings.ContainsAny(text, "\uFB00\uFB01\uFB02\uFB03\uFB04\uFB05\uFB06"))
	for _, w := range []string{"efficient", "offline", "affluent", "fivefold", "fifth", "figures", "differences"} {
		if assert.True(t, words[w], "%q is in the source", w) {
			assert.Contains(t, text, w)
		}
	}
}

func TestTwoColumnPagesReadLeftColumnFirstAndWideFloatsInPlace(t *testing.T) {
	doc := readPDF(t, "twocolumn.pdf")
	intro, background := indexOf(doc, "1 Introduction"), indexOf(doc, "2 Background")
	assert.True(t, intro >= 0 && intro < background, "page 1: left column, then right")
	// The full-width table tops page 2; the page's left column, then its
	// right column, follow it.
	wide, left, right := indexOf(doc, "Collection | Questions"), indexOf(doc, "2.2 Token Budgets"), indexOf(doc, "3.2 Ranking")
	assert.True(t, wide >= 0 && wide < left && left < right, "table* %d, left column %d, right column %d", wide, left, right)
	// The paragraph the table interrupts goes on below it, and the table
	// follows the whole paragraph.
	cut := doc.Blocks[indexOf(doc, "Choosing the section as the unit")]
	assert.Equal(t, blocks.Paragraph, cut.Kind)
	assert.Equal(t, 1, cut.Page)
	assert.Equal(t, 2, cut.PageEnd)
	assert.Contains(t, cut.Text, "what a passage is about. Sections follow the author’s own outline")
}

func TestRunningHeadersFootersAndPageNumbersAreDropped(t *testing.T) {
	doc := readPDF(t, "twocolumn.pdf")
	for _, b := range doc.Blocks {
		assert.NotContains(t, b.Text, "Preprint, under review")
		assert.NotContains(t, b.Text, "Loom Workshop on Local Knowledge")
		assert.NotContains(t, b.Text, "Budgeted Context Retrieval")
		assert.False(t, strings.IndexFunc(b.Text, func(r rune) bool { return !unicode.IsDigit(r) }) < 0, "a lone page number survived: %q", b.Text)
	}
}

func TestTablesComeOutRowByRowAndCaptionsAsCaptions(t *testing.T) {
	for _, name := range []string{"twocolumn", "report"} {
		t.Run(name, func(t *testing.T) {
			doc := readPDF(t, name+".pdf")
			var got []string
			for _, b := range blocksOf(doc, blocks.Table) {
				got = append(got, b.Text)
			}
			assert.Equal(t, readTex(t, name+".tex").tables(), got)
			captions := blocksOf(doc, blocks.Caption)
			require.Len(t, captions, len(got))
			for i, c := range captions {
				assert.True(t, strings.HasPrefix(c.Text, fmt.Sprintf("Table %d: ", i+1)), c.Text)
			}
		})
	}
}

func TestReferenceEntriesAreItems(t *testing.T) {
	tests := []struct{ name, mark string }{{"twocolumn", `\bibitem`}, {"report", `\item`}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := string(readTex(t, tt.name+".tex"))
			list := src[max(0, strings.LastIndex(src, "{References}")):]
			want := strings.Count(list, tt.mark)
			require.Positive(t, want)
			doc := readPDF(t, tt.name+".pdf")
			refs := indexOf(doc, "References")
			require.GreaterOrEqual(t, refs, 0)
			items := doc.Blocks[refs+1:]
			require.Len(t, items, want)
			for i, it := range items {
				assert.Equal(t, blocks.Item, it.Kind)
				assert.Regexp(t, fmt.Sprintf(`^(\[%d\]|%d\.) \p{Lu}`, i+1, i+1), it.Text)
			}
		})
	}
}

func TestMetaComesFromTheFirstPageAndTheInfoDictionary(t *testing.T) {
	tex := readTex(t, "twocolumn.tex")
	doc := readPDF(t, "twocolumn.pdf")
	assert.Equal(t, tex.command("title"), doc.Title, "no info-dict title: the first page's largest line")
	assert.Equal(t, strings.Split(tex.command("author"), ` \and `), doc.Meta.Authors)
	assert.Equal(t, "10.5555/loom.2024.017", doc.Meta.DOI, "lower-cased, the sentence's full stop stripped")
	assert.Equal(t, "2405.01234", doc.Meta.ArXiv, "without its version")
	assert.Equal(t, "2024", doc.Meta.Year)
	assert.Equal(t, 4, doc.Meta.Pages)

	report := readPDF(t, "report.pdf")
	assert.Equal(t, "Keeping a Workbench Local", report.Title)
	assert.Equal(t, []string{"Grace Hopper"}, report.Meta.Authors)
	assert.Equal(t, 2, report.Meta.Pages)
	assert.Empty(t, report.Meta.DOI)
	assert.Empty(t, report.Meta.ArXiv)
}

func TestExtractGivesTopLeftCoordinatesAndTheOutline(t *testing.T) {
	raw, err := Extract(pdfBytes(t, "report.pdf"))
	require.NoError(t, err)
	assert.Equal(t, "Keeping a Workbench Local", raw.Title)
	assert.Equal(t, "Grace Hopper", raw.Author)
	first := raw.Pages[0]
	title, author := -1.0, -1.0
	for _, r := range first.Runs {
		assert.True(t, r.X0 >= 0 && r.X1 <= first.Width && r.Y0 >= 0 && r.Y1 <= first.Height, "inside the page: %+v", r)
		assert.Less(t, r.Y0, r.Y1)
		switch r.Text {
		case "Keeping a Workbench Local":
			title = r.Y0
			assert.True(t, r.Bold)
		case "Grace Hopper":
			author = r.Y0
		}
	}
	assert.True(t, title >= 0 && title < 150 && title < author, "y grows down from the top: title at %v, author at %v", title, author)

	var got []string
	for _, o := range raw.Outline {
		got = append(got, fmt.Sprintf("%d|%s|p%d", o.Level, o.Title, o.Page))
		assert.True(t, o.Y > 0 && o.Y < raw.Pages[o.Page-1].Height, "%+v", o)
	}
	assert.Equal(t, []string{"1|Why Local First|p1", "1|The Workbench|p1", "2|Storage Model|p1", "2|Keeping Things in Sync|p1",
		"1|Measuring Cost|p2", "1|Limits|p2", "1|Outlook|p2", "1|References|p2"}, got)
}

func TestBadFilesGetClearErrors(t *testing.T) {
	paper := pdfBytes(t, "twocolumn.pdf")
	cut := paper[:len(paper)/2]
	tests := []struct {
		name string
		data []byte
		opts []Option
		want error
	}{
		{"a scan with no text layer", pdfBytes(t, "scanned.pdf"), nil, ErrNoTextLayer},
		{"a password-protected file", pdfBytes(t, "encrypted.pdf"), nil, ErrEncrypted},
		{"a truncated download", cut, nil, ErrTruncated},
		{"a truncated file with its end marker put back", append(append([]byte{}, cut...), "\n%%EOF\n"...), nil, ErrDamaged},
		{"garbage", []byte("this is not a PDF at all, just some text that a user dropped in"), nil, ErrNotPDF},
		{"an empty file", nil, nil, ErrNotPDF},
		{"a header, zeros and an end marker", append(append([]byte("%PDF-1.7\n"), make([]byte, 4096)...), "%%EOF"...), nil, ErrDamaged},
		{"a file over the size limit", paper, []Option{WithMaxBytes(64 << 10)}, ErrTooLarge},
		{"a file over the page limit", paper, []Option{WithMaxPages(3)}, ErrTooManyPages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Read(tt.data, tt.opts...)
			require.ErrorIs(t, err, tt.want)
			assert.Nil(t, doc)
			assert.Regexp(t, `^(is|has) [a-z]`, err.Error(), "a fragment to follow the file's name")
		})
	}
}

func TestRestrictedPDFReadsLikeItsSource(t *testing.T) {
	assert.Equal(t, readPDF(t, "report.pdf"), readPDF(t, "restricted.pdf"))
}

func TestConcurrentReadsAgreeWithSequentialOnes(t *testing.T) {
	names := []string{"twocolumn.pdf", "report.pdf", "twocolumn.pdf", "report.pdf", "scanned.pdf"}
	want := map[string]*blocks.Doc{"twocolumn.pdf": readPDF(t, "twocolumn.pdf"), "report.pdf": readPDF(t, "report.pdf")}
	var wg sync.WaitGroup
	got := make([]*blocks.Doc, len(names))
	errs := make([]error, len(names))
	for i, name := range names {
		data := pdfBytes(t, name)
		wg.Go(func() { got[i], errs[i] = Read(data) })
	}
	wg.Wait()
	for i, name := range names {
		if name == "scanned.pdf" {
			assert.ErrorIs(t, errs[i], ErrNoTextLayer)
			continue
		}
		require.NoError(t, errs[i])
		assert.Equal(t, want[name], got[i], name)
	}
}

func TestEngineStartsAgainAfterClose(t *testing.T) {
	require.NoError(t, Close())
	require.NoError(t, Close(), "closing twice is harmless")
	doc, err := Read(pdfBytes(t, "report.pdf"))
	require.NoError(t, err)
	assert.Equal(t, readPDF(t, "report.pdf"), doc)
}

func TestErrorsAreDistinct(t *testing.T) {
	all := []error{ErrNotPDF, ErrTruncated, ErrDamaged, ErrEncrypted, ErrTooLarge, ErrTooManyPages, ErrNoTextLayer, ErrUnreadableText, ErrNothingReadable}
	for i, a := range all {
		for j, b := range all {
			assert.Equal(t, i == j, errors.Is(a, b), "%v / %v", a, b)
		}
	}
}
