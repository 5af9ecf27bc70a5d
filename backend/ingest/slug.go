package ingest

import (
	"strconv"
	"strings"
	"unicode"
)

// Slug is GitHub's anchor for a heading: lower-case; every character that is
// not a letter, digit, space, '-' or '_' dropped; spaces become '-'.
func Slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// slugger numbers repeated slugs within one file: x, x-1, x-2, …
type slugger map[string]int

func newSlugger() slugger { return slugger{} }

func (s slugger) slug(title string) string {
	base := Slug(title)
	n, seen := s[base]
	s[base] = n + 1
	if !seen {
		return base
	}
	for {
		cand := base + "-" + strconv.Itoa(n)
		if _, taken := s[cand]; !taken {
			s[cand] = 1
			return cand
		}
		n++
		s[base] = n + 1
	}
}
