package bind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The file dialog offers every format Loom reads, papers and web pages as
// well as notes, whatever the case of the name.
func TestTheFileDialogOffersWhatLoomReads(t *testing.T) {
	pats := strings.Split(ReadableFiles(), ";")
	for _, want := range []string{"*.md", "*.mdx", "*.pdf", "*.PDF", "*.html", "*.docx", "*.epub", "*.bib", "*.rst", "*.py", "*.go", "*.ipynb", "*.csv"} {
		assert.Contains(t, pats, want)
	}
	assert.NotContains(t, pats, "*.jsonl", "a BEIR corpus is the CLI's")
}
