package abstract

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdownParser is goldmark with GitHub's extensions, as ingest uses, so a
// section is read here the way it was cut there. It holds no state between
// parses.
var markdownParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// unitKind tells how a unit is rendered in a summary.
type unitKind int

const (
	// sentence is one sentence of a paragraph; sentences run on with spaces.
	sentence unitKind = iota
	// listItem is a whole list item, rendered on its own line after "- ".
	listItem
	// tableRow is a whole table row, rendered on its own line as "| a | b |".
	tableRow
	// tableGist says what a table enumerates, in place of its header row:
	// "Table of <header cells>: <first cells of its rows>", on its own line.
	tableGist
)

// unit is the smallest piece of text a summary takes or leaves whole.
type unit struct {
	text string // plain text: markdown markers gone, code spans kept
	kind unitKind
	// opensBlock is true for the first unit of a paragraph, list item or
	// table, where the topic sentence usually is.
	opensBlock bool
	// depth is how deep a list item is nested: 0 for a top-level item
	// (and for every sentence and row), 1 inside another item, and so on.
	depth int
	// codeShare is the share of the text's bytes in code spans.
	codeShare float64
	// gistAt is where the gist of an announced list, table or code starts
	// in text (its items separated by "; "), 0 when there is none.
	gistAt int
}

// piece returns the unit as it appears in a summary.
func (u unit) piece() string {
	if u.kind == listItem {
		return "- " + u.text
	}
	return u.text
}

// scored is the text a unit is scored by: all of it, but for a lead-in
// whose gist is a line of code, which says what the code is and not what
// the section says.
func (u unit) scored() string {
	if u.gistAt > 0 && u.gistAt < len(u.text) && u.text[u.gistAt] == '`' {
		return u.text[:u.gistAt]
	}
	return u.text
}

// document is a node's text read for summarising.
type document struct {
	heading string   // text of the first line when it is a heading, else ""
	units   []unit   // sentences, list items and table rows, in order
	code    []string // lines of the code blocks, in order
}

// readMarkdown parses src into the units a summary is made of. Headings
// after the first are left out (they are titles, not statements), and so
// are HTML blocks, code blocks (their lines go to code) and thematic breaks.
func readMarkdown(src string) document {
	src = withoutAdmonitions(src)
	if d, ok := readPlain(src); ok {
		return d
	}
	return parseMarkdown(src)
}

// parseMarkdown is readMarkdown through goldmark.
func parseMarkdown(src string) document {
	source := []byte(src)
	root := markdownParser.Parse(text.NewReader(source))
	var d document
	first := root.FirstChild()
	if h, ok := first.(*ast.Heading); ok {
		d.heading, _ = inlineText(h, source)
		first = first.NextSibling()
	}
	for n := first; n != nil; n = n.NextSibling() {
		d.readBlock(n, source)
	}
	return d
}

