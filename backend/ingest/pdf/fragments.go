package pdf

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fragmentGap is the widest gap, in ems, inside a fragment. Word spaces
// (a third of an em, half an em when a justified line stretches) stay
// inside; the gap between table cells (an em or more) and the gutter
// between columns end a fragment.
const fragmentGap = 0.75

// fragment is a stretch of text on one line with no wide gap in it: a
// column's line, a table cell, a page header's left half. Layout works
// on fragments, never on runs, so it does not care how an extractor cut
// a line into runs.
type fragment struct {
	x0, y0, x1, y1 float64
	text           string
	// size is the font size most of its characters have; chars counts
	// them and bold the ones in a bold face.
	size  float64
	chars int
	bold  int
	runs  []Run
}

func (f *fragment) height() float64 { return f.y1 - f.y0 }
func (f *fragment) width() float64  { return f.x1 - f.x0 }
func (f *fragment) center() float64 { return (f.y0 + f.y1) / 2 }

// sideways tells whether a run is set turned on the page (arXiv's stamp
// in the left margin, a rotated table header): taller than wide by far.
func sideways(r Run) bool {
	h, w := r.Y1-r.Y0, r.X1-r.X0
	return h > 2.5*runSize(r) && w < h/2 && utf8.RuneCountInString(r.Text) > 1
}

// sane tells whether a run's numbers describe a box on a page: finite,
// within a few metres of the origin, not inverted. Any extractor can send
// nonsense; layout skips it rather than reason about it.
func sane(r Run) bool {
	for _, v := range []float64{r.X0, r.Y0, r.X1, r.Y1, r.Size} {
		if math.IsNaN(v) || math.Abs(v) > 1e5 {
			return false
		}
	}
	return r.X1 >= r.X0 && r.Y1 > r.Y0 && r.Size <= 1000
}

func runSize(r Run) float64 {
	if r.Size > 0 {
		return r.Size
	}
	return math.Max(r.Y1-r.Y0, 1)
}

// vOverlap is how much two vertical extents overlap, as a share of the
// smaller one.
func vOverlap(a0, a1, b0, b1 float64) float64 {
	h := math.Min(a1-a0, b1-b0)
	if h <= 0 {
		return 0
	}
	return (math.Min(a1, b1) - math.Max(a0, b0)) / h
}

// fragments groups a page's upright runs into fragments, sweeping left to
// right: a run joins the fragment that ends just before it on the same
// line, or starts a new one.
func fragments(runs []Run) []*fragment {
	sorted := make([]Run, 0, len(runs))
	for _, r := range runs {
		text := cleanText(r.Text)
		if text == "" || !sane(r) || sideways(r) {
			continue
		}
		// A span that starts or ends with a space (pdf.js gives such)
		// keeps one, so that the word boundary survives the join.
		if startsSpace(r.Text) {
			text = " " + text
		}
		if endsSpace(r.Text) {
			text += " "
		}
		r.Text = text
		sorted = append(sorted, r)
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].X0 < sorted[j].X0 })
	var done, open []*fragment
	for _, r := range sorted {
		em := runSize(r)
		// Fragments that end too far left to take this run can take no
		// later one either.
		kept := open[:0]
		for _, f := range open {
			if f.x1+fragmentGap*math.Max(em, f.size) < r.X0 {
				done = append(done, f)
			} else {
				kept = append(kept, f)
			}
		}
		open = kept
		var best *fragment
		bestOverlap := 0.5
		for _, f := range open {
			if r.X0 < f.x1-0.5*em {
				continue // overlaps the fragment: another line's text
			}
			if o := vOverlap(f.y0, f.y1, r.Y0, r.Y1); o >= bestOverlap {
				best, bestOverlap = f, o
			}
		}
		if best == nil {
			best = &fragment{x0: r.X0, y0: r.Y0, x1: r.X1, y1: r.Y1}
			open = append(open, best)
		}
		best.runs = append(best.runs, r)
		best.x1 = math.Max(best.x1, r.X1)
		// Only runs of the body's size set a fragment's height, so that a
		// superscript does not make its line tall.
		if len(best.runs) == 1 || runSize(r) >= best.size*0.9 {
			best.y0, best.y1 = math.Min(best.y0, r.Y0), math.Max(best.y1, r.Y1)
		}
		best.size = dominantSize(best.runs)
	}
	done = append(done, open...)
	for _, f := range done {
		f.finish()
	}
	sort.SliceStable(done, func(i, j int) bool {
		if math.Abs(done[i].center()-done[j].center()) > 1 {
			return done[i].center() < done[j].center()
		}
		return done[i].x0 < done[j].x0
	})
	return done
}

// dominantSize is the font size most characters of the runs have.
func dominantSize(runs []Run) float64 {
	counts := map[float64]int{}
	best, bestN := 0.0, -1
	for _, r := range runs {
		s := math.Round(runSize(r)*10) / 10
		counts[s] += utf8.RuneCountInString(r.Text)
		if counts[s] > bestN || counts[s] == bestN && s > best {
			best, bestN = s, counts[s]
		}
	}
	return best
}

// finish sets the fragment's text and character counts from its runs.
func (f *fragment) finish() {
	var b strings.Builder
	prevX1 := 0.0
	for i, r := range f.runs {
		n := utf8.RuneCountInString(strings.TrimSpace(r.Text))
		f.chars += n
		if r.Bold {
			f.bold += n
		}
		if i > 0 && r.X0-prevX1 > 0.12*runSize(r) {
			b.WriteByte(' ')
		}
		b.WriteString(r.Text)
		prevX1 = math.Max(prevX1, r.X1)
	}
	f.text = collapseSpace(b.String())
}

func startsSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

func endsSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(r)
}
