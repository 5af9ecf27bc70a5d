package ingest

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/loomwork/loom/backend/model"
)

// Logseq writes a page as Markdown with properties of its own: the page's
// at the top of the file, one "key:: value" a line (title::, alias::,
// tags::), and a block's under its bullet ("  id:: 6500a1b2-…" when
// another block refers to it, "collapsed:: true" for its fold). Loom reads
// the page's properties as front matter (ReadFrontMatter: its title,
// aliases and tags), keeps them as the page's text (a description:: is
// prose, its links are links), and leaves the block ids and folds out of
// the text (logseqText): they say nothing a question could ask about.

// logseqProperty is one "key:: value" line.
var logseqProperty = regexp.MustCompile(`^([A-Za-z][\w-]*):: ?(.*)$`)

// opensWithProperty reports whether text's first line is a property: a
// Logseq page's properties open it.
func opensWithProperty(text []byte) bool {
	line, _, _ := bytes.Cut(text, []byte("\n"))
	return logseqProperty.Match(bytes.TrimRight(line, " \t\r"))
}

// logseqPageProperties reads the properties at the top of a page (up to
// its first line that is not one), as front matter fields, and where they
// end (0 for none).
func logseqPageProperties(text []byte) (map[string]any, int) {
	fields := map[string]any{}
	end := 0
	for off := 0; off < len(text); {
		nl := bytes.IndexByte(text[off:], '\n')
		lineEnd := len(text)
		if nl >= 0 {
			lineEnd = off + nl
		}
		m := logseqProperty.FindSubmatch(bytes.TrimRight(text[off:lineEnd], " \t\r"))
		if m == nil {
			break
		}
		key, value := strings.ToLower(string(m[1])), strings.TrimSpace(string(m[2]))
		var items []any
		for _, v := range strings.Split(value, ",") {
			v = strings.TrimSpace(strings.TrimPrefix(v, "#"))
			v = strings.TrimSuffix(strings.TrimPrefix(v, "[["), "]]")
			if key == "tags" || key == "tag" {
				v = strings.ReplaceAll(v, " ", "-") // one tag, not two
			}
			if v != "" {
				items = append(items, v)
			}
		}
		switch key {
		case "title":
			// Logseq names a page by its title: a link to it is by that
			// name whatever the file's, as by an alias.
			fields[key] = strings.TrimSpace(value)
			fields["alias"] = append(asList(fields["alias"]), strings.TrimSpace(value))
		case "alias", "aliases":
			fields["alias"] = append(asList(fields["alias"]), items...)
		default:
			fields[key] = items
		}
		end = min(lineEnd+1, len(text))
		off = end
	}
	if end == 0 {
		return nil, 0
	}
	return fields, end
}

// logseqNoise is a block's id or fold: "id:: <uuid>" or "collapsed::
// true|false", alone on its line (under a bullet or on it).
var logseqNoise = regexp.MustCompile(`(?m)^[ \t]*(?:- )?(?:id:: ` + uuidPattern + `|collapsed:: (?:true|false))[ \t]*$`)

// logseqBlockProperty is a property line under a block's bullet, indented
// with the block's tabs and two spaces.
var logseqBlockProperty = regexp.MustCompile(`(?m)^\t+  [A-Za-z][\w-]*:: `)

