package bibtex

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/loomwork/loom/backend/errs"
)

// RIS is the tagged format publishers' "Download citation" buttons,
// Zotero, Mendeley and EndNote export: a record of "TY  - JOUR" to
// "ER  - ", one "TAG  - value" a line, a value going on over untagged
// lines (an abstract wrapped). ParseRIS reads each record as the Entry a
// BibTeX file would give for the same reference: its fields under
// BibTeX's names, so that Title, Authors, Year, Venue, DOI, ArXiv,
// Keywords and Text read it alike.

// risTag is a tagged line: two characters (a capital, then a capital or
// a digit), two spaces, a hyphen and the value ("ER  -" may end there).
var risTag = regexp.MustCompile(`^([A-Z][A-Z0-9])  -(?: (.*))?$`)

// risTypes are RIS reference types as BibTeX entry types (others: misc).
var risTypes = map[string]string{
	"JOUR": "article", "JFULL": "article", "MGZN": "article", "NEWS": "article", "EJOUR": "article",
	"BOOK": "book", "EBOOK": "book", "EDBOOK": "book", "CHAP": "incollection", "ECHAP": "incollection",
	"CONF": "inproceedings", "CPAPER": "inproceedings", "THES": "phdthesis", "RPRT": "techreport",
	"ELEC": "online", "UNPB": "unpublished", "MANSCPT": "unpublished",
}

// risFields maps RIS tags to the BibTeX field they fill; the first tag of
// a field met wins, except for authors and keywords, which add up.
var risFields = map[string]string{
	"TI": "title", "T1": "title", "CT": "title",
	"AU": "author", "A1": "author", "A2": "editor", "ED": "editor",
	"PY": "year", "Y1": "year", "DA": "date",
	"T2": "journal", "JO": "journal", "JF": "journal", "JA": "journal", "BT": "booktitle", "T3": "series",
	"AB": "abstract", "N2": "abstract", "KW": "keywords",
	"DO": "doi", "UR": "url", "L1": "file", "PB": "publisher", "CY": "address",
	"VL": "volume", "IS": "number", "SP": "pages", "EP": "endpage", "SN": "issn", "ID": "id", "LB": "id",
}

