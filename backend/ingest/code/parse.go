package code

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// File is what one source file defines.
type File struct {
	Lang Lang
	// Package is the Go package name or the Java package; "" when the
	// language or the file has none.
	Package string
	// Doc is the file's own documentation as written: a Go package doc
	// comment, a Python module docstring; "" when none.
	Doc     string
	Imports []Import
	// Defs are in source order; Def.Parent indexes into this slice.
	Defs []Def
	// Partial is set when the source had syntax errors: Defs are what the
	// partial tree still yields.
	Partial bool
	// Problems lists the syntax errors as "line N: message", at most 10.
	Problems []string
	// Generated is set for generated files: "// Code generated ... DO NOT
	// EDIT." in Go, an "@generated" marker in the first lines in any language.
	Generated bool
}

// Import is one dependency a file names.
type Import struct {
	// Path is the imported package or module as written: "os/exec",
	// "a.b" (Python), "./util" (JS), "std::io::Read" (Rust), "java.util.List",
	// "stdio.h".
	Path string
	// Name is the alias or binding the import gives the module itself when
	// one is written ("" otherwise): Go's import name, Python's "as", JS's
	// namespace or default import and require() binding, Rust's "as".
	Name string
	Line int
}

// Def is one definition.
type Def struct {
	// Kind is one of "func", "method", "type", "struct", "interface",
	// "class", "enum", "trait", "const", "var", "macro".
	Kind string
	// Name is qualified within the file: "Rank", "Library.link" for a
	// method (its receiver's or class's base type name, without pointer or
	// type parameters), "Outer.Inner" for a nested class.
	Name string
	// Signature is the declaration's header on one line, whitespace
	// collapsed, without the body, clipped to 240 runes with "…".
	Signature string
	// Doc is the doc comment or docstring as written, comment markers and
	// quotes kept; "" when none.
	Doc string
	// LineStart is 1-based and includes the doc comment, decorators and
	// attributes above the declaration; LineEnd is 1-based, inclusive.
	LineStart, LineEnd int
	// Parent is the index in File.Defs of the enclosing definition (the
	// class of a method, the receiver type of a Go method when it is in the
	// same file), or -1.
	Parent int
	// Refs are the names the definition's signature and body call or
	// mention: deduplicated by (Qual, Name) with Call set when any use is a
	// call, in order of first use, at most 64.
	Refs []Ref
	// Bases are the types it embeds, extends or implements, as written.
	Bases []string
	// Methods are the method names an interface, trait or abstract class
	// declares.
	Methods []string
	// Exported tells whether it is visible outside its package or module by
	// the language's rules.
	Exported bool
}

// Ref is a name a definition uses.
type Ref struct {
	// Name is the identifier: "Rank", "ReadFile", "parse".
	Name string
	// Qual is the qualifier when written as X.Name and X is an imported
	// package or module ("os" for os.ReadFile); "" otherwise.
	Qual string
	// Call is true when the name is called, false when it is only named (a
	// type, a composite literal, a value).
	Call bool
}

// Limits on what one file yields.
const (
	maxProblems  = 10
	maxRefs      = 64
	maxSignature = 240 // runes, the "…" included
	// generatedLines is how many lines from the top are searched for an
	// "@generated" marker.
	generatedLines = 20
)

// ErrUnsupported is wrapped by Parse when this build has no parser for a
// file's language, or the file is not source code it knows: read it as text.
var ErrUnsupported = errors.New("no code parser for this file in this build")

// unsupportedError tells which language is missing and why.
type unsupportedError struct {
	what string // "Python parser", "parser for notes.txt"
	why  string // "this build has no cgo, so it reads Go only"
}

func (e *unsupportedError) Error() string {
	return fmt.Sprintf("no %s in this build (%s): read as text", e.what, e.why)
}

func (e *unsupportedError) Unwrap() error { return ErrUnsupported }

// Parse parses one file's bytes into its definitions; path picks the
// language (see LangOf). A syntax error is not an error: it sets Partial and
// Problems, and the definitions the partial tree still yields are returned.
// The error wraps ErrUnsupported when this build has no parser for the
// language; otherwise it tells what made the bytes unreadable.
func Parse(path string, src []byte) (f *File, err error) {
	lang, ok := LangOf(path)
	if !ok {
		return nil, &unsupportedError{what: "parser for " + path, why: "its extension names no programming language Loom reads as code"}
	}
	defer func() {
		if r := recover(); r != nil {
			buf := make([]byte, 2048)
			buf = buf[:runtime.Stack(buf, false)]
			f, err = nil, fmt.Errorf("the %s parser failed on %s (%v; please report it with the file): read it as text\n%s", lang.title(), path, r, buf)
		}
	}()
	if lang == Go {
		f = parseGo(path, src)
	} else {
		f, err = parseTreeSitter(lang, path, src)
		if err != nil {
			return nil, err
		}
	}
	f.Lang = lang
	if !f.Generated {
		f.Generated = hasGeneratedMarker(src)
	}
	if len(f.Problems) > maxProblems {
		f.Problems = f.Problems[:maxProblems]
	}
	return f, nil
}

// hasGeneratedMarker reports an "@generated" marker in the first lines.
func hasGeneratedMarker(src []byte) bool {
	for i := 0; i < generatedLines && len(src) > 0; i++ {
		line := src
		if j := bytes.IndexByte(src, '\n'); j >= 0 {
			line, src = src[:j], src[j+1:]
		} else {
			src = nil
		}
		if bytes.Contains(line, []byte("@generated")) {
			return true
		}
	}
	return false
}

// problem formats one syntax error.
func problem(line int, msg string) string {
	return fmt.Sprintf("line %d: %s", line, msg)
}

// oneLine collapses every run of white space (new lines included) into one
// space and clips the result to maxSignature runes, ending it with "…" when
// it was longer.
func oneLine(s string) string {
	out := make([]rune, 0, min(len(s), maxSignature+1))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = len(out) > 0
			continue
		}
		if r == 0 {
			r = utf8.RuneError
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
		if len(out) > maxSignature {
			out = append([]rune(strings.TrimRight(string(out[:maxSignature-1]), " ")), '…')
			break
		}
	}
	return string(out)
}

// firstLine is a value's declaration cut at its first line end, with " …"
// standing for the rest: the header of `var formats = map[string]F{` over
// twenty lines.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// span returns src[from:to], clamped to src.
func span(src []byte, from, to int) string {
	from = max(0, min(from, len(src)))
	to = max(from, min(to, len(src)))
	return string(src[from:to])
}
