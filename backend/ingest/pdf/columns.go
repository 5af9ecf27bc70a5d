package pdf

import (
	"math"
	"sort"
)

// gutter is the empty vertical strip between the two columns of a page
// (x0 to x1), and where the columns' lines of text usually end on its
// left (leftEnd) and start on its right (rightStart): a table cell or a
// figure's label may reach a little further into the strip than text.
type gutter struct{ x0, x1, leftEnd, rightStart float64 }

func (g gutter) mid() float64 { return (g.x0 + g.x1) / 2 }

// findGutter looks for two columns: an x in the middle half of the page
// that few fragments cross, with column text (fragments at least half a
// column wide) on both sides of it.
func findGutter(frags []*fragment, width float64) (gutter, bool) {
	total := 0
	for _, f := range frags {
		total += f.chars
	}
	if total == 0 {
		return gutter{}, false
	}
	bestX, bestCross := -1.0, math.MaxInt
	for x := 0.3 * width; x <= 0.7*width; x++ {
		cross, left, right := 0, 0, 0
		for _, f := range frags {
			switch {
			case f.x1 <= x:
				left += f.chars
			case f.x0 >= x:
				right += f.chars
			default:
				cross += f.chars
			}
		}
		if left < total/5 || right < total/5 {
			continue
		}
		if cross < bestCross || cross == bestCross && math.Abs(x-width/2) < math.Abs(bestX-width/2) {
			bestX, bestCross = x, cross
		}
	}
	if bestX < 0 || float64(bestCross) > 0.15*float64(total) {
		return gutter{}, false
	}
	g := gutter{x0: 0, x1: width}
	leftEdge, rightEdge := width, 0.0
	for _, f := range frags {
		switch {
		case f.x1 <= bestX:
			g.x0 = math.Max(g.x0, f.x1)
			leftEdge = math.Min(leftEdge, f.x0)
		case f.x0 >= bestX:
			g.x1 = math.Min(g.x1, f.x0)
			rightEdge = math.Max(rightEdge, f.x1)
		}
	}
	// Columns of text, not the cells of a table that happens to leave the
	// middle free: most characters on each side sit in wide fragments.
	if !columnText(frags, leftEdge, g.x0) || !columnText(frags, g.x1, rightEdge) {
		return gutter{}, false
	}
	// The columns' inner edges are where their lines of text end and
	// start; a table cell may reach a little further.
	g.leftEnd = commonEdge(frags, leftEdge, bestX, func(f *fragment) float64 { return f.x1 }, g.x0)
	g.rightStart = commonEdge(frags, bestX, rightEdge, func(f *fragment) float64 { return f.x0 }, g.x1)
	return g, true
}

// commonEdge is the most common edge (to half a point, by characters) of
// the wide fragments between from and to, or fallback when there are none.
func commonEdge(frags []*fragment, from, to float64, edge func(*fragment) float64, fallback float64) float64 {
	counts := map[float64]int{}
	best, bestN := fallback, 0
	for _, f := range frags {
		if f.x0 < from-1 || f.x1 > to+1 || f.width() < 0.5*(to-from) {
			continue
		}
		e := math.Round(edge(f)*2) / 2
		counts[e] += f.chars
		if counts[e] > bestN {
			best, bestN = e, counts[e]
		}
	}
	return best
}

func columnText(frags []*fragment, from, to float64) bool {
	all, wide := 0, 0
	for _, f := range frags {
		if f.x0 >= from-1 && f.x1 <= to+1 {
			all += f.chars
			if f.width() >= 0.5*(to-from) {
				wide += f.chars
			}
		}
	}
	return all > 0 && wide*2 >= all
}

// row is fragments that share a baseline across the whole page.
type row struct {
	frags []*fragment
	y0    float64
	y1    float64
}

func rows(frags []*fragment) []*row {
	sorted := append([]*fragment(nil), frags...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].center() < sorted[j].center() })
	var out []*row
	var cur *row
	for _, f := range sorted {
		if cur != nil {
			first := cur.frags[0]
			if f.center()-first.center() <= 0.35*math.Min(first.height(), f.height()) {
				cur.frags = append(cur.frags, f)
				cur.y0, cur.y1 = math.Min(cur.y0, f.y0), math.Max(cur.y1, f.y1)
				continue
			}
		}
		cur = &row{frags: []*fragment{f}, y0: f.y0, y1: f.y1}
		out = append(out, cur)
	}
	for _, r := range out {
		sort.SliceStable(r.frags, func(i, j int) bool { return r.frags[i].x0 < r.frags[j].x0 })
	}
	return out
}