// ParseRIS reads a .ris file. Each record's key is its ID (or label)
// when it has one, else made as a BibTeX tool would: the first author's
// family name, the year and the title's first long word ("smith2019stratified"),
// with "b", "c", … after a key taken. A record that does not end, or has
// no title, is a Problem; ParseRIS fails only when no record can be read.
func ParseRIS(data []byte) ([]Entry, []Problem, error) {
	data = trimBOM(data)
	text := string(data)
	var problems []Problem
	if !utf8.Valid(data) {
		decoded, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, nil, errs.E(errs.BadFile, "is neither UTF-8 nor Windows-1252 text")
		}
		text = string(decoded)
		problems = append(problems, Problem{Line: 1, Message: "the file is not UTF-8: it was read as Windows-1252"})
	}
	var (
		entries []Entry
		cur     *Entry
		last    string // the field the last tagged line filled
		keys    = map[string]bool{}
	)
	finish := func(end int) {
		e := cur
		cur = nil
		for field, v := range e.raw {
			v = strings.TrimSpace(v)
			e.raw[field] = v
			if verbatimFields[field] {
				e.Fields[field] = cleanVerbatim(v)
			} else {
				e.Fields[field] = strings.Join(strings.Fields(v), " ")
			}
		}
		e.EndLine = end
		if e.Fields["year"] == "" {
			e.Fields["year"] = firstYear(e.Fields["date"])
		}
		if e.Fields["eprint"] == "" {
			if id := NormalizeArXiv(e.Fields["url"]); id != "" && strings.Contains(strings.ToLower(e.Fields["url"]), "arxiv") {
				e.Fields["eprint"] = id
			}
		}
		if e.Title() == "" {
			problems = append(problems, Problem{Line: e.Line, Message: "a record (TY) has no title (TI): it is skipped"})
			return
		}
		e.Key = risKey(e, keys)
		keys[e.Key] = true
		entries = append(entries, *e)
	}
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		line = strings.TrimRight(line, "\r \t")
		m := risTag.FindStringSubmatch(line)
		if m == nil {
			if cur != nil && last != "" && strings.TrimSpace(line) != "" {
				cur.raw[last] += " " + strings.TrimSpace(line) // a value wrapped
			}
			continue
		}
		tag, value := m[1], strings.TrimSpace(m[2])
		switch {
		case tag == "TY":
			if cur != nil {
				problems = append(problems, Problem{Line: cur.Line, Message: "a record has no end (ER) before the next one: it is read up to there"})
				finish(n - 1)
			}
			typ := risTypes[strings.ToUpper(value)]
			if typ == "" {
				typ = "misc"
			}
			cur = &Entry{Type: typ, Fields: map[string]string{}, raw: map[string]string{}, Line: n}
			last = ""
		case cur == nil:
			// outside a record: a header line some tools write
		case tag == "ER":
			finish(n)
		default:
			field := risFields[tag]
			last = field
			switch {
			case field == "":
			case field == "author" || field == "editor":
				if value != "" {
					if cur.raw[field] != "" {
						cur.raw[field] += " and "
					}
					if !strings.Contains(value, ",") {
						value = "{" + value + "}" // "Food and Agriculture Organization": one name
					}
					cur.raw[field] += value // "Smith, Ann": family, given
				}
			case field == "keywords":
				if value != "" {
					if cur.raw[field] != "" {
						cur.raw[field] += "; "
					}
					cur.raw[field] += value
				}
			case field == "endpage":
				if p := cur.raw["pages"]; p != "" && value != "" {
					cur.raw["pages"] = p + "–" + value
				}
			default:
				if _, ok := cur.raw[field]; !ok {
					cur.raw[field] = value
				} else {
					last = "" // a second title or abstract: the first is kept
				}
			}
		}
	}
	if cur != nil {
		problems = append(problems, Problem{Line: cur.Line, Message: "the last record has no end (ER): it is read to the end of the file"})
		finish(strings.Count(text, "\n") + 1)
	}
	if len(entries) == 0 {
		if len(problems) > 0 {
			return nil, problems, errs.E(errs.BadFile, "has no readable RIS record: line %d: %s", problems[0].Line, problems[0].Message)
		}
		return nil, nil, errs.E(errs.BadFile, "has no RIS records (TY  - JOUR … ER  - )")
	}
	return entries, problems, nil
}

// risKey is a record's citation key: its ID, or one made from its first
// author, year and title, not one of taken.
func risKey(e *Entry, taken map[string]bool) string {
	key := strings.Join(strings.Fields(e.Fields["id"]), "")
	if key == "" {
		family := ""
		if names := personNames(e.raw["author"]); len(names) > 0 {
			if f := strings.Fields(names[0]); len(f) > 0 {
				family = keyPart(f[len(f)-1])
			}
		}
		if family == "" {
			family = "anon"
		}
		word := ""
		for _, w := range strings.FieldsFunc(e.Title(), func(r rune) bool { return !isLetterRune(r) }) {
			if len(w) > 3 {
				word = w
				break
			}
		}
		key = strings.ToLower(family + e.Year() + keyPart(word))
	}
	if !taken[key] {
		return key
	}
	for i := 1; ; i++ {
		k := fmt.Sprintf("%s%d", key, i+1)
		if i < 26 {
			k = fmt.Sprintf("%s%c", key, 'a'+i) // b, c, …
		}
		if !taken[k] {
			return k
		}
	}
}

// keyPart is s with only its letters and digits.
func keyPart(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isLetterRune(r rune) bool { return unicode.IsLetter(r) }
