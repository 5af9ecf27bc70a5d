package convert

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/html/charset"
)

// paraStyle is what a paragraph style makes of a paragraph.
type paraStyle struct {
	heading int  // 1–9, 0 for none
	title   bool // the document's title
	list    bool // a list item (the style carries numbering)
	code    bool // preformatted text
	toc     bool // a table-of-contents line, which repeats the headings
}

// runStyle is what a character style makes of a run.
type runStyle struct{ bold, italic bool }

// styles resolves style ids, which vary with the language and the
// template ("Heading1", "berschrift1", "Titre1"), through the names
// styles.xml gives them ("heading 1"), which do not.
type styles struct {
	para map[string]paraStyle
	run  map[string]runStyle
}

// rawStyle is one <w:style> as written.
type rawStyle struct {
	kind, id, name, basedOn string
	outline                 int // outlineLvl + 1, 0 for none
	numbered                bool
	bold, italic            bool
}

// codeStyleNames are names of paragraph styles for preformatted text.
var codeStyleNames = map[string]bool{"source code": true, "html preformatted": true, "code": true, "plain text": true, "macro text": true}

// readStyles reads word/styles.xml (nil data gives the fallback: ids
// read as names).
func readStyles(r io.Reader) (*styles, error) {
	s := &styles{para: map[string]paraStyle{}, run: map[string]runStyle{}}
	if r == nil {
		return s, nil
	}
	raw := map[string]*rawStyle{}
	dec := xml.NewDecoder(r)
	dec.CharsetReader = charset.NewReaderLabel
	var cur *rawStyle
	inRPr := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, xmlProblem(err, "is a Word document with a damaged word/styles.xml")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "style":
				cur = &rawStyle{kind: xmlAttr(t, "type"), id: xmlAttr(t, "styleId")}
				if _, dup := raw[cur.id]; !dup {
					raw[cur.id] = cur
				}
			case "name":
				if cur != nil {
					cur.name = strings.ToLower(strings.TrimSpace(xmlAttr(t, "val")))
				}
			case "basedOn":
				if cur != nil {
					cur.basedOn = xmlAttr(t, "val")
				}
			case "outlineLvl":
				if cur != nil {
					if n, err := strconv.Atoi(xmlAttr(t, "val")); err == nil && n >= 0 && n < 9 {
						cur.outline = n + 1
					}
				}
			case "numId":
				if cur != nil && xmlAttr(t, "val") != "0" {
					cur.numbered = true
				}
			case "rPr":
				inRPr = true
			case "b":
				if cur != nil && inRPr {
					cur.bold = onOff(t)
				}
			case "i":
				if cur != nil && inRPr {
					cur.italic = onOff(t)
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "style":
				cur = nil
			case "rPr":
				inRPr = false
			}
		}
	}
	for id, r := range raw {
		if r.kind == "character" {
			s.run[id] = runStyle{bold: r.bold, italic: r.italic}
			continue
		}
		if r.kind == "paragraph" || r.kind == "" {
			s.para[id] = resolve(raw, r, 0)
		}
	}
	return s, nil
}

// resolve works out a paragraph style from its name, its outline level
// and, for what it does not say, the style it is based on (a custom
// "Chapter" based on "heading 1" is a heading; a "Subtitle" based on
// "Title" is not the title).
func resolve(raw map[string]*rawStyle, r *rawStyle, depth int) paraStyle {
	var p paraStyle
	switch {
	case strings.HasPrefix(r.name, "heading "):
		if n, err := strconv.Atoi(strings.TrimPrefix(r.name, "heading ")); err == nil && n >= 1 && n <= 9 {
			p.heading = n
		}
	case r.name == "title":
		p.title = true
	case strings.HasPrefix(r.name, "toc "):
		p.toc = true
	case codeStyleNames[r.name]:
		p.code = true
	}
	if p.heading == 0 && !p.title && !p.toc && r.outline > 0 {
		p.heading = r.outline
	}
	p.list = r.numbered
	if parent, ok := raw[r.basedOn]; ok && parent != r && depth < 10 && !p.title && !p.toc {
		base := resolve(raw, parent, depth+1)
		if p.heading == 0 && !p.code {
			p.heading = base.heading
		}
		p.list = p.list || base.list
		p.code = p.code || base.code && p.heading == 0
	}
	return p
}

// paragraph returns what a paragraph style id means; an id styles.xml
// does not define is read as a name ("Heading2", "Title").
func (s *styles) paragraph(id string) paraStyle {
	if p, ok := s.para[id]; ok {
		return p
	}
	lower := strings.ToLower(id)
	switch {
	case lower == "title":
		return paraStyle{title: true}
	case strings.HasPrefix(lower, "heading"):
		if n, err := strconv.Atoi(strings.TrimPrefix(lower, "heading")); err == nil && n >= 1 && n <= 9 {
			return paraStyle{heading: n}
		}
	}
	return paraStyle{}
}

// xmlAttr returns an attribute by local name.
func xmlAttr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// onOff reads a Word toggle (<w:b/>, <w:b w:val="0"/>, "false", "off").
func onOff(t xml.StartElement) bool {
	switch strings.ToLower(xmlAttr(t, "val")) {
	case "0", "false", "off", "none":
		return false
	}
	return true
}
