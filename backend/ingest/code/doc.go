// Package code reads one source file as definitions instead of paragraphs:
// its functions, methods, types, classes, interfaces, traits, constants and
// macros, each with its signature, doc comment, line range, the names its
// body calls or mentions, and what it embeds or extends.
//
// Go is parsed with the standard library's go/parser in every edition. Python,
// JavaScript, TypeScript, TSX, Rust, Java, C and C++ are parsed with
// tree-sitter grammars: compiled in (cgo) in the desktop app and the CLI,
// and in the web edition (GOOS=js) by web-tree-sitter in the page, with the
// grammars' own npm builds (treesitter_js.go). Either way the tree is copied
// into Go (tree.go) and read by the same extractors. Builds without cgo read
// Go only; where a grammar is missing (or the page cannot load it) Parse
// reports ErrUnsupported, so that a caller can fall back to reading the file
// as text.
//
// A syntax error is not an error here: the file is marked Partial, the errors
// are listed in Problems, and the definitions the parser could still recover
// are returned. When a parser folds the rest of a file into a broken
// declaration (an unbalanced brace in Go, an unclosed parenthesis in Python),
// the file is parsed again from the next declaration at the left margin.
//
// References are found without type checking. A call is always one; a name
// that is only mentioned is one when it is a type, a member of an imported
// package or module (qualified by it), or, outside Go, a name the file
// defines at its top level or imports. Go leaves out what a declaration
// declares itself (parameters, locals); the other languages leave out the
// locals they can see (bindings, parameters, nested functions). Builtins
// are never references.
//
// Parse is the entry point; LangOf tells whether a path is source code at all.
package code
