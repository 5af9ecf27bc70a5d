package ingest

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/loomwork/loom/backend/model"
)

// MDX is Markdown with JavaScript in it (docs sites written for Docusaurus,
// Mintlify, Nextra and the like): ESM import and export statements, JSX
// components around the prose (<Note>, <Tabs>, <Step title="…">,
// <ResponseField name="…" type="…">) and JSX comments. Loom reads an MDX
// file as Markdown once that is taken out (mdxText): the components' tags
// go, the prose inside them stays, and so do the attributes that name what
// a component holds (a step's title, a field's name and type). Every line
// stays where it was, so a section's lines are the file's.

// mdxComponentLine is a line that opens or closes a JSX component: what a
// Markdown page exported from an MDX site (or a Docusaurus page, which is
// MDX whatever its extension) has, and plain Markdown does not.
var mdxComponentLine = regexp.MustCompile(`^[ \t]*</?[A-Z][A-Za-z0-9.]*([ \t/>]|$)`)

// speaksMDX says whether a Markdown file is MDX in all but its name: outside
// fenced code, a line opens or closes a component, holds a JSX comment, or
// is an ESM import or export after a blank line.
func speaksMDX(src []byte) bool {
	fence := ""
	blank := true
	for rest := src; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		trimmed := bytes.TrimSpace(line)
		switch {
		case fence != "":
			if model.ClosesFence(trimmed, fence) {
				fence = ""
			}
		case model.Fence(trimmed) != "":
			fence = model.Fence(trimmed)
		case len(trimmed) > 1 && trimmed[0] == '<' && mdxComponentLine.Match(line),
			bytes.Contains(line, []byte("{/*")),
			blank && (bytes.HasPrefix(line, []byte("import")) || bytes.HasPrefix(line, []byte("export"))) && mdxESM.Match(line):
			return true
		}
		blank = len(trimmed) == 0
	}
	return false
}

// mdxNaming are the attributes of a component that name what it holds,
// kept as text where the tag was, in this order.
var mdxNaming = []string{"title", "name", "label", "path", "query", "body", "header", "type", "description"}

// mdxESM opens an import or export statement.
var mdxESM = regexp.MustCompile(`^(import\s+[\w*{][^\n]*\bfrom\s*['"]|import\s*['"{]|export\s+(const|let|var|function|async|class|default)\b|export\s*[{*])`)

// mdxText is an MDX file's text as Loom reads it: ESM statements (from an
// import or export line after a blank one to the next blank line) and JSX
// comments ({/* … */}) blanked, components' tags (a name that starts with
// a capital: lower-case tags are HTML, which Markdown keeps) replaced by
// their naming attributes, fenced code and code spans left as they are,
// and the indentation of the components' nesting taken out (mdxDedent).
// Line breaks are kept everywhere, so every line keeps its number.
func mdxText(src []byte) []byte {
	out := make([]byte, 0, len(src))
	lines := lineSplits(src)
	if len(lines) > 0 && string(bytes.TrimSpace(lines[0])) == "---" { // front matter, as it is
		for i := 1; i < len(lines); i++ {
			if string(bytes.TrimSpace(lines[i])) == "---" {
				for _, l := range lines[:i+1] {
					out = append(out, l...)
				}
				lines = lines[i+1:]
				break
			}
		}
	}
	front := len(out)
	fence := ""  // the open fence's marker ("```", "~~~~"), "" outside one
	esm := false // inside an ESM statement (until a blank line)
	blankBefore := true
	comment := false // inside a JSX comment that spans lines
	var tag []byte   // a component tag that spans lines, read so far
	tagAt := 0       // where in out that tag began
	// unclosed puts back a tag that did not close before a blank line or
	// the end: it was text after all.
	unclosed := func() {
		out = append(out[:tagAt], tag...)
		tag = nil
	}
	for _, line := range lines {
		body := lineBody(line)
		trimmed := bytes.TrimSpace(body)
		switch {
		case fence != "":
			if model.ClosesFence(trimmed, fence) {
				fence = ""
			}
			out = append(out, line...)
			continue
		case tag == nil && !comment && model.Fence(trimmed) != "":
			fence = model.Fence(trimmed)
			out = append(out, line...)
			blankBefore = false
			continue
		case len(trimmed) == 0:
			esm = false
			blankBefore = true
			if tag != nil {
				unclosed()
			}
			if !comment {
				out = append(out, line...)
				continue
			}
		case tag == nil && !comment && (esm || blankBefore && mdxESM.Match(body)):
			esm = true
			out = append(out, line[len(body):]...) // the line break alone
			continue
		}
		blankBefore = len(trimmed) == 0
		var text []byte
		var fresh bool
		text, tag, comment, fresh = mdxLine(body, tag, comment)
		out = append(out, text...)
		if fresh {
			tagAt = len(out) // the tag opened on this line, after text
		}
		out = append(out, line[len(body):]...)
	}
	if tag != nil {
		unclosed()
		if !bytes.HasSuffix(src, []byte("\n")) {
			out = bytes.TrimSuffix(out, []byte("\n"))
		}
	}
	return append(out[:front:front], mdxDedent(out[front:])...)
}

