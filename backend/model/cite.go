package model

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A cite is the reference a person can follow outside Loom: the file, and
// where in it — lines of a note, pages and the section of a paper, the
// key of a BibTeX entry. The prompt names each block's source by it, the
// page shows it on every node and the source viewer opens it.
//
//	notes/Properties.md#aliases L12–30
//	papers/flash.pdf p. 4–5 §3.2.1
//	refs.bib @dao2022 L120–131
//	web/guide.html §Setup (part 2/3)
//	answer "How does staleness decay?"

// Cite is the human-readable reference of node n of document d. Ranges use
// the en dash ("L12–30", "p. 4–5"); a one-line or one-page range is a
// single number; what is not known is left out.
//
// An analysis node (a summary, an essence) carries the location of the node
// it condenses, so its cite is that location's; a caller that can resolve
// n.Source should pass the source node instead (Graph.Cite does), which
// cites a summary of an answer as the answer. With no document, the cite is
// the node's reference.
func Cite(d *Document, n *ContentNode) string {
	if n == nil {
		return ""
	}
	if d == nil {
		return n.Ref
	}
	if n.Kind == KindOutput {
		return answerCite(d, n)
	}
	path := d.Path
	if path == "" {
		path, _, _ = strings.Cut(n.Ref, "#")
	}
	_, anchor, _ := strings.Cut(n.Ref, "#")
	var b strings.Builder
	switch d.Format {
	case "beir":
		return n.Ref
	case "pdf":
		b.WriteString(path)
		if p := Span(n.PageStart, n.PageEnd); p != "" {
			b.WriteString(" p. " + p)
		}
		if s := sectionMark(LastHeading(n.HeadingPath)); s != "" {
			b.WriteString(" §" + s)
		}
		writePart(&b, n)
	case "html", "docx", "epub":
		// Their lines are of the converted text, which nobody can open.
		b.WriteString(path)
		if h := clipHeading(LastHeading(n.HeadingPath)); h != "" {
			b.WriteString(" §" + h)
		}
		writePart(&b, n)
	case "bibtex":
		file, _, _ := strings.Cut(path, "#") // an entry's path is "refs.bib#key"
		b.WriteString(file)
		if anchor == "" {
			anchor = d.Meta.BibKey
		}
		if anchor != "" {
			b.WriteString(" @" + anchor)
		}
		writeLines(&b, n)
	default: // markdown, text, code: a file with lines
		b.WriteString(path)
		if anchor != "" {
			b.WriteString("#" + anchor)
		}
		writeLines(&b, n)
	}
	return b.String()
}

// Span is a 1-based range as a cite writes it: "4–5", "4" for one, "" when
// the start is unknown (0).
func Span(start, end int) string {
	switch {
	case start <= 0:
		return ""
	case end <= start:
		return fmt.Sprint(start)
	default:
		return fmt.Sprintf("%d–%d", start, end)
	}
}

// writePart tells the parts of a long section apart where no lines do (a
// paper's pages and section, a web page's heading): "§Introduction (part
// 1/2)", as the node's title says it.
func writePart(b *strings.Builder, n *ContentNode) { b.WriteString(PartMark(n.Part, n.Parts)) }

// PartMark is how a node's title and cite say which part of a long section
// it is: " (part 2/3)"; "" for a section in one part.
func PartMark(part, parts int) string {
	if parts <= 1 {
		return ""
	}
	return fmt.Sprintf(" (part %d/%d)", part, parts)
}

// PartSuffix matches a PartMark at the end of a title, a heading or a cite.
var PartSuffix = regexp.MustCompile(`\s*\(part \d+/\d+\)$`)

func writeLines(b *strings.Builder, n *ContentNode) {
	if l := Span(n.LineStart, n.LineEnd); l != "" {
		b.WriteString(" L" + l)
	}
}

// answerCite names a saved answer by its question (the title of the
// document it was indexed as).
func answerCite(d *Document, n *ContentNode) string {
	title := d.Title
	if title == "" {
		title = LastHeading(n.HeadingPath)
	}
	title = Clip(strings.Join(strings.Fields(title), " "), maxAnswerTitle)
	if title == "" {
		return "answer " + d.Path
	}
	return `answer "` + title + `"`
}

// How long the words of a cite may run before they are clipped with "…".
const (
	maxHeading     = 40
	maxAnswerTitle = 60
)

// sectionNumber matches the numbering a paper's heading starts with:
// "3", "3.2.1", "A.1", "A.", "IV", "II." — followed by the heading's words
// or nothing. A lone capital letter or "I" counts only with a dot ("A
// Survey of…" is words).
var sectionNumber = regexp.MustCompile(`^((?:\d+(?:\.\d+)*)|(?:[A-Z](?:\.\d+)+)|(?:[A-Z]\.)|(?:[IVX]{2,})|(?:[IVX]\.))\.?(?:\s|$)`)

// sectionMark is how a cite names the section of a paged document: its
// number when the heading has one, else the heading itself, clipped.
func sectionMark(heading string) string {
	heading = strings.Join(strings.Fields(heading), " ")
	if m := sectionNumber.FindStringSubmatch(heading); m != nil {
		return strings.TrimSuffix(m[1], ".")
	}
	return clipHeading(heading)
}

func clipHeading(h string) string { return Clip(strings.Join(strings.Fields(h), " "), maxHeading) }

// Clip cuts s to at most n characters, the last of them "…".
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}
