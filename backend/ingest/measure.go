package ingest

import (
	"unicode"
	"unicode/utf8"
)

// Counting tokens of huge or degenerate text.
//
// A BPE counter first splits text into pieces (tiktoken's pattern: runs of
// letters, up to three digits, runs of punctuation, runs of white space)
// and then merges each piece, at a cost that grows with the square of the
// piece's length. Prose has short pieces, but a 31 MB run of one letter, an
// 80 KB table delimiter row ("|-|-|…") or megabytes of spaces are a single
// piece each and would take hours. countTokens counts text that holds such
// a run in slices instead (each within a token or so of what the whole
// would give); other text is counted whole, exactly as CountTokens counts
// it.

// maxRun is the longest stretch of text without a place where a BPE
// pre-split always breaks that is counted whole. Ordinary writing stays
// below it (a clause of Japanese, a wide table's delimiter row); a longer
// stretch is counted in slices of runSlice bytes, whose merges cost little.
const (
	maxRun   = 512
	runSlice = 64
)

// longTail is how far the prefix measure lets its uncounted tail grow
// before it looks for a break inside it (see prefixMeasure).
const longTail = 64

// isTokenSpace is \s as the pre-split pattern means it (that of .NET's
// regular expressions): [\f\n\r\t\v\x85\p{Z}].
func isTokenSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x85:
		return true
	}
	return r >= 0xa0 && unicode.In(r, unicode.Z) || r == ' '
}

// Rune classes of the pre-split pattern.
const (
	classOther   = iota // punctuation, symbols, marks
	classLetter         // \p{L}
	classNumber         // \p{N}
	classSpace          // \s but line breaks
	classNewline        // \r, \n
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		t[c] = classOf(rune(c))
	}
	return t
}()

func classOf(r rune) uint8 {
	switch {
	case r == '\n' || r == '\r':
		return classNewline
	case unicode.IsLetter(r):
		return classLetter
	case unicode.IsNumber(r):
		return classNumber
	case isTokenSpace(r):
		return classSpace
	}
	return classOther
}

// breaks[a][b] tells whether cl100k_base's pre-split always ends a piece
// between a rune of class a and one of class b, whatever comes before or
// after: no alternative of its pattern can hold both. (Digits are grouped
// by three from the start of their run; the callers track that.)
var breaks = func() (t [5][5]bool) {
	for a := range t {
		for b := range t[a] {
			aS := a == classSpace || a == classNewline
			bS := b == classSpace || b == classNewline
			t[a][b] = a == classLetter && b != classLetter ||
				a == classNumber && b != classNumber ||
				// Not after a space: "  1" is " ", " ", "1" but "  " alone
				// one piece.
				b == classNumber && a != classNumber && a != classSpace ||
				!aS && b == classSpace || // a punctuation run takes only line breaks after it
				a == classNewline && !bS
		}
	}
	return t
}()

// forcedCuts calls cut, in order, at every place where s must be sliced:
// a stretch longer than maxRun without a piece break is cut every runSlice
// bytes (at character boundaries).
func forcedCuts(s string, cut func(at int)) {
	runStart := 0 // where the current stretch without a break began
	long := false // it is longer than maxRun
	from := 0     // where its current slice began
	var prev uint8
	digits := 0 // length of the digit run that ends before i
	for i := 0; i < len(s); {
		var class uint8
		w := 1
		if c := s[i]; c < utf8.RuneSelf {
			class = asciiClass[c]
		} else {
			var r rune
			r, w = utf8.DecodeRuneInString(s[i:])
			class = classOf(r)
		}
		if i > 0 {
			br := breaks[prev][class]
			if class == classNumber && prev == classNumber {
				br = digits%3 == 0
			}
			switch {
			case br:
				runStart, long = i, false
			case long:
				if i-from >= runSlice {
					cut(i)
					from = i
				}
			case i-runStart >= maxRun:
				long, from = true, runStart
				for j := runStart; j <= i; j++ {
					if j-from >= runSlice && utf8.RuneStart(s[j]) {
						cut(j)
						from = j
					}
				}
			}
		}
		if class == classNumber {
			digits++
		} else {
			digits = 0
		}
		prev = class
		i += w
	}
}

