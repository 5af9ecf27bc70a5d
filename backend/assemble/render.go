package assemble

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/model"
)

// The frame is what the context spends besides the nodes' text: the
// manifest and one header per block. Each node's reference is written once,
// in its block's header; the manifest says how much of the relevant context
// is here and names what relevant context is not, so the model can ask for
// it:
//
//	[Context loaded: 3 of 7 relevant nodes]
//	[Additional context available but not loaded: 4 nodes — [rrddet] 2.1 Split (320 tokens); [lueman] Levels (140 tokens); and 2 more]
//
//	loom-concept.md:
//	[tdaco] 5. Ranking Signals · L60–75 · summary
//	…
//
//	[imkn] notes/staleness.md › Decay · L3
//	…
//
// A block of full text names its first line (its text shows where it
// ends); a summary or an essence, the lines it stands for. When the frame
// would take more than FramePercent of the context while relevant text is
// left out, no header names lines or pages (Candidate.Unplaced): the id
// leads to the place, and the room goes to text; if it is still over, the
// manifest names only the best ShortListed nodes left out.
// Blocks are grouped by document (documents in the order of their best
// block, blocks in load order); a document with one block names it in the
// block's own header. Adjacent parts of one long section loaded in full are
// one block, their repeated text written once (joinParts). Node ids are
// written as their shortest prefix of at least ShortIDHex hex digits that
// no other searchable node of the workspace shares (the tools and the page
// resolve a unique prefix), in letters (model.PromptID: "[hpih]", not
// "[n-8f48]", two tokens fewer).

// ManifestListed is how many relevant nodes that were not loaded the
// manifest names; the rest are counted.
const ManifestListed = 5

// ShortListed is how many it names when the frame is over its share
// (FramePercent) even with headers that leave out lines and pages.
const ShortListed = 2

// HeaderWords is the most words of a title a block header writes (a
// title is a name, not the text: some are whole paragraphs).
const HeaderWords = 16

// ListedWords is how many words of a left-out node's title the manifest
// names it by (its id fetches the rest).
const ListedWords = 6

// clipWords keeps the first n words of s, marking a cut with "…".
func clipWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return s
	}
	return strings.Join(f[:n], " ") + "…"
}

// FramePercent is the most of the context budget the frame takes with the
// catalog: the catalog's lines join only within it, the last ones left
// out first.
const FramePercent = 10

// fitLines keeps the first lines of s that count to at most room tokens
// together, and their count; "" when not even the first fits.
func fitLines(s string, room int, count Counter) (string, int) {
	for room > 0 && s != "" {
		if n := countLines(count, s); n <= room {
			return s, n
		}
		i := strings.LastIndexByte(s, '\n')
		if i < 0 {
			break
		}
		s = s[:i]
	}
	return "", 0
}

// ShortIDHex is the fewest hex digits a node id is shortened to (letters,
// in a prompt: model.PromptID).
const ShortIDHex = 3

// Manifest renders the manifest in the seed's two bracketed lines (§6.3):
// how many of the relevant nodes were loaded, and how many were not — the
// best of those named by id, title and size, the rest counted. The seed's
// line per loaded node is left out: each loaded node is named once, by its
// block's header.
func Manifest(loaded []*Candidate, relevant int, notLoaded []*Candidate) string {
	return manifest(loaded, relevant, notLoaded, ManifestListed)
}

// manifest is Manifest naming at most listed nodes.
func manifest(loaded []*Candidate, relevant int, notLoaded []*Candidate, listed int) string {
	var b strings.Builder
	near := 0 // loaded beyond the relevant (Select's step 6)
	for _, c := range loaded {
		if c.Near && !c.Relevant && !c.Pinned {
			near++
		}
	}
	total := max(relevant, len(loaded)-near+len(notLoaded))
	fmt.Fprintf(&b, "[Context loaded: %d of %d relevant %s", len(loaded)-near, total, nodes(total))
	if near > 0 {
		fmt.Fprintf(&b, "; and %d near the question, as the budget allowed", near)
	}
	b.WriteString("]\n")
	fmt.Fprintf(&b, "[Additional context available but not loaded: %d %s", len(notLoaded), nodes(len(notLoaded)))
	if len(notLoaded) > 0 && listed > 0 {
		b.WriteString(" — ")
		for i, group := range sectionsOf(notLoaded[:min(len(notLoaded), listed)]) {
			if i > 0 {
				b.WriteString("; ")
			}
			c := group[0]
			if len(group) == 1 {
				fmt.Fprintf(&b, "[%s] %s (%d tokens)", c.short(), bareParts(clipWords(Clean(ownTitle(c)), ListedWords)), c.Tokens)
				continue
			}
			ids, tokens := make([]string, len(group)), 0
			for k, p := range group {
				ids[k], tokens = p.short(), tokens+p.Tokens
			}
			title := clipWords(Clean(model.PartSuffix.ReplaceAllString(ownTitle(c), "")), ListedWords) + partsMark(group)
			fmt.Fprintf(&b, "[%s] %s (%d tokens)", strings.Join(ids, ", "), bareParts(title), tokens)
		}
		if more := len(notLoaded) - listed; more > 0 {
			fmt.Fprintf(&b, "; and %d more", more)
		}
	}
	b.WriteString("]")
	var stale []string
	for _, c := range loaded {
		if c.Stale != "" {
			stale = append(stale, "["+c.short()+"] "+c.Stale)
		}
	}
	if len(stale) > 0 {
		fmt.Fprintf(&b, "\n[Stale: %d loaded nodes may be out of date, their files changed since indexing (re-ingest to refresh) — %s]", len(stale), strings.Join(stale, "; "))
	}
	return b.String()
}

