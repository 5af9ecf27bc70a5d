// Package bibtex reads BibTeX (.bib) files: one Entry per reference, with
// its fields cleaned of TeX ({\"o} is ö, -- is an en dash), and the
// accessors Loom needs to make a content node of an entry and to match it
// to the paper it describes (Title, Authors, Year, Venue, DOI, ArXiv).
//
// Parse is a real parser, not a set of patterns: it follows BibTeX's
// grammar — @type{key, field = value, …} or @type(…), values in braces,
// in quotes, numbers and macros joined with #, @string definitions and the
// predefined month macros, @comment and @preamble skipped, anything
// outside an entry ignored. One malformed entry does not lose the others:
// it is skipped and reported as a Problem with its line, and Parse fails
// only when no entry can be read at all.
//
// NormalizeTitle, NormalizeDOI and NormalizeArXiv are the keys an entry and
// a PDF are matched on; the PDF reader uses them too.
package bibtex
