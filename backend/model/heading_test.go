package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHeadingAttributes(t *testing.T) {
	for _, tt := range []struct{ in, title, id string }{
		{"First Steps { #first-steps }", "First Steps", "first-steps"},
		{"Create a `path operation` {#create-a-path-operation .red data-x=\"a b\"}", "Create a `path operation`", "create-a-path-operation"},
		{"Setup {: #setup }", "Setup", "setup"},
		{"Styled { .note }", "Styled", ""},
		{"Path parameters {item_id}", "Path parameters {item_id}", ""},
		{"Sets {a, b}", "Sets {a, b}", ""},
		{"{ #only-an-id }", "{ #only-an-id }", ""},
		{"Plain", "Plain", ""},
	} {
		title, id := HeadingAttributes(tt.in)
		assert.Equal(t, tt.title, title, tt.in)
		assert.Equal(t, tt.id, id, tt.in)
	}
}
