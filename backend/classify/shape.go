package classify

import (
	"strings"
	"unicode/utf8"
)

// This file decides whether a line is data or code from features gathered
// in a single pass over it.

// isKeyValue matches "key: short value" and "key:" (YAML, HTTP headers,
// properties), where key is a single token and the value is at most five
// words that do not end like a sentence or a statement.
func isKeyValue(t string, f *features) bool {
	i := 0
	for i < len(t) && (isIdent(t[i]) || t[i] == '-' || t[i] == '.' || t[i] == '/' || t[i] == '"') {
		i++
	}
	if i == 0 || i > 48 || i >= len(t) || t[i] != ':' || !isAlpha(t[0]) && t[0] != '"' {
		return false
	}
	if isCodeKeyword(t[:i]) || isShouted(t[:i]) {
		return false // "else:", "TODO: ...", "NOTE: ..."
	}
	v, _ := trimSpace(t[i+1:])
	if len(t) > i+1 && t[i+1] != ' ' && t[i+1] != '\t' {
		return false // "http://", "a:b"
	}
	if v == "" {
		return true
	}
	switch v[len(v)-1] {
	case '.', ',', ';', '{', '(', ':', '!':
		return false
	}
	return f.spaces < 5 || strings.Count(v, " ") < 5
}

// isAssignments matches "KEY=value" (one, upper-case, like .env files) or
// several "key=value" tokens (logfmt without a level).
func isAssignments(t string) bool {
	tokens, pairs := 0, 0
	upperKey := false
	for i := 0; i < len(t); {
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i >= len(t) {
			break
		}
		j := i
		for j < len(t) && t[j] != ' ' {
			j++
		}
		tokens++
		tok := t[i:j]
		if k := strings.IndexByte(tok, '='); k > 0 && k < len(tok)-1 {
			key := tok[:k]
			ok, up := true, true
			for n := 0; n < len(key); n++ {
				if !isIdent(key[n]) && key[n] != '.' && key[n] != '-' {
					ok = false
				}
				if isLower(key[n]) {
					up = false
				}
			}
			if ok {
				pairs++
				upperKey = up
			}
		}
		i = j
	}
	return pairs >= 2 && pairs*2 >= tokens || tokens == 1 && pairs == 1 && upperKey
}

func isCodeKeyword(w string) bool {
	switch w {
	case "func", "def", "fn", "class", "return", "import", "package", "from", "const", "let", "var",
		"if", "else", "elif", "for", "while", "do", "switch", "case", "default", "try", "catch", "except",
		"finally", "throw", "raise", "with", "struct", "enum", "interface", "impl", "pub", "type",
		"public", "private", "protected", "static", "final", "void", "async", "await", "yield", "lambda",
		"export", "using", "namespace", "defer", "go", "select", "break", "continue", "goto", "assert",
		"match", "trait", "mod", "use", "module", "require", "local", "end", "then", "fi", "done", "echo",
		"print", "println", "new", "delete", "typedef", "extern", "unsafe", "loop", "where":
		return true
	}
	return false
}

// isClosers matches a line made only of closing brackets and separators:
// "}", "});", "],", ")", "}()".
func isClosers(t string) bool {
	if t[0] != '}' && t[0] != ')' && t[0] != ']' {
		return false
	}
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '}', ')', ']', ';', ',', ' ', '(':
		default:
			return false
		}
	}
	return true
}

// firstWord returns the leading run of identifier bytes of t and the rest.
func firstWord(t string) (string, string) {
	i := 0
	for i < len(t) && (isIdent(t[i]) || (i == 0 && t[i] == '#')) {
		i++
	}
	if i == len(t) || t[i] == ' ' || t[i] == '(' || t[i] == '{' || t[i] == ':' || t[i] == '\t' {
		return t[:i], t[i:]
	}
	return "", t
}

