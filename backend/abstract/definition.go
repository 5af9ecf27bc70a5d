package abstract

import (
	"context"
	"fmt"
	"iter"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/model"
)

// DefinitionID names the Definition summariser and its version (a summary
// made by an earlier version is made again).
const DefinitionID = "definition/v14"

// Definition summarises one definition of source code (a function, method,
// type, class, constant block) by what a reader of the code looks at first:
// its declaration and what its doc comment says. A summary is the
// declaration on its first line, then the doc comment's sentences in order,
// as many as fit; without a doc comment, the declaration and the body's
// first lines. An essence is the doc comment's first sentence (the
// declaration when there is none, or when the sentence does not name the
// definition, the name before it). A later part of a long definition
// (Continued) starts inside the body: its essence is the first sentence of
// the first comment in it, which says what the code after it does, else
// its first line of code that says something (not "var (" or "}"); its
// summary is that line and then the first sentence of each of its
// comments, in order (an outline of the part), else its first lines. A
// definition with no doc comment is summarised by its declaration and
// such an outline, when its body has comments.
// Comment markers (//, #, /* */, /** */,
// ///, --) and docstring quotes are taken off; tags such as @param are
// left out.
//
// The extractive method reads text as Markdown, which turns a block of
// comments and code into run-on prose; this one reads it as code. It needs
// no model, and its result depends only on the text and the declaration.
type Definition struct {
	Count Counter
	// Signature is the declaration's header on one line (model.Symbol's);
	// "" takes the first line of code that is not a comment.
	Signature string
	// Name is the definition's name ("Rank", "Library.link"), "" if unknown.
	Name string
	// Continued: the text is a later part of a long definition, starting
	// inside its body (Signature is then "").
	Continued bool
	// File: the text is a file's own node (its package clause, imports and
	// top-level comments) rather than one definition; its doc comment is
	// then the first block of comments anywhere in it.
	File bool
}

// ID returns DefinitionID.
func (Definition) ID() string { return DefinitionID }

