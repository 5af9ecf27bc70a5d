package pdf

import (
	"math"
	"regexp"
	"strings"
	"unicode"
)

var (
	// junkTitle matches what authoring tools leave in the information
	// dictionary's Title instead of a title.
	junkTitle = regexp.MustCompile(`(?i)^(microsoft (word|powerpoint|excel)\b|untitled|title$|document\d*$|slide \d+)|\.(docx?|pdf|tex|dvi|ps|eps|indd|rtf|odt|pages)$|^(arxiv|doi)\b`)
	// affiliation matches lines that name a place of work, not a person.
	affiliation = regexp.MustCompile(`(?i)\b(universit\w*|institut\w*|department|dept|school|college|laborator\w*|labs?|research|inc|ltd|llc|gmbh|corporation|corp|cent(er|re)|faculty|academy|hospital|foundation)\b|@|https?:|www\.`)
	// nameToken is one word of a person's name: "Ada", "O'Neil",
	// "Jean-Luc", "McGranaghan", an initial "H." or "J.-P.".
	nameToken = regexp.MustCompile(`^(\p{Lu}\p{Ll}*(\p{Lu}\p{Ll}+)?(['’\-]\p{Lu}?\p{Ll}+)*|\p{Lu}\.(-?\p{Lu}\.)*)$`)
	// nameParticles may stand in lower case inside a name.
	nameParticles = map[string]bool{"van": true, "von": true, "der": true, "den": true, "de": true, "del": true, "della": true, "di": true, "da": true, "du": true, "le": true, "la": true, "dos": true, "bin": true, "al": true}
	// authorSplit separates the names of an author line.
	authorSplit = regexp.MustCompile(`\s*(,|;|\band\b|&|·)\s*`)
	// noteMarks are the footnote and affiliation marks after a name.
	noteMarks   = regexp.MustCompile(`[\d*†‡§¶∗⋆♠♣♦♥#]+$`)
	yearPattern = regexp.MustCompile(`\b(19[5-9][0-9]|20[0-9][0-9])\b`)
)

// frontMatter finds the first page's lines before the text starts, takes
// the title (the largest text in the top half) and the author lines out
// of them, and leaves the rest (affiliations, a date) as text.
func (a *analysis) frontMatter() {
	first := a.lines[0].page
	var front []int
	for i, l := range a.lines {
		if l.page != first || a.startsText(l) {
			break
		}
		front = append(front, i)
	}
	if len(front) == 0 {
		return
	}
	height := a.pageHeight(first)
	top := 0.0
	for _, i := range front {
		l := a.lines[i]
		if l.y0 < height/2 && l.size >= 1.15*a.body && letters(l.text) >= 2 {
			top = math.Max(top, l.size)
		}
	}
	rest := front
	if top > 0 {
		var title []string
		var prev *line
		start := -1
		for k, i := range front {
			l := a.lines[i]
			if math.Abs(l.size-top) < 0.5 && (prev == nil || l.y0-prev.y1 < 1.5*l.height()) {
				if start < 0 {
					start = k
				}
				title = append(title, l.text)
				a.roles[i] = roleDropped
				prev = l
			} else if prev != nil {
				break
			}
		}
		if start >= 0 {
			a.title = joinLines(title, a.vocab)
			rest = front[start+len(title):]
		}
	}
	for _, i := range rest {
		l := a.lines[i]
		a.front = append(a.front, l)
		if affiliation.MatchString(l.text) {
			continue
		}
		names := authorNames(l)
		if names == nil {
			if len(a.authors) > 0 {
				break
			}
			continue
		}
		a.authors = append(a.authors, names...)
		a.roles[i] = roleDropped
	}
}

// startsText tells whether a line begins the paper's text: a paragraph's
// line, or a heading such as "Abstract" or "1 Introduction".
func (a *analysis) startsText(l *line) bool {
	if a.bodySized(l) && len(strings.Fields(l.text)) >= 7 {
		return true
	}
	n := parseNumber(l.text, l.cells[0].text)
	if canonicalHeading.MatchString(n.title) || canonicalHeading.MatchString(strings.TrimRight(l.text, ".:—- ")) {
		return true
	}
	if n.depth > 0 && (l.isBold() || l.size > a.body*1.1) {
		return true
	}
	for _, o := range a.raw.Outline {
		if o.Page == l.page && normTitle(o.Title) == normTitle(l.text) && normTitle(o.Title) != normTitle(a.raw.Title) {
			return true
		}
	}
	return false
}

// authorNames reads a line as a list of people's names, or gives nil.
func authorNames(l *line) []string {
	var names []string
	for _, c := range l.cells {
		for _, part := range authorSplit.Split(c.text, -1) {
			part = strings.TrimSpace(noteMarks.ReplaceAllString(strings.TrimSpace(part), ""))
			if part == "" {
				continue
			}
			if !personName(part) {
				return nil
			}
			names = append(names, part)
		}
	}
	return names
}

// personName tells whether s looks like a person's name: two to five
// capitalised words or initials, particles (van, de) allowed inside.
func personName(s string) bool {
	words := strings.Fields(s)
	if len(words) < 2 || len(words) > 5 {
		return false
	}
	full := 0
	for i, w := range words {
		switch {
		case nameParticles[w] && i > 0 && i < len(words)-1:
		case nameToken.MatchString(w):
			if !strings.HasSuffix(w, ".") {
				full++
			}
		default:
			return false
		}
	}
	return full > 0 && !strings.HasSuffix(words[len(words)-1], ".")
}

// docTitle is the information dictionary's title when it is a real one,
// else the title on the first page.
func (a *analysis) docTitle() string {
	if t := collapseSpace(cleanText(a.raw.Title)); goodTitle(t) {
		return t
	}
	return a.title
}

func goodTitle(t string) bool {
	return len(strings.Fields(t)) >= 2 && letters(t) >= 4 && !junkTitle.MatchString(t)
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

func (a *analysis) pageHeight(page int) float64 {
	for i, p := range a.raw.Pages {
		if p.Number == page || p.Number <= 0 && i+1 == page {
			return p.Height
		}
	}
	return 792
}