// isQuotedToken matches a line that is a single quoted string, possibly
// followed by a comma or colon: import paths, list and map literals.
func isQuotedToken(t string) bool {
	t = strings.TrimRight(t, ",:")
	if len(t) < 2 || (t[0] != '"' && t[0] != '\'') || t[len(t)-1] != t[0] {
		return false
	}
	return strings.IndexByte(t, ' ') < 0
}

// features are what one pass over a trimmed line learns about it.
type features struct {
	tabs        int // inner tabs
	tightCommas int // ',' not followed by a space
	tightSemis  int // ';' not followed by a space (and not last)
	digits      int
	nonSpace    int
	spaces      int
	ops         int  // code operators (:= == != => -> && || += -= ++ :: <- </ /> <= >=), capped at 2
	call        int  // 1 for "name(", 2 for "pkg.name("
	codeish     bool // ( ) = { } somewhere
	equals      bool // '=' somewhere
	assign      bool // " = "
	aligned     bool // a run of spaces used for column alignment
	backtick    bool // markdown inline code
	comment     int  // offset of a trailing " //" comment, or -1
}

// measure makes the single pass over t that isDataLine and codeScore share.
func measure(t string) features {
	f := features{comment: -1}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < utf8.RuneSelf && asciiClass[c]&cAlpha != 0 || c >= utf8.RuneSelf {
			f.nonSpace++ // letters (and non-ASCII) are the common case
			continue
		}
		var next byte
		if i+1 < len(t) {
			next = t[i+1]
		}
		switch c {
		case ' ':
			f.spaces++
			if next == ' ' && i > 0 && !f.aligned {
				switch t[i-1] {
				case '.', '?', '!', ':', ' ':
				default:
					f.aligned = true
				}
			}
			if next == '/' && i+2 < len(t) && t[i+2] == '/' && f.comment < 0 {
				f.comment = i
			}
			if next == '=' && i+2 < len(t) && t[i+2] == ' ' {
				f.assign = true
			}
			continue
		case '\t':
			f.tabs++
			continue
		case ',':
			if next != ' ' && next != 0 {
				f.tightCommas++
			}
		case ';':
			if next != ' ' && next != 0 {
				f.tightSemis++
			}
		case '(':
			f.codeish = true
			if i > 0 && isIdent(t[i-1]) && f.call < 2 {
				f.call = max(f.call, callWeight(t, i))
			}
		case ')', '{', '}':
			f.codeish = true
		case '`':
			f.backtick = true
		case '=':
			f.codeish, f.equals = true, true
			if next == '=' || next == '>' {
				f.ops++
			}
		case ':':
			if next == '=' || next == ':' {
				f.ops++
			}
		case '!':
			if next == '=' {
				f.ops++
			}
		case '-':
			if next == '>' || next == '=' {
				f.ops++
			}
		case '&':
			if next == '&' {
				f.ops++
			}
		case '|':
			if next == '|' {
				f.ops++
			}
		case '+':
			if next == '=' || next == '+' {
				f.ops++
			}
		case '<':
			if next == '-' || next == '/' || next == '=' {
				f.ops++
			}
		case '>':
			if next == '=' {
				f.ops++
			}
		case '/':
			if next == '>' {
				f.ops++
			}
		default:
			if isDigit(c) {
				f.digits++
			}
		}
		f.nonSpace++
	}
	f.ops = min(f.ops, 2)
	return f
}

// callWeight scores the call whose '(' is at t[i]: 2 when the callee is
// qualified ("fmt.Println("), 1 otherwise.
func callWeight(t string, i int) int {
	j := i - 1
	for j >= 0 && isIdent(t[j]) {
		j--
	}
	if j >= 1 && t[j] == '.' && isIdent(t[j-1]) {
		return 2
	}
	return 1
}

