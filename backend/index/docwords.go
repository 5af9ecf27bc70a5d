package index

import (
	"strings"

	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
)

// NodeTerms is what the keyword index sees of a content node of document
// d (nil when unknown): KeywordTerms of its heading path and text, and for
// the document's first node, the words the document says of itself
// (DocumentWords). Ingest and a rebuild of the index both go through it,
// so they index the same terms.
func NodeTerms(n *model.ContentNode, d *model.Document, text string) []string {
	if n.Ordinal == 0 && d != nil {
		if words := DocumentWords(d, n.HeadingPath, text); words != "" {
			text += "\n" + words
		}
	}
	return KeywordTerms(n.HeadingPath, text)
}

// DocumentWords are the words a document says of itself that its first
// node's text (with headingPath) may not hold: its aliases and tags and,
// for a note, a title its text does not give (one from front matter). A
// question that names a note by an alias, a tag or its title then finds
// its first node. They go to the first node only: added to every section
// of a long note they would make all of them match a tag equally, and the
// question would load the whole note.
func DocumentWords(d *model.Document, headingPath []string, text string) string {
	var words []string
	if d.Format == string(ingest.FormatMarkdown) && d.Title != "" && !mentions(d.Title, headingPath, text) {
		words = append(words, d.Title)
	}
	words = append(words, d.Meta.Aliases...)
	for _, t := range d.Meta.Tags {
		words = append(words, strings.ReplaceAll(t, "/", " "))
	}
	return strings.Join(words, "\n")
}

// mentions reports whether title is in text or is a heading of the path,
// whatever the case.
func mentions(title string, headingPath []string, text string) bool {
	for _, h := range headingPath {
		if strings.EqualFold(h, title) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(text), strings.ToLower(title))
}