// Clean keeps a title from breaking the manifest's one-line brackets.
func Clean(s string) string { return cleaner.Replace(strings.TrimSpace(s)) }

var cleaner = strings.NewReplacer("\n", " ", "\r", " ", "|", "/", "[", "(", "]", ")")

// short is the id the prompt writes (ShortID when Assemble set one).
func (c *Candidate) short() string {
	if c.ShortID != "" {
		return c.ShortID
	}
	return c.ID
}

// ownTitle is the node's title without its document's path in front
// ("loom-concept.md › 5. Ranking" → "5. Ranking"; a record's "4983 Title"
// → "Title").
func ownTitle(c *Candidate) string {
	if c.Document != "" {
		for _, sep := range []string{" › ", " "} {
			if rest, ok := strings.CutPrefix(c.Title, c.Document+sep); ok && rest != "" {
				return rest
			}
		}
	}
	return c.Title
}

// location is where in its document the node is, as its cite says beyond
// the document's path and what the title already says: "L60–75",
// "p. 4–5" (the § of a paper's section is in its title). With no document
// it is the whole cite (or the reference).
func location(c *Candidate) string {
	cite := c.Cite
	if cite == "" {
		cite = c.Ref
	}
	if c.Document == "" {
		return cite
	}
	rest, ok := strings.CutPrefix(cite, c.Document)
	if !ok {
		if path, _, _ := strings.Cut(c.Document, "#"); path != c.Document {
			rest, ok = strings.CutPrefix(cite, path) // a BibTeX entry's document is "refs.bib#key"
		}
		if !ok {
			return cite
		}
	}
	var parts []string
	title := ownTitle(c)
	for _, f := range splitLocation(rest) {
		switch {
		case strings.HasPrefix(f, "#"): // the anchor: the title says it
		case strings.HasPrefix(f, "§") && strings.Contains(title, sectionName(f)) && strings.Contains(title, partMark(f)):
			// The section's name is the title's (a long one clipped with
			// "…"), and so is the part of it ("(part 2/3)").
		default:
			parts = append(parts, f)
		}
	}
	return strings.Join(parts, " ")
}

// sectionName is a cite's "§Name … (part i/n)" without its § and its
// part, unclipped: what a title that says the section holds.
func sectionName(f string) string {
	name := strings.TrimPrefix(f, "§")
	if m := model.PartSuffix.FindStringIndex(name); m != nil {
		name = name[:m[0]]
	}
	return strings.TrimSuffix(strings.TrimSpace(name), "…")
}

// partMark is a cite's "(part i/n)", "" when it has none.
func partMark(f string) string { return strings.TrimSpace(model.PartSuffix.FindString(f)) }

// splitLocation splits what follows the path in a cite into its parts:
// "#anchor", "L3–12", "p. 4–5", "§3.2 Title words", "@key".
func splitLocation(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		switch {
		case len(out) > 0 && out[len(out)-1] == "p.":
			out[len(out)-1] += " " + w
		case len(out) > 0 && strings.HasPrefix(out[len(out)-1], "§") && !strings.HasPrefix(w, "L") && !strings.HasPrefix(w, "p."):
			out[len(out)-1] += " " + w
		default:
			out = append(out, w)
		}
	}
	return out
}

// BlockHeader introduces one loaded node on a line of its own: its id
// (what the model cites, and what the expand tool takes), its title with
// its document's path, where in the document it is, and its level when
// that is not the full text:
//
//	[tdaco] notes/budget.md › Split · L3–12 · summary
func BlockHeader(c *Candidate) string { return header(c, true) }