func (d *document) readBlock(n ast.Node, source []byte) {
	switch v := n.(type) {
	case *ast.Heading, *ast.HTMLBlock, *ast.ThematicBreak:
	case *ast.Paragraph, *ast.TextBlock:
		s, code := inlineText(v, source)
		sents := splitSentences(s, code)
		at := 0
		if k := len(sents) - 1; k >= 0 && introduces(sents[k]) {
			// A lead-in says nothing without what it announces: it takes
			// the gist of the list, table or code that follows, or goes.
			if gist := gistOf(v.NextSibling(), source); gist != "" {
				at = len(sents[k]) + 1
				sents[k] += " " + gist
			} else {
				sents = sents[:k]
			}
		} else if k >= 0 && announces(sents[k]) {
			// "The following capabilities are out of scope." before a
			// list is a lead-in too, ended with a full stop.
			if gist := gistOf(v.NextSibling(), source); gist != "" && !strings.HasPrefix(gist, "`") {
				sents[k] = strings.TrimSuffix(sents[k], ".") + ":"
				at = len(sents[k]) + 1
				sents[k] += " " + gist
			}
		}
		if k := len(sents) - 1; at > 0 && !strings.HasSuffix(sents[k], ellipsis) {
			sents[k] += "." // the gist ends the sentence its lead-in began
		}
		for i, sent := range sents {
			u := unit{text: sent, kind: sentence, opensBlock: i == 0, codeShare: codeShare(sent)}
			if i == len(sents)-1 {
				u.gistAt = at
			}
			d.units = append(d.units, u)
		}
	case *ast.ListItem:
		d.readListItem(v, source)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := v.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			d.code = append(d.code, strings.TrimRight(string(seg.Value(source)), " \t\r\n"))
		}
	case *east.Table:
		opens := true
		if gist := tableGistOf(v, source); gist != "" {
			at := 0
			if k := strings.Index(gist, ": "); k >= 0 {
				at = k + 2
			}
			d.units = append(d.units, unit{text: gist, kind: tableGist, opensBlock: true, codeShare: codeShare(gist), gistAt: at})
			opens = false
		}
		for row := v.FirstChild(); row != nil; row = row.NextSibling() {
			if _, header := row.(*east.TableHeader); header {
				continue // a header row alone says nothing: the gist has it
			}
			cells := rowCells(row, source)
			if strings.TrimSpace(strings.Join(cells, "")) == "" {
				continue
			}
			row := "| " + strings.Join(cells, " | ") + " |"
			d.units = append(d.units, unit{text: row, kind: tableRow, opensBlock: opens, codeShare: codeShare(row)})
			opens = false
		}
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			d.readBlock(c, source)
		}
	}
}

// readListItem makes one unit of the item's own text and reads what it
// nests (sub-lists, code) as blocks of their own.
func (d *document) readListItem(item *ast.ListItem, source []byte) {
	var parts []string
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			if s, _ := inlineText(c, source); s != "" {
				parts = append(parts, s)
			}
		}
	}
	if len(parts) > 0 {
		depth := -1
		for p := item.Parent(); p != nil; p = p.Parent() {
			if _, ok := p.(*ast.List); ok {
				depth++
			}
		}
		text, at := strings.Join(parts, " "), 0
		if introduces(text) {
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				if _, ok := c.(*ast.List); ok {
					if gist := gistOf(c, source); gist != "" {
						at = len(text) + 1
						text += " " + gist
					}
					break
				}
			}
		}
		d.units = append(d.units, unit{text: text, kind: listItem, opensBlock: true, depth: max(depth, 0), codeShare: codeShare(text), gistAt: at})
	}
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
		default:
			d.readBlock(c, source)
		}
	}
}

// introduces reports whether a sentence or item is a lead-in: it ends on
// a colon ("The engine follows a tiered strategy:"), or it stops, with no
// full stop, on a word that needs what comes next — the formula, figure
// or code it announces, which is not text ("In vectorized form, the
// colorization problem is").
func introduces(s string) bool {
	t := strings.TrimSpace(s)
	if strings.HasSuffix(t, ":") {
		return true
	}
	last := t[strings.LastIndexAny(t, " \t\n")+1:]
	return danglingWords[strings.ToLower(last)]
}

// danglingWords end a lead-in that lost what it announces: a sentence does
// not stop on them.
var danglingWords = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "be": true, "becomes": true, "equals": true, "gives": true,
	"the": true, "a": true, "an": true, "of": true, "to": true, "and": true, "or": true, "by": true, "with": true,
	"as": true, "for": true, "from": true, "into": true, "than": true, "that": true, "which": true, "where": true,
	"whose": true, "via": true, "namely": true, "follows": true,
}

// announces reports whether a sentence that ends with a full stop still
// announces what follows it ("The following items require testing.").
func announces(s string) bool {
	return strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "..") && strings.Contains(strings.ToLower(s), "the following ")
}

// Limits of a gist: how many items or rows it names, and how many words of
// each.
const (
	gistItems = 6
	gistWords = 5
)

