package convert

import (
	"encoding/xml"
	"io"
	"path"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/loomwork/loom/backend/model"
)

// DOCX converts a Word document. Paragraphs in the Title style give the
// title (it is not repeated in the markdown); Heading 1–9 become headings
// (style ids are resolved through word/styles.xml, where "heading 1" is
// the name whatever the id); numbered and bulleted paragraphs become "- "
// items, nested by level; tables become GFM tables with their first row
// as the header; hyperlinks keep their targets; bold and italic runs
// become ** and *; line breaks and tabs are kept; preformatted paragraphs
// become code blocks; footnotes are appended, numbered [1], [2]… where
// they are referenced. Tracked deletions and table-of-contents lines are
// left out.
//
// The body is written as HTML and converted by the same html-to-markdown
// call as web pages, so a paragraph that begins with "#" or "1." or holds
// a "*" stays text. Meta comes from docProps/core.xml: dc:creator
// (authors separated by ";") → Authors, cp:keywords → Tags, the year of
// dcterms:created → Year, and dc:title when no paragraph is a Title.
func DOCX(data []byte) (*Doc, error) {
	a, err := openZip(data, "a .docx")
	if err != nil {
		return nil, err
	}
	main := mainPart(a)
	if !a.has(main) {
		return nil, bad("is not a Word document: the zip has no %s (%s)", main, a.describeEntries())
	}
	dir := path.Dir(main)
	relsName := path.Join(dir, "_rels", path.Base(main)+".rels")
	links := map[string]string{}
	if a.has(relsName) {
		rels, err := readRels(a, relsName)
		if err != nil {
			return nil, err
		}
		for _, rel := range rels {
			links[rel.id] = rel.target
		}
	}
	var st *styles
	if name := path.Join(dir, "styles.xml"); a.has(name) {
		rc, err := a.open(name)
		if err != nil {
			return nil, err
		}
		st, err = readStyles(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
	} else if st, err = readStyles(nil); err != nil {
		return nil, err
	}
	notes := map[string]string{}
	if name := path.Join(dir, "footnotes.xml"); a.has(name) {
		if notes, err = readNotes(a, name); err != nil {
			return nil, err
		}
	}
	rc, err := a.open(main)
	if err != nil {
		return nil, err
	}
	body, err := readDocxBody(rc, st, links, notes)
	rc.Close()
	if err != nil {
		return nil, err
	}
	body.writeNotes()
	doc := &Doc{Title: body.title}
	if a.has("docProps/core.xml") {
		title, meta, err := readCore(a)
		if err != nil {
			return nil, err
		}
		doc.Meta = meta
		if doc.Title == "" {
			doc.Title = title
		}
	}
	if body.out.Len() > MaxHTMLBytes {
		return nil, bad("holds more text than Loom converts from one document (%d MiB of it)", MaxHTMLBytes>>20)
	}
	root, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><body>" + body.out.String() + "</body></html>"))
	if err != nil {
		return nil, badWrap(err, "cannot be converted")
	}
	if doc.Markdown, err = toMarkdown(root); err != nil {
		return nil, badWrap(err, "cannot be converted to markdown")
	}
	return doc, nil
}

// mainPart is the document part the package's relationships name
// (word/document.xml in nearly every file).
func mainPart(a *archive) string {
	const fallback = "word/document.xml"
	if !a.has("_rels/.rels") {
		return fallback
	}
	rels, err := readRels(a, "_rels/.rels")
	if err != nil {
		return fallback
	}
	for _, rel := range rels {
		if strings.HasSuffix(rel.kind, "/officeDocument") {
			return strings.TrimPrefix(path.Clean("/"+rel.target), "/")
		}
	}
	return fallback
}

// relationship is one entry of a relationships part.
type relationship struct{ id, kind, target string }

// readRels reads a relationships part, in order.
func readRels(a *archive, name string) ([]relationship, error) {
	rc, err := a.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var rels []relationship
	dec := xml.NewDecoder(rc)
	dec.CharsetReader = charset.NewReaderLabel
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return rels, nil
		}
		if err != nil {
			return nil, xmlProblem(err, "has a damaged %s", name)
		}
		if t, ok := tok.(xml.StartElement); ok && t.Name.Local == "Relationship" {
			rels = append(rels, relationship{id: xmlAttr(t, "Id"), kind: xmlAttr(t, "Type"), target: xmlAttr(t, "Target")})
		}
	}
}

// readNotes reads footnotes.xml: each footnote's plain text by id,
// leaving out the separators Word keeps there.
func readNotes(a *archive, name string) (map[string]string, error) {
	rc, err := a.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	notes := map[string]string{}
	dec := xml.NewDecoder(rc)
	dec.CharsetReader = charset.NewReaderLabel
	var id string
	var text strings.Builder
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return notes, nil
		}
		if err != nil {
			return nil, xmlProblem(err, "is a Word document with a damaged %s", name)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "footnote":
				id = ""
				if typ := xmlAttr(t, "type"); typ == "" || typ == "normal" {
					id = xmlAttr(t, "id")
				}
				text.Reset()
			case "t":
				inText = true
			case "p", "tab", "br":
				text.WriteByte(' ')
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "footnote":
				if id != "" {
					notes[id] = collapseSpace(text.String())
				}
			}
		case xml.CharData:
			if inText {
				text.Write(t)
			}
		}
	}
}

// readCore reads docProps/core.xml.
func readCore(a *archive) (string, model.DocMeta, error) {
	var meta model.DocMeta
	rc, err := a.open("docProps/core.xml")
	if err != nil {
		return "", meta, err
	}
	defer rc.Close()
	var core struct {
		Title    string `xml:"title"`
		Creator  string `xml:"creator"`
		Keywords string `xml:"keywords"`
		Created  string `xml:"created"`
	}
	dec := xml.NewDecoder(rc)
	dec.CharsetReader = charset.NewReaderLabel
	if err := dec.Decode(&core); err != nil {
		return "", meta, xmlProblem(err, "is a Word document with a damaged docProps/core.xml")
	}
	for _, name := range strings.Split(core.Creator, ";") {
		if name = collapseSpace(name); name != "" {
			meta.Authors = appendNew(meta.Authors, name)
		}
	}
	for _, k := range strings.FieldsFunc(core.Keywords, func(r rune) bool { return r == ',' || r == ';' }) {
		if k = collapseSpace(k); k != "" {
			meta.Tags = appendNew(meta.Tags, k)
		}
	}
	meta.Year = firstYear(core.Created)
	return collapseSpace(core.Title), meta, nil
}