// Summarize returns the summary or essence of a definition's text in at most
// maxTokens tokens as measured by d.Count. A Summary of a text that already
// fits is the text itself.
func (d Definition) Summarize(ctx context.Context, text string, level Level, maxTokens int) (string, error) {
	answer, done, err := checkRequest(d.Count, text, level, maxTokens, 0)
	if err != nil {
		return "", fmt.Errorf("summarise with %s: %w", DefinitionID, err)
	}
	if done {
		return answer, nil
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	doc, body := splitDoc(text)
	sig := strings.Join(strings.Fields(d.Signature), " ")
	if sig == "" {
		sig = firstCodeLine(body)
	}
	if clipped, ok := strings.CutSuffix(sig, "…"); ok {
		// A declaration too long for the index's line: the text has it whole
		// (a summary may then shorten it to its parameters' names).
		if whole := declarationText(body); strings.HasPrefix(whole, strings.TrimSpace(clipped)) {
			sig = whole
		}
	}
	sentences := docSentences(doc)
	if len(sentences) == 0 && d.File {
		sentences = docSentences(firstCommentRun(text))
	}
	var out string
	if level == Essence && d.Continued {
		if len(sentences) == 0 || !telling(sentences[0]) {
			sentences = tellingComment(text)
		}
		if len(sentences) == 0 {
			sig = partOpening(body)
			if names := paramNames(body); len(names) >= 2 && strings.HasPrefix(strings.TrimSpace(body), ":") {
				// the part is its docstring's parameter list: say what it lists
				sig = "Parameters: " + strings.Join(names, ", ")
			}
		}
		d.Name = "" // the part's comment is about its own code, not the definition
		out = d.essence(sig, sentences, maxTokens)
	} else if level == Essence {
		out = d.essence(sig, sentences, maxTokens)
	} else {
		if outline := d.outline(text, body, sentences); len(outline) > 0 {
			if d.Continued {
				sig = partOpening(body)
			}
			sentences = outline
		}
		out = d.summary(sig, sentences, body, maxTokens)
	}
	if out == "" { // neither a declaration nor a sentence: the text's words
		out = truncate(d.Count, strings.Join(strings.Fields(text), " "), maxTokens)
	}
	if out == "" {
		return "", fmt.Errorf("summarise with %s: not one character of the text fits in %d tokens", DefinitionID, maxTokens)
	}
	return out, nil
}

func (d Definition) summary(sig string, sentences []string, body string, maxTokens int) string {
	if sig == "" { // only comments (a file's doc comment alone)
		return noTrailingColon(d.Count, fitText(d.Count, strings.Join(sentences, " "), maxTokens), maxTokens)
	}
	// A declaration that leaves no room for the doc comment's first words
	// (without one, the body's first line) is shortened to its parameters'
	// names when that makes the room: "def set(self, name, value, **kwargs)
	// -> Cookie | None" and what set does say more than the types of its
	// arguments.
	rest := afterDeclaration(body)
	next := ""
	if len(sentences) > 0 {
		next = "\n" + firstWords(sentences[0], minCutWords)
	} else if first := firstCodeLine(strings.Join(rest, "\n")); first != "" {
		next = "\n" + first
	}
	if next != "" && d.Count(sig+next) > maxTokens {
		if c := compactSignature(sig); d.Count(c+next) <= maxTokens {
			sig = c
		}
	}
	head := truncate(d.Count, sig, maxTokens)
	if head == "" || head != sig {
		return head
	}
	out := head
	if len(sentences) > 0 {
		for k := range sentences {
			c := head + "\n" + strings.Join(sentences[:k+1], " ")
			if d.Count(c) > maxTokens {
				if k == 0 { // the first sentence cut short, if enough of it is left to say something
					cut := truncate(d.Count, sentences[0], maxTokens-d.Count(head+"\n"))
					if len(strings.Fields(cut)) >= minCutWords {
						out = head + "\n" + cut
					}
				}
				break
			}
			out = c
		}
		return noTrailingColon(d.Count, out, maxTokens)
	}
	// No doc comment: the declaration and the body's first lines after it.
	for k := range rest {
		c := strings.TrimRight(head+"\n"+strings.Join(rest[:k+1], "\n"), " \t\n")
		if d.Count(c) > maxTokens {
			break
		}
		out = c
	}
	return out
}

// compactSignature shortens a declaration to its parameters' names, for
// the languages whose parameters say it apart from their types: "name:
// Type" (Python, Rust, TypeScript) and Go's "name Type". Defaults go too.
// Anything else, or a declaration it cannot read, is returned as it is.
func compactSignature(sig string) string {
	var keep func(param string) string
	switch {
	case strings.HasPrefix(sig, "func "):
		keep = func(p string) string { // Go: "ctx context.Context" → "ctx"; "int" stays
			if f := strings.Fields(p); len(f) > 1 {
				return f[0]
			}
			return p
		}
	case hasAnyPrefix(sig, "def ", "async def ", "fn ", "pub fn ", "pub(crate) fn ", "async fn ", "pub async fn ",
		"function ", "async function ", "export function ", "export async function ", "export default function "):
		keep = func(p string) string { // "name: Type = default" → "name"
			// A type checker's pragma the declaration's line swallowed, in
			// a signature indexed before headers left comments out.
			p = pyPragma.ReplaceAllString(p, "")
			if i := topLevelIndex(p, ':'); i >= 0 {
				p = p[:i]
			}
			if i := topLevelIndex(p, '='); i >= 0 {
				p = p[:i]
			}
			return strings.TrimSpace(p)
		}
	default:
		return sig
	}
	// The parameters: the first "(" that follows a name or its type
	// parameters ("Map[T any](", "parse<'a>("); a Go receiver's follows
	// "func ".
	open := -1
	for i := 1; i < len(sig); i++ {
		if sig[i] == '(' && (isIdentByte(sig[i-1]) || sig[i-1] == ']' || sig[i-1] == '>' && i > 1 && sig[i-2] != '-') {
			open = i
			break
		}
	}
	if open < 0 {
		return sig
	}
	end := matchingParen(sig, open)
	if end < 0 {
		return sig
	}
	var params []string
	for _, p := range splitTopLevel(sig[open+1 : end]) {
		if p = strings.TrimSpace(p); p != "" {
			params = append(params, keep(p))
		}
	}
	return sig[:open+1] + strings.Join(params, ", ") + sig[end:]
}

// pyPragma: "# type: ignore[override]", "# noqa: E501", "# pragma: no cover".
var pyPragma = regexp.MustCompile(`#\s*(type:\s*ignore(\[[^\]]*\])?|noqa(:\s*[A-Z0-9]+(,\s*[A-Z0-9]+)*)?|pragma:\s*no\s+cover)`)

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// depthAt walks s keeping the depth of brackets ((), [], {}, and <> that is
// not part of "->" or "=>"), calling at for each byte at depth 0; at
// returning true stops the walk.
func depthAt(s string, at func(i int) bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
			continue
		case c == '>' && i > 0 && (s[i-1] == '-' || s[i-1] == '='):
		case c == ')' || c == ']' || c == '}' || c == '>':
			depth--
			continue
		}
		if depth == 0 && at(i) {
			return
		}
	}
}

