package classify

import "strings"

// This file recognises log records (timestamps, level words) and stack
// traces.

const maxPrefixScan = 100 // bytes of a line searched for timestamps and levels

func digitsAt(s string, i, n int) bool {
	if i < 0 || i+n > len(s) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !isDigit(s[k]) {
			return false
		}
	}
	return true
}

func byteAt(s string, i int) byte {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return 0
}

// clockAt matches hh:mm (withSeconds: hh:mm:ss) at s[i:].
func clockAt(s string, i int, withSeconds bool) bool {
	if !digitsAt(s, i, 2) || byteAt(s, i+2) != ':' || !digitsAt(s, i+3, 2) {
		return false
	}
	return !withSeconds || (byteAt(s, i+5) == ':' && digitsAt(s, i+6, 2))
}

// dateTimeAt matches YYYY-MM-DD[T ]hh:mm (ISO 8601 / RFC 3339) and
// YYYY/MM/DD hh:mm:ss (Go's log package) at s[i:].
func dateTimeAt(s string, i int) bool {
	if !digitsAt(s, i, 4) {
		return false
	}
	sep := byteAt(s, i+4)
	if (sep != '-' && sep != '/') || !digitsAt(s, i+5, 2) || byteAt(s, i+7) != sep || !digitsAt(s, i+8, 2) {
		return false
	}
	t := byteAt(s, i+10)
	if sep == '-' && (t == 'T' || t == ' ' || t == '_') {
		return clockAt(s, i+11, false)
	}
	return t == ' ' && clockAt(s, i+11, true)
}

var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

func monthAt(s string, i int) bool {
	if i+3 > len(s) {
		return false
	}
	m := s[i : i+3]
	for _, name := range months {
		if m == name {
			return true
		}
	}
	return false
}

// syslogAt matches "Mon _d hh:mm:ss" (RFC 3164) at s[i:].
func syslogAt(s string, i int) bool {
	if !monthAt(s, i) || byteAt(s, i+3) != ' ' {
		return false
	}
	j := i + 4
	if byteAt(s, j) == ' ' {
		j++
	}
	if !isDigit(byteAt(s, j)) {
		return false
	}
	j++
	if isDigit(byteAt(s, j)) {
		j++
	}
	return byteAt(s, j) == ' ' && clockAt(s, j+1, true)
}

// commonLogAt matches "dd/Mon/yyyy:hh:mm:ss" (Apache/nginx) at s[i:].
func commonLogAt(s string, i int) bool {
	return digitsAt(s, i, 2) && byteAt(s, i+2) == '/' && monthAt(s, i+3) &&
		byteAt(s, i+6) == '/' && digitsAt(s, i+7, 4) && byteAt(s, i+11) == ':' && clockAt(s, i+12, true)
}

// hasTimestamp reports whether a timestamp appears near the start of line.
func hasTimestamp(line string) bool {
	t, _ := trimSpace(line)
	n := min(len(t), maxPrefixScan)
	if n < 5 {
		return false
	}
	// A bare clock only counts at the very start: "12:00:01.123 INFO ...",
	// "[12:00:01] ...", or after a glog prefix "I0102 15:04:05.000000".
	if clockAt(t, 0, true) || (t[0] == '[' && clockAt(t, 1, true)) {
		return true
	}
	if (t[0] == 'I' || t[0] == 'W' || t[0] == 'E' || t[0] == 'F') && digitsAt(t, 1, 4) && byteAt(t, 5) == ' ' && clockAt(t, 6, true) {
		return true
	}
	if syslogAt(t, 0) || (t[0] == '<' && syslogAfterPriority(t)) {
		return true
	}
	for i := 0; i < n; i++ {
		c := t[i]
		if isDigit(c) && (i == 0 || !isDigit(t[i-1])) {
			if dateTimeAt(t, i) {
				return true
			}
		} else if c == '[' && commonLogAt(t, i+1) {
			return true
		}
	}
	return false
}

// syslogAfterPriority matches "<34>Oct 11 22:14:15 ...".
func syslogAfterPriority(t string) bool {
	j := strings.IndexByte(t[:min(len(t), 6)], '>')
	return j > 1 && syslogAt(t, j+1)
}

func isLevelWord(w string) bool {
	switch w {
	case "ERROR", "ERR", "WARN", "WARNING", "INFO", "DEBUG", "TRACE", "FATAL",
		"CRITICAL", "CRIT", "NOTICE", "SEVERE", "ALERT", "EMERG", "DBG", "WRN", "INF", "EROR":
		return true
	}
	return false
}

