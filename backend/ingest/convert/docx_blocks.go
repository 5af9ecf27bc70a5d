package convert

import (
	"html"
	"strconv"
	"strings"
)

// endParagraph writes the paragraph just read: as the title, a heading, a
// list item, preformatted text, a paragraph, or into the table cell it is
// in.
func (d *docxBody) endParagraph() {
	n := len(d.paras)
	if n == 0 {
		return
	}
	p := d.paras[n-1]
	d.paras = d.paras[:n-1]
	if outer := d.current(); outer != nil {
		// a text box's paragraph: its text joins the paragraph around it
		if text := strings.TrimSpace(p.text()); text != "" {
			outer.add(" "+text+" ", false, false, "")
		}
		return
	}
	if tb := d.table(); tb != nil {
		if tb.cell != nil {
			if tb.cell.Len() > 0 {
				tb.cell.WriteString(" ")
			}
			tb.cell.WriteString(strings.ReplaceAll(p.inlineHTML(), "<br>", " "))
		}
		return
	}
	text := strings.TrimSpace(p.text())
	style := d.styles.paragraph(p.styleID)
	if style.code {
		d.code = append(d.code, p.text())
		return
	}
	d.flushCode()
	if text == "" || style.toc {
		return
	}
	switch {
	case style.title && d.title == "":
		d.closeLists()
		d.title = collapseSpace(text)
	case style.heading > 0:
		d.closeLists()
		h := "h" + strconv.Itoa(min(style.heading, 6))
		d.out.WriteString("<" + h + ">" + html.EscapeString(collapseSpace(text)) + "</" + h + ">\n")
	case p.numbered || style.list:
		d.listItem(p.level, p.inlineHTML())
	default:
		d.closeLists()
		d.out.WriteString("<p>" + p.inlineHTML() + "</p>\n")
	}
}

// listItem writes an item at a nesting level (0 is the outermost),
// opening and closing nested lists on the way. An item nests at most one
// level deeper than the item before it (Word lets a list start at level
// 3; markdown would show empty items above it).
func (d *docxBody) listItem(level int, inline string) {
	target := min(level+1, d.listDepth+1)
	for d.listDepth > target {
		d.out.WriteString("</li></ul>\n")
		d.listDepth--
	}
	if d.listDepth == target {
		d.out.WriteString("</li>\n")
	}
	if d.listDepth < target {
		d.out.WriteString("<ul>")
		d.listDepth++
	}
	d.out.WriteString("<li>" + inline)
}

func (d *docxBody) closeLists() {
	for ; d.listDepth > 0; d.listDepth-- {
		d.out.WriteString("</li></ul>\n")
	}
}

// flushCode writes consecutive preformatted paragraphs as one block.
func (d *docxBody) flushCode() {
	if len(d.code) == 0 {
		return
	}
	d.closeLists()
	text := strings.ReplaceAll(strings.Join(d.code, "\n"), "\t", "    ")
	d.out.WriteString("<pre><code>" + html.EscapeString(text) + "</code></pre>\n")
	d.code = nil
}

// endTable writes a table with its first row as the header (a GFM table
// needs one); a table inside a table's cell becomes text of that cell.
func (d *docxBody) endTable() {
	n := len(d.tables)
	if n == 0 {
		return
	}
	tb := d.tables[n-1]
	d.tables = d.tables[:n-1]
	if outer := d.table(); outer != nil {
		if outer.cell != nil {
			for _, row := range tb.rows {
				outer.cell.WriteString(" " + strings.Join(row, " "))
			}
		}
		return
	}
	width := 0
	for _, row := range tb.rows {
		width = max(width, len(row))
	}
	if width == 0 {
		return
	}
	d.closeLists()
	d.out.WriteString("<table>\n")
	for i, row := range tb.rows {
		tag := "td"
		if i == 0 {
			tag = "th"
		}
		d.out.WriteString("<tr>")
		for c := 0; c < width; c++ {
			cell := ""
			if c < len(row) {
				cell = row[c]
			}
			d.out.WriteString("<" + tag + ">" + cell + "</" + tag + ">")
		}
		d.out.WriteString("</tr>\n")
	}
	d.out.WriteString("</table>\n")
}

// writeNotes appends the footnotes referenced, numbered as in the text.
func (d *docxBody) writeNotes() {
	for i, id := range d.noteIDs {
		d.out.WriteString("<p>[" + strconv.Itoa(i+1) + "] " + html.EscapeString(d.notes[id]) + "</p>\n")
	}
}
