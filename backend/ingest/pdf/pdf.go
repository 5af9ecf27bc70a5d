// Package pdf turns a PDF (a research paper, mostly) into blocks: headings
// from the paper's own structure, paragraphs in reading order across
// columns and pages, tables, captions, list items and reference entries,
// each with the page it came from, and what the first page says of the
// paper (title, authors, DOI, arXiv id, year).
//
// It works in two steps so that the browser edition can share the second:
//
//   - Extract asks pdfium, compiled to WebAssembly and run by wazero (so
//     the native editions need no cgo and no system library), for the
//     positioned text of every page, the outline and the information
//     dictionary, and gives a Raw.
//   - Layout turns a Raw into a blocks.Doc. In the browser, pdf.js
//     produces the same Raw as JSON and only Layout runs; Layout is pure
//     Go and builds for GOOS=js.
//
// Read is the two together (native builds only). See ExampleLayout.
//
// # Layout, step by step
//
// Runs become fragments: text on one line with no gap wider than three
// quarters of an em, so that a run may be a letter or a whole line. A
// page has two columns when an x in its middle is crossed by few
// fragments and column-wide text lies on both sides; rows that span the
// gutter (the title block, a wide table, whose cells may all keep clear
// of it) are read in place, the rows between them left column first.
// Lines that repeat near the top or bottom of many pages (digits aside)
// and lone page numbers are dropped. The body size is the size most
// characters have; headings come from the outline when there is one,
// else from type (larger than the body, or bold), numbering ("2.1",
// "A.1", "IV.", "Appendix B") and the usual names (Abstract, References,
// …), their level from the number's depth or the level of numbered
// headings set alike. Tables are runs of rows whose cells line up;
// "Table 1:" and "Figure 2." start captions; after a References heading
// entries are split at their marks ("[12]", "12.") or hanging indents.
// Paragraphs end at extra space, an indent after a finished sentence, a
// short last line, a change of size or a run-in bold heading; they go on
// across a column or page break (and past a float set there) when the
// next line is not indented, in papers that indent paragraphs, or else
// when the sentence goes on. Ligatures, TeX's spacing accents and line-end
// hyphens are undone, keeping the hyphens of compounds ("state-of-the-art",
// or any word the document also writes with its hyphen).
//
// # Limits
//
// Read refuses files over 256 MiB (WithMaxBytes) and documents over 2000
// pages (WithMaxPages) before pdfium parses them. pdfium reads the file
// through a callback rather than a copy, but loads every image a page
// draws when it parses the page's text: a 200 MB PDF that is one large
// image peaks at about 700 MB resident, which is returned when the call
// ends (every document gets a fresh pdfium instance). pdfium cannot be
// interrupted: a file that made it loop would block its Read.
package pdf
