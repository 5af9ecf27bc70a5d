package query

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
)

// Source code is loaded as a lazy reference (seed §13.1): the graph holds
// a definition's file, lines and hashes, and its text is read from the
// file when the node loads. A file that changed since it was indexed is
// never served silently: when the definition's own lines still hash the
// same it loads from the file as it is now; otherwise the node loads as it
// was indexed, marked stale in its block's header and in the manifest, so
// that the model and the person know to re-ingest (a watched folder does
// so by itself).

// freshness checks the loaded nodes of one question against their files,
// reading each file once.
type freshness struct {
	ix    *index.Graph
	files map[string]*sourceFile // by document id
}

// sourceFile is a source file as it is on disk now.
type sourceFile struct {
	lines   []string
	same    bool   // its bytes hash as when it was indexed
	problem string // why it could not be read ("" when it was)
}

func newFreshness(ix *index.Graph) *freshness {
	return &freshness{ix: ix, files: map[string]*sourceFile{}}
}

// check is the text to serve for c (text is what was indexed): the
// definition's lines as the file has them now when they are unchanged,
// else text, with c.Stale saying why. Nodes that are not source code, and
// files Loom cannot reach (the web edition's uploads), load as indexed.
func (f *freshness) check(c *assemble.Candidate, l assemble.Level, text string) string {
	n := f.ix.Nodes[c.ID]
	if n == nil || n.Symbol == nil {
		return text
	}
	if n.Kind == model.KindAnalysis && n.Source != "" {
		if src := f.ix.Nodes[n.Source]; src != nil && src.Symbol != nil {
			n = src
		}
	}
	d := f.ix.Docs[n.DocID]
	if d == nil || !filepath.IsAbs(d.Key) {
		return text
	}
	sf := f.file(d)
	switch {
	case sf.problem != "":
		c.Stale = sf.problem
		return text
	case sf.same:
		return f.fromFile(sf, n, l, text)
	case n.Symbol.Kind == "file" || n.Symbol.Hash == "":
		c.Stale = "its file changed since indexing"
		return text
	}
	s, e := n.Symbol.Start, n.Symbol.End
	if s < 1 || e > len(sf.lines) || s > e || ingest.LinesHash(sf.lines[s-1:e]) != n.Symbol.Hash {
		c.Stale = "its definition changed since indexing"
		return text
	}
	return f.fromFile(sf, n, l, text)
}

// fromFile reads a whole definition's own text from the file (a node that
// is one part of a long definition, a class whose methods are nodes of
// their own, or a level other than the full text loads as stored, which
// the file was just checked to agree with).
func (f *freshness) fromFile(sf *sourceFile, n *model.ContentNode, l assemble.Level, text string) string {
	if l != assemble.Detailed || n.Parts > 1 || n.Symbol.Kind == "file" || n.LineStart != n.Symbol.Start || n.LineEnd != n.Symbol.End {
		return text
	}
	got := strings.TrimRight(strings.Join(sf.lines[n.LineStart-1:n.LineEnd], "\n"), " \t\n")
	if strings.TrimSpace(got) != strings.TrimSpace(text) {
		return text // a class less its methods: the stored text is the node's
	}
	return got
}

func (f *freshness) file(d *model.Document) *sourceFile {
	if sf, ok := f.files[d.ID]; ok {
		return sf
	}
	sf := &sourceFile{}
	f.files[d.ID] = sf
	data, err := os.ReadFile(d.Key)
	switch {
	case os.IsNotExist(err):
		sf.problem = "its file is gone"
		return sf
	case err != nil:
		sf.problem = "its file cannot be read"
		return sf
	}
	sf.same = ingest.HashBytes(data) == d.Hash
	if sf.lines, err = ingest.SourceLines(d.Path, data); err != nil {
		sf.problem = "its file cannot be read as text any more"
	}
	return sf
}
