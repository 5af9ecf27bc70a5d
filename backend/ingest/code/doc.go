// Package code reads one source file as definitions instead of paragraphs:
// its functions, methods, types, classes, interfaces, traits, constants and
// macros, each with its signature, doc comment, line range, the names its
// body calls or mentions, and what it embeds or extends.
//
// Go is parsed with the standard library's go/parser in every edition. Python,
// JavaScript, TypeScript, TSX, Rust, Java, C and C++ are parsed with
// tree-sitter grammars, which need cgo: the web edition (GOOS=js) and builds
// without cgo read Go only, and Parse reports ErrUnsupported for the rest so
// that a caller can fall back to reading the file as text.
//
// A syntax error is not an error here: the file is marked Partial, the errors
// are listed in Problems, and the definitions the parser could still recover
// are returned.
//
// Parse is the entry point; LangOf tells whether a path is source code at all.
package code
