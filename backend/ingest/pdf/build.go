package pdf

import (
	"strings"

	"github.com/loomwork/loom/backend/ingest/blocks"
)

// build turns the analysed lines into blocks in reading order.
func (a *analysis) build() []blocks.Block {
	var out []blocks.Block
	var para []*line
	kind := blocks.Paragraph
	inRefs := false
	var refs []*line
	flush := func() {
		if len(para) > 0 {
			out = append(out, a.block(kind, para))
		}
		para, kind = nil, blocks.Paragraph
	}
	flushRefs := func() {
		for _, entry := range a.referenceEntries(refs) {
			out = append(out, a.block(blocks.Item, entry))
		}
		refs = nil
	}
	for i := 0; i < len(a.lines); i++ {
		l := a.lines[i]
		switch a.roles[i] {
		case roleDropped:
			continue
		case roleHeading:
			flush()
			flushRefs()
			out = append(out, blocks.Block{Kind: blocks.Heading, Level: a.levels[i], Text: collapseSpace(l.text), Page: l.page})
			inRefs = referencesHeading.MatchString(normTitle(parseNumber(l.text, l.cells[0].text).title))
			continue
		case roleTable:
			flush()
			j := i
			for j+1 < len(a.lines) && a.roles[j+1] == roleTable && a.tables[j+1] == a.tables[i] {
				j++
			}
			out = append(out, a.table(a.lines[i:j+1]))
			i = j
			continue
		}
		if inRefs && !captionStart.MatchString(l.text) {
			refs = append(refs, l)
			continue
		}
		switch {
		case captionStart.MatchString(l.text):
			flush()
			kind = blocks.Caption
		case len(para) > 0 && a.breaks(para[len(para)-1], l):
			flush()
		}
		para = append(para, l)
	}
	flush()
	flushRefs()
	return out
}

// block makes one block of lines, joining their text.
func (a *analysis) block(kind blocks.Kind, lines []*line) blocks.Block {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.text
	}
	b := blocks.Block{Kind: kind, Text: joinLines(texts, a.vocab), Page: lines[0].page}
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
	em := a.em()
	if p.seg != l.seg {
		// A column or page break: the paragraph goes on when its sentence
		// does.
		return endsSentence(p.text) || !(startsLower(l.text) || strings.HasSuffix(p.text, "-")) || a.indented(l)
	}
	if l.size > 1.1*p.size || p.size > 1.1*l.size {
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

// indented tells whether a line starts a little to the right of its
// segment's text, as a paragraph's first line does.
func (a *analysis) indented(l *line) bool {
	d := l.x0 - a.margins[l.seg].left
	return d >= 0.6*a.em() && d <= 4*a.em()
}
