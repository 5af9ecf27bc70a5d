package index

import (
	"path"
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
	if n.Symbol != nil && n.Symbol.Kind != "file" {
		if c := ingest.CodeComments(text); c != "" {
			for range commentBoost {
				text += "\n" + c
			}
		}
	}
	if n.Symbol != nil && n.Symbol.Kind != "file" && d != nil && d.Path != "" {
		text += "\n" + PathWords(d.Path)
	}
	return KeywordTerms(n.HeadingPath, text)
}

// PathWords are the words of a source file's path that a definition's
// keyword text gets once: its folders and its name without the extension
// ("backend/abstract/ollama.go" → "backend abstract ollama"). A question
// or a bug report names the package or the part of the program ("bind: a
// failed open", "the Ollama summariser"), which a definition's own code
// need not mention. On Loom's own code at budget 4000 (BENCHMARKS.md):
// the 110 questions' nDCG@10 0.399 → 0.413, recall 0.689 → 0.703; the 24
// bug cases' definition Acc@5 0.583 → 0.625, nDCG@10 0.369 → 0.384.
// Twice: questions nDCG@10 0.417, bugs 0.360; given to the files' own
// nodes too: 0.411 / 0.378.
func PathWords(p string) string {
	p = strings.TrimSuffix(p, path.Ext(p))
	return strings.NewReplacer("/", " ", "\\", " ", "_", " ", "-", " ", ".", " ").Replace(p)
}

// commentBoost: a definition's comments count this many times more in
// the keyword index than its code. A question is asked in words, and the
// comments are where a definition says in words what it does; its code's
// identifiers otherwise outweigh them (BM25 normalises by length). On
// Loom's own code at budget 4000 (BENCHMARKS.md), 0 → 2: the 110
// questions' nDCG@10 0.354 → 0.388 and recall 0.543 → 0.567, the 24 bug
// cases' recall 0.540 → 0.579 and definition Acc@5 0.458 → 0.500; 3 and 5
// were no better than 2.
const commentBoost = 2

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
