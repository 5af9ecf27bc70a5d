package ingest

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Titles for text without headings. A plain-text paper split into
// paragraphs would otherwise list N sections under one name; each section
// gets a title from its own words instead: its first sentence when that is
// short, else its opening words up to a natural break.

const (
	titleMaxWords = 10 // a first sentence this short is the title
	titleCutWords = 8  // otherwise the opening words, this many at most
	titleMaxBytes = 90
)

// titleSections gives every section without a heading a title drawn from
// its text (as a one-element heading path), unique within the document.
func titleSections(secs []Section) {
	seen := map[string]int{}
	for i := range secs {
		if len(secs[i].HeadingPath) > 0 {
			continue
		}
		t := titleFrom(secs[i].Text)
		if t == "" {
			continue
		}
		key := strings.ToLower(t)
		seen[key]++
		if n := seen[key]; n > 1 {
			t += " (" + strconv.Itoa(n) + ")"
		}
		secs[i].HeadingPath = []string{t}
	}
}

// titleFrom is a short title for a passage: its first sentence if that has
// at most titleMaxWords words, else its first words up to a comma, colon or
// semicolon (or titleCutWords words), with an ellipsis.
func titleFrom(text string) string {
	line := firstLine(text)
	if line == "" {
		return ""
	}
	sentence, whole := firstSentence(line)
	words := strings.Fields(sentence)
	if len(words) <= titleMaxWords && (whole || sentence == line) {
		return clip(strings.Join(words, " "), false)
	}
	words = strings.Fields(line)
	cut := min(len(words), titleCutWords)
	for i := 2; i < cut; i++ { // a natural break after three words or more
		if w := words[i]; strings.HasSuffix(w, ",") || strings.HasSuffix(w, ";") || strings.HasSuffix(w, ":") {
			cut = i + 1
			break
		}
	}
	t := strings.TrimRight(strings.Join(words[:cut], " "), ",;:.—–-")
	return clip(t, cut < len(words) || !whole)
}

// firstLine is the first line with a letter or digit, without list marks,
// quote marks or comment marks in front.
func firstLine(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimLeftFunc(line, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '(' && r != '"' && r != '“' && r != '\''
		})
		line = strings.TrimSpace(line)
		if line != "" {
			return line
		}
	}
	return ""
}

// firstSentence is the line up to its first sentence end; whole says the
// sentence ended within the line.
func firstSentence(line string) (string, bool) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		if i+1 == len(line) {
			return line[:i], true
		}
		if line[i+1] == ' ' && i > 0 && !isInitial(line[:i]) {
			return line[:i], true
		}
	}
	return line, false
}

// isInitial reports whether the text before a period ends in an initial or
// a common abbreviation ("J.", "e.g", "et al"), which does not end a sentence.
func isInitial(before string) bool {
	sp := strings.LastIndexByte(before, ' ')
	w := strings.ToLower(before[sp+1:])
	switch w {
	case "e.g", "i.e", "et al", "al", "vs", "fig", "eq", "cf", "dr", "mr", "ms", "no":
		return true
	}
	return utf8.RuneCountInString(w) == 1
}

// clip keeps a title under titleMaxBytes on a rune boundary, with an
// ellipsis when anything was left out.
func clip(t string, more bool) string {
	if len(t) > titleMaxBytes {
		cut := titleMaxBytes
		for cut > 0 && !utf8.RuneStart(t[cut]) {
			cut--
		}
		if sp := strings.LastIndexByte(t[:cut], ' '); sp > titleMaxBytes/2 {
			cut = sp
		}
		t, more = t[:cut], true
	}
	if more {
		t += "…"
	}
	return t
}
