package library

import (
	"slices"
	"strings"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/ingest/bibtex"
	"github.com/loomwork/loom/backend/model"
)

// A paper often enters a library twice: as its PDF and as an entry of a
// BibTeX file. samePaperLinks finds, for a document of either kind, the
// documents of the other kind that are the same paper — by DOI, by arXiv
// identifier, or by title — so that link can join them with links edges.

// minTitleMatch is the shortest normalised title matched on its own: short
// titles ("Introduction", "Notes") name too many things.
const minTitleMatch = 24

// paperFormat reports whether documents of a format describe a paper that
// may be entered in another form.
func paperFormat(f string) bool {
	return f == string(ingest.FormatPDF) || f == string(ingest.FormatBibTeX)
}

// samePaperLinks lists the ids of the documents in the index that are the
// same paper as d in another form (a BibTeX entry for a PDF, a PDF for an
// entry), best evidence first.
func samePaperLinks(ix *index.Graph, d *model.Document) []string {
	if !paperFormat(d.Format) {
		return nil
	}
	title := bibtex.NormalizeTitle(d.Title)
	var byID, byTitle []string
	for id, o := range ix.Docs {
		if id == d.ID || o.Format == d.Format || !paperFormat(o.Format) {
			continue
		}
		switch {
		case d.Meta.DOI != "" && d.Meta.DOI == o.Meta.DOI, d.Meta.ArXiv != "" && d.Meta.ArXiv == o.Meta.ArXiv:
			byID = append(byID, id)
		case len(title) >= minTitleMatch && title == bibtex.NormalizeTitle(o.Title):
			byTitle = append(byTitle, id)
		}
	}
	slices.Sort(byID)
	slices.Sort(byTitle)
	return append(byID, byTitle...)
}

// recordFormat reports whether a file of the format holds many documents,
// one a record (a BEIR corpus line, a BibTeX entry), keyed "<file>#<id>".
func recordFormat(f string) bool {
	return f == string(ingest.FormatBEIR) || f == string(ingest.FormatBibTeX)
}

// dropVanishedRecords queues the removal of the records of file that its
// new version no longer holds (an entry deleted from a .bib), and says how
// many.
func (w *Library) dropVanishedRecords(ix *index.Graph, b *batch, file string, docs []ingest.Document) int {
	keep := make(map[string]bool, len(docs))
	for _, d := range docs {
		keep[d.Key] = true
	}
	prefix := file + "#"
	var gone []string
	for id, d := range ix.Docs {
		if strings.HasPrefix(d.Key, prefix) && !keep[d.Key] {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	for _, id := range gone {
		w.removeDoc(ix, b, id)
	}
	return len(gone)
}