// isDataLine matches rows of pasted data: tab- or comma-separated values,
// "key: value" and "KEY=value" pairs, and lines that are mostly digits.
func isDataLine(t string, f *features) bool {
	if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
		return false // comments, whatever they hold
	}
	last := t[len(t)-1]
	switch last {
	case '?', '{', '(', ';':
		return false
	}
	switch {
	case f.tabs > 0 && last != '}':
		return true
	case !f.codeish && (f.tightCommas >= 2 || f.tightSemis >= 2):
		return true
	case f.nonSpace >= 3 && f.digits*2 >= f.nonSpace && !f.codeish:
		return true
	case isKeyValue(t, f):
		return true
	}
	return f.equals && isAssignments(t)
}

// codeScore scores how code-like a line is; 2 or more is code. t is the
// trimmed line, indented whether it starts with a tab or four spaces, list
// whether it is a markdown list item.
func codeScore(t string, f *features, indented, list bool) int {
	score := 0
	comment := strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*/")
	if f.comment > 0 && !comment {
		t, _ = trimSpace(t[:f.comment]) // code followed by a line comment
		score++
	}
	last := t[len(t)-1]
	switch last {
	case '{', ';', '}':
		score += 2
	case '(', '[':
		score++
	case ',':
		score += trailingCommaScore(t)
	}
	if f.aligned {
		score++ // "Name    string", "key:     value": aligned like gofmt output
	}
	if isClosers(t) {
		score += 3
	}
	switch {
	case comment, strings.HasPrefix(t, "#!"), strings.HasPrefix(t, "#include"), strings.HasPrefix(t, "#define"),
		strings.HasPrefix(t, "#if"), strings.HasPrefix(t, "<?php"), strings.HasPrefix(t, "$ "),
		strings.HasPrefix(t, "@") && len(t) > 1 && isAlpha(t[1]):
		score += 2
	}
	if kw, rest := firstWord(t); isCodeKeyword(kw) {
		score++
		switch kw {
		case "import", "package", "use", "using", "require", "mod":
			// "import os", "package main", "import (": one token follows.
			if r, _ := trimSpace(rest); r != "" && strings.IndexByte(r, ' ') < 0 {
				score++
			}
		case "from":
			if strings.Contains(rest, " import ") {
				score++
			}
		}
		if last == ':' && opensPythonBlock(kw) {
			score++
		}
	}
	ops := f.ops
	if ops == 0 && f.assign {
		ops = 1
		if lhs := strings.Index(t, " = "); lhs > 0 && strings.IndexByte(t[:lhs], ' ') < 0 {
			ops = 2 // "x = 1", "self.total = 0": one target on the left
		}
	}
	score += ops + f.call
	if indented && !list {
		score++
	}
	if list {
		score--
	}
	if f.backtick {
		score-- // inline code in markdown prose
	}
	if (last == '.' || last == '!' || last == '?') && !comment && len(t) > 1 && isAlpha(t[len(t)-2]) && f.spaces >= 3 {
		score -= 2 // reads as a sentence
	}
	if isQuotedToken(t) {
		score += 2 // "fmt", 'a', "key": in import blocks and literals
	}
	return score
}

func opensPythonBlock(kw string) bool {
	switch kw {
	case "def", "class", "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "case", "default":
		return true
	}
	return false
}

// trailingCommaScore scores a line ending in ',': prose wraps at commas too,
// so only code-looking shapes count — "}," and "]," (literals), "),"
// (arguments), a quoted string or a brace on the line, "Key: value," and a
// lone token ("noTrailer,").
func trailingCommaScore(t string) int {
	if len(t) < 2 {
		return 0
	}
	switch t[len(t)-2] {
	case '}', ']':
		return 2
	case ')':
		return 1
	}
	if strings.ContainsAny(t, "\"{}") || strings.IndexByte(t, ' ') < 0 {
		return 1
	}
	i := 0
	for i < len(t) && isIdent(t[i]) {
		i++
	}
	if i > 0 && i < len(t) && t[i] == ':' {
		return 1
	}
	return 0
}

// isShouted reports an all-capitals word, as in "TODO:" or "NOTE:".
func isShouted(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isUpper(w[i]) {
			return false
		}
	}
	return len(w) > 1
}
