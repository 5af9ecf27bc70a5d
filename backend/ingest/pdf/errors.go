package pdf

import "errors"

// The reasons a PDF cannot be read. Each message is a sentence fragment
// meant to follow the file's name ("paper.pdf is encrypted: …"), so
// callers add the name and nothing else; errors.Is tells them apart.
var (
	// ErrNotPDF is returned for data that does not start like a PDF.
	ErrNotPDF = errors.New("is not a PDF: it does not start with %PDF-")
	// ErrTruncated is returned for a PDF whose end is missing.
	ErrTruncated = errors.New("is truncated: it does not end with %%EOF; download or export it again")
	// ErrDamaged is returned for a PDF pdfium cannot parse.
	ErrDamaged = errors.New("is damaged: its structure cannot be parsed; export it again")
	// ErrEncrypted is returned for a PDF that needs a password to open.
	ErrEncrypted = errors.New("is encrypted: Loom cannot read password-protected PDFs")
	// ErrTooLarge is returned for a file over the size limit (WithMaxBytes).
	ErrTooLarge = errors.New("is too large")
	// ErrTooManyPages is returned for a PDF over the page limit (WithMaxPages).
	ErrTooManyPages = errors.New("has too many pages")
	// ErrNoTextLayer is returned for a PDF none of whose pages has text.
	ErrNoTextLayer = errors.New("has no text layer (it looks scanned): Loom does not do OCR; export a PDF with text")
	// ErrUnreadableText is returned for a PDF whose text is there but does
	// not map to characters (fonts without a ToUnicode table).
	ErrUnreadableText = errors.New("has a text layer that does not map to readable characters: export it again with embedded Unicode fonts")
	// ErrNothingReadable is returned when layout analysis leaves no text.
	ErrNothingReadable = errors.New("has no readable text once headers, footers and page numbers are removed")
	// errLayoutFailed wraps a panic of the layout code: a bug in Loom, not
	// in the file, but the file is refused cleanly all the same.
	errLayoutFailed = errors.New("could not be laid out (a bug in Loom's PDF reader; please report it with the file)")
)
