//go:build !cgo && !js

package code

// Supported lists the languages this build parses into definitions: Go
// only, since the tree-sitter grammars need cgo.
func Supported() []Lang { return []Lang{Go} }

// parseTree has no grammar to parse with in this build.
func parseTree(lang Lang, _ string, _ []byte) (*node, error) {
	return nil, &unsupportedError{what: lang.title() + " parser", why: "this build has no cgo, so it reads Go only"}
}
