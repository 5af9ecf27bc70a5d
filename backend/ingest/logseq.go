package ingest

import (
	"bytes"
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
var logseqNoise = regexp.MustCompile(`(?m)^[ \t]*(?:- )?(?:id:: [0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|collapsed:: (?:true|false))[ \t]*$`)

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
			body := bytes.TrimSpace(rest)
			if f := model.Fence(bytes.TrimSpace(bytes.TrimPrefix(body, []byte("-")))); f != "" {
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

// orderedItem is an ordered list item's start: "1. ", "2) ".
var orderedItem = regexp.MustCompile(`^\d{1,9}[.)] `)

// asList is a field's items (none for a field not set).
func asList(v any) []any {
	items, _ := v.([]any)
	return items
}