// topLevelIndex is the index of the first c in s outside brackets, −1 if none.
func topLevelIndex(s string, c byte) int {
	found := -1
	depthAt(s, func(i int) bool {
		if s[i] == c {
			found = i
			return true
		}
		return false
	})
	return found
}

// splitTopLevel splits s at its commas outside brackets.
func splitTopLevel(s string) []string {
	var out []string
	from := 0
	depthAt(s, func(i int) bool {
		if s[i] == ',' {
			out = append(out, s[from:i])
			from = i + 1
		}
		return false
	})
	return append(out, s[from:])
}

// matchingParen is the index of the ")" closing the "(" at open, −1 if none.
func matchingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// minCutWords: a doc comment's first sentence cut to fewer words than this
// is left out of a summary (the declaration says more than "newLink…").
const minCutWords = 5

func (d Definition) essence(sig string, sentences []string, maxTokens int) string {
	if len(sentences) == 0 {
		return truncate(d.Count, sig, maxTokens)
	}
	first := sentences[0]
	short := shortName(d.Name)
	if short != "" && !containsWord(first, short) {
		first = short + ": " + first
	}
	out := truncate(d.Count, first, maxTokens)
	if t := strings.TrimRight(out, ",;"); t != out && t != "" {
		// a sentence that went on in what the comment quotes or lists
		// ("Respond as per RFC 7230 Section 3.3.1 which says,")
		out = t + ":"
	}
	return noTrailingColon(d.Count, out, maxTokens)
}

// outline is what a summary lists in place of the doc comment's sentences:
// for a later part (it starts where partOpening says), the first sentence
// of each of its comments, in order; for a definition with no doc comment,
// the same of its body's comments; nil otherwise, or when there are none.
func (d Definition) outline(text, body string, sentences []string) []string {
	switch {
	case d.Continued:
		return commentOutline(text)
	case len(sentences) == 0 && !d.File:
		return commentOutline(body)
	}
	return nil
}

// partOpening is where a later part starts: its first line of code that
// says something, past the end of a docstring the part opens inside of.
func partOpening(body string) string { return firstTellingLine(pastDocstringEnd(body)) }

// shortName is a qualified name's last part: "Library.link" → "link".
func shortName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// containsWord tells whether s holds w as a whole word (or as a word's
// start: "Rank" in "Ranks").
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || !isIdentByte(s[j-1]) {
			return true
		}
		i = j + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// splitDoc separates a definition's doc comment from its code: the comment
// lines above the declaration (decorators and attributes between them and
// the declaration are code), else a docstring opening the body (Python).
// The doc is returned with its markers; body is the text from the first
// line of code on.
func splitDoc(text string) (doc []string, body string) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	inBlock := false
	start := i
	for i < len(lines) {
		t := strings.TrimSpace(lines[i])
		switch {
		case inBlock:
			doc = append(doc, lines[i])
			if strings.Contains(t, "*/") {
				inBlock = false
			}
		case strings.HasPrefix(t, "/*"):
			doc = append(doc, lines[i])
			inBlock = !strings.Contains(t[2:], "*/")
		case model.LineComment(t):
			doc = append(doc, lines[i])
		case t == "" && len(doc) > 0:
			// a blank line inside a comment run keeps it; one after it ends
			// it unless more comment follows
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && (model.LineComment(strings.TrimSpace(lines[j])) || strings.HasPrefix(strings.TrimSpace(lines[j]), "/*")) {
				doc = append(doc, "")
				break
			}
			return doc, strings.Join(lines[j:], "\n")
		default:
			if len(doc) == 0 {
				return docstring(lines[start:])
			}
			return doc, strings.Join(lines[i:], "\n")
		}
		i++
	}
	return doc, ""
}

