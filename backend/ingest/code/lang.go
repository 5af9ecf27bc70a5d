package code

import (
	"path/filepath"
	"strings"
)

// Lang names a programming language.
type Lang string

// The languages Loom recognizes by file extension.
const (
	Go         Lang = "go"
	Python     Lang = "python"
	JavaScript Lang = "javascript"
	TypeScript Lang = "typescript"
	TSX        Lang = "tsx"
	Rust       Lang = "rust"
	Java       Lang = "java"
	C          Lang = "c"
	CPP        Lang = "cpp"
)

// extensions maps a lower-case file extension to its language.
var extensions = map[string]Lang{
	".go":   Go,
	".py":   Python,
	".pyi":  Python,
	".js":   JavaScript,
	".mjs":  JavaScript,
	".cjs":  JavaScript,
	".jsx":  JavaScript,
	".ts":   TypeScript,
	".mts":  TypeScript,
	".cts":  TypeScript,
	".tsx":  TSX,
	".rs":   Rust,
	".java": Java,
	".c":    C,
	".h":    C,
	".cc":   CPP,
	".cpp":  CPP,
	".cxx":  CPP,
	".hpp":  CPP,
	".hh":   CPP,
}

// LangOf picks the language by file extension (.go .py .pyi .js .mjs .cjs
// .jsx .ts .mts .cts .tsx .rs .java .c .h .cc .cpp .cxx .hpp .hh, in any
// case); ok is false for any other file.
func LangOf(path string) (Lang, bool) {
	l, ok := extensions[strings.ToLower(filepath.Ext(path))]
	return l, ok
}

// title is the language's name as a person writes it, for messages.
func (l Lang) title() string {
	switch l {
	case Go:
		return "Go"
	case Python:
		return "Python"
	case JavaScript:
		return "JavaScript"
	case TypeScript:
		return "TypeScript"
	case TSX:
		return "TSX"
	case Rust:
		return "Rust"
	case Java:
		return "Java"
	case C:
		return "C"
	case CPP:
		return "C++"
	}
	return string(l)
}
