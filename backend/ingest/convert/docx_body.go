package convert

import (
	"encoding/xml"
	"html"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/html/charset"
)

// piece is a stretch of a paragraph's text with one formatting.
type piece struct {
	text         string
	bold, italic bool
	href         string
}

// para is a paragraph being read.
type para struct {
	styleID  string
	numbered bool
	level    int
	pieces   []piece
}

// text is the paragraph's plain text.
func (p *para) text() string {
	var b strings.Builder
	for _, pc := range p.pieces {
		b.WriteString(pc.text)
	}
	return b.String()
}

// add appends text, merged into the last piece when it looks the same.
func (p *para) add(text string, bold, italic bool, href string) {
	if text == "" {
		return
	}
	if n := len(p.pieces); n > 0 {
		last := &p.pieces[n-1]
		if last.bold == bold && last.italic == italic && last.href == href {
			last.text += text
			return
		}
	}
	p.pieces = append(p.pieces, piece{text: text, bold: bold, italic: italic, href: href})
}

// inlineHTML renders the pieces as HTML: links around formatted text,
// line breaks as <br>.
func (p *para) inlineHTML() string {
	var b strings.Builder
	open := ""
	for _, pc := range p.pieces {
		if pc.href != open {
			if open != "" {
				b.WriteString("</a>")
			}
			if pc.href != "" {
				b.WriteString(`<a href="` + html.EscapeString(pc.href) + `">`)
			}
			open = pc.href
		}
		text := strings.ReplaceAll(html.EscapeString(pc.text), "\n", "<br>")
		blank := strings.TrimSpace(pc.text) == ""
		switch {
		case blank:
			b.WriteString(text)
		case pc.bold && pc.italic:
			b.WriteString("<strong><em>" + text + "</em></strong>")
		case pc.bold:
			b.WriteString("<strong>" + text + "</strong>")
		case pc.italic:
			b.WriteString("<em>" + text + "</em>")
		default:
			b.WriteString(text)
		}
	}
	if open != "" {
		b.WriteString("</a>")
	}
	return b.String()
}

// docxBody turns word/document.xml into HTML as it streams past.
type docxBody struct {
	styles  *styles
	links   map[string]string // relationship id → target
	notes   map[string]string // footnote id → text
	out     strings.Builder
	title   string
	noteIDs []string // footnotes referenced, in order

	paras      []*para // the paragraph being read, and those it is nested in (text boxes)
	inPPr      bool
	bold       bool // the current run's formatting
	italic     bool
	inText     bool // inside <w:t>
	href       string
	fieldInstr strings.Builder // a complex field's instruction
	fieldHref  string
	inInstr    bool
	skip       int // depth inside content that is not text (deletions, fallbacks)

	tables    []*docxTable
	listDepth int
	code      []string // consecutive preformatted paragraphs
}

// docxTable is a table being read.
type docxTable struct {
	rows [][]string
	cell *strings.Builder
}

// readDocxBody streams document.xml.
func readDocxBody(r io.Reader, st *styles, links, notes map[string]string) (*docxBody, error) {
	d := &docxBody{styles: st, links: links, notes: notes}
	dec := xml.NewDecoder(r)
	dec.CharsetReader = charset.NewReaderLabel
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, xmlProblem(err, "is a Word document with a damaged word/document.xml")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			d.start(t)
		case xml.EndElement:
			d.end(t.Name.Local)
		case xml.CharData:
			if d.skip == 0 && d.inText && len(d.paras) > 0 {
				d.addText(string(t))
			} else if d.inInstr {
				d.fieldInstr.Write(t)
			}
		}
	}
	d.flushCode()
	d.closeLists()
	return d, nil
}

// skipped are elements whose content is not the document's text: tracked
// deletions and the VML fallback that repeats a drawing's text box.
var skipped = map[string]bool{"del": true, "moveFrom": true, "Fallback": true, "sdtPr": true, "rPrChange": true, "pPrChange": true}

