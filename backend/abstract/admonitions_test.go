package abstract

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/tokens"
)

// TestAdmonitionsReadAsProse: a note, tip or warning in an MkDocs
// admonition or a pymdownx block is summarised as the prose it is, without
// its markers; code stays code.
func TestAdmonitionsReadAsProse(t *testing.T) {
	e := Extractive{Count: tokens.Default().Count}
	ctx := context.Background()
	for _, tt := range []struct{ name, src, kept string }{
		{"an indented admonition", "## Caching\n\nCargo keeps downloaded crates in a local registry cache so that later builds do not fetch them again.\n\n!!! warning \"Mind the cache\"\n\n    The cache is never cleared by cargo clean. Remove the registry folder by hand when it grows too large, and expect the next build to download everything again.\n\nThe cache lives under the Cargo home directory.\n",
			"The cache is never cleared by cargo clean."},
		{"a block", "## Path\n\nDeclare the path parameter with the same syntax as Python format strings.\n\n/// tip | Async\n\nYou can also declare the path operation function with async def, and FastAPI awaits it for you on every request.\n\n///\n\nThe value is passed to your function as the argument item_id.\n",
			"You can also declare the path operation function with async def"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.Summarize(ctx, tt.src, Summary, 40)
			require.NoError(t, err)
			assert.Contains(t, got, tt.kept)
			assert.NotContains(t, got, "!!!")
			assert.NotContains(t, got, "///")
		})
	}
	assert.Equal(t, "Text.\n\n\nA note.\n    code\nAfter.\n\n```\n!!! note\n///\n```\n",
		withoutAdmonitions("Text.\n\n??? note\n    A note.\n        code\nAfter.\n\n```\n!!! note\n///\n```\n"), "the body loses one indent and ends at a line with less; fenced code is left as it is")
	assert.Equal(t, "No markers here.\n", withoutAdmonitions("No markers here.\n"))
}
