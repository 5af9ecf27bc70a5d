package bibtex

import (
	"fmt"
	"strings"
)

// entry reads "key, field = value, …" up to closer, the body of the entry
// whose "@" is at offset at.
func (p *parser) entry(at int, kind string, closer byte) *stop {
	p.pos = p.skipSpace(p.pos)
	start := p.pos
	for p.pos < len(p.src) && !isKeyEnd(p.src[p.pos], closer) {
		p.pos++
	}
	key := p.src[start:p.pos]
	p.pos = p.skipSpace(p.pos)
	name := "@" + kind + "{" + key + "}"
	if key == "" || p.pos < len(p.src) && p.src[p.pos] == '=' {
		return &stop{at: at, msg: fmt.Sprintf("an @%s entry has no citation key: it is skipped", kind)}
	}
	e := Entry{Type: kind, Key: key, Fields: map[string]string{}, Line: p.lineAt(at), raw: map[string]string{}}
	if p.pos < len(p.src) && p.src[p.pos] != closer && p.src[p.pos] != ',' {
		if !isLetter(p.src[p.pos]) {
			return &stop{at: p.pos, msg: fmt.Sprintf("%s is skipped: its key is followed by %s, not a comma", name, p.describe(p.pos))}
		}
		p.problem(p.lineAt(p.pos), "%s: a comma is missing after its key", name)
	}
	for {
		p.pos = p.skipSpace(p.pos)
		if p.pos >= len(p.src) || p.src[p.pos] == '@' && p.entryAt(p.pos) {
			return &stop{at: at, resume: p.pos, msg: fmt.Sprintf("%s is skipped: it is not closed (a %c is missing)", name, closer)}
		}
		c := p.src[p.pos]
		if c == closer {
			e.EndLine = p.lineAt(p.pos)
			p.pos++
			break
		}
		if c == ',' {
			p.pos++
			continue
		}
		field := strings.ToLower(p.fieldName())
		if field == "" {
			return &stop{at: p.pos, msg: fmt.Sprintf("%s is skipped: it has %s where a field name should be", name, p.describe(p.pos))}
		}
		fieldAt := p.pos
		p.pos = p.skipSpace(p.pos)
		if p.pos >= len(p.src) || p.src[p.pos] != '=' {
			return &stop{at: fieldAt, msg: fmt.Sprintf("%s is skipped: its field %s has no \"=\"", name, field)}
		}
		p.pos++
		v, s := p.value(field+" of "+name, closer)
		if s != nil {
			s.msg = name + " is skipped: " + s.msg
			return s
		}
		if _, dup := e.raw[field]; dup {
			p.problem(p.lineAt(fieldAt), "%s has the field %s twice: the first value is kept", name, field)
		} else {
			e.raw[field] = v
		}
		p.pos = p.skipSpace(p.pos)
		if p.pos < len(p.src) && p.src[p.pos] != ',' && p.src[p.pos] != closer && isIdentByte(p.src[p.pos]) {
			p.problem(p.lineAt(p.pos), "%s: a comma is missing after its field %s", name, field)
		}
	}
	for field, v := range e.raw {
		if verbatimFields[field] {
			e.Fields[field] = cleanVerbatim(v)
		} else {
			e.Fields[field] = CleanTeX(v)
		}
	}
	lower := strings.ToLower(key)
	if first, dup := p.keys[lower]; dup {
		p.problem(e.Line, "%s repeats the key of the entry at line %d: it is skipped", name, first)
		return nil
	}
	p.keys[lower] = e.Line
	p.entries = append(p.entries, e)
	return nil
}

// isKeyEnd reports whether c ends a citation key.
func isKeyEnd(c, closer byte) bool {
	switch c {
	case ',', ' ', '\t', '\n', '\r', '=', '{', '}', '"', '#':
		return true
	}
	return c == closer
}

// value reads a field's value: parts in braces, in quotes, numbers and
// macros, joined by "#". It returns the parts' text joined, without their
// delimiters and with macros expanded; what names the field in messages.
func (p *parser) value(what string, closer byte) (string, *stop) {
	var b strings.Builder
	for {
		p.pos = p.skipSpace(p.pos)
		if p.pos >= len(p.src) {
			return "", &stop{at: p.pos, resume: len(p.src), msg: fmt.Sprintf("the %s has no value", what)}
		}
		switch c := p.src[p.pos]; {
		case c == '{' || c == '"':
			end, s := p.delimited(what)
			if s != nil {
				return "", s
			}
			b.WriteString(p.src[p.pos+1 : end-1])
			p.pos = end
		case isDigitByte(c):
			start := p.pos
			for p.pos < len(p.src) && isDigitByte(p.src[p.pos]) {
				p.pos++
			}
			b.WriteString(p.src[start:p.pos])
		case isIdentByte(c):
			at := p.pos
			name := p.fieldName()
			if v, ok := p.macros[strings.ToLower(name)]; ok {
				b.WriteString(v)
			} else {
				p.problem(p.lineAt(at), "the %s uses the macro %s, which is not defined: its name stands for it", what, name)
				b.WriteString(name)
			}
		default:
			return "", &stop{at: p.pos, msg: fmt.Sprintf("the %s has %s where a value should be", what, p.describe(p.pos))}
		}
		p.pos = p.skipSpace(p.pos)
		if p.pos < len(p.src) && p.src[p.pos] == '#' {
			p.pos++
			continue
		}
		return b.String(), nil
	}
}

// delimited finds the end (the offset after the closing delimiter) of the
// braced or quoted part at p.pos. Braces nest; a quote ends a quoted part
// only outside braces. A part that runs into a line opening the next entry
// has lost its closing delimiter.
func (p *parser) delimited(what string) (int, *stop) {
	quoted := p.src[p.pos] == '"'
	depth := 0
	if !quoted {
		depth = 1
	}
	for i := p.pos + 1; i < len(p.src); i++ {
		switch p.src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 && !quoted {
				return i + 1, nil
			}
			if depth < 0 {
				return 0, &stop{at: i, msg: fmt.Sprintf("the %s has a } that closes nothing", what)}
			}
		case '"':
			if quoted && depth == 0 {
				return i + 1, nil
			}
		case '\n':
			if p.startsEntry(i + 1) {
				return 0, &stop{at: p.pos, resume: i + 1, msg: fmt.Sprintf("the %s is not closed (a %s is missing)", what, map[bool]string{true: `"`, false: "}"}[quoted])}
			}
		}
	}
	return 0, &stop{at: p.pos, resume: len(p.src), msg: fmt.Sprintf("the %s is not closed before the end of the file", what)}
}