// logseqText is a Logseq page as Markdown reads it: its blocks' ids and
// folds blanked, and each tab that nests a block written as two spaces —
// Logseq nests blocks with tabs, and a tab-indented bullet under a
// heading (or after a blank line) is indented code to Markdown, its text
// and links lost. A tab of fenced code, or before prose (indented code), is
// the text's own and stays (nestedLine). Every line keeps its number. A page is Logseq's when it
// opens with page properties or holds a block's property, id or fold;
// any other text is returned as it is.
func logseqText(text []byte) []byte {
	if !bytes.Contains(text, []byte(":: ")) {
		return text
	}
	if !opensWithProperty(text) && !logseqNoise.Match(text) && !logseqBlockProperty.Match(text) {
		return text
	}
	text = logseqNoise.ReplaceAllFunc(text, func([]byte) []byte { return nil })
	if !bytes.Contains(text, []byte("\n\t")) && !bytes.HasPrefix(text, []byte("\t")) {
		return text
	}
	var b bytes.Buffer
	b.Grow(len(text) + len(text)/8)
	fence, fenceTabs := "", 0
	for _, l := range lineSplits(text) {
		tabs := 0
		for tabs < len(l) && l[tabs] == '\t' {
			tabs++
		}
		rest := l[tabs:]
		nesting := tabs
		if fence != "" {
			// In fenced code, the tabs of the block that holds the fence
			// nest it; any more are the code's own.
			nesting = min(tabs, fenceTabs)
			if model.ClosesFence(bytes.TrimSpace(rest), fence) {
				fence = ""
			}
		} else {
			if f := blockFence(rest); f != "" {
				fence, fenceTabs = f, tabs
			}
			if !nestedLine(rest) {
				nesting = 0 // prose after a tab: indented code, as Markdown reads it
			}
		}
		for range nesting {
			b.WriteString("  ")
		}
		b.Write(l[nesting:])
	}
	return b.Bytes()
}

// nestedLine says whether what follows a line's tabs is a nested block as
// Logseq writes one: a bullet ("- text", or "-" alone for an empty block),
// a block's next line or property ("  text"), a list item or a heading.
// Prose straight after a tab is indented code.
func nestedLine(rest []byte) bool {
	rest = bytes.TrimRight(rest, "\r\n")
	switch {
	case len(rest) == 0, bytes.HasPrefix(rest, []byte("  ")), rest[0] == '#':
		return true
	case rest[0] == '-' || rest[0] == '*' || rest[0] == '+':
		return len(rest) == 1 || rest[1] == ' '
	}
	return orderedItem.Match(rest)
}

// blockFence is the fence a line opens, on its own or after a block's
// bullet ("- ```go"); "" for none.
func blockFence(line []byte) string {
	return model.Fence(bytes.TrimSpace(bytes.TrimLeft(bytes.TrimSpace(line), "-*+ \t")))
}

// orderedItem is an ordered list item's start: "1. ", "2) ".
var orderedItem = regexp.MustCompile(`^\d{1,9}[.)] `)

// asList is a field's items (none for a field not set).
func asList(v any) []any {
	items, _ := v.([]any)
	return items
}

// Logseq links one block to another by the id it gives the block (an
// "id:: <uuid>" property under its bullet, or Org's ":id:" in a Logseq
// Org page): "((<uuid>))" in text shows the block's words, "{{embed
// ((<uuid>))}}" the block itself, "[words](((<uuid>)))" the words. Loom
// writes each as a Markdown link to the id, "[words](id:<uuid>)", as it
// writes Org-roam's: the library resolves it to the page that has the id
// (NoteIDs), and the prompt shows the words alone (assemble.BlockText),
// not a 36-character id that means nothing to a model. The words are
// the block's own when it is on the same page, else "block reference".

// uuidPattern is a Logseq block id.
const uuidPattern = `[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`

// blockRef is a reference to a block: an embed, a link's destination, or
// the reference alone.
var blockRef = regexp.MustCompile(`\{\{embed \(\((` + uuidPattern + `)\)\)\s*\}\}|\]\(\(\((` + uuidPattern + `)\)\)\)|\(\((` + uuidPattern + `)\)\)`)

// blockID is a block's id property, Logseq's Markdown or Org form.
var blockID = regexp.MustCompile(`(?i)^[ \t]*(?:- )?(?:id::|:id:)[ \t]+(` + uuidPattern + `)[ \t]*\r?$`)

// blockRefWords is what a reference to a block on another page reads as.
const blockRefWords = "block reference"

