package tokens

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cl100k counts cl100k_base tokens without a regular-expression engine.
//
// tiktoken splits text into pieces with the pattern
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// and byte-pair-encodes each piece. tiktoken-go runs that pattern through
// regexp2, a backtracking engine, which made the pre-split ~85% of a count
// and token counting the largest cost of assembling a context (block
// headers and manifest lines are counted per query). nextPiece below is the
// same pattern written out by hand: each alternative tried in order at the
// current position, with the backtracking each one would do. It is checked
// against tiktoken-go itself (TestCL100KMatchesTiktoken: every code point
// class, the reference documents, random strings), and counting is ~15×
// faster. Text that is not valid UTF-8 is first read as runes, as
// tiktoken-go does (each bad byte becomes U+FFFD).
type cl100k struct {
	ranks map[string]int
}

// count returns the number of cl100k_base tokens of s.
func (e *cl100k) count(s string) int {
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	n := 0
	for i := 0; i < len(s); {
		j := nextPiece(s, i)
		n += e.pieceTokens(s[i:j])
		i = j
	}
	return n
}

// pieceTokens is the number of tokens byte-pair encoding makes of piece:
// tiktoken's merge (lowest-ranked adjacent pair first), counting only.
func (e *cl100k) pieceTokens(piece string) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := e.ranks[piece]; ok {
		return 1
	}
	// parts[i] = (start of part i, rank of merging parts i and i+1).
	var buf [64][2]int
	var parts [][2]int
	if len(piece)+1 <= len(buf) {
		parts = buf[:len(piece)+1]
	} else {
		parts = make([][2]int, len(piece)+1)
	}
	rank := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := e.ranks[piece[parts[i][0]:parts[i+skip+2][0]]]; ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := range parts {
		parts[i] = [2]int{i, math.MaxInt}
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i][1] = rank(i, 0)
	}
	for len(parts) > 1 {
		minRank, at := math.MaxInt, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i][1] < minRank {
				minRank, at = parts[i][1], i
			}
		}
		if at < 0 {
			break
		}
		parts[at][1] = rank(at, 1)
		if at > 0 {
			parts[at-1][1] = rank(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	return len(parts) - 1
}

// Character classes of the pattern. \s is regexp2's (that of .NET):
// [\f\n\r\t\v\x85\p{Z}].
func isL(r rune) bool { return unicode.IsLetter(r) }
func isN(r rune) bool { return unicode.IsNumber(r) }
func isS(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x85:
		return true
	}
	return unicode.In(r, unicode.Z)
}
func isNL(r rune) bool { return r == '\r' || r == '\n' }

// at decodes the rune at byte offset i of s (utf8.RuneError, 0 at the end).
func at(s string, i int) (rune, int) {
	if i >= len(s) {
		return utf8.RuneError, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// nextPiece returns the end of the piece that starts at byte i of s (valid
// UTF-8, i < len(s)); the alternatives in the pattern's order.
func nextPiece(s string, i int) int {
	r0, w0 := at(s, i)

	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if r0 == '\'' && i+1 < len(s) {
		rest := s[i+1:]
		for _, c := range [...]string{"s", "t", "re", "ve", "m", "ll", "d"} {
			if len(rest) >= len(c) && asciiFold(rest[:len(c)]) == c {
				return i + 1 + len(c)
			}
		}
	}

	// [^\r\n\p{L}\p{N}]?\p{L}+
	if isL(r0) {
		return letters(s, i+w0)
	}
	if !isNL(r0) && !isN(r0) {
		if r1, w1 := at(s, i+w0); w1 > 0 && isL(r1) {
			return letters(s, i+w0+w1)
		}
	}

	// \p{N}{1,3}
	if isN(r0) {
		j := i + w0
		for k := 0; k < 2; k++ {
			r, w := at(s, j)
			if w == 0 || !isN(r) {
				break
			}
			j += w
		}
		return j
	}

	// ' ?[^\s\p{L}\p{N}]+[\r\n]*'
	isP := func(r rune) bool { return !isS(r) && !isL(r) && !isN(r) }
	j := i
	if r0 == ' ' {
		j += w0
	}
	if r, w := at(s, j); w > 0 && isP(r) {
		j += w
		for {
			r, w := at(s, j)
			if w == 0 || !isP(r) {
				break
			}
			j += w
		}
		for j < len(s) && isNL(rune(s[j])) {
			j++
		}
		return j
	}

	// The rest start with whitespace; r0 is whitespace here (every other
	// rune began a piece above). end is the end of the whitespace run.
	end, lastNL := i, -1
	for {
		r, w := at(s, end)
		if w == 0 || !isS(r) {
			break
		}
		if isNL(r) {
			lastNL = end
		}
		end += w
	}
	// \s*[\r\n]+: up to the run's last line break.
	if lastNL >= 0 {
		return lastNL + 1
	}
	// \s+(?!\S): the run, less its last rune when text follows.
	if end == len(s) {
		return end
	}
	_, w := utf8.DecodeLastRuneInString(s[i:end])
	if end-w > i {
		return end - w
	}
	// \s+
	if end > i {
		return end
	}
	return i + w0 // not reached for valid input: every rune is in a class
}

// asciiFold lower-cases ASCII letters only, as regexp2's (?i) does for
// the pattern's letters (no Unicode folding: 'ſ' is not 's' there).
func asciiFold(s string) string {
	for k := 0; k < len(s); k++ {
		if c := s[k]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// letters returns the end of the run of letters from byte j.
func letters(s string, j int) int {
	for {
		r, w := at(s, j)
		if w == 0 || !isL(r) {
			return j
		}
		j += w
	}
}
