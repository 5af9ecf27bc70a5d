package ingest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAHeadingsOwnAnchorIsItsReference: a heading that names its anchor
// ("{#id}", as mdBook, MkDocs' attr_list and Pandoc write it) is referred
// to by that anchor, and its title is its text without the attribute list;
// a placeholder in braces is part of the title.
func TestAHeadingsOwnAnchorIsItsReference(t *testing.T) {
	src := "# First Steps { #first-steps }\n\nThe simplest FastAPI file.\n\n## Create a `path operation` { #create-a-path-operation .red }\n\nText.\n\n## Path {item_id}\n\nMore.\n\n## Again { #first-steps }\n\nA repeated anchor.\n"
	docs, err := Parse("first-steps.md", "first-steps.md", "", []byte(src), Options{})
	require.NoError(t, err)
	doc := docs[0]
	assert.Equal(t, "First Steps", doc.Title)
	var refs []string
	var titles [][]string
	for _, s := range doc.Sections {
		refs = append(refs, s.Ref)
		titles = append(titles, s.HeadingPath)
	}
	assert.Equal(t, []string{"first-steps.md#first-steps", "first-steps.md#create-a-path-operation", "first-steps.md#path-item_id", "first-steps.md#first-steps-1"}, refs)
	assert.Equal(t, [][]string{{"First Steps"}, {"First Steps", "Create a path operation"}, {"First Steps", "Path {item_id}"}, {"First Steps", "Again"}}, titles)

	// The Cargo Book's build-script keys (mdBook ids).
	data, err := os.ReadFile("../../testdata/eval/cargo-book/docs/reference/build-scripts.md")
	require.NoError(t, err)
	docs, err = Parse("reference/build-scripts.md", "reference/build-scripts.md", "", data, Options{})
	require.NoError(t, err)
	found := false
	for _, s := range docs[0].Sections {
		if s.Ref == "reference/build-scripts.md#rustc-link-lib" {
			found = true
			assert.Equal(t, "cargo::rustc-link-lib=LIB", s.HeadingPath[len(s.HeadingPath)-1])
		}
	}
	assert.True(t, found, "the section of cargo::rustc-link-lib is #rustc-link-lib")
}