func (d *docxBody) start(t xml.StartElement) {
	name := t.Name.Local
	if d.skip > 0 || skipped[name] {
		d.skip++
		return
	}
	cur := d.current()
	switch name {
	case "p":
		d.paras = append(d.paras, &para{})
	case "pPr":
		d.inPPr = true
	case "pStyle":
		if cur != nil && d.inPPr {
			cur.styleID = xmlAttr(t, "val")
		}
	case "numId":
		if cur != nil && d.inPPr {
			cur.numbered = xmlAttr(t, "val") != "0"
		}
	case "ilvl":
		if cur != nil && d.inPPr {
			cur.level, _ = strconv.Atoi(xmlAttr(t, "val"))
			cur.level = max(0, min(cur.level, 8))
		}
	case "r":
		d.bold, d.italic = false, false
	case "rStyle":
		if rs, ok := d.styles.run[xmlAttr(t, "val")]; ok && !d.inPPr {
			d.bold, d.italic = d.bold || rs.bold, d.italic || rs.italic
		}
	case "b":
		if !d.inPPr {
			d.bold = onOff(t)
		}
	case "i":
		if !d.inPPr {
			d.italic = onOff(t)
		}
	case "t":
		d.inText = true
	case "tab", "ptab":
		if !d.inPPr {
			d.addText("\t")
		}
	case "br", "cr":
		d.addText("\n")
	case "noBreakHyphen":
		d.addText("-")
	case "hyperlink":
		d.href = ""
		if id := xmlAttr(t, "id"); id != "" {
			d.href = d.links[id]
		}
		if anchor := xmlAttr(t, "anchor"); anchor != "" && d.href == "" {
			d.href = "#" + anchor
		}
	case "fldSimple":
		d.fieldHref = fieldLink(xmlAttr(t, "instr"))
	case "fldChar":
		switch xmlAttr(t, "fldCharType") {
		case "begin":
			d.fieldInstr.Reset()
			d.fieldHref = ""
		case "separate":
			d.fieldHref = fieldLink(d.fieldInstr.String())
		case "end":
			d.fieldHref = ""
		}
	case "instrText":
		d.inInstr = true
	case "footnoteReference":
		id := xmlAttr(t, "id")
		if _, ok := d.notes[id]; ok {
			d.noteIDs = append(d.noteIDs, id)
			d.addText("[" + strconv.Itoa(len(d.noteIDs)) + "]")
		}
	case "tbl":
		d.flushCode()
		d.tables = append(d.tables, &docxTable{})
	case "tr":
		if tb := d.table(); tb != nil {
			tb.rows = append(tb.rows, nil)
		}
	case "tc":
		if tb := d.table(); tb != nil {
			tb.cell = &strings.Builder{}
		}
	}
}

func (d *docxBody) end(name string) {
	if d.skip > 0 {
		d.skip--
		return
	}
	switch name {
	case "p":
		d.endParagraph()
	case "pPr":
		d.inPPr = false
	case "t":
		d.inText = false
	case "instrText":
		d.inInstr = false
	case "hyperlink":
		d.href = ""
	case "fldSimple":
		d.fieldHref = ""
	case "tc":
		if tb := d.table(); tb != nil && tb.cell != nil && len(tb.rows) > 0 {
			last := len(tb.rows) - 1
			tb.rows[last] = append(tb.rows[last], strings.TrimSpace(tb.cell.String()))
			tb.cell = nil
		}
	case "tbl":
		d.endTable()
	}
}

func (d *docxBody) current() *para {
	if len(d.paras) == 0 {
		return nil
	}
	return d.paras[len(d.paras)-1]
}

func (d *docxBody) table() *docxTable {
	if len(d.tables) == 0 {
		return nil
	}
	return d.tables[len(d.tables)-1]
}

func (d *docxBody) addText(s string) {
	p := d.current()
	if p == nil {
		return
	}
	href := d.href
	if href == "" {
		href = d.fieldHref
	}
	p.add(s, d.bold, d.italic, href)
}

// fieldLink reads the address of a HYPERLINK field instruction
// (`HYPERLINK "https://…" \o "tip"`; `\l "bookmark"` links inside).
func fieldLink(instr string) string {
	f := strings.Fields(instr)
	if len(f) < 2 || !strings.EqualFold(f[0], "HYPERLINK") {
		return ""
	}
	if f[1] == `\l` && len(f) > 2 {
		return "#" + strings.Trim(f[2], `"`)
	}
	return strings.Trim(f[1], `"`)
}
