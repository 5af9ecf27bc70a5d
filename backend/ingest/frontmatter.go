package ingest

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/loomwork/loom/backend/model"
)

// FrontMatter is what the block at the very top of a note says of it:
// YAML between "---" lines (closed by "---" or "..."), as Obsidian and
// most static-site tools write it, a minimal TOML between "+++" lines
// (key = value, strings, numbers, one-line arrays), or Logseq's page
// properties ("key:: value" lines: logseqPageProperties), which are read
// and stay the page's text too.
type FrontMatter struct {
	// End is the offset just past the block's closing line (0 when the
	// text has no front matter).
	End int
	// Title is the "title" key's value.
	Title string
	// Meta holds "aliases"/"alias", "tags"/"tag", "author"/"authors" and
	// the year of "year" or "date".
	Meta model.DocMeta
	// Problem says why a block that looks like front matter could not be
	// read ("" when it could). Such a block is kept as the note's text:
	// nothing it says is lost.
	Problem string
}

// maxFrontMatter bounds where the closing line is looked for: properties
// take a few lines, and a "---" that closes only far below the first is a
// pair of thematic breaks around ordinary markdown.
const maxFrontMatter = 64 << 10

// ReadFrontMatter reads the front matter at the start of text (with "\n"
// line ends, as Parse decodes every file).
func ReadFrontMatter(text []byte) FrontMatter {
	var fence string
	switch {
	case bytes.HasPrefix(text, []byte("---\n")):
		fence = "---"
	case bytes.HasPrefix(text, []byte("+++\n")):
		fence = "+++"
	default:
		if fields, end := logseqPageProperties(text); end > 0 {
			// Logseq shows a page's properties as its first block, and
			// they say things ("description:: … see [[Plugins]]"): they
			// stay the page's text, their links links (End 0).
			var fm FrontMatter
			fm.read(fields)
			return fm
		}
		return FrontMatter{}
	}
	bodyStart := len(fence) + 1
	end, bodyEnd := -1, -1
	for off := bodyStart; off < min(len(text), maxFrontMatter); {
		nl := bytes.IndexByte(text[off:], '\n')
		lineEnd := len(text)
		if nl >= 0 {
			lineEnd = off + nl
		}
		line := bytes.TrimRight(text[off:lineEnd], " \t")
		if string(line) == fence || fence == "---" && string(line) == "..." {
			bodyEnd, end = off, min(lineEnd+1, len(text))
			break
		}
		off = lineEnd + 1
	}
	if end < 0 {
		// No closing line near the top: a thematic break, not front matter.
		return FrontMatter{}
	}
	fm := FrontMatter{End: end}
	var fields map[string]any
	var err error
	if fence == "---" {
		fields, err = yamlFields(text[bodyStart:bodyEnd])
	} else {
		fields, err = tomlFields(text[bodyStart:bodyEnd])
	}
	if err != nil {
		fm.Problem = err.Error() + ": it is kept as the note's text"
		return fm
	}
	fm.read(fields)
	return fm
}

// yamlLine finds the line numbers in the YAML parser's messages, which
// count from the block's first line; the file has the "---" line above.
var yamlLine = regexp.MustCompile(`line (\d+)`)

func yamlFields(block []byte) (map[string]any, error) {
	var v any
	if err := yaml.Unmarshal(block, &v); err != nil {
		msg := yamlLine.ReplaceAllStringFunc(strings.TrimPrefix(err.Error(), "yaml: "), func(s string) string {
			n, _ := strconv.Atoi(s[len("line "):])
			return "line " + strconv.Itoa(n+1)
		})
		return nil, fmt.Errorf("front matter is not valid YAML (%s)", msg)
	}
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return m, nil
	}
	return nil, fmt.Errorf("front matter is not a list of \"key: value\" lines")
}