// header is BlockHeader, with the document's path left out of the title
// when withDoc is false (the block sits under its document's line).
func header(c *Candidate, withDoc bool) string { return headerTitled(c, withDoc, true) }

// blockHeader is the header of a loaded block: its node's own title is
// left out when the text opens with it (a Markdown heading, a record's
// title line), so that the title is written once.
func blockHeader(bl Block, withDoc bool, shared map[string]bool) string {
	c := bl.Candidate
	if len(bl.Joined) > 0 {
		c = joinedHeader(bl)
	}
	title := ownTitle(c)
	opens := opensWith(bl.Text, title)
	mark := ""
	if !opens && c.Part == 1 && len(bl.Joined) == 0 {
		// The first part of a section or a definition opens with its
		// heading or its declaration, as the whole does: the header says
		// only which part it is.
		if whole := model.PartSuffix.ReplaceAllString(title, ""); whole != title && opensWith(bl.Text, whole) {
			opens, mark, title = true, partMark(title), whole
		}
	}
	if opens && shared[definedName(title)] {
		if owner := methodOwner(bl.Text, title); owner != "" {
			named := *c
			named.Title = strings.TrimSpace(owner + " " + mark)
			if c.Document != "" {
				named.Title = c.Document + " › " + named.Title
			}
			return headerTitled(&named, withDoc, true)
		}
	}
	if mark != "" {
		named := *c
		named.Title = mark
		if withDoc && c.Document != "" {
			named.Title = c.Document + " › " + mark
		}
		return headerOf(&named, Clean(named.Title), location(c))
	}
	return headerTitled(c, withDoc, !opens)
}

// opensWith says whether text's first line says title: it is the title,
// without a Markdown heading's hashes (spacing and a final full stop or
// colon aside), or the title is a definition's kind and name ("method
// Pipeline.catalog") and the line declares that name as code, not as a
// sentence of its doc comment (whole definitions only: a part's title says
// which definition it is part of).
func opensWith(text, title string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	norm := func(s string) string { return strings.TrimRight(strings.Join(strings.Fields(s), " "), ".:") }
	t := norm(title)
	if t == "" {
		return false
	}
	if heading, _ := model.HeadingAttributes(strings.TrimLeft(first, "# ")); norm(heading) == t {
		return true
	}
	f := strings.Fields(t)
	if len(f) != 2 || !definitionKinds[f[0]] {
		return false
	}
	dot := strings.LastIndexByte(f[1], '.')
	name := f[1][dot+1:]
	if len(name) < 2 || !isIdent(name) {
		return false
	}
	// The doc comment above the declaration names the definition too; the
	// declaration follows it. A sentence of it alone (an essence: "Do sends
	// an HTTP request…") declares nothing: its block is headed by the
	// definition's kind and name (Client.Do's is not Transport's).
	code := openingCode(text)
	return declares(code, name) && !endsSentence(code)
}

// openingCode is text's first line that is not blank or a comment, ""
// when there is none.
func openingCode(text string) string {
	for l := range strings.Lines(text) { // stops at the first: no split of the whole text
		t := strings.TrimSpace(l)
		if t == "" || model.LineComment(t) || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") {
			continue
		}
		return t
	}
	return ""
}

// endsSentence says whether a line ends as a sentence does, which a line of
// code does not.
func endsSentence(line string) bool {
	line = strings.TrimSpace(line)
	return strings.HasSuffix(line, ".") || strings.HasSuffix(line, "…") || strings.HasSuffix(line, "?") || strings.HasSuffix(line, "!")
}

// definedName is the name a definition's title defines ("method
// Session.get" → "get"); "" for another title.
func definedName(title string) string {
	f := strings.Fields(model.PartSuffix.ReplaceAllString(title, ""))
	if len(f) != 2 || !definitionKinds[f[0]] {
		return ""
	}
	return f[1][strings.LastIndexByte(f[1], '.')+1:]
}

// sharedNames are the names that more than one of blocks defines ("get"
// of a session and of a cookie jar): a method among them whose line does
// not say its type is headed by its type (methodOwner).
func sharedNames(blocks []Block) map[string]bool {
	seen, shared := map[string]string{}, map[string]bool{}
	for _, bl := range blocks {
		t := ownTitle(bl.Candidate)
		if name := definedName(t); name != "" {
			if ref, ok := seen[name]; ok && ref != bl.Candidate.Ref {
				shared[name] = true
			}
			seen[name] = bl.Candidate.Ref
		}
	}
	return shared
}

