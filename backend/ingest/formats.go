package ingest

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/loomwork/loom/backend/model"
)

// ReaderVersion is the version of the reader of a format: it goes up when
// the reader reads the same bytes differently (a fix, a syntax it now
// understands), so that files a workspace holds are read again by the
// Loom that reads them better, not only when they change (stored as
// model.Document.Reader). Markdown 1: Logseq pages (properties, tab
// nesting, block references), Pandoc citations, aliases. Text 1: Org
// files as Org reads them (drawers, links, ids, Org-roam's metadata).
func ReaderVersion(format string) int { return readerVersions[Format(format)] }

// ReadByOlderReader reports whether an older reader of d's format read it:
// the next ingest of its file reads it again, even unchanged.
func ReadByOlderReader(d *model.Document) bool { return d.Reader < ReaderVersion(d.Format) }

// readerVersions are the formats' reader versions (absent: 0).
var readerVersions = map[Format]int{FormatMarkdown: 1, FormatText: 1}

// formats maps a lower-case file extension to the format Loom reads it as.
// The web edition's page keeps the same list (frontend/src/lib/upload.ts).
var formats = map[string]Format{
	".md": FormatMarkdown, ".markdown": FormatMarkdown, ".mdown": FormatMarkdown, ".mkd": FormatMarkdown, ".mdx": FormatMarkdown,

	".txt": FormatText, ".text": FormatText, ".org": FormatText, ".rst": FormatText, ".adoc": FormatText,

	".jsonl": FormatBEIR,

	".pdf":  FormatPDF,
	".html": FormatHTML, ".htm": FormatHTML, ".xhtml": FormatHTML,
	".docx": FormatDOCX,
	".epub": FormatEPUB,
	".bib":  FormatBibTeX, ".ris": FormatBibTeX, // references: one document an entry

	".ipynb": FormatNotebook,
	".csv":   FormatTable, ".tsv": FormatTable,

	".py": FormatCode, ".go": FormatCode, ".js": FormatCode, ".mjs": FormatCode, ".ts": FormatCode,
	".tsx": FormatCode, ".jsx": FormatCode, ".r": FormatCode, ".jl": FormatCode, ".tex": FormatCode,
	".rs": FormatCode, ".java": FormatCode, ".c": FormatCode, ".h": FormatCode, ".cpp": FormatCode,
	".hpp": FormatCode, ".cc": FormatCode, ".rb": FormatCode, ".sh": FormatCode, ".sql": FormatCode,
	".m": FormatCode, ".scala": FormatCode, ".kt": FormatCode, ".swift": FormatCode, ".lua": FormatCode,
	".pl": FormatCode, ".php": FormatCode, ".css": FormatCode, ".scss": FormatCode, ".json": FormatCode,
	".yaml": FormatCode, ".yml": FormatCode, ".toml": FormatCode,
	".pyi": FormatCode, ".cjs": FormatCode, ".mts": FormatCode, ".cts": FormatCode, ".cxx": FormatCode, ".hh": FormatCode,
}

// FormatOf picks a format by file name; ok is false for files a folder walk
// should skip (a file named directly is read as text whatever its name).
func FormatOf(path string) (Format, bool) {
	if f, ok := formats[strings.ToLower(filepath.Ext(path))]; ok {
		return f, true
	}
	return FormatText, false
}

// Extensions lists the file extensions Loom reads, sorted.
func Extensions() []string {
	out := make([]string, 0, len(formats))
	for ext := range formats {
		out = append(out, ext)
	}
	slices.Sort(out)
	return out
}

// binary reports whether a format's files are containers of bytes (not
// text), which get their own size limit.
func (f Format) binary() bool {
	return f == FormatPDF || f == FormatDOCX || f == FormatEPUB
}

// ReadsAs says, for a person, what Loom reads.
const ReadsAs = "Loom reads papers (PDF), notes (Markdown, text), web pages (HTML), Word (.docx), EPUB, BibTeX and RIS references, notebooks, CSV and source files"
