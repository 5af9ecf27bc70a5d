package pdf

import (
	"regexp"
	"strings"

	"github.com/loomwork/loom/backend/ingest/blocks"
	"github.com/loomwork/loom/backend/model"
)

var (
	// doiPattern is a DOI: "10.", a registrant code, "/", a suffix.
	doiPattern = regexp.MustCompile(`(?i)\b10\.\d{4,9}/[^\s"<>]+`)
	// arxivNew is a current arXiv identifier, "arXiv:2205.14135v2".
	arxivNew = regexp.MustCompile(`(?i)arxiv:?\s*(\d{4}\.\d{4,5})(v\d+)?`)
	// arxivOld is an identifier from before 2007, "arXiv:cs/0501001" or
	// "math.AG/0309136".
	arxivOld = regexp.MustCompile(`(?i)(?:arxiv:?\s*)?\b([a-z]+(?:-[a-z]+)?(?:\.[A-Z]{2})?/\d{7})(v\d+)?\b`)
)

// meta is what the document says of itself: authors, DOI, arXiv id and
// year from the first page (its text before any reference list, its
// sideways margin stamp) and the information dictionary, and the page
// count.
func (a *analysis) meta(out []blocks.Block) model.DocMeta {
	m := model.DocMeta{Pages: len(a.raw.Pages), Authors: a.authors}
	if len(m.Authors) == 0 {
		m.Authors = infoAuthors(a.raw.Author)
	}
	var texts []string
	texts = append(texts, a.sideways...)
	for _, l := range a.front {
		texts = append(texts, l.text)
	}
	first := a.lines[0].page
	for _, b := range out {
		if b.Page != first || b.Kind == blocks.Item {
			break
		}
		texts = append(texts, b.Text)
	}
	texts = append(texts, a.raw.Title)
	page := strings.Join(texts, "\n")
	m.DOI = findDOI(page)
	m.ArXiv = findArXiv(page)
	switch {
	case m.ArXiv != "" && !strings.Contains(m.ArXiv, "/"):
		m.Year = "20" + m.ArXiv[:2]
	default:
		for _, l := range a.front {
			if y := yearPattern.FindString(l.text); y != "" {
				m.Year = y
				break
			}
		}
	}
	return m
}

// findDOI is the first DOI in text, lower-cased, without the punctuation
// that ends the sentence around it.
func findDOI(text string) string {
	d := doiPattern.FindString(text)
	d = strings.TrimRight(d, ".,;:)]}'\"’”")
	return strings.ToLower(d)
}

// findArXiv is the first arXiv identifier in text, without its version.
func findArXiv(text string) string {
	if m := arxivNew.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	for _, m := range arxivOld.FindAllStringSubmatch(text, -1) {
		if strings.Contains(strings.ToLower(m[0]), "arxiv") || knownArchive(m[1]) {
			return m[1]
		}
	}
	return ""
}

// knownArchive tells whether an old-style identifier's archive is one of
// arXiv's, so that a path like "and/1234567" is not taken for one.
func knownArchive(id string) bool {
	archive, _, _ := strings.Cut(id, "/")
	archive, _, _ = strings.Cut(archive, ".")
	switch strings.ToLower(archive) {
	case "cs", "math", "physics", "hep-th", "hep-ph", "hep-ex", "hep-lat", "astro-ph", "cond-mat", "gr-qc",
		"nucl-th", "nucl-ex", "quant-ph", "math-ph", "nlin", "q-bio", "q-fin", "stat":
		return true
	}
	return false
}

// infoAuthors reads the information dictionary's Author entry as names,
// or gives nil when it does not look like names.
func infoAuthors(s string) []string {
	var names []string
	for _, part := range authorSplit.Split(collapseSpace(s), -1) {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		if !personName(part) {
			return nil
		}
		names = append(names, part)
	}
	return names
}