// commentRuns yields each run of line comments (or block comment) in
// text, wherever it is, in order, with its markers (splitDoc's doc).
func commentRuns(text string) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
		for i := 0; i < len(lines); i++ {
			t := strings.TrimSpace(lines[i])
			if !model.LineComment(t) && !strings.HasPrefix(t, "/*") {
				continue
			}
			doc, _ := splitDoc(strings.Join(lines[i:], "\n"))
			if !yield(doc) {
				return
			}
			i += max(0, len(doc)-1) // past this run
		}
	}
}

// firstCommentRun is the first run of comments in text, wherever it is.
func firstCommentRun(text string) []string {
	for doc := range commentRuns(text) {
		return doc
	}
	return nil
}

// tellingComment is the sentences of the first run of comments in text
// that says what the code does: not a note to the code's authors ("TODO:
// remove in 3.0", "XXX not implemented yet"), a bare link or a word or two.
func tellingComment(text string) []string {
	for doc := range commentRuns(text) {
		if s := docSentences(doc); len(s) > 0 && telling(s[0]) {
			return s
		}
	}
	return nil
}

// commentOutline is the first sentence of each run of comments in text
// that says what the code does (telling), in order.
func commentOutline(text string) []string {
	var out []string
	for doc := range commentRuns(text) {
		if s := docSentences(doc); len(s) > 0 && telling(s[0]) {
			first := s[0]
			if last, _ := utf8.DecodeLastRuneInString(first); !strings.ContainsRune(".!?…:;", last) {
				first += "." // one comment's sentence ends before the next begins
			}
			out = append(out, first)
		}
	}
	return out
}

// telling says whether a comment's first sentence describes code: three
// words or more, not a link, not a note to the code's authors ("TODO",
// "XXX", "NOTE(rsc):", "Hack:"; "Note that…" describes).
func telling(sentence string) bool {
	f := strings.Fields(sentence)
	if len(f) < 3 {
		return false
	}
	head, marked := f[0], false
	if i := strings.IndexAny(head, ":("); i >= 0 {
		head, marked = head[:i], true
	}
	switch strings.ToUpper(head) {
	case "TODO", "XXX", "FIXME", "HACK", "BUG", "NOTE", "NB":
		if marked || head == strings.ToUpper(head) {
			return false
		}
	}
	links := 0
	for _, w := range f {
		if strings.Contains(w, "://") {
			links++
		}
	}
	return links == 0 || len(f) > 2*links+3
}

// docstring finds a docstring opening the body of a definition whose text
// starts with code (Python's def and class): the first statement after the
// declaration's line(s), when it is a string literal.
func docstring(lines []string) (doc []string, body string) {
	body = strings.Join(lines, "\n")
	// the declaration ends with ":" (Python), where its brackets close
	_, i := declarationSpan(lines)
	if i < 0 || !strings.HasSuffix(strings.TrimSpace(stripTrailingComment(lines[i])), ":") {
		return nil, body
	}
	i++
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) {
		return nil, body
	}
	t := strings.TrimSpace(lines[i])
	t = strings.TrimLeft(t, "rRuUbB")
	var quote string
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(t, q) {
			quote = q
			break
		}
	}
	if quote == "" {
		return nil, body
	}
	rest := t[len(quote):]
	if j := strings.Index(rest, quote); j >= 0 {
		return []string{rest[:j]}, body
	}
	if len(quote) == 1 {
		return nil, body
	}
	doc = append(doc, rest)
	for i++; i < len(lines); i++ {
		if j := strings.Index(lines[i], quote); j >= 0 {
			return append(doc, lines[i][:j]), body
		}
		doc = append(doc, lines[i])
	}
	return nil, body // never closed: not a docstring after all
}

