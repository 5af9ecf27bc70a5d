package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/loomwork/loom/backend/ingest/bibtex"
	"github.com/loomwork/loom/backend/model"
)

// page is what a web page says of itself, read before its clutter goes.
type page struct {
	title string   // the <title> element's text
	h1s   []string // the first few <h1> texts, in document order
	meta  model.DocMeta
}

// maxH1s bounds how many <h1> texts are kept to confirm a title.
const maxH1s = 16

// readPage reads a page's title, its first headings of level 1 and its
// <meta> elements: author and citation_author → Authors; citation_doi,
// dc.identifier and prism.doi → DOI (when they hold one);
// citation_arxiv_id → ArXiv; keywords, citation_keywords and article:tag →
// Tags; the first four-digit year of citation_publication_date,
// citation_date, dc.date or article:published_time → Year;
// citation_journal_title or citation_conference_title → Venue.
func readPage(root *html.Node) page {
	var p page
	walk(root, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		switch n.DataAtom {
		case atom.Title:
			if p.title == "" {
				p.title = textOf(n)
			}
			return false
		case atom.H1:
			if len(p.h1s) < maxH1s {
				if t := textOf(n); t != "" {
					p.h1s = append(p.h1s, t)
				}
			}
			return false
		case atom.Meta:
			p.addMeta(n)
		case atom.Script, atom.Style, atom.Template, atom.Svg:
			return false
		}
		return true
	})
	return p
}

// addMeta takes what one <meta> element says.
func (p *page) addMeta(n *html.Node) {
	name := strings.ToLower(strings.TrimSpace(attr(n, "name")))
	if name == "" {
		name = strings.ToLower(strings.TrimSpace(attr(n, "property")))
	}
	content := collapseSpace(attr(n, "content"))
	if name == "" || content == "" {
		return
	}
	m := &p.meta
	switch name {
	case "author", "dc.creator", "dcterms.creator":
		m.Authors = appendNew(m.Authors, content)
	case "citation_author":
		m.Authors = appendNew(m.Authors, personName(content))
	case "citation_doi", "dc.identifier", "dcterms.identifier", "prism.doi", "bepress_citation_doi":
		if m.DOI == "" {
			m.DOI = bibtex.NormalizeDOI(content)
		}
	case "citation_arxiv_id":
		if m.ArXiv == "" {
			m.ArXiv = bibtex.NormalizeArXiv(content)
		}
	case "keywords", "citation_keywords", "article:tag":
		for _, k := range strings.FieldsFunc(content, func(r rune) bool { return r == ',' || r == ';' }) {
			if k = strings.TrimSpace(k); k != "" {
				m.Tags = appendNew(m.Tags, k)
			}
		}
	case "citation_publication_date", "citation_date", "dc.date", "dcterms.date", "article:published_time":
		if m.Year == "" {
			m.Year = firstYear(content)
		}
	case "citation_journal_title", "citation_conference_title":
		if m.Venue == "" {
			m.Venue = content
		}
	}
}

// personName turns "Last, First" (how citation_author is usually written)
// into "First Last"; other forms stay as they are.
func personName(s string) string {
	last, first, ok := strings.Cut(s, ",")
	if !ok || strings.Contains(first, ",") {
		return s
	}
	last, first = strings.TrimSpace(last), strings.TrimSpace(first)
	if first == "" || last == "" {
		return s
	}
	return first + " " + last
}

// appendNew appends s unless list has it already.
func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// firstYear returns the first run of exactly four digits in s that reads as
// a year from 1000 to 2999 ("" for none).
func firstYear(s string) string {
	for i := 0; i+4 <= len(s); i++ {
		if i > 0 && isDigit(s[i-1]) {
			continue
		}
		if isDigit(s[i]) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) &&
			(i+4 == len(s) || !isDigit(s[i+4])) && (s[i] == '1' || s[i] == '2') {
			return s[i : i+4]
		}
	}
	return ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// titleSeparators part a page's own title from its site's name in a
// <title> ("Getting started | Loom docs", "Loom docs – Getting started").
var titleSeparators = []string{" | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " / ", ": "}

// pageTitle is the page's title: the <title>, shortened to the part before
// or after a separator only when an <h1> says that part is the title (so
// "Go: the language" stays whole); the first <h1> when there is no <title>.
func pageTitle(title string, h1s []string) string {
	if title == "" {
		if len(h1s) > 0 {
			return h1s[0]
		}
		return ""
	}
	confirmed := func(part string) bool {
		part = strings.TrimSpace(part)
		for _, h := range h1s {
			if part != "" && strings.EqualFold(part, h) {
				return true
			}
		}
		return false
	}
	if confirmed(title) {
		return title
	}
	for _, sep := range titleSeparators {
		for from := 0; ; {
			i := strings.Index(title[from:], sep)
			if i < 0 {
				break
			}
			i += from
			if before := title[:i]; confirmed(before) {
				return strings.TrimSpace(before)
			}
			if after := title[i+len(sep):]; confirmed(after) {
				return strings.TrimSpace(after)
			}
			from = i + len(sep)
		}
	}
	return title
}
