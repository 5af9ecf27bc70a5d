//go:build !js

package pdf

import (
	"math"
	"strings"
	"unicode"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// runGap is the widest horizontal gap, in ems, that stays inside one run.
// A word space is about a third of an em; the gap between table cells or
// columns is an em or more. Layout decides what the gaps mean; a run only
// must not swallow one.
const runGap = 0.6

// readPage turns one page's characters into runs: pdfium gives every
// glyph with its box; glyphs on one line in one font with no wide gap
// between them make a run. It also gives the page's top edge in PDF
// space (y grows upwards there), which Raw's coordinates count down from.
func readPage(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, index int) (page Page, top float64, err error) {
	loaded, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: index})
	if err != nil {
		return Page{}, 0, err
	}
	defer func() { _, _ = inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: loaded.Page}) }()
	ref := requests.Page{ByReference: &loaded.Page}
	box, err := inst.FPDF_GetPageBoundingBox(&requests.FPDF_GetPageBoundingBox{Page: ref})
	if err != nil {
		return Page{}, 0, err
	}
	left, top := float64(box.Rect.Left), float64(box.Rect.Top)
	page = Page{
		Number: index + 1,
		Width:  float64(box.Rect.Right - box.Rect.Left),
		Height: float64(box.Rect.Top - box.Rect.Bottom),
	}
	text, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: ref})
	if err != nil {
		return Page{}, 0, err
	}
	defer func() { _, _ = inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: text.TextPage}) }()
	count, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: text.TextPage})
	if err != nil {
		return Page{}, 0, err
	}
	b := runBuilder{inst: inst, text: text.TextPage, left: left, top: top}
	for i := range count.Count {
		if err := b.add(i); err != nil {
			return Page{}, 0, err
		}
	}
	b.flush()
	page.Runs = b.runs
	return page, top, nil
}

// runBuilder collects the glyphs of a page into runs.
type runBuilder struct {
	inst      pdfium.Pdfium
	text      references.FPDF_TEXTPAGE
	left, top float64 // the page box's top-left corner in PDF space

	runs     []Run
	cur      Run
	buf      strings.Builder
	rotated  bool // the current run's glyphs are turned (sideways text)
	space    bool // a space came since the last glyph
	font     fontInfo
	lastSize float64 // the last glyph's box height, to notice a size change
	lastX0   float64 // where the last glyph started
}

type fontInfo struct {
	name         string
	size         float64
	bold, italic bool
	rotated      bool
}

// corkLigatures are the ligatures at codes 0x1B–0x1F of TeX's Cork (T1)
// font encoding — ff, fi, fl, ffi, ffl — as their presentation forms, which
// cleanText spells out.
var corkLigatures = [5]rune{'\uFB00', '\uFB01', '\uFB02', '\uFB03', '\uFB04'}

func (b *runBuilder) add(i int) error {
	u, err := b.inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: b.text, Index: i})
	if err != nil {
		return err
	}
	r := rune(u.Unicode)
	switch {
	case r == '\r' || r == '\n':
		b.flush()
		return nil
	case r == 0x02: // pdfium's mark for a hyphen it took for a soft one
		r = '-'
	case r == 0 || r == 0xFFFE || r == 0xFFFF:
		r = unicode.ReplacementChar // a glyph that maps to no character
	case r >= 0x1B && r <= 0x1F:
		// A TeX font in the Cork (T1) encoding without a ToUnicode map:
		// pdfium passes the code, and these are its ligature slots.
		r = corkLigatures[r-0x1B]
	case unicode.IsSpace(r):
		b.space = true
		return nil
	case unicode.IsControl(r):
		return nil
	}
	box, err := b.inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: b.text, Index: i})
	if err != nil {
		return err
	}
	x0, x1 := float64(box.Rect.Left)-b.left, float64(box.Rect.Right)-b.left
	y0, y1 := b.top-float64(box.Rect.Top), b.top-float64(box.Rect.Bottom)
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	height := y1 - y0
	// Font facts cost several calls, so they are asked at the start of a
	// word and when the glyph height jumps (a superscript, say).
	if b.buf.Len() == 0 || b.space || math.Abs(height-b.lastSize) > 0.15*max(height, b.lastSize) {
		f, err := b.fontAt(i)
		if err != nil {
			return err
		}
		if b.buf.Len() > 0 && f != b.font {
			b.flush()
		}
		b.font = f
	}
	b.lastSize = height
	if b.buf.Len() > 0 && !b.continues(x0, y0, x1, y1) {
		b.flush()
	}
	if b.buf.Len() == 0 {
		b.cur = Run{X0: x0, Y0: y0, X1: x1, Y1: y1, Size: b.font.size, Bold: b.font.bold, Italic: b.font.italic, Font: b.font.name}
		b.rotated = b.font.rotated
	} else {
		if b.space {
			b.buf.WriteByte(' ')
		}
		b.cur.X0, b.cur.Y0 = min(b.cur.X0, x0), min(b.cur.Y0, y0)
		b.cur.X1, b.cur.Y1 = max(b.cur.X1, x1), max(b.cur.Y1, y1)
	}
	b.space = false
	b.lastX0 = x0
	b.buf.WriteRune(r)
	return nil
}

// continues tells whether a glyph at the box goes on the current run.
func (b *runBuilder) continues(x0, y0, x1, y1 float64) bool {
	if b.rotated {
		return !b.space
	}
	c := b.cur
	overlap := min(c.Y1, y1) - max(c.Y0, y0)
	if overlap < 0.5*min(c.Y1-c.Y0, y1-y0) {
		return false
	}
	// The glyphs of a ligature (fi, ffl) all come with the ligature's box,
	// so a glyph may start where the previous one did.
	em := max(b.font.size, 1)
	return x0 >= b.lastX0-0.1*em && x0-c.X1 <= runGap*em
}

func (b *runBuilder) flush() {
	if b.buf.Len() > 0 {
		b.cur.Text = b.buf.String()
		b.runs = append(b.runs, b.cur)
	}
	b.buf.Reset()
	b.space = false
}

func (b *runBuilder) fontAt(i int) (fontInfo, error) {
	size, err := b.inst.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: b.text, Index: i})
	if err != nil {
		return fontInfo{}, err
	}
	info, err := b.inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: b.text, Index: i})
	if err != nil {
		return fontInfo{}, err
	}
	weight, err := b.inst.FPDFText_GetFontWeight(&requests.FPDFText_GetFontWeight{TextPage: b.text, Index: i})
	if err != nil {
		return fontInfo{}, err
	}
	angle, err := b.inst.FPDFText_GetCharAngle(&requests.FPDFText_GetCharAngle{TextPage: b.text, Index: i})
	if err != nil {
		return fontInfo{}, err
	}
	name := fontName(info.FontName)
	return fontInfo{
		name:    name,
		size:    math.Round(size.FontSize*100) / 100,
		bold:    boldFont(name, weight.FontWeight, info.Flags),
		italic:  italicFont(name, info.Flags),
		rotated: math.Abs(math.Sin(float64(angle.CharAngle))) > 0.1,
	}, nil
}
