package pdf

import (
	"regexp"
	"strings"

	"github.com/loomwork/loom/backend/ingest/blocks"
)

// bulletStart is a list item's bullet: the glyphs word processors and TeX
// use, and the Symbol font's bullet that comes through as a private-use
// code point.
var bulletStart = regexp.MustCompile(`^[•◦▪▸►‣⁃∙\x{F0B7}\x{F0A7}]\s*`)

// builder assembles blocks from the analysed lines. A table or a caption
// that interrupts a paragraph (a float put at the top of the next column
// or page) suspends it: the paragraph may go on after the float, and the
// float's blocks then follow the whole paragraph.
type builder struct {
	a         *analysis
	out       []blocks.Block
	para      []*line
	kind      blocks.Kind
	suspended []*line
	deferred  []blocks.Block
	refs      []*line
	inRefs    bool
}

// build turns the analysed lines into blocks in reading order.
func (a *analysis) build() []blocks.Block {
	b := &builder{a: a}
	for i := 0; i < len(a.lines); i++ {
		l := a.lines[i]
		switch a.roles[i] {
		case roleDropped:
			continue
		case roleHeading:
			b.closeAll()
			b.out = append(b.out, blocks.Block{Kind: blocks.Heading, Level: a.levels[i], Text: collapseSpace(l.text), Page: l.page})
			b.inRefs = referencesHeading.MatchString(normTitle(parseNumber(l.text, l.cells[0].text).title))
			continue
		case roleTable:
			j := i
			for j+1 < len(a.lines) && a.roles[j+1] == roleTable && a.tables[j+1] == a.tables[i] {
				j++
			}
			b.float()
			b.emit(a.table(a.lines[i : j+1]))
			i = j
			continue
		}
		switch {
		case captionStart.MatchString(l.text):
			b.float()
			b.para, b.kind = []*line{l}, blocks.Caption
		case bulletStart.MatchString(l.text) && !b.inRefs:
			b.closePara()
			b.para, b.kind = []*line{l}, blocks.Item
		case b.kind != blocks.Paragraph && b.para[len(b.para)-1].seg == l.seg && !a.breaks(b.para[len(b.para)-1], l):
			b.para = append(b.para, l)
		case b.inRefs:
			b.closePara()
			b.refs = append(b.refs, l)
		default:
			b.line(l)
		}
	}
	b.closeAll()
	return b.out
}

// line adds a line of running text.
func (b *builder) line(l *line) {
	if b.kind != blocks.Paragraph {
		b.closePara()
	}
	if len(b.para) == 0 && len(b.suspended) > 0 {
		if b.a.resumes(b.suspended[len(b.suspended)-1], l) {
			b.para, b.suspended = b.suspended, nil
		} else {
			b.closeSuspended()
		}
	}
	if len(b.para) > 0 && b.a.breaks(b.para[len(b.para)-1], l) {
		b.closePara()
	}
	b.para = append(b.para, l)
}

// float starts a table or caption: an open paragraph is suspended.
func (b *builder) float() {
	if len(b.para) > 0 && b.kind == blocks.Paragraph && len(b.suspended) == 0 {
		b.suspended, b.para = b.para, nil
		return
	}
	b.closePara()
}

func (b *builder) emit(block blocks.Block) {
	if len(b.suspended) > 0 {
		b.deferred = append(b.deferred, block)
		return
	}
	b.out = append(b.out, block)
}

func (b *builder) closePara() {
	if len(b.para) == 0 {
		b.kind = blocks.Paragraph
		return
	}
	block := b.a.block(b.kind, b.para)
	b.para, b.kind = nil, blocks.Paragraph
	if len(b.suspended) > 0 {
		b.deferred = append(b.deferred, block)
		return
	}
	b.out = append(b.out, block)
	b.out = append(b.out, b.deferred...)
	b.deferred = nil
}

func (b *builder) closeSuspended() {
	if len(b.suspended) > 0 {
		b.out = append(b.out, b.a.block(blocks.Paragraph, b.suspended))
		b.suspended = nil
	}
	b.out = append(b.out, b.deferred...)
	b.deferred = nil
}

func (b *builder) closeAll() {
	b.closePara()
	b.closeSuspended()
	for _, entry := range b.a.referenceEntries(b.refs) {
		b.out = append(b.out, b.a.block(blocks.Item, entry))
	}
	b.refs = nil
}

// block makes one block of lines, joining their text.
func (a *analysis) block(kind blocks.Kind, lines []*line) blocks.Block {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.text
	}
	b := blocks.Block{Kind: kind, Text: joinLines(texts, a.vocab), Page: lines[0].page}
	if kind == blocks.Item {
		b.Text = bulletStart.ReplaceAllString(b.Text, "")
	}
	if last := lines[len(lines)-1].page; last != b.Page {
		b.PageEnd = last
	}
	return b
}

// table makes a table block: one row a line, cells joined by " | ".
func (a *analysis) table(rows []*line) blocks.Block {
	texts := make([]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(r.cells))
		for j, c := range r.cells {
			cells[j] = c.text
		}
		texts[i] = strings.Join(cells, " | ")
	}
	b := blocks.Block{Kind: blocks.Table, Text: strings.Join(texts, "\n"), Page: rows[0].page}
	if last := rows[len(rows)-1].page; last != b.Page {
		b.PageEnd = last
	}
	return b
}

// breaks tells whether a paragraph ends between two lines.
func (a *analysis) breaks(p, l *line) bool {
	if p.seg != l.seg {
		return !a.resumes(p, l)
	}
	em := a.em()
	if l.size > 1.1*p.size || p.size > 1.1*l.size || runIn(p, l) {
		return true
	}
	if l.y0-p.y1 > a.lineGap+0.6*em || l.y0-p.y1 < -0.5*p.height() {
		return true
	}
	if a.indented(l) && endsSentence(p.text) {
		return true
	}
	m := a.margins[p.seg]
	return p.x1 < m.right-2*em && endsSentence(p.text) && !a.indented(p)
}

// resumes tells whether l goes on with the paragraph p ended, across a
// column or page break or a float. Where paragraphs start indented, a
// line that is not goes on; elsewhere the paragraph goes on when its
// sentence does.
func (a *analysis) resumes(p, l *line) bool {
	if runIn(p, l) {
		return false
	}
	if a.indenting && a.bodySized(p) && a.bodySized(l) {
		return !a.indented(l)
	}
	return !endsSentence(p.text) && (startsLower(l.text) || strings.HasSuffix(p.text, "-")) && !a.indented(l)
}

// indented tells whether a line starts a little to the right of its
// segment's text, as a paragraph's first line does.
func (a *analysis) indented(l *line) bool {
	d := l.x0 - a.margins[l.seg].left
	return d >= 0.6*a.em() && d <= 4*a.em()
}
