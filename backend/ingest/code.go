package ingest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/loomwork/loom/backend/ingest/code"
	"github.com/loomwork/loom/backend/model"
)

// A source file in a language Loom parses becomes one section per
// definition (function, method, type, class, interface, const/var block)
// plus a file section: the file's head (package clause, imports, its doc
// comment) and an outline of what it defines. Each section carries its
// model.Symbol — kind, name, signature, a hash of its lines — and the
// names its body calls or uses, which the library resolves into the
// symbol graph's edges (calls, implements, imports).
//
// Files of other extensions that Loom reads as code (shell, SQL, YAML…),
// and languages this edition cannot parse, are read as text, the latter
// with a warning saying so.

// CodeDef is what a section of source code defines, and what it uses.
type CodeDef struct {
	Symbol model.Symbol
	// Refs are the names the definition calls or uses.
	Refs []code.Ref
	// Bases are the types it embeds, extends or implements, as written.
	Bases []string
}

// minifiedLine is the length of a line past which a source file is taken
// for generated or minified output (a bundle, a minified library) rather
// than code a person wrote: Loom leaves it out and says so.
const minifiedLine = 64 << 10

// SkipError is a file left out on purpose, found only once it was read
// (minified code, say). It is reported with the walk's skipped files, not
// as a problem.
type SkipError struct {
	Path, Reason string
}

func (e *SkipError) Error() string { return e.Path + ": skipped: " + e.Reason }

// parseCode splits a source file into its definitions; ok is false when
// the file is not in a language Loom parses (the caller reads it as text).
func parseCode(doc *Document, text []byte) (ok bool, err error) {
	if _, known := code.LangOf(doc.Path); !known {
		return false, nil
	}
	if n := longestLine(text); n > minifiedLine {
		return true, &SkipError{doc.Path, fmt.Sprintf("looks minified or generated (a line of %s): Loom reads source code, not build output", HumanBytes(int64(n)))}
	}
	f, err := code.Parse(doc.Path, text)
	if errors.Is(err, code.ErrUnsupported) {
		doc.Warnings = append(doc.Warnings, err.Error())
		return false, nil
	}
	if err != nil {
		return true, &FileError{doc.Path, problemOf(err)}
	}
	doc.Code = f
	doc.Meta.Language = string(f.Lang)
	doc.Title = doc.Path
	if f.Partial {
		problem := "has syntax errors; the definitions Loom could still read are indexed"
		if len(f.Problems) > 0 {
			problem += " (" + f.Problems[0] + ")"
		}
		doc.Warnings = append(doc.Warnings, problem)
	}
	doc.Sections = codeSections(doc.Path, string(text), f)
	return true, nil
}

