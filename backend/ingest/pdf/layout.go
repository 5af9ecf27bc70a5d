package pdf

import (
	"fmt"
	"math"
	"sort"
	"unicode"

	"github.com/loomwork/loom/backend/ingest/blocks"
)

// role is what layout analysis made of a line.
type role int

const (
	roleBody role = iota
	roleDropped
	roleHeading
	roleTable
)

// analysis is one document under layout analysis: its lines in reading
// order and what is known of them.
type analysis struct {
	raw   *Raw
	lines []*line
	roles []role
	// levels holds a heading line's level, tables a table line's table.
	levels   []int
	tables   []int
	body     float64 // the body text's font size
	lineGap  float64 // the usual gap between two lines of a paragraph
	vocab    vocabulary
	title    string
	authors  []string
	front    []*line // the first page's lines before the text starts
	sideways []string
	margins  map[int]segMargins
	// indenting tells whether paragraphs start with an indented line
	// (rather than with space above).
	indenting bool
}

// segMargins are a segment's text edges: where its lines usually start
// and how far the longest reach.
type segMargins struct{ left, right float64 }

// Layout turns extracted text into blocks: lines in reading order across
// columns and pages, running headers and footers dropped, headings from
// the outline or the paper's own typography, tables, captions, reference
// entries and paragraphs, and the title, authors, DOI and arXiv id of the
// first page. It fails with ErrNoTextLayer when there is no text at all,
// ErrUnreadableText when the text does not map to characters and
// ErrNothingReadable when nothing is left.
func Layout(raw *Raw) (doc *blocks.Doc, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("%w: %v", errLayoutFailed, r)
		}
	}()
	if raw == nil || !hasText(raw) {
		return nil, ErrNoTextLayer
	}
	if !readable(raw) {
		return nil, ErrUnreadableText
	}
	a := &analysis{raw: raw, vocab: vocabulary{}}
	a.readLines()
	if len(a.lines) == 0 {
		return nil, ErrNothingReadable
	}
	a.measure()
	a.frontMatter()
	a.findTables()
	a.findHeadings()
	doc = &blocks.Doc{Title: a.docTitle(), Blocks: a.build()}
	if len(doc.Blocks) == 0 {
		return nil, ErrNothingReadable
	}
	doc.Meta = a.meta(doc.Blocks)
	return doc, nil
}

func hasText(raw *Raw) bool {
	for _, p := range raw.Pages {
		for _, r := range p.Runs {
			if r.Text != "" {
				return true
			}
		}
	}
	return false
}

// readable tells whether the text is mostly letters: a PDF whose fonts
// lack a Unicode map gives replacement characters or private-use codes.
func readable(raw *Raw) bool {
	letters, all := 0, 0
	for _, p := range raw.Pages {
		for _, r := range p.Runs {
			for _, c := range r.Text {
				if unicode.IsSpace(c) {
					continue
				}
				all++
				if unicode.IsLetter(c) && !unicode.Is(unicode.Co, c) {
					letters++
				}
			}
		}
	}
	return all < 50 || letters*10 >= all*3
}

// readLines builds the fragments of every page, drops the page furniture
// and orders what is left into lines.
func (a *analysis) readLines() {
	pages := make([][]*fragment, len(a.raw.Pages))
	heights := make([]float64, len(a.raw.Pages))
	for i, p := range a.raw.Pages {
		pages[i] = fragments(p.Runs)
		heights[i] = p.Height
		if i == 0 {
			for _, r := range p.Runs {
				if sideways(r) {
					a.sideways = append(a.sideways, cleanText(r.Text))
				}
			}
		}
	}
	removeFurniture(pages, heights)
	seg := 0
	for i, p := range a.raw.Pages {
		number := p.Number
		if number <= 0 {
			number = i + 1
		}
		var ls []*line
		ls, seg = readingOrder(number, pages[i], p.Width, seg)
		a.lines = append(a.lines, ls...)
	}
	n := len(a.lines)
	a.roles, a.levels, a.tables = make([]role, n), make([]int, n), make([]int, n)
	for _, l := range a.lines {
		a.vocab.add(l.text)
	}
}

// measure finds the body font size (the size most characters have), the
// usual gap between a paragraph's lines and each segment's margins.
func (a *analysis) measure() {
	sizes := map[float64]int{}
	for _, l := range a.lines {
		sizes[math.Round(l.size*2)/2] += l.chars
	}
	best := -1
	for s, n := range sizes {
		if n > best || n == best && s < a.body {
			a.body, best = s, n
		}
	}
	var gaps []float64
	for i := 1; i < len(a.lines); i++ {
		p, l := a.lines[i-1], a.lines[i]
		if p.seg == l.seg && a.bodySized(p) && a.bodySized(l) {
			if g := l.y0 - p.y1; g > -p.height()/2 && g < 2*p.height() {
				gaps = append(gaps, g)
			}
		}
	}
	sort.Float64s(gaps)
	if len(gaps) > 0 {
		a.lineGap = gaps[len(gaps)/2]
	}
	a.margins = map[int]segMargins{}
	lefts := map[int]map[float64]int{}
	for _, l := range a.lines {
		m, ok := a.margins[l.seg]
		if !ok {
			m = segMargins{left: l.x0, right: l.x1}
			lefts[l.seg] = map[float64]int{}
		}
		m.right = math.Max(m.right, l.x1)
		a.margins[l.seg] = m
		lefts[l.seg][math.Round(l.x0)] += l.chars
	}
	for seg, counts := range lefts {
		m := a.margins[seg]
		best, left := -1, m.left
		for x, n := range counts {
			if n > best || n == best && x < left {
				best, left = n, x
			}
		}
		m.left = left
		a.margins[seg] = m
	}
	starts := 0
	for i := 1; i < len(a.lines); i++ {
		p, l := a.lines[i-1], a.lines[i]
		if p.seg == l.seg && a.bodySized(l) && a.indented(l) && endsSentence(p.text) {
			starts++
		}
	}
	a.indenting = starts >= 3
}

func (a *analysis) bodySized(l *line) bool {
	return math.Abs(l.size-a.body) <= 0.1*a.body
}

// em is the body's em, the unit of indents and gaps.
func (a *analysis) em() float64 { return math.Max(a.body, 1) }
