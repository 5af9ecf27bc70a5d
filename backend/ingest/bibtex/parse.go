package bibtex

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/loomwork/loom/backend/errs"
)

// Problem is something wrong in a .bib file that Parse read past: an
// entry it skipped, a macro nobody defined, a field given twice.
type Problem struct {
	// Line is the 1-based line the problem was found on.
	Line int
	// Message says what is wrong, in a sentence.
	Message string
}

// String renders the problem as "line N: message".
func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Message) }

// months are the macros BibTeX predefines.
var months = map[string]string{
	"jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
	"jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November", "dec": "December",
}

// Parse reads the entries of a .bib file in file order. An entry that
// cannot be read is skipped and reported among the problems, with its
// line, and reading goes on at the next entry; so do duplicate keys (the
// first entry wins, as in BibTeX), fields given twice (the first value
// wins) and undefined macros (their name stands for the value). Parse
// returns an error only when the file has problems and no entry at all; a
// file with neither (empty, or only comments) gives no entries and no
// error. A file that is not UTF-8 is read as Windows-1252 (and says so
// among the problems).
func Parse(data []byte) ([]Entry, []Problem, error) {
	p := &parser{macros: map[string]string{}, keys: map[string]int{}}
	for k, v := range months {
		p.macros[k] = v
	}
	data = trimBOM(data)
	if !utf8.Valid(data) {
		bad := len(data)
		for i := 0; i < len(data); {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				bad = i
				break
			}
			i += n
		}
		decoded, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, nil, errs.E(errs.BadFile, "is neither UTF-8 nor Windows-1252 text")
		}
		p.setSource(string(decoded))
		p.problem(p.lineAt(bad), "the file is not UTF-8 (its first invalid byte is here): it was read as Windows-1252")
		data = decoded
	} else {
		p.setSource(string(data))
	}
	p.run()
	if len(p.entries) == 0 && len(p.problems) > 0 {
		first := p.problems[0]
		msg := fmt.Sprintf("has no readable BibTeX entry: line %d: %s", first.Line, first.Message)
		if len(p.problems) > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", len(p.problems)-1)
		}
		return nil, p.problems, errs.E(errs.BadFile, "%s", msg)
	}
	return p.entries, p.problems, nil
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf {
		return b[3:]
	}
	return b
}

// parser reads one file.
type parser struct {
	src        string
	pos        int
	lineStarts []int // offsets where lines start
	macros     map[string]string
	keys       map[string]int // lower-case key → line of its entry
	entries    []Entry
	problems   []Problem
}

// stop is a problem that ends an entry: the entry is skipped, and reading
// goes on at resume (or at the next entry after at when resume is 0).
type stop struct {
	at, resume int
	msg        string
}

func (p *parser) setSource(s string) {
	p.src = s
	p.lineStarts = []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
}

// lineAt is the 1-based line of offset off.
func (p *parser) lineAt(off int) int {
	return sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > off })
}

func (p *parser) problem(line int, format string, args ...any) {
	p.problems = append(p.problems, Problem{Line: line, Message: fmt.Sprintf(format, args...)})
}

// run reads the whole file: every "@name{" or "@name(" starts a command;
// all other text is ignored, as BibTeX does.
func (p *parser) run() {
	for {
		i := strings.IndexByte(p.src[p.pos:], '@')
		if i < 0 {
			return
		}
		at := p.pos + i
		p.pos = at + 1
		name := p.ident()
		j := p.skipSpace(p.pos)
		if name == "" || j >= len(p.src) || p.src[j] != '{' && p.src[j] != '(' {
			continue // an "@" in free text
		}
		closer := byte('}')
		if p.src[j] == '(' {
			closer = ')'
		}
		p.pos = j + 1
		var s *stop
		switch kind := strings.ToLower(name); kind {
		case "comment", "preamble":
			s = p.skipCommand(at, kind, p.src[j], closer)
		case "string":
			s = p.stringCommand(at, closer)
		default:
			s = p.entry(at, kind, closer)
		}
		if s != nil {
			p.problem(p.lineAt(s.at), "%s", s.msg)
			if s.resume > 0 {
				p.pos = s.resume
			} else {
				p.pos = p.nextEntry(max(s.at, at+1))
			}
		}
	}
}