// codeSections makes the file section and one section per definition.
func codeSections(path, text string, f *code.File) []Section {
	lines := splitLines(text)
	// The file's head: what comes before its first definition.
	headEnd := len(lines)
	for _, d := range f.Defs {
		if d.LineStart >= 1 {
			headEnd = min(headEnd, d.LineStart-1)
			break
		}
	}
	head := strings.TrimSpace(strings.Join(lines[:max(0, headEnd)], "\n"))
	var outline []string
	for _, d := range f.Defs {
		if d.Parent < 0 {
			outline = append(outline, d.Name)
		}
	}
	fileText := head
	if len(outline) > 0 {
		if fileText != "" {
			fileText += "\n\n"
		}
		fileText += "Defines: " + strings.Join(outline, ", ")
	}
	if fileText == "" {
		fileText = path
	}
	fileSym := model.Symbol{Kind: "file", Name: f.Package}
	secs := []Section{{
		Ref: path, HeadingPath: []string{fileHeading(f)}, Text: fileText,
		LineStart: 1, LineEnd: max(1, headEnd), Parent: -1, Part: 1, Parts: 1,
		Code: &CodeDef{Symbol: fileSym},
	}}
	if headEnd == 0 {
		secs[0].LineEnd = 1
	}
	seen := map[string]int{}
	ordinalOf := make([]int, len(f.Defs)) // def index → section ordinal
	for i, d := range f.Defs {
		name := d.Name
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s-%d", name, n)
		}
		start, end := max(1, d.LineStart), min(len(lines), max(d.LineStart, d.LineEnd))
		if start > end {
			ordinalOf[i] = -1
			continue
		}
		parent, ancestors := 0, []string{path}
		if d.Parent >= 0 && d.Parent < i && ordinalOf[d.Parent] > 0 {
			parent = ordinalOf[d.Parent]
			ancestors = append(append([]string(nil), secs[parent].Ancestors...), secs[parent].Ref)
		}
		body := ownLines(lines, start, end, f.Defs, i)
		if strings.TrimSpace(body) == "" {
			ordinalOf[i] = -1
			continue
		}
		sym := model.Symbol{Kind: d.Kind, Name: name, Signature: d.Signature, Methods: d.Methods, Exported: d.Exported,
			Hash: LinesHash(lines[start-1 : end]), Start: start, End: end}
		ordinalOf[i] = len(secs)
		secs = append(secs, Section{
			Ordinal: len(secs), Ref: path + "#" + name, Slug: name, HeadingPath: []string{d.Kind + " " + name},
			Ancestors: ancestors, LineStart: start, LineEnd: end, Text: body, Parent: parent, Part: 1, Parts: 1,
			Code: &CodeDef{Symbol: sym, Refs: d.Refs, Bases: d.Bases},
		})
	}
	return secs
}

// fileHeading names a file section: "package query", or "file".
func fileHeading(f *code.File) string {
	if f.Package != "" {
		return "package " + f.Package
	}
	return "file"
}

// ownLines is the text of definition i: its lines, less those of the
// definitions nested in it (a class's methods are their own sections).
func ownLines(lines []string, start, end int, defs []code.Def, i int) string {
	var cut [][2]int
	for j := i + 1; j < len(defs); j++ {
		if defs[j].Parent == i && defs[j].LineStart >= start && defs[j].LineEnd <= end {
			cut = append(cut, [2]int{defs[j].LineStart, defs[j].LineEnd})
		}
	}
	if len(cut) == 0 {
		return strings.TrimRight(strings.Join(lines[start-1:end], "\n"), " \t\n")
	}
	var b strings.Builder
	at := start
	for _, c := range cut {
		if c[0] > at {
			b.WriteString(strings.Join(lines[at-1:c[0]-1], "\n"))
			b.WriteString("\n")
		}
		at = max(at, c[1]+1)
	}
	if at <= end {
		b.WriteString(strings.Join(lines[at-1:end], "\n"))
	}
	return strings.TrimRight(b.String(), " \t\n")
}

// SourceLines are a source file's lines as Parse numbers them: its bytes
// decoded as Parse decodes them (a byte-order mark dropped, UTF-16 read,
// any line ends), without their line ends.
func SourceLines(path string, data []byte) ([]string, error) {
	text, err := decodeText(path, data)
	if err != nil {
		return nil, err
	}
	return splitLines(string(text)), nil
}

// splitLines splits text into its lines, without their line ends.
func splitLines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	return strings.Split(text, "\n")
}

// LinesHash is the hash a definition's lines are checked by when its node
// loads: the first 16 hex digits of the SHA-256 of the lines, joined by
// line feeds, trailing white space of each line and carriage returns
// left out.
func LinesHash(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimRight(l, " \t\r"))
	}
	return HashBytes([]byte(b.String()))[:16]
}

// longestLine is the length in bytes of the longest line of text.
func longestLine(text []byte) int {
	longest, start := 0, 0
	for i, c := range text {
		if c == '\n' {
			longest = max(longest, i-start)
			start = i + 1
		}
	}
	return max(longest, len(text)-start)
}

// ParsesAsCode reports whether a file of this name is source code in a
// language this edition parses into definitions.
func ParsesAsCode(path string) bool {
	if f, _ := FormatOf(path); f != FormatCode {
		return false
	}
	lang, ok := code.LangOf(path)
	return ok && slices.Contains(code.Supported(), lang)
}
