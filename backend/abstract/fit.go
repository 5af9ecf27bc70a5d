package abstract

import "strings"

// ellipsis marks text cut short.
const ellipsis = "…"

// Truncate is truncate for callers outside the package (the engine cuts a
// section's best chunk with it).
func Truncate(count Counter, s string, maxTokens int) string { return truncate(count, s, maxTokens) }

// truncate returns s, trimmed, if it counts at most maxTokens; else the
// longest prefix of s cut at a word boundary and ended with "…" that does;
// else, when even the first word is too long, a prefix of that word and
// "…"; else, when maxTokens leaves no room for "…", a bare prefix of the
// first word; else "". Every answer is measured with count, so none exceeds
// maxTokens.
func truncate(count Counter, s string, maxTokens int) string {
	s = strings.TrimSpace(s)
	if count(s) <= maxTokens {
		return s
	}
	var words []int // ends of words, as prefix lengths
	for i := 1; i < len(s); i++ {
		if isSpace(s[i]) && !isSpace(s[i-1]) {
			words = append(words, i)
		}
	}
	cut := func(k int) string {
		head := strings.TrimRight(s[:k], " \t\n,;:–—-(")
		if head == "" {
			return ""
		}
		return head + ellipsis
	}
	if best := longestFit(count, words, cut, maxTokens); best != "" {
		return best
	}
	first := s
	if len(words) > 0 {
		first = s[:words[0]]
	}
	var runes []int
	for i := range first {
		if i > 0 {
			runes = append(runes, i)
		}
	}
	if best := longestFit(count, runes, func(k int) string { return first[:k] + ellipsis }, maxTokens); best != "" {
		return best
	}
	// No room even for the ellipsis: as much of the first word as fits.
	return longestFit(count, append(runes, len(first)), func(k int) string { return first[:k] }, maxTokens)
}

// fitText returns s, trimmed, if it counts at most maxTokens; else the
// longest run of its whole sentences or lines from the start that does;
// else s truncated at a word boundary.
func fitText(count Counter, s string, maxTokens int) string {
	s = strings.TrimSpace(s)
	if count(s) <= maxTokens {
		return s
	}
	var ends []int
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\n':
			ends = append(ends, i)
		case (s[i] == '.' || s[i] == '!' || s[i] == '?') && (i+1 == len(s) || isSpace(s[i+1])):
			ends = append(ends, i+1)
		}
	}
	if best := longestFit(count, ends, func(k int) string { return strings.TrimSpace(s[:k]) }, maxTokens); best != "" {
		return best
	}
	return truncate(count, s, maxTokens)
}

// longestFit returns the longest of cut(k) for k in cuts (ascending) that
// counts at most maxTokens, by binary search: a longer prefix almost never
// counts fewer tokens, and whatever is returned was measured. "" when none
// fits.
func longestFit(count Counter, cuts []int, cut func(int) string, maxTokens int) string {
	best := ""
	for lo, hi := 0, len(cuts); lo < hi; {
		mid := (lo + hi) / 2
		if c := cut(cuts[mid]); count(c) <= maxTokens {
			if c != "" {
				best = c
			}
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return best
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
