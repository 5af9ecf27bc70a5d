package classify

import "strings"

// This file holds the line kinds and the markdown matchers; logs.go and
// shape.go hold the rest. Matchers work on bytes and never allocate; each
// looks at a bounded prefix of the line where it can, so a 100 KB single line
// costs little more than a few scans.

// lineKind is what a single line looks like on its own.
type lineKind uint8

const (
	kindBlank      lineKind = iota // nothing but whitespace
	kindProse                      // paragraph text, list items, table rows
	kindHeading                    // markdown ATX heading (prose)
	kindCode                       // source code
	kindFence                      // ``` or ~~~ fence marker (code)
	kindLog                        // log record
	kindStack                      // stack frame or its header (logs)
	kindData                       // CSV/TSV row, key: value, numbers
	kindStructured                 // JSON block or XML/HTML markup
)

// segClass groups line kinds into the classes Split cuts between.
type segClass uint8

const (
	segNone segClass = iota // blank: joins whatever surrounds it
	segProse
	segCode
	segLogs
	segData
	segStructured
	numSegs
)

func (k lineKind) seg() segClass {
	switch k {
	case kindProse, kindHeading:
		return segProse
	case kindCode, kindFence:
		return segCode
	case kindLog, kindStack:
		return segLogs
	case kindData:
		return segData
	case kindStructured:
		return segStructured
	}
	return segNone
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isAlpha(c byte) bool { return isUpper(c) || isLower(c) }
func isIdent(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' }

// trimSpace trims ASCII whitespace; it returns the trimmed string and the
// number of leading bytes removed.
func trimSpace(s string) (string, int) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	j := len(s)
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j], i
}

// isHeading matches a markdown ATX heading: 1–6 '#', a space, some text.
func isHeading(t string) bool {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && n+1 < len(t) && t[n] == ' '
}

// listItemLen returns the length of a markdown list marker at the start of t
// ("- ", "* ", "+ ", "12. ", "3) ", "a) ", "(b) "), or 0.
func listItemLen(t string) int {
	if len(t) < 3 {
		return 0
	}
	if (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		return 2
	}
	i := 0
	if t[0] == '(' {
		i = 1
	}
	j := i
	for j < len(t) && j-i < 3 && isDigit(t[j]) {
		j++
	}
	if j == i && j < len(t) && isLower(t[j]) {
		j++
	}
	if j == i || j+1 >= len(t) || t[j+1] != ' ' {
		return 0
	}
	if t[j] == ')' || (t[j] == '.' && i == 0 && isDigit(t[i])) {
		return j + 2
	}
	return 0
}

// isTableRow matches a markdown pipe-table row, separators included.
func isTableRow(t string) bool {
	return len(t) >= 3 && t[0] == '|' && t[len(t)-1] == '|'
}

// isMarkup matches a line that opens with an XML/HTML tag, declaration or
// comment.
func isMarkup(t string) bool {
	if len(t) < 3 || t[0] != '<' {
		return false
	}
	c := t[1]
	if !isAlpha(c) && c != '/' && c != '?' && c != '!' {
		return false
	}
	return strings.IndexByte(t, '>') > 0
}
