package bibtex

import "strings"

// splitNames splits a raw name list ("Knuth, Donald E. and {Barnes and
// Noble} and others") at the word "and" outside braces, in any case.
func splitNames(raw string) []string {
	var names []string
	depth, start := 0, 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case 'a', 'A':
			if depth == 0 && i > 0 && isSpace(raw[i-1]) && i+3 < len(raw) &&
				strings.EqualFold(raw[i:i+3], "and") && isSpace(raw[i+3]) {
				names = append(names, raw[start:i])
				start = i + 3
				i += 2
			}
		}
	}
	return append(names, raw[start:])
}

// splitTopCommas splits a name at commas outside braces.
func splitTopCommas(name string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				parts = append(parts, name[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, name[start:])
}

// personNames turns a raw BibTeX name list into names in reading order:
// "von Last, First" and "von Last, Jr, First" become "First von Last" and
// "First von Last Jr"; "First von Last" stays; a braced name ("{World
// Health Organization}") is one name; "others" is left out.
func personNames(raw string) []string {
	var out []string
	for _, name := range splitNames(raw) {
		if strings.EqualFold(strings.TrimSpace(name), "others") {
			continue
		}
		parts := splitTopCommas(name)
		for i := range parts {
			parts[i] = CleanTeX(parts[i])
		}
		var full string
		switch len(parts) {
		case 1:
			full = parts[0]
		case 2:
			full = parts[1] + " " + parts[0]
		default:
			full = strings.Join(parts[2:], " ") + " " + parts[0] + " " + parts[1]
		}
		if full = strings.Join(strings.Fields(full), " "); full != "" {
			out = append(out, full)
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '~' }
