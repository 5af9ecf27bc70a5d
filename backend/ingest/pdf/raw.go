package pdf

// Raw is what a PDF text extractor saw, before any layout analysis: the
// positioned spans of text on every page, the outline (bookmarks) and the
// title and author of the document information dictionary. Natively
// Extract fills it from pdfium; in the browser pdf.js fills it and sends
// it as JSON with exactly these field names, so both editions share
// Layout.
type Raw struct {
	Pages   []Page        `json:"pages"`
	Outline []OutlineItem `json:"outline,omitempty"`
	// Title and Author are the information dictionary's entries, often
	// empty or junk ("Microsoft Word - draft.docx").
	Title  string `json:"title,omitempty"`
	Author string `json:"author,omitempty"`
}

// Page is one page's text. Coordinates are PDF points with the origin at
// the page's top-left corner and y growing downwards.
type Page struct {
	// Number is the 1-based page number.
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Runs   []Run   `json:"runs"`
}

// Run is a span of text in one font on one line: a word or several. Its
// extent is not otherwise fixed: pdf.js gives arbitrary spans and pdfium
// pieces of lines, so Layout assumes neither whole words nor whole lines.
type Run struct {
	Text string `json:"text"`
	// X0, Y0 is the top-left corner, X1, Y1 the bottom-right one.
	X0 float64 `json:"x0"`
	Y0 float64 `json:"y0"`
	X1 float64 `json:"x1"`
	Y1 float64 `json:"y1"`
	// Size is the font size in points (0 when unknown: Layout then uses
	// the run's height).
	Size   float64 `json:"size"`
	Bold   bool    `json:"bold,omitempty"`
	Italic bool    `json:"italic,omitempty"`
	Font   string  `json:"font,omitempty"`
}

// OutlineItem is one bookmark of the document's outline.
type OutlineItem struct {
	Title string `json:"title"`
	// Level is the depth in the outline, from 1.
	Level int `json:"level"`
	// Page is the 1-based page the bookmark points to, 0 when unknown.
	Page int `json:"page"`
	// Y is where on that page it points (top-left origin), -1 when unknown.
	Y float64 `json:"y"`
}