// gistOf condenses the block a lead-in announces: a list to its items'
// first words ("Available budget; Belief importance; …"), a table to the
// first cells of its rows, code to its first line. "" for anything else.
func gistOf(n ast.Node, source []byte) string {
	switch v := n.(type) {
	case *ast.List:
		var leads []string
		for item := v.FirstChild(); item != nil; item = item.NextSibling() {
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				if _, ok := c.(*ast.Paragraph); !ok {
					if _, ok := c.(*ast.TextBlock); !ok {
						continue
					}
				}
				if s, _ := inlineText(c, source); s != "" {
					leads = append(leads, itemLead(s))
				}
				break
			}
		}
		return joinGist(leads)
	case *east.Table:
		return joinGist(firstCells(v, source))
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := v.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			line := strings.TrimRight(strings.TrimSpace(string(seg.Value(source))), " {([")
			if line != "" && !strings.Contains(line, "`") {
				return "`" + line + "`"
			}
		}
	}
	return ""
}

// tableGistOf says what a table enumerates: "Table of Signal, Weight: Hop
// Distance; Staleness". "" for a table without a header row.
func tableGistOf(t *east.Table, source []byte) string {
	head, ok := t.FirstChild().(*east.TableHeader)
	if !ok {
		return ""
	}
	var cells []string
	for _, c := range rowCells(head, source) {
		if c = strings.TrimSpace(c); c != "" {
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return ""
	}
	gist := "Table of " + strings.Join(cells, ", ")
	if rows := joinGist(firstCells(t, source)); rows != "" {
		gist += ": " + rows
	}
	return gist
}

// firstCells returns the first non-empty cell of each body row, shortened.
func firstCells(t *east.Table, source []byte) []string {
	var out []string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		if _, header := row.(*east.TableHeader); header {
			continue
		}
		for _, c := range rowCells(row, source) {
			if c = strings.TrimSpace(c); c != "" {
				out = append(out, firstWords(c, gistWords))
				break
			}
		}
	}
	return out
}

func rowCells(row ast.Node, source []byte) []string {
	var cells []string
	for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
		s, _ := inlineText(cell, source)
		cells = append(cells, s)
	}
	return cells
}

// joinGist joins at most gistItems leads with "; ", ending with "…" when
// there were more.
func joinGist(leads []string) string {
	if len(leads) > gistItems {
		leads = append(leads[:gistItems:gistItems], "…")
	}
	return strings.Join(leads, "; ")
}

// itemLead is what a list item is called: its label when it has one
// ("Natural growth: As Loom is built…" gives "Natural growth"), else its
// first sentence when that is short, else its first words.
func itemLead(s string) string {
	for _, sep := range []string{": ", " — ", " – ", " - ", " → "} {
		if k := strings.Index(s, sep); k > 0 {
			if label := strings.TrimSpace(s[:k]); wordCount(label) > 0 && len(strings.Fields(label)) <= gistWords {
				return label
			}
		}
	}
	if k := strings.Index(s, ". "); k > 0 && len(strings.Fields(s[:k])) <= gistWords {
		return s[:k] // a short first sentence
	}
	return endOnAWord(firstWords(strings.TrimRight(s, ".:"), gistWords))
}

// endOnAWord takes off the words a lead cut short ends on that need what
// was cut — lead-in words, stop words ("The `bench` field can be…" → "The
// `bench` field…") — two words at the least kept.
func endOnAWord(lead string) string {
	cut, ok := strings.CutSuffix(lead, ellipsis)
	if !ok {
		return lead
	}
	f := strings.Fields(cut)
	for len(f) > 2 {
		if last := strings.ToLower(f[len(f)-1]); !danglingWords[last] && !stopWords[last] {
			break
		}
		f = f[:len(f)-1]
	}
	return strings.TrimRight(strings.Join(f, " "), ",;:–—-(") + ellipsis
}

// firstWords returns the first n words of s, with "…" when it cut.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return strings.Join(f, " ")
	}
	return strings.TrimRight(strings.Join(f[:n], " "), ",;:–—-(") + "…"
}

// span is a byte range [start, end) of a string.
type span struct{ start, end int }

// inlineText returns the plain text of a block's inline content: emphasis,
// link and image syntax gone (a link keeps its text, an image its alt text),
// escapes and entities resolved, runs of white space made one space. Code
// spans are kept with their backticks; their ranges in the result are
// returned, so that no sentence is split inside one.
func inlineText(n ast.Node, source []byte) (string, []span) {
	var b plainBuilder
	b.walk(n, source)
	return strings.TrimRight(b.String(), " "), b.code
}

