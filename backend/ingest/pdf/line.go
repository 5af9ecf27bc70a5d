package pdf

import (
	"math"
	"strings"
)

// line is one line of text in reading order: the fragments of one row
// within one segment (a column's stretch, or a full-width stretch).
type line struct {
	page int
	// seg numbers the segment; a change between two lines is a column or
	// page break.
	seg            int
	cells          []*fragment
	x0, y0, x1, y1 float64
	// left and right are the edges of the column (or page) the line is
	// set in: a justified line of prose reaches both.
	left, right float64
	size        float64
	chars       int
	bold        int
	text        string
}

func newLine(page, seg int, cells []*fragment, left, right float64) *line {
	l := &line{page: page, seg: seg, cells: cells, left: left, right: right, x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1)}
	texts := make([]string, 0, len(cells))
	var runs []Run
	for _, f := range cells {
		l.x0, l.y0 = math.Min(l.x0, f.x0), math.Min(l.y0, f.y0)
		l.x1, l.y1 = math.Max(l.x1, f.x1), math.Max(l.y1, f.y1)
		l.chars += f.chars
		l.bold += f.bold
		texts = append(texts, f.text)
		runs = append(runs, f.runs...)
	}
	l.size = dominantSize(runs)
	l.text = strings.Join(texts, " ")
	return l
}

// isBold tells whether the line is set bold: all but a stray character
// or two, from its first word to its last (a run-in heading, bold words
// and then plain text, is not).
func (l *line) isBold() bool {
	first, last := l.cells[0].runs, l.cells[len(l.cells)-1].runs
	return l.bold*20 >= l.chars*17 && len(first) > 0 && first[0].Bold && last[len(last)-1].Bold
}

func (l *line) height() float64 { return l.y1 - l.y0 }

// justified tells whether the line spans its column from edge to edge.
func (l *line) justified() bool {
	return math.Abs(l.x0-l.left) < 1.5 && math.Abs(l.x1-l.right) < 1.5
}

// runIn tells whether l starts with a run-in heading ("Setup. We ran
// …"): bold words, then another face, the bold part ending in a stop or
// following a finished sentence (not a bold word hyphenated across the
// line break). p is the line before, nil for none.
func runIn(p, l *line) bool {
	if l.isBold() || p != nil && strings.HasSuffix(p.text, "-") {
		return false
	}
	var lead strings.Builder
	for _, r := range l.cells[0].runs {
		if !r.Bold {
			break
		}
		lead.WriteString(r.Text)
	}
	head := strings.TrimSpace(lead.String())
	if head == "" {
		return false
	}
	return strings.ContainsAny(head[len(head)-1:], ".:") || strings.HasSuffix(head, "—") || p == nil || endsSentence(p.text)
}
