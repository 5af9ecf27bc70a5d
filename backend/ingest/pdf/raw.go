// Package pdf reads a PDF's text layer (Extract: pdfium natively, pdf.js in the web edition) into a Raw and lays it out into blocks (Layout).
package pdf

// Raw is what Extract reads from a PDF: every page's text runs with their
// boxes and fonts, the outline (bookmarks) and the document's information.
type Raw struct {
	Pages   []Page        `json:"pages"`
	Outline []OutlineItem `json:"outline"`
	Title   string        `json:"title"`
	Author  string        `json:"author"`
}

// Page is one page: its size in PDF points and its text runs in the order
// the page draws them.
type Page struct {
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Runs   []Run   `json:"runs"`
}

// Run is a piece of text in one font on one line.
type Run struct {
	Text string `json:"text"`
	// The run's box in PDF points, top-left origin, y growing down.
	X0 float64 `json:"x0"`
	Y0 float64 `json:"y0"`
	X1 float64 `json:"x1"`
	Y1 float64 `json:"y1"`
	// Size is the font size in points.
	Size   float64 `json:"size"`
	Bold   bool    `json:"bold"`
	Italic bool    `json:"italic"`
	Font   string  `json:"font"`
}

// OutlineItem is one entry of the PDF's outline (its bookmarks).
type OutlineItem struct {
	Title string `json:"title"`
	// Level is the depth, from 1.
	Level int `json:"level"`
	// Page is the 1-based page the entry points to.
	Page int `json:"page"`
	// Y is where on the page, in points from the top; -1 when unknown.
	Y float64 `json:"y"`
}
