//go:build !cgo || js

package code

import "runtime"

// Supported lists the languages this build parses into definitions: Go
// only, since the tree-sitter grammars need cgo.
func Supported() []Lang { return []Lang{Go} }

// parseTreeSitter has no grammar to parse with in this build.
func parseTreeSitter(lang Lang, _ string, _ []byte) (*File, error) {
	why := "this build has no cgo, so it reads Go only"
	if runtime.GOOS == "js" {
		why = "the web edition reads Go only"
	}
	return nil, &unsupportedError{what: lang.title() + " parser", why: why}
}