type plainBuilder struct {
	strings.Builder
	code []span
}

// text writes s with its white space collapsed to single spaces and none at
// the start.
func (b *plainBuilder) text(s string) {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			b.space()
			continue
		}
		b.WriteRune(r)
	}
}

func (b *plainBuilder) space() {
	if b.Len() == 0 {
		return
	}
	if s := b.String(); s[len(s)-1] != ' ' {
		b.WriteByte(' ')
	}
}

func (b *plainBuilder) walk(n ast.Node, source []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch v := c.(type) {
		case *ast.Text:
			value := v.Segment.Value(source)
			if !v.IsRaw() {
				value = util.UnescapePunctuations(util.ResolveEntityNames(util.ResolveNumericReferences(value)))
			}
			b.text(string(value))
			if v.SoftLineBreak() || v.HardLineBreak() {
				b.space()
			}
		case *ast.String:
			b.text(string(v.Value))
		case *ast.CodeSpan:
			b.codeSpan(v, source)
		case *ast.AutoLink:
			b.text(string(v.Label(source)))
		case *ast.RawHTML, *east.TaskCheckBox:
		default:
			b.walk(c, source)
		}
	}
}

// codeSpan writes a code span verbatim between enough backticks.
func (b *plainBuilder) codeSpan(n *ast.CodeSpan, source []byte) {
	var content strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch v := c.(type) {
		case *ast.Text:
			content.Write(v.Segment.Value(source))
		case *ast.String:
			content.Write(v.Value)
		}
	}
	code := strings.ReplaceAll(content.String(), "\n", " ")
	fence := strings.Repeat("`", longestRun(code, '`')+1)
	if strings.HasPrefix(code, "`") || strings.HasSuffix(code, "`") {
		code = " " + code + " "
	}
	start := b.Len()
	b.WriteString(fence + code + fence)
	b.code = append(b.code, span{start, b.Len()})
}

// codeShare returns the share of the bytes of s that lie between backticks.
func codeShare(s string) float64 {
	if s == "" {
		return 0
	}
	in, inCode := 0, false
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			inCode = !inCode
			continue
		}
		if inCode {
			in++
		}
	}
	return float64(in) / float64(len(s))
}

