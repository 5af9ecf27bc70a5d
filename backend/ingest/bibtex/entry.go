package bibtex

import (
	"strings"
)

// Entry is one reference of a .bib file.
type Entry struct {
	// Type is the entry type in lower case ("article", "inproceedings").
	Type string
	// Key is the citation key as written.
	Key string
	// Fields maps lower-case field names to values with macros expanded and
	// TeX removed (see CleanTeX); doi, url, eprint, file and isbn keep
	// their characters (only braces and backslash escapes go).
	Fields map[string]string
	// Line and EndLine are the 1-based lines of the entry's "@" and of its
	// closing delimiter.
	Line, EndLine int

	raw map[string]string // values with macros expanded, TeX as written
}

// verbatimFields are fields whose values are addresses or identifiers, in
// which "~" and "--" mean themselves.
var verbatimFields = map[string]bool{"doi": true, "url": true, "eprint": true, "file": true, "pdf": true, "isbn": true, "issn": true}

// cleanVerbatim drops braces and the backslash of escapes (\_ is _).
func cleanVerbatim(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' || c == '}':
		case c == '\\' && i+1 < len(s) && !isLetter(s[i+1]):
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// Title is the entry's title, TeX cleaned.
func (e Entry) Title() string { return e.Fields["title"] }

// Authors are the entry's authors in reading order ("First Last"), or its
// editors when it names no author (an edited book); "others" is left out.
func (e Entry) Authors() []string {
	for _, field := range []string{"author", "editor"} {
		if raw, ok := e.raw[field]; ok {
			if names := personNames(raw); len(names) > 0 {
				return names
			}
		} else if v := e.Fields[field]; v != "" {
			if names := personNames(v); len(names) > 0 {
				return names
			}
		}
	}
	return nil
}

// Year is the four-digit year of the year field, else of the date field
// (biblatex's "2021-05-03"); a year field without four digits ("in press")
// is returned as it is.
func (e Entry) Year() string {
	if y := firstYear(e.Fields["year"]); y != "" {
		return y
	}
	if y := firstYear(e.Fields["date"]); y != "" {
		return y
	}
	return e.Fields["year"]
}

// Venue is where the work appeared: the first present of journal
// (journaltitle), booktitle, publisher, school (institution) and
// howpublished.
func (e Entry) Venue() string {
	for _, f := range []string{"journal", "journaltitle", "booktitle", "publisher", "school", "institution", "howpublished"} {
		if v := e.Fields[f]; v != "" {
			return v
		}
	}
	return ""
}

// DOI is the entry's DOI, lower-cased and without a resolver prefix, from
// its doi field or a doi.org url.
func (e Entry) DOI() string {
	if d := NormalizeDOI(e.Fields["doi"]); d != "" {
		return d
	}
	if u := e.Fields["url"]; strings.Contains(strings.ToLower(u), "doi.org/") {
		return NormalizeDOI(u)
	}
	return ""
}

// ArXiv is the entry's arXiv identifier without version: from eprint when
// archivePrefix (or eprinttype) is arXiv or absent, else from an arxiv.org
// url, or from a journal, note or howpublished such as "arXiv preprint
// arXiv:2205.14135".
func (e Entry) ArXiv() string {
	archive := strings.ToLower(e.Fields["archiveprefix"] + e.Fields["eprinttype"])
	if archive == "" || archive == "arxiv" {
		if id := NormalizeArXiv(e.Fields["eprint"]); id != "" {
			return id
		}
	}
	if u := e.Fields["url"]; strings.Contains(strings.ToLower(u), "arxiv.org/") {
		if id := NormalizeArXiv(u); id != "" {
			return id
		}
	}
	for _, f := range []string{"journal", "journaltitle", "note", "howpublished", "publisher"} {
		if v := e.Fields[f]; strings.Contains(strings.ToLower(v), "arxiv") {
			if id := NormalizeArXiv(v); id != "" {
				return id
			}
		}
	}
	return ""
}

// Abstract is the entry's abstract, TeX cleaned.
func (e Entry) Abstract() string { return e.Fields["abstract"] }

// Keywords are the entry's keywords, split at commas and semicolons.
func (e Entry) Keywords() []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range strings.FieldsFunc(e.Fields["keywords"], func(r rune) bool { return r == ',' || r == ';' }) {
		if k = strings.TrimSpace(k); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// Text renders the entry for a content node:
//
//	Title
//	Authors (Year). Venue.
//	DOI: … arXiv: …
//	Keywords: …
//
//	Abstract
//
// leaving out the lines (and parts of lines) the entry has nothing for.
func (e Entry) Text() string {
	var lines []string
	if t := e.Title(); t != "" {
		lines = append(lines, t)
	}
	byline := strings.Join(e.Authors(), ", ")
	if y := e.Year(); y != "" {
		byline = strings.TrimSpace(byline + " (" + y + ")")
	}
	if byline != "" && !strings.HasSuffix(byline, ".") {
		byline += "."
	}
	if v := e.Venue(); v != "" {
		byline = strings.TrimSpace(byline + " " + v)
		if !strings.HasSuffix(byline, ".") {
			byline += "."
		}
	}
	if byline != "" {
		lines = append(lines, byline)
	}
	var ids []string
	if d := e.DOI(); d != "" {
		ids = append(ids, "DOI: "+d)
	}
	if a := e.ArXiv(); a != "" {
		ids = append(ids, "arXiv: "+a)
	}
	if len(ids) > 0 {
		lines = append(lines, strings.Join(ids, " "))
	}
	if k := e.Keywords(); len(k) > 0 {
		lines = append(lines, "Keywords: "+strings.Join(k, ", "))
	}
	text := strings.Join(lines, "\n")
	if a := e.Abstract(); a != "" {
		if text != "" {
			text += "\n\n"
		}
		text += a
	}
	return text
}

// firstYear returns the first run of exactly four digits in s ("" for none).
func firstYear(s string) string {
	for i := 0; i+4 <= len(s); i++ {
		if (i == 0 || !isDigitByte(s[i-1])) && allDigits(s[i:i+4]) && (i+4 == len(s) || !isDigitByte(s[i+4])) {
			return s[i : i+4]
		}
	}
	return ""
}
