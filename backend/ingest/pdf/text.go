package pdf

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ligatures maps the presentation forms fonts draw as one glyph to the
// letters they stand for.
var ligatures = strings.NewReplacer(
	"\uFB00", "ff", "\uFB01", "fi", "\uFB02", "fl", "\uFB03", "ffi",
	"\uFB04", "ffl", "\uFB05", "st", "\uFB06", "st",
	"\u00A0", " ", "\u2002", " ", "\u2003", " ", "\u2009", " ", "\u202F", " ",
	"\u2010", "-", "\u2011", "-", "\u00AD", "-",
	"\u200B", "", "\uFEFF", "",
)

// spacingAccents are the accents TeX's old font encoding sets as a glyph
// of their own before the letter ("K¨uttler"), with the combining mark
// each stands for.
var spacingAccents = map[rune]rune{
	'\u00A8': '\u0308', // diaeresis
	'\u00B4': '\u0301', // acute
	'\u02C6': '\u0302', // circumflex
	'\u02DC': '\u0303', // tilde
	'\u02C7': '\u030C', // caron
	'\u02D8': '\u0306', // breve
	'\u02DA': '\u030A', // ring
	'\u00AF': '\u0304', // macron
	'\u02D9': '\u0307', // dot above
}

// cleanText undoes ligatures and spacing accents and collapses white
// space, for the text of one run.
func cleanText(s string) string {
	s = ligatures.Replace(s)
	if strings.ContainsFunc(s, func(r rune) bool { _, ok := spacingAccents[r]; return ok }) {
		s = composeAccents(s)
	}
	if !norm.NFC.IsNormalString(s) {
		s = norm.NFC.String(s)
	}
	return collapseSpace(s)
}

// composeAccents puts an accent that precedes a letter onto it.
func composeAccents(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if mark, ok := spacingAccents[rs[i]]; ok && i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
			b.WriteRune(rs[i+1])
			b.WriteRune(mark)
			i++
			continue
		}
		b.WriteRune(rs[i])
	}
	return norm.NFC.String(b.String())
}

func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// joinLines joins the lines of a paragraph, undoing the hyphenation of
// words broken at a line's end.
func joinLines(lines []string, vocab vocabulary) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 && b.Len() > 0 {
			joinBreak(&b, l, vocab)
		}
		b.WriteString(l)
	}
	return b.String()
}

// joinBreak ends b so that next can follow: a hyphen that only broke a
// word goes, otherwise a space separates the two.
func joinBreak(b *strings.Builder, next string, vocab vocabulary) {
	s := b.String()
	if !strings.HasSuffix(s, "-") {
		b.WriteByte(' ')
		return
	}
	head := lastWord(s[:len(s)-1])
	tail := firstWord(next)
	switch {
	case head == "":
		b.WriteByte(' ') // a dash standing alone, not a word's hyphen
	case dehyphenate(head, tail, vocab):
		b.Reset()
		b.WriteString(s[:len(s)-1])
	}
}

// dehyphenate tells whether "head-" at a line's end and "tail" at the next
// line's start are one word the typesetter broke. A lowercase letter on
// both sides says so, unless the word is a compound: head holds a hyphen
// already ("state-of-" "the-art"), or the document writes the compound
// with its hyphen and never without.
func dehyphenate(head, tail string, vocab vocabulary) bool {
	last, _ := utf8.DecodeLastRuneInString(head)
	first, _ := utf8.DecodeRuneInString(tail)
	if !unicode.IsLower(last) || !unicode.IsLower(first) {
		return false
	}
	if strings.Contains(head, "-") {
		return false
	}
	joined := strings.ToLower(head + tail)
	hyphened := strings.ToLower(head + "-" + tail)
	return !(vocab[hyphened] > 0 && vocab[joined] == 0)
}

func lastWord(s string) string {
	i := strings.LastIndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == '[' || r == '"' || r == '“' })
	return s[i+1:]
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
}

// vocabulary counts the words (lower-cased, hyphenated compounds whole)
// of a document's lines, so that a hyphen at a line's end can be judged by
// how the document writes the word elsewhere.
type vocabulary map[string]int

func (v vocabulary) add(line string) {
	for _, w := range strings.Fields(line) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w != "" && !strings.HasSuffix(w, "-") {
			v[strings.ToLower(w)]++
		}
	}
}

// endsSentence tells whether text ends a sentence (or a clause that a
// heading or list could end on).
func endsSentence(s string) bool {
	s = strings.TrimRight(s, ")]\"'’”")
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?:;", r)
}

// startsLower tells whether text starts with a lowercase letter.
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}