// tomlFields reads the TOML most notes carry: key = value lines (a value
// is a quoted string, a one-line array, or a bare number, date or
// boolean), comments, and tables, whose keys are not the note's and are
// skipped.
func tomlFields(block []byte) (map[string]any, error) {
	fields := map[string]any{}
	inTable := false
	for i, line := range strings.Split(string(block), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			inTable = true
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key = strings.Trim(strings.TrimSpace(key), `"'`)
		if !ok || key == "" {
			return nil, fmt.Errorf("front matter is not valid TOML (line %d: expected key = value)", i+2)
		}
		if inTable {
			continue
		}
		v, err := tomlValue(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("front matter is not valid TOML (line %d: %v)", i+2, err)
		}
		fields[key] = v
	}
	return fields, nil
}

func tomlValue(s string) (any, error) {
	if strings.HasPrefix(s, "[") {
		if !strings.HasSuffix(s, "]") {
			return nil, fmt.Errorf("an array must close on its line")
		}
		var items []any
		for _, item := range splitTOMLArray(s[1 : len(s)-1]) {
			v, err := tomlValue(item)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		return items, nil
	}
	switch {
	case strings.HasPrefix(s, `"`):
		end := strings.LastIndex(s, `"`)
		if end == 0 {
			return nil, fmt.Errorf("unclosed string")
		}
		return strconv.Unquote(s[:end+1])
	case strings.HasPrefix(s, "'"):
		end := strings.LastIndex(s, "'")
		if end == 0 {
			return nil, fmt.Errorf("unclosed string")
		}
		return s[1:end], nil
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if s == "" {
		return nil, fmt.Errorf("missing value")
	}
	return s, nil
}

// splitTOMLArray splits an array's items at commas outside quotes.
func splitTOMLArray(s string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ',':
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

// read takes the keys Loom knows from fields, whatever their case. Keys
// are taken in sorted order, so that a note with both "tag" and "tags"
// reads the same every time; "year" wins over "date".
func (fm *FrontMatter) read(fields map[string]any) {
	var tags tagSet
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		v := fields[key]
		switch strings.ToLower(key) {
		case "title":
			if s := scalarString(v); s != "" {
				fm.Title = s
			}
		case "aliases", "alias":
			// Obsidian reads a string as aliases separated by commas.
			for _, s := range stringList(v) {
				for _, a := range strings.Split(s, ",") {
					if a = strings.TrimSpace(a); a != "" {
						fm.Meta.Aliases = append(fm.Meta.Aliases, a)
					}
				}
			}
		case "tags", "tag":
			for _, s := range stringList(v) {
				for _, t := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
					tags.add(t)
				}
			}
		case "author", "authors":
			fm.Meta.Authors = append(fm.Meta.Authors, stringList(v)...)
		case "year":
			if s := scalarString(v); s != "" {
				fm.Meta.Year = s
			}
		case "date":
			if fm.Meta.Year == "" {
				fm.Meta.Year = yearOf(v)
			}
		}
	}
	fm.Meta.Tags = tags.tags
}

var yearPrefix = regexp.MustCompile(`^\d{4}\b`)

// yearOf is the year of a date: a YAML timestamp, or a string that starts
// with four digits.
func yearOf(v any) string {
	switch d := v.(type) {
	case time.Time:
		return strconv.Itoa(d.Year())
	case int:
		return strconv.Itoa(d)
	}
	return yearPrefix.FindString(scalarString(v))
}

// scalarString is a scalar value as text ("" for lists, maps and null).
func scalarString(v any) string {
	switch s := v.(type) {
	case nil, []any, map[string]any:
		return ""
	case string:
		return strings.TrimSpace(s)
	case time.Time:
		return s.Format(time.DateOnly)
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// stringList is a value as a list of texts: a scalar is a list of one.
func stringList(v any) []string {
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	var out []string
	for _, item := range items {
		if s := scalarString(item); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// noteName is a file's name without its extension: a note's title when
// nothing in it gives one.
func noteName(p string) string {
	base := path.Base(p)
	if name := strings.TrimSuffix(base, path.Ext(base)); name != "" {
		return name
	}
	return base
}

// MayHaveFrontMatter reports whether text may open with front matter (a
// cheap look at its first bytes, before reading it).
func MayHaveFrontMatter(text []byte) bool {
	text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	if bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("+++")) {
		return true
	}
	return opensWithProperty(text)
}
