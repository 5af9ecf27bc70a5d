package model

import "strings"

// LineComment says whether t, a line with its indentation taken off, is a
// line comment in one of the languages Loom parses: "//", "--", or a
// Python or shell "#" (not a C preprocessor line, a Rust attribute or a
// shebang).
func LineComment(t string) bool {
	switch {
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "--"):
		return true
	case strings.HasPrefix(t, "#"):
		return !strings.HasPrefix(t, "#[") && !strings.HasPrefix(t, "#!") && !cDirective(t)
	}
	return false
}

func cDirective(t string) bool {
	for _, d := range []string{"#include", "#define", "#if", "#ifdef", "#ifndef", "#else", "#elif", "#endif", "#pragma", "#undef", "#error"} {
		if strings.HasPrefix(t, d) {
			return true
		}
	}
	return false
}
