package pdf

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	// sectionNumber is a heading's number and what follows it: "2.3",
	// "3.2.1", "A.1", "IV.", "B", with an optional closing "." or ")".
	sectionNumber = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2}){0,4}|[A-Z](?:\.\d{1,2}){0,4}|[IVX]{1,6})([.)]?)\s+(\S.*)$`)
	// appendixNumber is "Appendix A", "Appendix 2: Proofs".
	appendixNumber = regexp.MustCompile(`^(?i:appendix)\s+([A-Z]|\d{1,2})\b[.:]?\s*(.*)$`)
	romanNumeral   = regexp.MustCompile(`^[IVX]{1,6}$`)
	// canonicalHeading are the unnumbered headings papers share.
	canonicalHeading = regexp.MustCompile(`(?i)^(abstract|introduction|related work|background|preliminaries|conclusions?|conclusion and future work|discussion|limitations|acknowledge?ments?|references|bibliography|appendix|appendices)$`)
	// referencesHeading starts a reference list.
	referencesHeading = regexp.MustCompile(`(?i)^(references|bibliography|works cited|literature cited|literature)$`)
	// captionStart is how a figure's or table's caption begins.
	captionStart = regexp.MustCompile(`^(Table|TABLE|Tab\.|Figure|FIGURE|Fig\.|Listing|Algorithm)\s*([0-9]+|[IVX]+|[A-Z]\.?[0-9]+)\s*[:.|—–]`)
)

// numbered is a heading's number, parsed.
type numbered struct {
	number string // "2.1", "A", "IV"; "" when the heading has none
	depth  int    // 1 for "2", 2 for "2.1"
	roman  bool
	letter bool
	title  string // the heading without its number
}

// parseNumber splits a heading line into its number and title. first is
// the line's first cell: a number set apart from the title by a wide gap
// (LaTeX's quad, Word's tab) is trusted even without a closing dot;
// otherwise a lone letter or roman numeral needs one ("A.", "IV.") so
// that "A Study of …" is not read as appendix A.
func parseNumber(text, first string) numbered {
	if m := appendixNumber.FindStringSubmatch(text); m != nil {
		return numbered{number: m[1], depth: 1, letter: true, title: strings.TrimSpace(m[2])}
	}
	m := sectionNumber.FindStringSubmatch(text)
	if m == nil {
		return numbered{title: text}
	}
	num, dot, title := m[1], m[2], m[3]
	apart := first == num || first == num+dot
	r, _ := utf8.DecodeRuneInString(title)
	if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
		return numbered{title: text}
	}
	n := numbered{number: num, title: title, depth: strings.Count(num, ".") + 1}
	switch {
	case romanNumeral.MatchString(num):
		if dot == "" && !apart {
			return numbered{title: text}
		}
		n.roman = true
	case num[0] >= 'A' && num[0] <= 'Z':
		if dot == "" && !apart && n.depth == 1 {
			return numbered{title: text}
		}
		n.letter = true
	}
	return n
}

// normTitle is a heading's text reduced for comparison: lower case,
// letters and digits only, single spaces.
func normTitle(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}