// readingOrder orders a page's fragments into lines, each tagged with a
// segment: a stretch of one column, or of full-width rows, read top to
// bottom. On a two-column page the rows between two full-width rows (the
// title block, a wide table) are read left column first, then right.
// next is the first segment number to use; it returns the next free one.
func readingOrder(page int, frags []*fragment, width float64, next int) ([]*line, int) {
	rs := rows(frags)
	leftEdge, rightEdge := math.Inf(1), math.Inf(-1)
	for _, f := range frags {
		leftEdge, rightEdge = math.Min(leftEdge, f.x0), math.Max(rightEdge, f.x1)
	}
	g, two := findGutter(frags, width)
	if !two {
		var out []*line
		for _, r := range rs {
			out = append(out, newLine(page, next, r.frags, leftEdge, rightEdge))
		}
		return out, next + 1
	}
	full := fullWidthRows(rs, g)
	var out []*line
	for i := 0; i < len(rs); {
		if full[i] {
			for ; i < len(rs) && full[i]; i++ {
				out = append(out, newLine(page, next, rs[i].frags, leftEdge, rightEdge))
			}
			next++
			continue
		}
		var left, right []*line
		for ; i < len(rs) && !full[i]; i++ {
			var l, r []*fragment
			for _, f := range rs[i].frags {
				if f.x1 <= g.mid() {
					l = append(l, f)
				} else {
					r = append(r, f)
				}
			}
			if len(l) > 0 {
				left = append(left, newLine(page, next, l, leftEdge, g.leftEnd))
			}
			if len(r) > 0 {
				right = append(right, newLine(page, next+1, r, g.rightStart, rightEdge))
			}
		}
		out = append(out, left...)
		out = append(out, right...)
		next += 2
	}
	return out, next
}

// fullWidthRows tells which rows span the gutter: those with a fragment
// across it, and the rows of a wide table, whose cells may all fall on
// one side or the other of it. A table row has short fragments on both
// sides, and its cells line up with those of the rows next to it.
func fullWidthRows(rs []*row, g gutter) []bool {
	full := make([]bool, len(rs))
	tableish := make([]bool, len(rs))
	leftEdge, rightEdge := math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		for _, f := range r.frags {
			leftEdge, rightEdge = math.Min(leftEdge, f.x0), math.Max(rightEdge, f.x1)
		}
	}
	for i, r := range rs {
		var l, rr int
		// short: no fragment is a full line of a column; edges: none is a
		// long stretch of text that reaches the gutter (the end of a
		// justified line on the left, the start of one on the right).
		short, edges := true, false
		for _, f := range r.frags {
			switch {
			case f.x1 <= g.mid():
				l++
				short = short && f.width() < 0.85*(g.x0-leftEdge)
				edges = edges || math.Abs(f.x1-g.leftEnd) < 1.5 && f.width() > 0.5*(g.x0-leftEdge)
			case f.x0 >= g.mid():
				rr++
				short = short && f.width() < 0.85*(rightEdge-g.x1)
				edges = edges || math.Abs(f.x0-g.rightStart) < 1.5 && f.width() > 0.5*(rightEdge-g.x1)
			default:
				full[i] = true
			}
		}
		tableish[i] = l > 0 && rr > 0 && l+rr >= 3 && short && !edges
	}
	near := func(i, j int) bool {
		a, b := rs[min(i, j)], rs[max(i, j)]
		return b.y0-a.y1 < 1.5*(a.y1-a.y0)
	}
	for i := 1; i < len(rs); i++ {
		if tableish[i] && tableish[i-1] && near(i-1, i) && cellsAlign(rs[i-1], rs[i], g, leftEdge) {
			full[i], full[i-1] = true, true
		}
	}
	// The last line of a full-width paragraph (a wide table's caption)
	// may be short enough to fit one column: it starts where the line
	// above it does, right below it, with nothing beside it.
	for i := 1; i < len(rs); i++ {
		p, r := rs[i-1], rs[i]
		if !full[i-1] || full[i] || r.y0-p.y1 > 0.5*(p.y1-p.y0) || math.Abs(r.frags[0].x0-p.frags[0].x0) > 2 {
			continue
		}
		if last := r.frags[len(r.frags)-1]; last.x1 <= g.mid() {
			full[i] = true
		}
	}
	// A table row next to a full-width row (a caption, a header) is one
	// too.
	for changed := true; changed; {
		changed = false
		for i := range rs {
			if full[i] || !tableish[i] {
				continue
			}
			if i > 0 && full[i-1] && near(i-1, i) || i+1 < len(rs) && full[i+1] && near(i, i+1) {
				full[i], changed = true, true
			}
		}
	}
	return full
}

// cellsAlign tells whether two rows have a cell edge in common on each
// side of the gutter, other than the columns' own left edges (which
// every line of column text shares).
func cellsAlign(a, b *row, g gutter, leftEdge float64) bool {
	aligned := func(left bool) bool {
		edge := g.rightStart
		if left {
			edge = leftEdge
		}
		for _, f := range a.frags {
			if (f.x1 <= g.mid()) != left {
				continue
			}
			for _, h := range b.frags {
				if (h.x1 <= g.mid()) != left {
					continue
				}
				starts := math.Abs(f.x0-h.x0) < 2 && math.Abs(f.x0-edge) >= 1.5
				if starts || math.Abs(f.x1-h.x1) < 2 || math.Abs(f.x0+f.x1-h.x0-h.x1) < 4 {
					return true
				}
			}
		}
		return false
	}
	return aligned(true) && aligned(false)
}