func longestRun(s string, r rune) int {
	best, run := 0, 0
	for _, c := range s {
		if c == r {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// splitSentences cuts a paragraph's plain text into sentences. A sentence
// ends at ".", "!" or "?" (and any closing quotes or brackets) followed by
// a space and a capital letter, a digit or an opening quote or bracket —
// but not inside a code span, nor after a common abbreviation or an
// initial ("e.g.", "vs.", "J.").
func splitSentences(s string, code []span) []string {
	var out []string
	start := 0
	inCode := func(i int) bool {
		for _, c := range code {
			if i >= c.start && i < c.end {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '!' && c != '?' || inCode(i) {
			continue
		}
		end := i + 1
		for end < len(s) && strings.IndexByte(`"')]*_`, s[end]) >= 0 {
			end++
		}
		if r, size := utf8.DecodeRuneInString(s[end:]); r == '”' || r == '’' {
			end += size
		}
		if end >= len(s) || s[end] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(s[end+1:])
		if !opensSentence(next) || s[i] == '.' && isAbbreviation(s[start:i]) {
			continue
		}
		if sent := strings.TrimSpace(s[start:end]); sent != "" {
			out = append(out, sent)
		}
		start = end + 1
		i = end
	}
	if sent := strings.TrimSpace(s[start:]); sent != "" {
		out = append(out, sent)
	}
	return out
}

func opensSentence(r rune) bool {
	return isUpper(r) || r >= '0' && r <= '9' || strings.ContainsRune("\"'“‘([`*", r)
}

func isUpper(r rune) bool {
	return r >= 'A' && r <= 'Z' || r > utf8.RuneSelf && strings.ToLower(string(r)) != string(r)
}

// abbreviations end with a full stop that does not end a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true,
	"fig": true, "no": true, "vol": true, "ch": true, "sec": true, "incl": true,
}

// isAbbreviation reports whether the text before a full stop ends with an
// abbreviation or a single capital initial.
func isAbbreviation(before string) bool {
	word := before[strings.LastIndexAny(before, " (")+1:]
	if abbreviations[strings.ToLower(word)] {
		return true
	}
	r, size := utf8.DecodeRuneInString(word)
	return size == len(word) && isUpper(r)
}

// readPlain reads a text that is plain paragraphs under at most one
// leading ATX heading the way goldmark would, without parsing it (a
// parse costs more than the rest of a summary). It declines (false) any
// text where markdown could mean something: a character that can open
// inline syntax, an entity or an escape; a line that can open a block
// (indented, a list or quote marker, a fence, a setext underline, a later
// heading); a control character or invalid UTF-8; anything linkify could
// take for a link.
// FuzzReadPlain holds it to goldmark's reading.
func readPlain(src string) (document, bool) {
	var d document
	if !plainText(src) || !utf8.ValidString(src) {
		return d, false
	}
	rest := src
	if strings.HasPrefix(src, "#") {
		line, after, _ := strings.Cut(src, "\n")
		level := len(line) - len(strings.TrimLeft(line, "#"))
		title := strings.Trim(line[level:], " ")
		if level > 6 || level == len(line) || line[level] != ' ' || title == "" || strings.HasSuffix(title, "#") {
			return d, false
		}
		d.heading = collapseSpaces(title)
		rest = after
	}
	var para strings.Builder
	flush := func() {
		if para.Len() == 0 {
			return
		}
		sents := splitSentences(collapseSpaces(para.String()), nil)
		if k := len(sents) - 1; k >= 0 && introduces(sents[k]) {
			sents = sents[:k] // it announces a paragraph, not a list: as goldmark's reading drops it
		}
		for i, sent := range sents {
			d.units = append(d.units, unit{text: sent, kind: sentence, opensBlock: i == 0, codeShare: codeShare(sent)})
		}
		para.Reset()
	}
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if line == "" {
			flush()
			continue
		}
		if !plainLine(line) {
			return document{}, false
		}
		if para.Len() > 0 {
			para.WriteByte(' ')
		}
		para.WriteString(line)
	}
	flush()
	return d, true
}

// plainText reports whether src holds none of the characters and strings
// that make markdown syntax inside a line.
func plainText(src string) bool {
	lead := len(src) - len(strings.TrimLeft(src, "#")) // a heading's marker
	for i := lead; i < len(src); i++ {
		c := src[i]
		switch plainBytes[c] {
		case plainOK:
			continue
		case plainNo:
			return false
		}
		switch c {
		case ':':
			if strings.HasPrefix(src[i:], "://") {
				return false
			}
		case 'w', 'W':
			if len(src)-i >= 4 && strings.EqualFold(src[i:i+4], "www.") {
				return false
			}
		}
	}
	return true
}

// What a byte means to plainText: nothing, the end of plain text, or a
// look at what follows.
const (
	plainOK = iota
	plainNo
	plainLook
)

var plainBytes = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = plainNo // control characters
	}
	t['\n'] = plainOK
	t[0x7f] = plainNo
	for _, c := range []byte("*_`[]<>&\\|~{}@#") {
		t[c] = plainNo
	}
	for _, c := range []byte(":wW") {
		t[c] = plainLook
	}
	return t
}()

// plainLine reports whether a paragraph line cannot open a block: it does
// not start with white space, a list, quote or heading marker, a fence, an
// underline or a table's delimiter row (":-" under a line makes a table of
// one column), and is not an ordered-list item ("1." or "1)").
func plainLine(line string) bool {
	switch line[0] {
	case ' ', '-', '+', '=', '#', ':':
		return false
	}
	digits := 0
	for digits < len(line) && line[digits] >= '0' && line[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits < len(line) && (line[digits] == '.' || line[digits] == ')') {
		return false
	}
	return strings.TrimSpace(line) != ""
}

// collapseSpaces makes every run of spaces one space and trims the ends,
// as plainBuilder does (other white space is text to it).
func collapseSpaces(s string) string {
	s = strings.Trim(s, " ")
	if !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && s[i-1] == ' ' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
