package abstract

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Extractive summarises without a model: it keeps the source's most central
// sentences, whole and in their order. It needs no network, gives the same
// answer for the same input on every run and is safe for concurrent use.
//
// The text is read as markdown: a list item or a table row is taken or left
// whole; heading markers, emphasis and link syntax go ("[x](y)" becomes
// "x"); code spans stay; fenced code is left out unless the text is nothing
// but code, in which case its first lines are the summary.
//
// Nothing ends on a colon or is only a header: a lead-in that ends with
// ":" (or says "the following") carries the gist of what it announces —
// a list's items by their labels or first words, a table's first cells,
// code's first line ("Levels depend on: Available budget; Belief
// importance") — and goes when it announces only more prose; a table's
// header row is replaced by its gist ("Table of Signal, Weight: Hop
// Distance; Staleness"); a unit that only repeats the heading is never
// taken; a heading is the summary only of a text that has nothing else.
//
// Each sentence is scored by its centrality (the sum of its term-frequency
// cosines with every other sentence, a TextRank without iterations), plus a
// bonus for leading the text or its paragraph, for sharing words with the
// heading and with Query and for a sentence that defines ("X is …"), less
// penalties for a fragment of a few words, for a nested list item and for
// text in code spans. A summary takes sentences
// best first, skipping any that would overflow maxTokens, and prints them in
// source order; a gist that does not fit may with fewer items. An essence
// is one of the best sentences that fits whole, favouring definitions over
// list items and table rows, after the heading when it fits with it
// ("Heading: sentence"), else the best one cut short with "…".
type Extractive struct {
	// Count measures maxTokens; required.
	Count Counter
	// Query, when set, favours sentences that share its words.
	Query string
	// Additive says that Count splits where a summary joins its units: for
	// a and b that neither start nor end with white space, "a b" counts as
	// "a" plus " b" and "a\nb" as "a\n" plus "b". cl100k_base's counter
	// (tokens.Default) does. A summary is then measured unit by unit
	// instead of counting every trial render whole; the result is the same.
	Additive bool
}

var _ Summarizer = Extractive{}

// ExtractiveID is the ID of Extractive. Its version changes whenever the
// same input would give a different summary, so cached ones are remade.
const ExtractiveID = "extractive/v5"

// Weights of the sentence score besides centrality, which runs from 0 to 1.
var (
	leadBonus      = []float64{0.3, 0.15, 0.05} // first, second and third unit of the text
	blockLeadBonus = 0.05                       // first unit of a paragraph, item or table
)

const (
	headingWeight   = 0.3
	queryWeight     = 1.0
	fragmentPenalty = 0.4
	fragmentWords   = 5 // fewer words than this make a fragment
	// nestedPenalty is taken per level of list nesting: an outer item is
	// the outline, its sub-items the detail.
	nestedPenalty = 0.3
	// codePenalty is taken in proportion to the share of a unit in code
	// spans: a signature is reference detail, a sentence about it the gist.
	codePenalty = 0.3
	// essenceMargin: an essence may take a lower-scored unit that fits
	// whole over cutting the best one, if it scores within this of the best.
	essenceMargin = 0.5
	// joinSlack is how many tokens joining units may add to the sum of their
	// own counts before a candidate is not worth measuring.
	joinSlack = 2
)

// ID returns "extractive/v5".
func (Extractive) ID() string { return ExtractiveID }