// afterDeclaration is body's lines after the declaration's (its first
// line's when its brackets never close).
func afterDeclaration(body string) []string {
	lines := strings.Split(body, "\n")
	start, end := declarationSpan(lines)
	switch {
	case start >= len(lines):
		return nil
	case end < start:
		return lines[start+1:]
	}
	return lines[end+1:]
}

// declarationText is body's declaration on one line, whitespace collapsed
// ("" when its brackets never close).
func declarationText(body string) string {
	lines := strings.Split(body, "\n")
	start, end := declarationSpan(lines)
	if end < start {
		return ""
	}
	return strings.Join(strings.Fields(strings.Join(lines[start:end+1], " ")), " ")
}

// declarationSpan is where the declaration of lines is: its first line,
// after blank lines and decorators or attributes ("@…", "#[…]"), and its
// last (declarationEnd; −1 when its brackets never close).
func declarationSpan(lines []string) (start, end int) {
	for start < len(lines) {
		t := strings.TrimSpace(lines[start])
		if t != "" && !strings.HasPrefix(t, "@") && !strings.HasPrefix(t, "#[") {
			break
		}
		start++
	}
	return start, declarationEnd(lines, start)
}

// declarationEnd is the index of the line of lines where the declaration
// that starts at line start ends: the first line, from start on, at whose
// end every parenthesis and square bracket opened since start is closed
// (a Go or C body's brace is not counted). −1 when none does within
// maxDeclarationLines, or the brackets close more than they open.
func declarationEnd(lines []string, start int) int {
	depth := 0
	for i := start; i < len(lines) && i < start+maxDeclarationLines; i++ {
		depth += bracketDepth(lines[i])
		if depth < 0 {
			return -1
		}
		if depth == 0 {
			return i
		}
	}
	return -1
}

// maxDeclarationLines is the most lines a declaration is read over (a
// Python def with a parameter on each line).
const maxDeclarationLines = 40

// bracketDepth is what the round and square brackets of a line of code add
// to the depth, outside string literals ("…", `…`, '…') and a trailing
// comment (// or #): a Python default of "(" or a Go parameter's comment
// "(in tokens)" opens nothing. A Rust lifetime ('a) is no literal
// (lifetime); a literal left open goes on to the end of the line.
func bracketDepth(line string) int {
	depth := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '"', '`', '\'':
			if c == '\'' && i > 0 && lifetime(line[i-1], line[i+1:]) {
				continue
			}
			end := closingQuote(line[i+1:], c)
			if end < 0 {
				return depth
			}
			i += 1 + end
		case '/':
			if strings.HasPrefix(line[i:], "//") {
				return depth
			}
		case '#':
			if i > 0 && line[i-1] == ' ' {
				return depth
			}
		}
	}
	return depth
}

// closingQuote is the index in s of the quote q that closes a literal
// (a backslash escapes the byte after it, except in a backtick literal), −1
// when none does.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q != '`':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// lifetime says whether a single quote after prev, followed by s, is a Rust
// lifetime ("&'a str", "<'a, 'b>") rather than a literal: a word right after
// a & or a <, or a word that a > or a comma follows.
func lifetime(prev byte, s string) bool {
	n := 0
	for n < len(s) && isIdentByte(s[n]) {
		n++
	}
	if n == 0 || n < len(s) && s[n] == '\'' {
		return false
	}
	return prev == '&' || prev == '<' || n < len(s) && (s[n] == '>' || s[n] == ',')
}

func stripTrailingComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
}

// docSentences reads a doc comment as prose: markers off, paragraphs
// joined, tag lines (@param, :param, Args:) and what follows them left out,
// indented code blocks left out, cut into sentences.
func docSentences(doc []string) []string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, l := range doc {
		raw := stripMarker(l)
		t := strings.TrimSpace(raw)
		if t == "" {
			flush()
			continue
		}
		if strings.HasPrefix(t, "@") || strings.HasPrefix(t, ":param") || strings.HasPrefix(t, ":return") ||
			isSectionLine(t) {
			flush()
			break
		}
		if strings.HasPrefix(raw, "\t") || strings.HasPrefix(raw, "    ") { // a code example
			flush()
			continue
		}
		cur = append(cur, t)
	}
	flush()
	var out []string
	for _, p := range paras {
		out = append(out, splitSentences(strings.Join(strings.Fields(p), " "), nil)...)
	}
	return out
}

