package pdf

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// headingStyle is how a heading is set: its size (to half a point) and
// whether it is bold. Headings of one style share a level.
type headingStyle struct {
	size float64
	bold bool
}

func styleOf(l *line) headingStyle {
	return headingStyle{math.Round(l.size*2) / 2, l.isBold()}
}

// findHeadings marks the heading lines and their levels. With an outline,
// the outline says which lines are headings and how deep; the paper's
// typography adds the numbered headings it leaves out. Without one, a
// heading is a short line set larger than the body or bold, numbered or
// capitalised, and its level comes from its number's depth or, for an
// unnumbered heading, from the level of numbered headings of its style.
func (a *analysis) findHeadings() {
	candidates := map[int]numbered{}
	for i, l := range a.lines {
		if a.roles[i] != roleBody {
			continue
		}
		if n, ok := a.headingCandidate(l); ok {
			candidates[i] = n
		}
	}
	a.dropParagraphLines(candidates)
	a.mergeWrapped(candidates)
	if matched := a.applyOutline(); len(matched) > 0 {
		a.keepNumbered(candidates, matched)
		return
	}
	a.levelByNumbers(candidates)
}

// headingCandidate tells whether a line looks like a heading, and parses
// its number.
func (a *analysis) headingCandidate(l *line) (numbered, bool) {
	text := l.text
	words := len(strings.Fields(text))
	if letters(text) < 2 || words > 16 || len(text) > 140 || captionStart.MatchString(text) {
		return numbered{}, false
	}
	if strings.HasSuffix(text, ",") || strings.HasSuffix(text, ";") || strings.HasSuffix(text, "-") {
		return numbered{}, false
	}
	n := parseNumber(text, l.cells[0].text)
	larger := l.size >= 1.12*a.body
	bold := l.isBold() && l.size >= 0.85*a.body
	canonical := canonicalHeading.MatchString(n.title)
	caps := allCaps(n.title)
	sentence := strings.HasSuffix(text, ".") && words > 6
	switch {
	case (larger || bold) && !sentence && (n.depth > 0 || canonical || startsUpperOrDigit(n.title)):
		return n, true
	case n.depth > 0 && caps && words <= 8:
		return n, true
	case canonical && (caps || len(l.cells) == 1 && words <= 3):
		return n, true
	}
	return numbered{}, false
}

// dropParagraphLines drops the candidates that go on from the line above:
// the last lines of a paragraph set in bold, say, where the line above
// has the same style, sits at the usual line distance and is no heading.
func (a *analysis) dropParagraphLines(candidates map[int]numbered) {
	var drop []int
	for i := range candidates {
		if i == 0 {
			continue
		}
		p, l := a.lines[i-1], a.lines[i]
		if _, heading := candidates[i-1]; heading || a.roles[i-1] != roleBody {
			continue
		}
		if p.seg == l.seg && styleOf(p) == styleOf(l) && l.y0-p.y1 <= a.lineGap+0.3*a.em() {
			drop = append(drop, i)
		}
	}
	for _, i := range drop {
		delete(candidates, i)
	}
}

// mergeWrapped joins a heading that wraps onto a second line of the same
// style into its first line.
func (a *analysis) mergeWrapped(candidates map[int]numbered) {
	for i := 1; i < len(a.lines); i++ {
		p, l := a.lines[i-1], a.lines[i]
		first, ok := candidates[i-1]
		if !ok || a.roles[i] != roleBody || p.seg != l.seg || styleOf(p) != styleOf(l) || l.y0-p.y1 > 0.6*p.height() {
			continue
		}
		if n, isHeading := candidates[i]; isHeading && n.depth > 0 {
			continue // the next heading, not this one's second line
		}
		if !(l.isBold() || l.size >= 1.12*a.body) || len(strings.Fields(l.text)) > 10 {
			continue
		}
		p.text = joinLines([]string{p.text, l.text}, a.vocab)
		first.title = joinLines([]string{first.title, l.text}, a.vocab)
		candidates[i-1] = first
		delete(candidates, i)
		a.roles[i] = roleDropped
	}
}

// levelByNumbers gives every candidate its level: a number's depth, else
// the level numbered headings of the same style have, else one more than
// the nearest larger style's.
func (a *analysis) levelByNumbers(candidates map[int]numbered) {
	hasRoman := false
	for _, n := range candidates {
		hasRoman = hasRoman || n.roman
	}
	depth := func(n numbered) int {
		if n.letter && hasRoman && !strings.Contains(n.number, ".") {
			return 2 // IEEE: I. Introduction, A. Subsection
		}
		return n.depth
	}
	votes := map[headingStyle]map[int]int{}
	for i, n := range candidates {
		if d := depth(n); d > 0 {
			s := styleOf(a.lines[i])
			if votes[s] == nil {
				votes[s] = map[int]int{}
			}
			votes[s][d]++
		}
	}
	levels := map[headingStyle]int{}
	for s, v := range votes {
		best := 0
		for d, c := range v {
			if c > v[best] || c == v[best] && d < best {
				best = d
			}
		}
		levels[s] = best
	}
	var styles []headingStyle
	seen := map[headingStyle]bool{}
	for i := range candidates {
		if s := styleOf(a.lines[i]); !seen[s] {
			seen[s] = true
			styles = append(styles, s)
		}
	}
	sort.Slice(styles, func(i, j int) bool {
		if styles[i].size != styles[j].size {
			return styles[i].size > styles[j].size
		}
		return styles[i].bold && !styles[j].bold
	})
	level := 0
	for _, s := range styles {
		if l, ok := levels[s]; ok {
			level = l
			continue
		}
		level++
		levels[s] = level
	}
	for i, n := range candidates {
		a.roles[i] = roleHeading
		if d := depth(n); d > 0 {
			a.levels[i] = d
		} else {
			a.levels[i] = max(1, levels[styleOf(a.lines[i])])
		}
	}
}

// keepNumbered adds to the outline's headings the candidates it does not
// list: those set like an outline heading, at its level; the canonical
// ones (an outline rarely lists the abstract), at level 1; the numbered
// ones (an outline of sections only, say), at their numbers' depth.
func (a *analysis) keepNumbered(candidates map[int]numbered, matched map[int]bool) {
	styleLevel := map[headingStyle]int{}
	for i := range matched {
		styleLevel[styleOf(a.lines[i])] = a.levels[i]
	}
	for i, n := range candidates {
		if matched[i] || a.roles[i] != roleBody {
			continue
		}
		if l, ok := styleLevel[styleOf(a.lines[i])]; ok {
			a.roles[i], a.levels[i] = roleHeading, l
		} else if canonicalHeading.MatchString(n.title) {
			a.roles[i], a.levels[i] = roleHeading, 1
		} else if n.depth > 0 && (a.lines[i].isBold() || a.lines[i].size >= 1.12*a.body) {
			a.roles[i], a.levels[i] = roleHeading, n.depth
		}
	}
}

func allCaps(s string) bool {
	n := 0
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n >= 4
}

func startsUpperOrDigit(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r) || unicode.IsDigit(r)
	}
	return false
}