// hasLevel reports a log level leading the line ("ERROR: ...", "[WARN] ...",
// "app | INFO ..." — one of the first two words), a bracketed level near the
// start ("[main] [DEBUG] ..."), a logfmt/JSON level key ("level=info",
// "lvl=warn", "\"level\":"), or a tool's "error:"/"Warning:" prefix.
func hasLevel(t string) bool {
	p := t[:min(len(t), maxPrefixScan)]
	runs := 0
	for i := 0; i < len(p); {
		c := p[i]
		if !isAlpha(c) {
			i++
			continue
		}
		j := i + 1
		for j < len(p) && isAlpha(p[j]) {
			j++
		}
		w := p[i:j]
		runs++
		if isUpper(c) && len(w) >= 3 && len(w) <= 8 && isLevelWord(w) {
			if runs <= 2 {
				return true
			}
			if i > 0 && j < len(p) && (p[i-1] == '[' && p[j] == ']' || p[i-1] == '<' && p[j] == '>') {
				return true
			}
		}
		if (w == "level" || w == "lvl") && j < len(p) && (p[j] == '=' || p[j] == '"' && j+1 < len(p) && p[j+1] == ':') {
			return true
		}
		if i == 0 && j < len(p) && p[j] == ':' && isErrorWord(w) {
			return true // "error: failed to push some refs", "Warning: ..."
		}
		i = j
	}
	return false
}

// isStackLine matches stack frames and the lines that open or close them.
func isStackLine(t string, indent int) bool {
	if len(t) < 4 {
		return false
	}
	switch {
	case strings.HasPrefix(t, "at "):
		return isAtFrame(t[3:])
	case strings.HasPrefix(t, `File "`):
		return strings.Contains(t, `", line `)
	case strings.HasPrefix(t, "Traceback (most recent call last)"),
		strings.HasPrefix(t, "panic: "),
		strings.HasPrefix(t, "fatal error: "),
		strings.HasPrefix(t, "created by "),
		strings.HasPrefix(t, "[signal "),
		strings.HasPrefix(t, "Caused by: "),
		strings.HasPrefix(t, "Exception in thread "),
		strings.HasPrefix(t, "thread '") && strings.Contains(t, "' panicked at"):
		return true
	case strings.HasPrefix(t, "goroutine "):
		return isDigit(byteAt(t, len("goroutine ")))
	case strings.HasPrefix(t, "... ") && strings.HasSuffix(t, " more"):
		return true
	}
	// Go frame location: "\t/src/app/main.go:12 +0x1d", or test output
	// "main_test.go:12: want 3".
	if i := strings.Index(t[:min(len(t), 300)], ".go:"); i > 0 && isDigit(byteAt(t, i+4)) {
		if indent > 0 || t[0] == '/' || strings.IndexByte(t[:i], ' ') < 0 {
			return true
		}
	}
	return isExceptionHeader(t)
}

// isAtFrame matches the rest of a Java/C#/JavaScript "at ..." frame:
// "com.x.Y.z(Y.java:10)", "render (/app/List.tsx:14:22)", "/app/x.js:1:2",
// "X.Y() in /src/Y.cs:line 12".
func isAtFrame(s string) bool {
	s = strings.TrimPrefix(s, "async ")
	s = strings.TrimPrefix(s, "new ")
	end := strings.IndexByte(s, ' ')
	if end < 0 {
		end = len(s)
	}
	tok := s[:end]
	if open := strings.LastIndexByte(s, '('); open >= 0 && strings.HasSuffix(s, ")") {
		inner := s[open+1 : len(s)-1]
		if hasColonDigit(inner) || inner == "Native Method" || inner == "Unknown Source" || inner == "<anonymous>" {
			return true
		}
	}
	if strings.ContainsAny(tok, "./(<") && strings.IndexByte(s, '(') >= 0 && strings.IndexByte(s, ')') >= 0 {
		return true
	}
	return hasColonDigit(tok)
}

// hasColonDigit reports a ':' followed by a digit, as in "file.js:12".
func hasColonDigit(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ':' && isDigit(s[i+1]) {
			return true
		}
	}
	return false
}

// isExceptionHeader matches "ValueError: bad", "java.lang.IllegalStateException:
// boom", "TypeError: x is undefined".
func isExceptionHeader(t string) bool {
	end := strings.IndexByte(t, ':')
	if end < 0 {
		if strings.IndexByte(t, ' ') >= 0 {
			return false
		}
		end = len(t)
	}
	tok := t[:end]
	if len(tok) <= len("Error") || strings.IndexByte(tok, ' ') >= 0 {
		return false
	}
	if !strings.HasSuffix(tok, "Error") && !strings.HasSuffix(tok, "Exception") {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if !isIdent(tok[i]) && tok[i] != '.' && tok[i] != '$' {
			return false
		}
	}
	return true
}

func isErrorWord(w string) bool {
	switch w {
	case "error", "Error", "warning", "Warning", "fatal", "Fatal", "panic":
		return true
	}
	return false
}
