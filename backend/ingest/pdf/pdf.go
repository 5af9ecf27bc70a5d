// Package pdf turns a PDF (a research paper, mostly) into blocks: headings
// from the paper's own structure, paragraphs in reading order across
// columns and pages, tables, captions and reference entries, with the
// page each came from, and what the first page says of the paper (title,
// authors, DOI, arXiv id).
//
// It works in two steps so that the browser edition can share the second:
// Extract asks pdfium (compiled to WebAssembly and run by wazero, so the
// native editions need no cgo and no system library) for positioned text
// and gives a Raw; Layout turns a Raw into a blocks.Doc. In the browser
// pdf.js produces the same Raw as JSON and only Layout runs. Read is the
// two steps together.
package pdf