// LogseqIDs are the ids a Logseq Markdown page gives its blocks ("id::
// <uuid>" lines).
func LogseqIDs(src []byte) []string {
	if !bytes.Contains(src, []byte("id:: ")) {
		return nil
	}
	var ids []string
	for _, l := range lineSplits(src) {
		if m := blockID.FindSubmatch(lineBody(l)); m != nil && bytes.Contains(l, []byte("id::")) {
			ids = append(ids, strings.ToLower(string(m[1])))
		}
	}
	return ids
}

// NoteIDs are the ids other notes' links may name a note of path by: an
// Org file's :ID: properties (Org-roam's, and Logseq's in an Org page),
// a Markdown page's block ids (Logseq's).
func NoteIDs(path string, src []byte) []string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".org":
		return OrgIDs(src)
	case ".md", ".markdown":
		return LogseqIDs(src)
	}
	return nil
}

// blockRefs writes text's block references as Markdown links to their
// ids (see above), outside fenced code and code spans; every line keeps
// its number.
func blockRefs(text []byte) []byte {
	if !bytes.Contains(text, []byte("((")) || !blockRef.Match(text) {
		return text
	}
	lines := lineSplits(text)
	words := blockWords(lines)
	var b bytes.Buffer
	b.Grow(len(text))
	fence := ""
	for _, l := range lines {
		if fence != "" {
			if model.ClosesFence(bytes.TrimSpace(l), fence) {
				fence = ""
			}
			b.Write(l)
			continue
		}
		if fence = blockFence(l); fence != "" {
			b.Write(l)
			continue
		}
		last := 0
		for _, m := range blockRef.FindAllSubmatchIndex(l, -1) {
			if bytes.Count(l[:m[0]], []byte("`"))%2 == 1 {
				continue // in a code span
			}
			b.Write(l[last:m[0]])
			last = m[1]
			if m[4] >= 0 { // [words](((id)))
				b.WriteString("](id:" + strings.ToLower(string(l[m[4]:m[5]])) + ")")
				continue
			}
			idAt := m[2:4]
			if m[6] >= 0 {
				idAt = m[6:8]
			}
			id := strings.ToLower(string(l[idAt[0]:idAt[1]]))
			w := words[id]
			if w == "" {
				w = blockRefWords
			}
			b.WriteString("[" + w + "](id:" + id + ")")
		}
		b.Write(l[last:])
	}
	return b.Bytes()
}

// blockWords are the words of the blocks of a page that have an id, by
// their id: the first words of the bullet (or Org headline) the id
// property is under, without markup that would break a link's words.
func blockWords(lines [][]byte) map[string]string {
	words := map[string]string{}
	for i, l := range lines {
		m := blockID.FindSubmatch(lineBody(l))
		if m == nil {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			body := bytes.TrimSpace(lineBody(lines[j]))
			if logseqProperty.Match(body) || bytes.HasPrefix(body, []byte(":")) || len(body) == 0 {
				continue // the block's other properties, an Org drawer's lines
			}
			text := string(bytes.TrimLeft(body, "-*+ \t"))
			text = blockWordsCleaner.Replace(mdLinkWords.ReplaceAllString(blockRef.ReplaceAllString(text, ""), "$1"))
			words[strings.ToLower(string(m[1]))] = clipBlockWords(strings.Join(strings.Fields(text), " "))
			break
		}
	}
	return words
}

// mdLinkWords is a Markdown link, its words the first group.
var mdLinkWords = regexp.MustCompile(`\[([^\]\n]*)\]\([^)\n]*\)`)

// blockWordsCleaner drops what would end a link's words early or mean
// markup in them.
var blockWordsCleaner = strings.NewReplacer("[[", "", "]]", "", "[", "", "]", "", "`", "", "**", "", "__", "")

// clipBlockWords keeps a block's first 12 words.
func clipBlockWords(s string) string {
	f := strings.Fields(s)
	if len(f) <= 12 {
		return s
	}
	return strings.Join(f[:12], " ") + "…"
}
