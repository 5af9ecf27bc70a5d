package pdf

import (
	"math"
	"strings"
)

// applyOutline makes headings of the lines the outline points to: on the
// item's page, the line whose text is the item's title (number aside),
// nearest the item's y; failing that, the heading-like line nearest the
// y. The outline's level becomes the heading's, counted from the
// shallowest item found. It returns the lines it made headings.
func (a *analysis) applyOutline() map[int]bool {
	matched := map[int]bool{}
	title := normTitle(a.docTitle())
	top := math.MaxInt
	found := map[int]int{} // line → outline level
	for _, item := range a.raw.Outline {
		want := normTitle(item.Title)
		if item.Page <= 0 || want == "" || want == title {
			continue
		}
		i := a.outlineLine(item, want, found)
		if i < 0 {
			continue
		}
		found[i] = item.Level
		top = min(top, item.Level)
	}
	for i, level := range found {
		a.roles[i] = roleHeading
		a.levels[i] = level - top + 1
		matched[i] = true
	}
	return matched
}

// outlineLine finds the line an outline item names, or -1.
func (a *analysis) outlineLine(item OutlineItem, want string, taken map[int]int) int {
	best, bestScore := -1, math.Inf(1)
	consider := func(i int, score float64) {
		if _, used := taken[i]; !used && score < bestScore {
			best, bestScore = i, score
		}
	}
	for i, l := range a.lines {
		if l.page != item.Page || a.roles[i] == roleDropped || a.roles[i] == roleTable {
			continue
		}
		got := normTitle(parseNumber(l.text, l.cells[0].text).title)
		whole := normTitle(l.text)
		if got != want && whole != want && !(len(want) >= 8 && strings.HasPrefix(want, got) && a.headingLike(l) && len(got) >= 4) {
			continue
		}
		consider(i, a.distance(l, item.Y))
	}
	if best >= 0 || item.Y < 0 {
		return best
	}
	// The printed heading differs from the bookmark's text: take the
	// heading-like line closest to where the bookmark points, within a
	// few lines.
	for i, l := range a.lines {
		if l.page != item.Page || a.roles[i] != roleBody || !a.headingLike(l) {
			continue
		}
		if d := a.distance(l, item.Y); d < 4*l.height() {
			consider(i, d)
		}
	}
	return best
}

// distance is how far a line is from an outline item's y (0 when the y is
// unknown); a destination usually points at or just above its heading.
func (a *analysis) distance(l *line, y float64) float64 {
	if y < 0 {
		return 0
	}
	return math.Abs(l.y0 - y)
}

// headingLike tells whether a line is set like a heading: bold, or larger
// than the body, and short.
func (a *analysis) headingLike(l *line) bool {
	return (l.isBold() || l.size >= 1.12*a.body) && len(strings.Fields(l.text)) <= 16
}