// mdxDedent takes out the indentation MDX gives no meaning to. MDX has no
// indented code, so a line's leading white space outside fenced code is the
// nesting of the components around it (a <Step> in <Steps> in a <Tab>),
// which would make Markdown read the prose in them as code; a fence and its
// lines lose the fence's own indentation, as Markdown reads them, and keep
// the rest (the code's own). A list keeps its markers, not its nesting.
func mdxDedent(src []byte) []byte {
	out := make([]byte, 0, len(src))
	fence, indent := "", 0
	for _, l := range lineSplits(src) {
		left := bytes.TrimLeft(l, " \t")
		t := bytes.TrimSpace(l)
		switch {
		case fence != "":
			if model.ClosesFence(t, fence) {
				fence = ""
				out = append(out, left...)
				continue
			}
			k := 0
			for k < indent && k < len(l) && (l[k] == ' ' || l[k] == '\t') {
				k++
			}
			out = append(out, l[k:]...)
		default:
			if f := model.Fence(t); f != "" {
				fence, indent = f, len(l)-len(left)
			}
			out = append(out, left...)
		}
	}
	return out
}

// mdxLine is one line without its line break, with components' tags and
// JSX comments taken out. tag is a tag still open from lines before (nil
// when none), comment whether a comment is; it returns what is still open
// at the line's end, and whether that tag opened on this line.
func mdxLine(line, tag []byte, comment bool) (out, open []byte, inComment, fresh bool) {
	for i := 0; i < len(line); {
		switch {
		case comment:
			end := bytes.Index(line[i:], []byte("*/}"))
			if end < 0 {
				return out, tag, true, false
			}
			i += end + 3
			comment = false
		case tag != nil:
			end, ok := tagEnd(line[i:])
			if !ok {
				return out, append(append(tag, line[i:]...), '\n'), false, false
			}
			tag = append(tag, line[i:i+end]...)
			out = append(out, naming(tag)...)
			i += end
			tag = nil
		case line[i] == '`':
			n := 1
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			close := bytes.Index(line[i+n:], line[i:i+n])
			if close < 0 {
				out = append(out, line[i:]...)
				return out, nil, false, false
			}
			out = append(out, line[i:i+n+close+n]...)
			i += n + close + n
		case bytes.HasPrefix(line[i:], []byte("{/*")):
			comment = true
			i += 3
		case line[i] == '<' && component(line[i+1:]):
			end, ok := tagEnd(line[i:])
			if !ok {
				return out, append(append([]byte(nil), line[i:]...), '\n'), false, true
			}
			out = append(out, naming(line[i:i+end])...)
			i += end
		default:
			out = append(out, line[i])
			i++
		}
	}
	return out, tag, comment, false
}

// component says whether what follows a "<" is a JSX component's tag: an
// optional "/" and a name that starts with a capital letter.
func component(rest []byte) bool {
	rest = bytes.TrimPrefix(rest, []byte("/"))
	return len(rest) > 0 && rest[0] >= 'A' && rest[0] <= 'Z'
}

// tagEnd is the length of the tag that s opens, up to and with its ">"
// (quotes and {…} expressions skipped), and false when it does not close
// on this line.
func tagEnd(s []byte) (int, bool) {
	depth, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '{':
			depth++
		case c == '}':
			depth = max(0, depth-1)
		case c == '>' && depth == 0:
			return i + 1, true
		}
	}
	return 0, false
}

// mdxAttr is one attribute with a quoted string value, or a bare one.
var mdxAttr = regexp.MustCompile(`([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*['"]([^'"]*)['"]\s*\})|\s([A-Za-z_][\w-]*)(?:\s|/?>|$)`)

// naming is what a component's tag leaves in the text: its naming
// attributes' values (mdxNaming), then "required" when it says so, joined
// by " · "; nothing for a closing tag or one with none. (A tag that spans
// lines is left on its last line; the lines before keep their breaks.)
func naming(tag []byte) []byte {
	if bytes.HasPrefix(tag, []byte("</")) {
		return nil
	}
	vals := map[string]string{}
	required := false
	// The attributes start after the name.
	name := 1
	for name < len(tag) && tag[name] != ' ' && tag[name] != '\n' && tag[name] != '\t' && tag[name] != '>' && tag[name] != '/' {
		name++
	}
	for _, m := range mdxAttr.FindAllSubmatch(tag[name:], -1) {
		if len(m[5]) > 0 {
			required = required || string(m[5]) == "required"
			continue
		}
		v := string(m[2]) + string(m[3]) + string(m[4])
		if k := string(m[1]); vals[k] == "" {
			vals[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	var parts []string
	for _, k := range mdxNaming {
		if v := vals[k]; v != "" {
			parts = append(parts, v)
		}
	}
	if required && len(parts) > 0 {
		parts = append(parts, "required")
	}
	return []byte(strings.Join(parts, " · "))
}