// isSectionLine: the heading of a docstring's sections (Google and NumPy
// style), after which come parameter lists, not prose.
func isSectionLine(t string) bool {
	switch strings.TrimSuffix(t, ":") {
	case "Args", "Arguments", "Parameters", "Returns", "Return", "Raises", "Yields", "Example", "Examples", "Attributes", "Note", "Notes", "See Also", "Throws":
		return strings.HasSuffix(t, ":") || t == "Parameters" || t == "Returns"
	}
	return strings.Trim(t, "-=") == "" && len(t) > 2
}

// stripMarker takes a comment line's marker off: "// x" → " x", "/** x" →
// " x", " * x" → " x", "x */" → "x", "# x" → " x", "/// x", "//! x", "-- x",
// "#: x" (Sphinx's comment documenting the attribute below it).
// What follows the marker keeps its indentation, so a code example in a
// comment (a tab or four spaces after the marker) can be told apart.
func stripMarker(l string) string {
	t := strings.TrimLeft(l, " \t")
	t = strings.TrimSuffix(strings.TrimRight(t, " \t"), "*/")
	for _, m := range []string{"///", "//!", "//", "/**", "/*", "--", "#:", "#", "*"} {
		if strings.HasPrefix(t, m) {
			t = t[len(m):]
			break
		}
	}
	return strings.TrimPrefix(t, " ")
}

// firstTellingLine is the first line of body that names something beyond
// brackets, numbers and a keyword ("var (", "}", "} else {", "default:",
// `4"},` say nothing), whitespace collapsed; the first line that is not
// blank when none does.
func firstTellingLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		t := strings.Join(strings.Fields(l), " ")
		words := strings.Join(strings.FieldsFunc(t, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
		}), " ")
		if strings.IndexFunc(words, unicode.IsLetter) >= 0 && !bareKeywords[words] {
			return t
		}
	}
	return firstCodeLine(body)
}

// pastDocstringEnd is a later part's text after the end of a docstring the
// part opens inside of (Python's: a part can start in the middle of its
// definition's parameter list, which docstringFields tells), the text
// itself when it opens in code.
func pastDocstringEnd(text string) string {
	for _, q := range []string{`"""`, `'''`} {
		if n := strings.Count(text, q); n%2 == 1 {
			i := strings.Index(text, q)
			if !docstringFields(text[:i]) {
				continue // the quotes open a docstring the next part ends
			}
			if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
				return text[i+j+1:]
			}
			return ""
		}
	}
	return text
}

// paramNames are the names of a docstring's reST parameter fields in text
// (":param url:", ":param dict data:"), in order.
func paramNames(text string) []string {
	var names []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(t, ":param ")
		if !ok {
			continue
		}
		field, _, ok := strings.Cut(rest, ":")
		if f := strings.Fields(field); ok && len(f) > 0 {
			names = append(names, f[len(f)-1])
		}
	}
	return names
}

// docstringFields says whether text holds a docstring's fields or
// sections (":param request:", ":rtype:", "Returns:"), which code does not.
func docstringFields(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if isSectionLine(t) || strings.HasPrefix(t, ":") && strings.Count(t, ":") >= 2 && !strings.ContainsAny(t, "=(") {
			return true
		}
	}
	return false
}

// bareKeywords are lines that say nothing alone, as words (brackets and
// punctuation taken off).
var bareKeywords = map[string]bool{
	"": true, "var": true, "const": true, "let": true, "type": true, "import": true, "else": true,
	"default": true, "try": true, "finally": true, "do": true, "begin": true, "end": true,
	"return": true, "break": true, "continue": true, "pass": true, "else if": true,
}

// firstCodeLine is the first line of body that is not blank, whitespace
// collapsed.
func firstCodeLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if t := strings.Join(strings.Fields(l), " "); t != "" {
			return t
		}
	}
	return ""
}
