package pdf

import (
	"regexp"
)

// referenceMark is how a numbered reference entry starts: "[12]",
// "[Smi20]", "12.", "(12)".
var referenceMark = regexp.MustCompile(`^(\[[^\]\s]{1,12}\]|\d{1,3}\.\s|\(\d{1,3}\)\s)`)

// referenceEntries splits a reference list's lines into entries: at each
// numbered mark when the list has them, else at each line that starts at
// the margin while the others hang indented, else at paragraph breaks.
func (a *analysis) referenceEntries(lines []*line) [][]*line {
	if len(lines) == 0 {
		return nil
	}
	marked := 0
	for _, l := range lines {
		if referenceMark.MatchString(l.text) {
			marked++
		}
	}
	// A hanging indent: entries start at the list's left edge (in each
	// column), their other lines further right.
	edge := map[int]float64{}
	for _, l := range lines {
		if e, ok := edge[l.seg]; !ok || l.x0 < e {
			edge[l.seg] = l.x0
		}
	}
	hangs := func(l *line) bool { return l.x0-edge[l.seg] >= 0.6*a.em() }
	hanging := 0
	for _, l := range lines {
		if hangs(l) {
			hanging++
		}
	}
	var starts func(i int) bool
	switch {
	case marked >= 2 || marked == 1 && len(lines) <= 3:
		starts = func(i int) bool { return referenceMark.MatchString(lines[i].text) }
	case hanging*3 >= len(lines) && hanging < len(lines):
		starts = func(i int) bool { return !hangs(lines[i]) && !a.continues(lines[i-1], lines[i]) }
	default:
		starts = func(i int) bool { return a.breaks(lines[i-1], lines[i]) }
	}
	var out [][]*line
	for i, l := range lines {
		if i == 0 || starts(i) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], l)
	}
	return out
}

// continues tells whether l carries on p's entry across a column or page
// break (where the margin comparison says nothing).
func (a *analysis) continues(p, l *line) bool {
	return p.seg != l.seg && !endsSentence(p.text) && startsLower(l.text)
}