// methodOwner is the type a method's title names ("method Session.get" →
// "Session") when text's first line, which declares the method (opensWith),
// does not say its type (Python's "def get(self", unlike Go's receiver); ""
// otherwise. The block's header then names the type alone: Session.get is
// not RequestsCookieJar.get (when both are in the context: sharedNames).
func methodOwner(text, title string) string {
	f := strings.Fields(title)
	if len(f) != 2 || f[0] != "method" {
		return ""
	}
	dot := strings.LastIndexByte(f[1], '.')
	if dot <= 0 {
		return ""
	}
	owner := f[1][strings.LastIndexByte(f[1][:dot], '.')+1 : dot]
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if owner == "" || declares(first, owner) {
		return ""
	}
	return owner
}

// declares says whether line names name as a whole word.
func declares(line, name string) bool {
	for rest := line; ; {
		i := strings.Index(rest, name)
		if i < 0 {
			return false
		}
		before, after := rest[:i], rest[i+len(name):]
		if (before == "" || !identByte(before[len(before)-1])) && (after == "" || !identByte(after[0])) {
			return true
		}
		rest = after
	}
}

// definitionKinds are the words a source definition's title starts with
// (backend/ingest/code), so that "Related work" is never read as one.
var definitionKinds = map[string]bool{
	"func": true, "method": true, "type": true, "struct": true, "interface": true, "class": true,
	"const": true, "var": true, "enum": true, "macro": true, "trait": true, "impl": true, "package": true,
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return true
}

func identByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// headerTitled is header, with the node's own title left out when titled
// is false.
func headerTitled(c *Candidate, withDoc, titled bool) string {
	var title string
	switch {
	case titled && withDoc:
		title = Clean(c.Title)
	case titled:
		title = Clean(ownTitle(c))
	case withDoc && c.Document != "" && ownTitle(c) != c.Title:
		title = Clean(c.Document)
	}
	return headerOf(c, clipWords(title, HeaderWords), location(c))
}

// headerOf is a block header of c with the title and the location given.
// A block of full text writes the first of its lines alone: its text
// shows where it ends.
func headerOf(c *Candidate, title, loc string) string {
	switch {
	case c.Unplaced:
		loc = withoutSpans(loc)
	case c.Level == "" || c.Level == Detailed:
		loc = firstLine(loc)
	}
	parts := []string{bareParts(title), loc}
	if c.Level != "" && c.Level != Detailed {
		parts = append(parts, string(c.Level))
	}
	if c.Stale != "" {
		parts = append(parts, "STALE")
	}
	h := "[" + c.short() + "]"
	sep := " "
	for _, p := range parts {
		if p != "" {
			h += sep + p
			sep = " · "
		}
	}
	return h
}

// bareParts writes a title's closing part mark without its brackets:
// "method Client.do part 2/4", "(parts 1, 2, 4/4)" → "parts 1, 2, 4/4".
// The word says what the numbers are; the brackets cost a tokenizer two
// tokens a header.
func bareParts(title string) string {
	if m := closingPartMark.FindStringSubmatchIndex(title); m != nil {
		return title[:m[0]] + title[m[2]:m[3]]
	}
	return title
}

// closingPartMark is a title's part mark at its end: "(part 2/4)",
// "(parts 2–3/5)", "(parts 1, 2, 4/4)".
var closingPartMark = regexp.MustCompile(`\((parts? [\d,–\s]+/\d+)\)$`)

// firstLine is a location of lines ("L60–75") cut to its first ("L60");
// any other location (pages, a section) as it is.
func firstLine(loc string) string {
	if m := lineSpan.FindStringSubmatchIndex(loc); m != nil {
		return loc[:m[2]] + loc[m[3]:]
	}
	return loc
}