// countTokens is count(s), except that a text holding a stretch longer
// than maxRun without a piece break is counted in slices (see above).
func countTokens(count func(string) int, s string) int {
	if len(s) <= maxRun {
		return count(s)
	}
	n, from := 0, 0
	forcedCuts(s, func(at int) {
		n += count(s[from:at])
		from = at
	})
	return n + count(s[from:])
}

// runeBefore is the rune that ends s[:i] (0 at the start).
func runeBefore(s string, i int) rune {
	if i <= 0 {
		return 0
	}
	if c := s[i-1]; c < utf8.RuneSelf {
		return rune(c)
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// prefixMeasure counts the tokens of s[start:i] for a fixed start and a
// growing i without counting the prefix again each time. A BPE counter's
// count of a text is the sum of the counts of parts cut where its
// pre-split always breaks (see breaks), so the measure keeps the count
// of s[start:base], base being the last such break it met, and counts only
// the tail after it. A tail of spaces (a diagram in a code block) is
// counted once per length. Only a tail of white space longer than longTail
// that is not all spaces (or of spaces longer than maxRun) has no break to
// use: base then moves to i itself, and the count is the sum of the parts,
// close to the count of the whole but not always equal. The byte-length
// estimate (estimate) is measured directly.
type prefixMeasure struct {
	s        string
	count    func(string) int
	estimate bool
	spaces   map[int]int // tokens of n spaces, shared by the measures of one document

	start int
	base  int // s[start:base] has been counted, in acc
	acc   int
	// scan is where the search for a break in the tail goes on (all of
	// s[base:scan] has none), prev the rune before it.
	scan int
	prev rune
}

func (m *prefixMeasure) reset(start int) {
	m.start, m.base, m.acc = start, start, 0
	m.scan = start
}

func (m *prefixMeasure) absorb(to int) {
	if to > m.base {
		m.acc += countTokens(m.count, m.s[m.base:to])
		m.base, m.scan = to, to
	}
}

// exceeds reports whether s[start:i] counts more than limit tokens; i must
// not go back between resets and must fall on a space or a line break (a
// word boundary) or at the end of s.
func (m *prefixMeasure) exceeds(i, limit int) bool {
	if m.estimate {
		return (i-m.start+3)/4 > limit
	}
	if i > m.base && i < len(m.s) {
		prev := runeBefore(m.s, i)
		if m.s[i] == ' ' && !isTokenSpace(prev) || m.s[i] == '\n' && (unicode.IsLetter(prev) || unicode.IsNumber(prev)) {
			m.absorb(i)
		}
	}
	if i-m.base > longTail {
		if b := m.lastBreak(i); b > m.base {
			m.absorb(b)
		}
	}
	tail := m.s[m.base:i]
	if m.acc+len(tail) <= limit {
		return false // no token is shorter than a byte
	}
	if len(tail) > longTail && onlySpaces(tail) && len(tail) <= maxRun {
		n, ok := m.spaces[len(tail)]
		if !ok {
			n = m.count(tail)
			if m.spaces != nil {
				m.spaces[len(tail)] = n
			}
		}
		return m.acc+n > limit
	}
	if len(tail) > longTail && onlyWhite(tail) {
		m.absorb(i)
		return m.acc > limit
	}
	return m.acc+countTokens(m.count, tail) > limit
}

// lastBreak is the last place in (base, i) where the pre-split always
// breaks, or -1 when there is none.
func (m *prefixMeasure) lastBreak(i int) int {
	last := -1
	j, prev := m.scan, m.prev
	if j == m.base {
		r, w := utf8.DecodeRuneInString(m.s[j:])
		j, prev = j+w, r
	}
	for j < i {
		r, w := rune(m.s[j]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(m.s[j:])
		}
		if breaks[classOf(prev)][classOf(r)] {
			last = j
		}
		prev = r
		j += w
	}
	if last < 0 {
		m.scan, m.prev = j, prev
	}
	return last
}

func onlySpaces(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			return false
		}
	}
	return true
}

func onlyWhite(s string) bool {
	for _, r := range s {
		if !isTokenSpace(r) {
			return false
		}
	}
	return true
}