// Summarize returns the summary or essence of text in at most maxTokens
// tokens as measured by e.Count. A Summary of a text that already fits is
// the text itself.
func (e Extractive) Summarize(ctx context.Context, text string, level Level, maxTokens int) (string, error) {
	atLeast := 0
	if e.Additive && level == Summary {
		// Such a counter gives every run of non-space characters a token
		// at least (no piece joins two of them).
		atLeast = fieldCount(text, maxTokens+1)
	}
	answer, done, err := checkRequest(e.Count, text, level, maxTokens, atLeast)
	if err != nil {
		return "", fmt.Errorf("summarise with %s: %w", ExtractiveID, err)
	}
	if done {
		return answer, nil
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	d := readMarkdown(text)
	var out string
	switch {
	case len(d.units) > 0 && level == Essence:
		out = e.essence(d, maxTokens)
	case len(d.units) > 0:
		out = e.summary(d, maxTokens)
	case len(d.code) > 0:
		out = e.codeLines(d, level, maxTokens)
	case d.heading != "":
		// A heading is no summary of what is under it: the words under it
		// as they are (HTML, say), the heading only when nothing is.
		_, rest, _ := strings.Cut(strings.TrimSpace(text), "\n")
		if words := wordsOf(rest); words != "" {
			out = truncate(e.Count, words, maxTokens)
		} else {
			out = truncate(e.Count, d.heading, maxTokens)
		}
	default: // only HTML, rules or the like: the words as they are
		words := wordsOf(text)
		if words == "" {
			words = strings.Join(strings.Fields(text), " ")
		}
		out = truncate(e.Count, words, maxTokens)
	}
	out = noTrailingColon(e.Count, out, maxTokens)
	if out == "" {
		return "", fmt.Errorf("summarise with %s: not one character of the text fits in %d tokens", ExtractiveID, maxTokens)
	}
	return out, nil
}

// htmlTag is an HTML tag or comment, left out of a text's words.
var htmlTag = regexp.MustCompile(`<!--[\s\S]*?-->|</?[A-Za-z][^<>]*>`)

// wordsOf returns the words of a text that has no sentences (HTML, rules):
// its tags and rules gone, its white space collapsed; "" when nothing is
// left.
func wordsOf(text string) string {
	var words []string
	for _, w := range strings.Fields(htmlTag.ReplaceAllString(text, " ")) {
		if strings.Trim(w, "-*_=|") != "" {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// scores rates every unit of d; higher is more worth keeping.
func (e Extractive) scores(d document) []float64 {
	size := 0
	for _, u := range d.units {
		size += len(u.text)
	}
	// Sized for a new term in every ten bytes or so, and a term in every
	// six.
	vocab := vocabulary{ids: make(map[string]int32, size/10), all: make([]int32, 0, size/6)}
	words := make([][]int32, len(d.units))
	for i, u := range d.units {
		words[i] = vocab.termIDs(u.scored())
	}
	heading, query := vocab.termIDs(d.heading), vocab.termIDs(e.Query)
	return combine(d, centrality(vectorsOf(words)), heading, query, words, overlap)
}

// centrality is each unit's summed cosine to every other unit.
func centrality(vectors []termVector) []float64 {
	c := make([]float64, len(vectors))
	for i := range vectors {
		for j := i + 1; j < len(vectors); j++ {
			cos := cosine(vectors[i], vectors[j])
			c[i] += cos
			c[j] += cos
		}
	}
	return c
}

// combine rates each unit from its centrality (relative to the most
// central), its place, its overlap with the heading's and the question's
// terms, and penalties for fragments, nesting and code. It is generic in
// the terms' type so that the test's string version shares it.
func combine[T any](d document, central []float64, heading, query []T, words [][]T, overlap func(want, have []T) float64) []float64 {
	most := slices.Max(central)
	scores := make([]float64, len(d.units))
	for i, u := range d.units {
		s := 0.0
		if most > 0 {
			s = central[i] / most
		}
		if i < len(leadBonus) {
			s += leadBonus[i]
		}
		if u.opensBlock {
			s += blockLeadBonus
		}
		s += headingWeight*overlap(heading, words[i]) + queryWeight*overlap(query, words[i])
		if wordCount(u.text) < fragmentWords || len(words[i]) < 2 {
			s -= fragmentPenalty
		}
		if defines(u) {
			s += definitionBonus
		}
		s -= nestedPenalty*float64(u.depth) + codePenalty*u.codeShare
		scores[i] = s
	}
	return scores
}

// wordCount counts the words of s, not the pipes of a table row.
func wordCount(s string) int {
	n, counted := 0, false // counted: this field has been counted
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return wordCountUnicode(s)
		case c == ' ' || c >= '\t' && c <= '\r':
			counted = false
		case !counted && isASCIIWordByte(c):
			n++
			counted = true
		}
	}
	return n
}

func wordCountUnicode(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// fieldCount counts the runs of non-space characters in s (as
// strings.Fields splits it), stopping at limit.
func fieldCount(s string, limit int) int {
	n, in := 0, false
	for _, r := range s {
		space := unicode.IsSpace(r)
		if !space && !in {
			if n++; n >= limit {
				return n
			}
		}
		in = !space
	}
	return n
}

// ranked returns unit indexes best first; ties go to the earlier unit.
func ranked(scores []float64) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	return order
}

// summary takes units best first while they fit — a unit that would
// overflow is skipped and a smaller one may still fit — and renders them in
// source order.
func (e Extractive) summary(d document, maxTokens int) string {
	scores := e.scores(d)
	order := ranked(scores)
	// A unit with a gist that does not fit may still fit with fewer of
	// its items: units is d's, with such a unit shortened in place.
	units := d.units
	m := newMeasure(e.Count, units, e.Additive)
	var chosen []int
	used := 0
	for _, i := range order {
		if len(chosen) > 0 && scores[i] <= 0 {
			break // fragments only pad a summary that has something
		}
		if !standsAlone(d, i) || coveredBy(d.units[i], units, chosen) {
			continue
		}
		at, _ := slices.BinarySearch(chosen, i)
		candidate := slices.Insert(slices.Clone(chosen), at, i)
		variants := shortened(d.units[i])
		for k, text := range variants {
			if k > 0 {
				if k == 1 {
					units = slices.Clone(units)
					m.units = units
				}
				units[i].text = text
				m.counts[i] = [4]int{-1, -1, -1, -1}
			}
			if m.over(i, maxTokens+joinSlack-used) {
				continue
			}
			if n := m.rendered(candidate); n <= maxTokens {
				chosen, used = candidate, n
				break
			}
		}
		if len(variants) > 1 && !slices.Contains(chosen, i) {
			units[i].text = d.units[i].text
			m.counts[i] = [4]int{-1, -1, -1, -1}
		}
	}
	if len(chosen) == 0 {
		return truncate(e.Count, d.units[firstStanding(d, order)].piece(), maxTokens)
	}
	return render(units, chosen)
}

// standsAlone reports whether unit i may be a summary's or essence's
// last word: not a lead-in that lost what it announces, not only the
// heading again.
func standsAlone(d document, i int) bool {
	text := strings.TrimSpace(d.units[i].text)
	if introduces(text) {
		return false
	}
	bare := strings.ToLower(strings.TrimRight(text, ".:…"))
	return d.heading == "" || bare != strings.ToLower(d.heading) && bare != strings.ToLower(essenceHeading(d.heading))
}

// coveredBy reports whether a list item or table row is already named by
// the gist of a chosen unit, so that taking it would only repeat that.
func coveredBy(u unit, units []unit, chosen []int) bool {
	if u.kind != listItem && u.kind != tableRow || len(strings.Fields(strings.Trim(u.text, "| "))) > gistWords {
		return false // the gist names it only in part
	}
	lead := itemLead(u.text)
	if u.kind == tableRow {
		lead = strings.TrimSpace(strings.Split(strings.Trim(u.text, "| "), " | ")[0])
	}
	lead = strings.TrimSuffix(lead, ellipsis)
	if wordCount(lead) == 0 {
		return false
	}
	for _, c := range chosen {
		if g := units[c]; g.gistAt > 0 && g.gistAt <= len(g.text) && strings.Contains(g.text[g.gistAt:], lead) {
			return true
		}
	}
	return false
}

// firstStanding is the first of order that stands alone, else order[0].
func firstStanding(d document, order []int) int {
	for _, i := range order {
		if standsAlone(d, i) {
			return i
		}
	}
	return order[0]
}

// noTrailingColon ends a result that still ends on a colon (a text that is
// nothing but a lead-in) with "…" instead, or without it when that does
// not fit.
func noTrailingColon(count Counter, out string, maxTokens int) string {
	if !strings.HasSuffix(out, ":") {
		return out
	}
	trimmed := strings.TrimRight(out, ": ")
	if trimmed == "" {
		return out
	}
	if with := trimmed + ellipsis; count(with) <= maxTokens {
		return with
	}
	return trimmed
}

// measure counts the tokens of renders of a document's units without
// counting each whole render again. An Additive counter's pre-tokenisation
// (cl100k's) never runs a piece across a space or out of a line break into
// a word, so a render's count is the sum of its units' counts each taken
// with the space before it (a sentence after a sentence) and the line
// break after it (before an item or a row). A unit that starts or ends
// with white space breaks that rule; then, as with any other counter,
// every render is counted whole. TestMeasureCountsRenders checks the rule
// on random renders.
type measure struct {
	count    Counter
	units    []unit
	additive bool
	whole    bool
	// counts[i][k]: unit i alone (k=0), after a space (1), before a line
	// break (2), both (3); -1 when not yet counted.
	counts [][4]int
}

func newMeasure(count Counter, units []unit, additive bool) *measure {
	m := &measure{count: count, units: units, additive: additive, whole: !additive, counts: make([][4]int, len(units))}
	for i, u := range units {
		m.counts[i] = [4]int{-1, -1, -1, -1}
		p := u.piece()
		first, _ := utf8.DecodeRuneInString(p)
		last, _ := utf8.DecodeLastRuneInString(p)
		if p == "" || unicode.IsSpace(first) || unicode.IsSpace(last) {
			m.whole = true
		}
	}
	return m
}

// over reports whether unit i by itself counts more than room tokens. An
// Additive counter gives each run of non-space characters a token at
// least, so a unit with more words than room is over without counting it
// (most units, once a summary is nearly full).
func (m *measure) over(i, room int) bool {
	if m.additive && fieldCount(m.units[i].piece(), room+1) > room {
		return true
	}
	return m.at(i, 0) > room
}

func (m *measure) at(i, k int) int {
	if n := m.counts[i][k]; n >= 0 {
		return n
	}
	p := m.units[i].piece()
	if k&1 != 0 {
		p = " " + p
	}
	if k&2 != 0 {
		p += "\n"
	}
	n := m.count(p)
	m.counts[i][k] = n
	return n
}

// rendered is the count of render(m.units, chosen).
func (m *measure) rendered(chosen []int) int {
	if m.whole {
		return m.count(render(m.units, chosen))
	}
	n := 0
	for k, i := range chosen {
		variant := 0
		if k > 0 && joinsWithSpace(m.units, chosen[k-1], i) {
			variant |= 1
		}
		if k+1 < len(chosen) && !joinsWithSpace(m.units, i, chosen[k+1]) {
			variant |= 2
		}
		n += m.at(i, variant)
	}
	return n
}

// joinsWithSpace reports whether render puts a space (not a line break)
// between units a and b.
func joinsWithSpace(units []unit, a, b int) bool {
	return units[a].kind == sentence && units[b].kind == sentence
}

// render joins the chosen units (indexes ascending): sentences run on with
// spaces, list items and table rows stand on lines of their own.
func render(units []unit, chosen []int) string {
	var b strings.Builder
	for k, i := range chosen {
		if k > 0 {
			if joinsWithSpace(units, chosen[k-1], i) {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(units[i].piece())
	}
	return b.String()
}

// essence returns one line: among the units scoring close to the best,
// the best that fits whole after the heading ("Heading: sentence"), else
// the best that fits whole alone, else the best one cut short with "…".
func (e Extractive) essence(d document, maxTokens int) string {
	scores := e.scores(d)
	for i, u := range d.units {
		scores[i] += essenceBonus(u)
		if !standsAlone(d, i) {
			scores[i] -= 10 // only when nothing else is left
		}
	}
	order := ranked(scores)
	var close []int
	for _, i := range order {
		if scores[i] < scores[order[0]]-essenceMargin {
			break
		}
		close = append(close, i)
	}
	head := essenceHeading(d.heading)
	if head != "" {
		for _, i := range close {
			for _, text := range shortened(d.units[i]) {
				if line := head + ": " + text; e.Count(line) <= maxTokens {
					return line
				}
			}
		}
	}
	for _, i := range close {
		for _, text := range shortened(d.units[i]) {
			if e.Count(text) <= maxTokens {
				return text
			}
		}
	}
	best := d.units[order[0]].text
	if head != "" && e.Count(head) <= maxTokens/2 {
		// Keep the heading only if a few words of the sentence fit after it.
		line := endOnAWord(truncate(e.Count, head+": "+best, maxTokens))
		if len(strings.Fields(line)) >= len(strings.Fields(head))+3 {
			return line
		}
	}
	return endOnAWord(truncate(e.Count, best, maxTokens))
}

// Essence weights: a section's point is most often a sentence that defines
// or states ("X is …", "X consists of …"); a table row is one entry of
// many, a list item one step or member.
// A definition earns definitionBonus in every score; in an essence a row,
// an item or a table's gist loses its penalty.
const (
	definitionBonus = 0.2
	rowPenalty      = 0.5
	gistPenalty     = 0.5
	itemPenalty     = 0.15
)

// definition matches a sentence that says what its subject is or does as
// a whole, within its first few words.
var definition = regexp.MustCompile(`^(\S+\s+){0,7}?(is|are|means|refers to|consists of|contains|holds|defines|describes|represents|proposes|provides|validates?|needs?|should be|must be)\s`)

// defines reports whether u is a sentence that states what its subject is,
// a subject named and not referred to ("They are …" restates).
func defines(u unit) bool {
	if u.kind != sentence || !definition.MatchString(u.text) {
		return false
	}
	first, _, _ := strings.Cut(u.text, " ")
	return !pronouns[strings.ToLower(first)]
}

var pronouns = map[string]bool{"it": true, "they": true, "this": true, "these": true, "that": true, "those": true, "he": true, "she": true, "we": true}

// essenceBonus adjusts a unit's summary score for the essence.
func essenceBonus(u unit) float64 {
	switch u.kind {
	case tableRow:
		return -rowPenalty
	case tableGist:
		return -gistPenalty
	case listItem:
		return -itemPenalty * float64(1+u.depth)
	}
	return 0
}

// shortened returns a unit's text and, when it carries a gist, the text
// with the gist cut to fewer items ("lead-in: a; b…"), longest first.
func shortened(u unit) []string {
	out := []string{u.text}
	if u.gistAt <= 0 || u.gistAt > len(u.text) {
		return out
	}
	lead, items := u.text[:u.gistAt], strings.Split(strings.TrimSuffix(u.text[u.gistAt:], "."), "; ")
	for k := len(items) - 1; k >= 1; k-- {
		out = append(out, lead+strings.TrimSuffix(strings.Join(items[:k], "; "), ellipsis)+ellipsis)
	}
	return out
}

// sectionNumber is a heading's leading number, as in "6.2 Loading Decision
// Tree", which says nothing in an essence.
var sectionNumber = regexp.MustCompile(`^(\d+\.)*\d+\.?\s+`)

func essenceHeading(heading string) string {
	return strings.TrimSpace(sectionNumber.ReplaceAllString(heading, ""))
}

// codeLines summarises a text that is only code (and perhaps a heading) by
// its first lines; its essence is the first non-blank line.
func (e Extractive) codeLines(d document, level Level, maxTokens int) string {
	lines := d.code
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return truncate(e.Count, d.heading, maxTokens)
	}
	if level == Essence {
		first := strings.TrimSpace(lines[0])
		if head := essenceHeading(d.heading); head != "" {
			if line := head + ": " + first; e.Count(line) <= maxTokens {
				return line
			}
		}
		return truncate(e.Count, first, maxTokens)
	}
	out := ""
	for k := range lines {
		candidate := strings.TrimRight(strings.Join(lines[:k+1], "\n"), " \t\n")
		if e.Count(candidate) > maxTokens {
			break
		}
		out = candidate
	}
	if out == "" {
		return truncate(e.Count, lines[0], maxTokens)
	}
	return out
}