// withoutSpans is a location without its lines and pages ("§3.2 Methods
// p. 4–5" → "§3.2 Methods").
func withoutSpans(loc string) string {
	var kept []string
	for _, f := range splitLocation(loc) {
		if !span.MatchString(f) {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}

// lineSpan is a location's range of lines, "L60–75".
var lineSpan = regexp.MustCompile(`\bL\d+(–\d+)`)

// groupHeader is the header of block i of a document's group g: a block
// that goes on from the part before it (continues) names only its part,
// its location and its level; any other, its title as blockHeader says.
func groupHeader(g []Block, i int, shared map[string]bool) string {
	bl := g[i]
	if i > 0 && continues(g[i-1], bl) {
		c, loc := bl.Candidate, location(bl.Candidate)
		if len(bl.Joined) > 0 {
			c = joinedHeader(bl)
			loc = location(c)
		}
		return headerOf(c, strings.TrimSpace(partsMark(append([]*Candidate{bl.Candidate}, bl.Joined...))), loc)
	}
	return blockHeader(bl, len(g) == 1, shared)
}

// blockLine is the line that heads block i of a document's group g: its
// header (groupHeader), and where else its text is (alsoIn).
func blockLine(g []Block, i int, shared map[string]bool) string {
	h := groupHeader(g, i, shared)
	if also := alsoIn(g[i].Candidate, g[i].Same); also != "" {
		h += " · " + also
	}
	return h
}

// Block is a loaded node's text at its level.
type Block struct {
	Candidate *Candidate
	Text      string
	// Joined are the parts of Candidate's section after its own, loaded in
	// full, whose texts Text goes on with (joinParts).
	Joined []*Candidate
	// Same are the relevant nodes whose text repeats this one's, not
	// loaded (markRepeats).
	Same []*Candidate
}

// tokens is what the block's text takes: its nodes' loaded sizes.
func (bl Block) tokens() int {
	n := bl.Candidate.LoadedTokens
	for _, c := range bl.Joined {
		n += c.LoadedTokens
	}
	return n
}

// docLine opens a group of blocks of one document.
func docLine(doc string) string { return Clean(doc) + ":" }

// ContextText joins the manifest, the catalog (may be "") and the blocks,
// grouped by document (see the package's frame comment).
func ContextText(manifest, catalog string, blocks []Block) string {
	var b strings.Builder
	b.Grow(len(manifest) + 2 + len(catalog) + 16*1024)
	b.WriteString(manifest)
	if catalog != "" {
		b.WriteString("\n\n")
		b.WriteString(catalog)
	}
	shared := sharedNames(blocks)
	for _, g := range groupBlocks(blocks) {
		grouped := len(g) > 1
		if grouped {
			b.WriteString("\n\n")
			b.WriteString(docLine(g[0].Candidate.Document))
		}
		for i, bl := range g {
			if !grouped || i > 0 {
				b.WriteString("\n\n")
			} else {
				b.WriteString("\n")
			}
			b.WriteString(blockLine(g, i, shared))
			b.WriteString("\n")
			b.WriteString(BlockText(bl.Text))
		}
	}
	return b.String()
}

// BlockText is a block's text as the prompt writes it: trimmed, a run of
// blank lines outside fenced code written as one (the lines an Org drawer
// or an MDX import left blank so that every line keeps its number say
// nothing to a model), and a link to an Org-roam id written as its words
// ("[Power analysis](id:7b2d…)" is "Power analysis": the id, some 25
// tokens, means nothing to a model; the stored text keeps it for the
// graph's edge). Assemble counts a block by this text when it differs.
func BlockText(text string) string {
	text = strings.TrimSpace(text)
	if strings.Contains(text, "](id:") {
		text = idLink.ReplaceAllString(text, "$1")
	}
	if !strings.Contains(text, "\n\n\n") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	fence := ""
	blank := false
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence == "":
			fence = model.Fence(trimmed)
		case model.ClosesFence(trimmed, fence):
			fence = ""
		}
		if trimmed == "" && blank && fence == "" {
			continue
		}
		blank = trimmed == ""
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

// idLink is a Markdown link to an Org-roam id, as the Org reader writes
// [[id:…][words]].
var idLink = regexp.MustCompile(`\[([^\]\n]*)\]\(id:[^)\s]*\)`)

// groupBlocks puts blocks of one document together: documents in the order
// of their first block, blocks in their own order. Blocks with no document
// stand alone.
func groupBlocks(blocks []Block) [][]Block {
	var groups [][]Block
	at := map[string]int{}
	for _, bl := range blocks {
		doc := bl.Candidate.Document
		if i, ok := at[doc]; ok && doc != "" {
			groups[i] = append(groups[i], bl)
			continue
		}
		at[doc] = len(groups)
		groups = append(groups, []Block{bl})
	}
	return groups
}

// frameTokens is what the blocks' headers, document lines and separators
// take, counted part by part (an upper bound of their count in the whole).
func frameTokens(count Counter, blocks []Block) int {
	n := 0
	shared := sharedNames(blocks)
	for _, g := range groupBlocks(blocks) {
		grouped := len(g) > 1
		if grouped {
			n += count(docLine(g[0].Candidate.Document)) + 2
		}
		for i := range g {
			n += count(blockLine(g, i, shared)) + 3
		}
	}
	return n
}

// ShortIDs gives every candidate its ShortID: the shortest prefix of its
// id, of at least ShortIDHex hex digits, that no other candidate's id
// starts with, nor any id of among (sorted: the workspace's, so that the
// tools resolve the prefix to this node alone; nil for the candidates
// only), written as a prompt writes it (model.PromptID; an id of a test's
// own making stays as it is).
func ShortIDs(cands []*Candidate, among []string) {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	slices.Sort(ids)
	for _, c := range cands {
		c.ShortID = shortestUnique(c.ID, ids, among)
		if model.IsHashID(c.ID) {
			c.ShortID = model.PromptID(c.ShortID)
		}
	}
}

// PromptIDAmong is how a prompt writes one node's id (as ShortIDs does):
// its shortest prefix that no other id of among (sorted: the workspace's
// searchable nodes) starts with, in letters; the whole id in letters when
// among does not hold it (a node no search finds is resolved whole).
func PromptIDAmong(id string, among []string) string {
	if !model.IsHashID(id) {
		return id
	}
	if _, found := slices.BinarySearch(among, id); !found {
		return model.PromptID(id)
	}
	return model.PromptID(shortestUnique(id, among))
}

// shortestUnique is id cut to the fewest characters (at least the "n-"
// prefix and ShortIDHex digits) that no other id of the sorted lists
// starts with.
func shortestUnique(id string, sorted ...[]string) string {
	dash := strings.IndexByte(id, '-')
	n := dash + 1 + ShortIDHex
	if dash < 0 || n >= len(id) {
		return id
	}
	need := n
	for _, ids := range sorted {
		lo := sort.SearchStrings(ids, id)
		hi := lo
		for hi < len(ids) && ids[hi] == id {
			hi++ // the same node twice is one id
		}
		for _, j := range []int{lo - 1, hi} {
			if j >= 0 && j < len(ids) {
				need = max(need, commonPrefix(id, ids[j])+1)
			}
		}
	}
	if need >= len(id) {
		return id
	}
	return id[:need]
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// QuestionText is how the question closes the prompt.
func QuestionText(q string) string { return "Question: " + strings.TrimSpace(q) }

// Prompt is the whole prompt as a model (or the clipboard) gets it.
func Prompt(system, context, question string) string {
	var b strings.Builder
	b.Grow(len(system) + len(context) + len(question) + 16)
	if system != "" {
		b.WriteString(system)
		b.WriteString("\n\n")
	}
	b.WriteString(context)
	b.WriteString("\n\n")
	b.WriteString(QuestionText(question))
	return b.String()
}

// Counter counts tokens.
type Counter func(string) int

// countLines counts a text line by line (short lines are what a memoising
// counter remembers); a line break after punctuation may share a token
// with it, so the sum is at least the whole text's count.
func countLines(count Counter, s string) int {
	n := 0
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			n++
		}
		n += count(line)
	}
	return n
}

// TextFunc returns a loaded candidate's text at level l. It may make the
// text (a summary) and is expected to set the candidate's size for that
// level to the real count. An error whose code is errs.Unavailable (a
// stored text that is missing or damaged) leaves that candidate out; any
// other fails the assembly.
type TextFunc func(c *Candidate, l Level) (string, error)

// Assembly is the assembled context of one question.
type Assembly struct {
	Split     Split     `json:"budget"`
	Selection Selection `json:"selection"`
	Manifest  string    `json:"manifest"`
	Catalog   string    `json:"catalog,omitempty"`
	Context   string    `json:"-"`
	Prompt    string    `json:"prompt"`
	Blocks    []Block   `json:"-"`
}

// Assemble selects under the split's context budget, fetches the texts and
// renders manifest and prompt; it measures the rendered context and, if
// headers made it overflow, selects again with less until it fits, so the
// context never exceeds split.Context. The catalog joins when it fits in
// what is left.
func Assemble(cands []*Candidate, split Split, o SelectOptions, system, question, catalog string, count Counter, text TextFunc) (*Assembly, error) {
	if count == nil || text == nil {
		return nil, errors.New("assemble: no token counter or text source")
	}
	// A relevant node whose text repeats a better one's does not load, nor
	// does one near the question.
	markRepeats(cands, text, split.Context > RelevanceBudget)
	// The manifest lists at most the nodes that could load: those, in
	// rank order, whose smallest forms fit together in the context.
	var upper []*Candidate
	relevant, room := 0, split.Context
	for _, c := range cands {
		if !c.Relevant && !c.Pinned {
			continue
		}
		relevant++
		smallest := c.Tokens
		for _, l := range []Level{Summary, Essence, Chunks} {
			if t := c.tokensAt(l); t > 0 && t < smallest {
				smallest = t
			}
		}
		if smallest <= room {
			room -= smallest
			upper = append(upper, c)
		}
	}
	// Each node costs its text plus its block header; the ones beyond what
	// could load are charged the largest of those.
	ShortIDs(cands, o.UniqueAmong)
	inUpper := make(map[*Candidate]bool, len(upper))
	for _, c := range upper {
		inUpper[c] = true
	}
	for _, c := range cands { // headers name their place until the frame is full
		c.Unplaced = false
	}
	overheads := func() {
		most := 0
		for _, c := range upper {
			c.Overhead = count(BlockHeader(c)) + 3
			most = max(most, c.Overhead)
		}
		for _, c := range cands {
			switch {
			case (c.Relevant || c.Pinned) && !inUpper[c]:
				c.Overhead = max(most, 24)
			case c.Near && split.Context > RelevanceBudget: // may load beyond RelevanceBudget (Select)
				c.Overhead = count(BlockHeader(c)) + 3
			}
		}
	}
	overheads()
	// The manifest: its counts, and the best relevant nodes as if none of
	// them loaded (an upper bound of the list it names); it names fewer when
	// that would take more than a tenth of the context.
	manifestFrame := func(listed int) int {
		return count(manifest(nil, relevant, upper[:min(len(upper), listed)], listed)) + 8
	}
	listed, frame := ManifestListed, 0
	for ; ; listed-- {
		frame = manifestFrame(listed)
		if listed == 0 || frame <= split.Context/10 {
			break
		}
	}
	loadable := split.Context - frame
	if loadable < 0 {
		return nil, errUsage("the context budget of %d tokens is smaller than the manifest (%d tokens): raise the budget", split.Context, frame)
	}
	refills, unplaced := 0, false
	var fitted *Assembly // the last assembly that fitted, kept while a refill is tried
	var fittedState []Candidate
	var longer *Assembly // the assembly whose manifest named ManifestListed, kept while a shorter list is tried
	var longerState []Candidate
	o.Beyond = split.Context - RelevanceBudget
	for attempt := 0; ; attempt++ {
		o.Loadable = loadable
		sel := Select(cands, o)
		if o.Prefetch != nil {
			o.Prefetch(sel.Loaded)
		}
		blocks := make([]Block, 0, len(sel.Loaded))
		lost := false
		for _, c := range sel.Loaded {
			t, err := text(c, c.Level)
			if errs.CodeOf(err) == errs.Unavailable {
				// One node's text is gone or damaged: that node is left
				// out and the selection made again without it.
				c.Unavailable, lost = err.Error(), true
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("load %s: %w", c.Ref, err)
			}
			c.LoadedTokens = c.tokensAt(c.Level)
			if w := BlockText(t); w != strings.TrimSpace(t) {
				c.LoadedTokens = count(w) // what the prompt writes (BlockText)
			}
			blocks = append(blocks, Block{Candidate: c, Text: t})
		}
		if lost {
			attempt--
			continue
		}
		blocks = sameAs(joinParts(blocks, count), cands)
		sel.Used = 0
		for _, c := range sel.Loaded {
			sel.Used += c.LoadedTokens
		}
		mf := manifest(sel.Loaded, sel.Relevant, notLoaded(cands), listed)
		// Counting the whole context is the query's largest cost, so add
		// up its parts: each block's size is known, and a part counted
		// alone never takes fewer tokens than inside the whole, since parts
		// meet at line breaks, where the pre-tokeniser splits (a line break
		// may only join the punctuation before it). The sum is an upper
		// bound; the whole is counted only when the bound is over budget.
		m, headers := countLines(count, mf), frameTokens(count, blocks)
		total := m + headers
		for _, bl := range blocks {
			total += bl.tokens()
		}
		if total > split.Context {
			total = count(ContextText(mf, "", blocks))
		}
		if total > split.Context && fitted != nil { // a refill took too much: what fitted stands
			restoreCandidates(cands, fittedState)
			return fitted, nil
		}
		if total > split.Context { // BPE merges at the seams: take a little more room
			if attempt < 4 && loadable > 0 {
				loadable = max(0, loadable-(total-split.Context)-8)
				continue
			}
			if len(sel.Loaded) == 0 {
				return nil, fmt.Errorf("could not fit the context into %d tokens (the manifest alone takes %d)", split.Context, count(mf))
			}
			loadable = max(0, sel.Used-sel.Loaded[len(sel.Loaded)-1].LoadedTokens-1)
			continue
		}
		if !unplaced && (total-sel.Used)*100 > split.Context*FramePercent && growable(cands) {
			// The frame takes more than its share while relevant text
			// is left out or loaded smaller: the headers leave out lines
			// and pages (some three tokens a block; the id still leads to
			// the place), and the room that frees goes to text.
			unplaced = true
			for _, c := range cands {
				c.Unplaced = true
			}
			overheads()
			continue
		}
		a := &Assembly{Split: split, Selection: sel, Manifest: mf, Blocks: blocks}
		if catalog != "" {
			// Optional: as many of its lines as fit both the budget and
			// the frame's share of it beside the manifest and the headers,
			// by the upper bound (an exact count of a full context costs
			// more than the catalog is worth).
			room := min(split.Context-total, split.Context*FramePercent/100-(total-sel.Used)) - 2
			if cat, n := fitLines(catalog, room, count); cat != "" {
				a.Catalog, total = cat, total+n+2
			}
		}
		a.Context = ContextText(mf, a.Catalog, blocks)
		a.Prompt = Prompt(system, a.Context, question)
		a.Split.Manifest = m
		a.Split.Loaded = sel.Used
		if a.Catalog != "" {
			a.Split.Catalog = count(a.Catalog)
		}
		// Headers and separators count as manifest overhead so the parts
		// add up to what was measured.
		a.Split.Manifest += total - m - a.Split.Loaded - a.Split.Catalog
		if a.Split.Manifest < m {
			a.Split.Manifest = m
		}
		a.Split.Free = split.Context - a.Split.Manifest - a.Split.Catalog - a.Split.Loaded
		if a.Split.Free < 0 {
			a.Split.Free = 0
		}
		// Refill: the selection was planned with sizes that are upper
		// bounds — summaries not made yet, every header at its longest
		// (blocks of one file share the file's name), the manifest naming
		// every node it might — and the measured context may leave room
		// that relevant nodes, left out or loaded smaller, could use. The
		// texts fetched now report their real sizes; select again, with the
		// room the headers and the manifest did not take added. If that no
		// longer fits, this assembly stands.
		if free := split.Context - total; refills < MaxRefills && free >= max(RefillMin, split.Context/50) && growable(cands) {
			// The selection charged each loaded node its header and its
			// text at its level; joined parts have no header of their own
			// and leave out what they repeat.
			slack := frame - m - headers
			for _, c := range sel.Loaded {
				slack += c.Overhead + c.tokensAt(c.Level) - c.LoadedTokens
			}
			refills++
			fitted, fittedState = a, saveCandidates(cands)
			loadable += max(0, min(slack, free))
			continue
		}
		if longer != nil && a.Split.Loaded <= longer.Split.Loaded {
			// The shorter list let no more text in: the longer stands.
			restoreCandidates(cands, longerState)
			return longer, nil
		}
		if longer == nil && unplaced && listed > ShortListed && (total-sel.Used)*100 > split.Context*FramePercent && growable(cands) {
			// Still over its share with the headers bare, and relevant
			// text left out: the manifest names only the best ShortListed
			// of the relevant nodes not loaded (the rest counted, a dozen
			// tokens fewer each), and the room goes to text. It stands if
			// more text loads.
			longer, longerState = a, saveCandidates(cands)
			was := frame
			listed = ShortListed
			frame = manifestFrame(listed)
			loadable += max(0, was-frame)
			continue
		}
		return a, nil
	}
}

// saveCandidates copies the candidates as an assembly left them (what
// Select decided, the sizes their texts reported), so that the assembly
// can stand after a later selection changed them.
func saveCandidates(cands []*Candidate) []Candidate {
	out := make([]Candidate, len(cands))
	for i, c := range cands {
		out[i] = *c
	}
	return out
}

func restoreCandidates(cands []*Candidate, saved []Candidate) {
	for i, c := range cands {
		*c = saved[i]
	}
}

// MaxRefills bounds how often Assemble selects again to use room the
// measured context left; RefillMin (or a fiftieth of the context, if more)
// is the least room worth it.
const (
	MaxRefills = 2
	RefillMin  = 24
)

// growable: a relevant (or pinned) candidate did not load, or loaded
// smaller than in full.
func growable(cands []*Candidate) bool {
	for _, c := range cands {
		if (c.Relevant || c.Pinned) && c.Unavailable == "" && (!c.Loaded || c.Level != Detailed) {
			return true
		}
	}
	return false
}

// notLoaded lists the relevant (or pinned) candidates that did not load,
// best first.
func notLoaded(cands []*Candidate) []*Candidate {
	var out []*Candidate
	for _, c := range cands {
		if (c.Relevant || c.Pinned) && !c.Loaded && c.Unavailable == "" {
			out = append(out, c)
		}
	}
	return out
}

// usageError is a bad request (as opposed to a failure).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// ErrorCode: a bad request.
func (e *usageError) ErrorCode() errs.Code { return errs.Invalid }

func errUsage(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// nodes is "node" or "nodes", as n asks.
func nodes(n int) string {
	if n == 1 {
		return "node"
	}
	return "nodes"
}
