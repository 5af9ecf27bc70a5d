//go:build !js

package pdf

import (
	"strings"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Limits on the outline walk: a crafted outline can link its items in a
// cycle, and pdfium follows it forever.
const (
	maxOutlineItems = 5000
	maxOutlineDepth = 12
)

// readOutline walks the bookmarks depth first. tops are the pages' top
// edges in PDF space, to turn a destination's y (bottom-left origin) into
// Raw's.
func readOutline(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, tops []float64) []OutlineItem {
	var items []OutlineItem
	var walk func(parent *references.FPDF_BOOKMARK, level int)
	walk = func(parent *references.FPDF_BOOKMARK, level int) {
		if level > maxOutlineDepth {
			return
		}
		first, err := inst.FPDFBookmark_GetFirstChild(&requests.FPDFBookmark_GetFirstChild{Document: doc, Bookmark: parent})
		if err != nil || first.Bookmark == nil {
			return
		}
		mark := *first.Bookmark
		for len(items) < maxOutlineItems {
			items = append(items, outlineItem(inst, doc, mark, level, tops))
			walk(&mark, level+1)
			next, err := inst.FPDFBookmark_GetNextSibling(&requests.FPDFBookmark_GetNextSibling{Document: doc, Bookmark: mark})
			if err != nil || next.Bookmark == nil {
				return
			}
			mark = *next.Bookmark
		}
	}
	walk(nil, 1)
	return items
}

func outlineItem(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, mark references.FPDF_BOOKMARK, level int, tops []float64) OutlineItem {
	item := OutlineItem{Level: level, Y: -1}
	if title, err := inst.FPDFBookmark_GetTitle(&requests.FPDFBookmark_GetTitle{Bookmark: mark}); err == nil {
		item.Title = strings.TrimSpace(title.Title)
	}
	dest := bookmarkDest(inst, doc, mark)
	if dest == nil {
		return item
	}
	index, err := inst.FPDFDest_GetDestPageIndex(&requests.FPDFDest_GetDestPageIndex{Document: doc, Dest: *dest})
	if err != nil || index.Index < 0 || index.Index >= len(tops) {
		return item
	}
	item.Page = index.Index + 1
	loc, err := inst.FPDFDest_GetLocationInPage(&requests.FPDFDest_GetLocationInPage{Dest: *dest})
	if err == nil && loc.Y != nil {
		item.Y = max(0, tops[index.Index]-float64(*loc.Y))
	}
	return item
}

// bookmarkDest is where a bookmark points, given directly or through a
// GoTo action (hyperref writes the latter).
func bookmarkDest(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, mark references.FPDF_BOOKMARK) *references.FPDF_DEST {
	if d, err := inst.FPDFBookmark_GetDest(&requests.FPDFBookmark_GetDest{Document: doc, Bookmark: mark}); err == nil && d.Dest != nil {
		return d.Dest
	}
	action, err := inst.FPDFBookmark_GetAction(&requests.FPDFBookmark_GetAction{Bookmark: mark})
	if err != nil || action.Action == nil {
		return nil
	}
	d, err := inst.FPDFAction_GetDest(&requests.FPDFAction_GetDest{Document: doc, Action: *action.Action})
	if err != nil {
		return nil
	}
	return d.Dest
}