// skipCommand skips an @comment or @preamble up to its matching delimiter.
func (p *parser) skipCommand(at int, kind string, opener, closer byte) *stop {
	depth := 1
	for i := p.pos; i < len(p.src); i++ {
		switch c := p.src[i]; {
		case c == opener:
			depth++
		case c == closer:
			if depth--; depth == 0 {
				p.pos = i + 1
				return nil
			}
		case c == '\n' && p.startsEntry(i+1):
			return &stop{at: at, resume: i + 1, msg: fmt.Sprintf("the @%s is not closed (a %c is missing) before the next entry", kind, closer)}
		}
	}
	return &stop{at: at, resume: len(p.src), msg: fmt.Sprintf("the @%s is not closed (a %c is missing)", kind, closer)}
}

// stringCommand reads @string{name = value, …} into the macros.
func (p *parser) stringCommand(at int, closer byte) *stop {
	for {
		p.pos = p.skipSpace(p.pos)
		if p.pos >= len(p.src) {
			return &stop{at: at, resume: len(p.src), msg: fmt.Sprintf("the @string is not closed (a %c is missing)", closer)}
		}
		if p.src[p.pos] == closer {
			p.pos++
			return nil
		}
		name := p.fieldName()
		if name == "" {
			return &stop{at: p.pos, msg: fmt.Sprintf("the @string has %s where a macro name should be", p.describe(p.pos))}
		}
		p.pos = p.skipSpace(p.pos)
		if p.pos >= len(p.src) || p.src[p.pos] != '=' {
			return &stop{at: p.pos, msg: fmt.Sprintf("the @string %s has no \"=\"", name)}
		}
		p.pos++
		v, s := p.value("@string "+name, closer)
		if s != nil {
			return s
		}
		p.macros[strings.ToLower(name)] = v
		p.pos = p.skipSpace(p.pos)
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
		}
	}
}

// describe names what is at offset i for a message.
func (p *parser) describe(i int) string {
	if i >= len(p.src) {
		return "the end of the file"
	}
	r, _ := utf8.DecodeRuneInString(p.src[i:])
	return fmt.Sprintf("%q", r)
}

// nextEntry is the offset of the next "@name{" or "@name(" after from (the
// end of the file when there is none).
func (p *parser) nextEntry(from int) int {
	for i := from; i < len(p.src); i++ {
		if p.src[i] == '@' && p.entryAt(i) {
			return i
		}
	}
	return len(p.src)
}

// startsEntry reports whether the line starting at i opens an entry:
// blanks, then "@name{" or "@name(". A value that runs into such a line
// is taken to have lost its closing brace.
func (p *parser) startsEntry(i int) bool {
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
		i++
	}
	return i < len(p.src) && p.src[i] == '@' && p.entryAt(i)
}

// entryAt reports whether "@name{" or "@name(" starts at i.
func (p *parser) entryAt(i int) bool {
	j := i + 1
	for j < len(p.src) && isIdentByte(p.src[j]) {
		j++
	}
	if j == i+1 {
		return false
	}
	j = p.skipSpace(j)
	return j < len(p.src) && (p.src[j] == '{' || p.src[j] == '(')
}

func (p *parser) skipSpace(i int) int {
	for i < len(p.src) {
		switch p.src[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			i++
		default:
			return i
		}
	}
	return i
}

// ident reads an entry type at p.pos.
func (p *parser) ident() string {
	start := p.pos
	for p.pos < len(p.src) && isIdentByte(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// fieldName reads a field or macro name at p.pos.
func (p *parser) fieldName() string {
	start := p.pos
	for p.pos < len(p.src) && (isIdentByte(p.src[p.pos]) || strings.IndexByte(".:+/!?&*<>;", p.src[p.pos]) >= 0) {
		p.pos++
	}
	if start < p.pos && isDigitByte(p.src[start]) {
		p.pos = start
		return ""
	}
	return p.src[start:p.pos]
}

func isIdentByte(c byte) bool { return isLetter(c) || isDigitByte(c) || c == '_' || c == '-' }
