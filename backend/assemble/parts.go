package assemble

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/loomwork/loom/backend/model"
)

// A long section is stored in parts, each repeating the end of the one
// before it (ingest's overlap), so that a part read alone keeps its
// context. When adjacent parts of one section load in full, the context
// reads them as one block: one header naming every part's id, their lines
// (or pages) from the first's start to the last's end, and the text once:
//
//	[tdaco, imkn] method Session.__init__ · L442–503
//
// The header says "parts 2–3/5" when the block is not the whole section.
// Parts loaded as summaries (or as essences) are one block too, under one
// header, each part's summary after the one before: "[tdac, imkn,
// rdhl] method Client.do parts 1, 2, 4/4 · L580–790 · summary".
// Parts at different levels (a summary beside the full text of the part
// before it) keep their own blocks, but in part order, and a block that
// goes on from the part before it names only its part: "[rdhlcu] part
// 3/5 · L504–530 · summary" (a header writes the part marks of titles and
// of partsMark without their brackets: bareParts).

// joinParts joins, in blocks (load order), each run of adjacent parts of
// one section loaded in full into the block of its first part. The parts
// after the first are the block's Joined; each one's LoadedTokens becomes
// what it adds (count of its text less what the part before it already
// said). Then the blocks of one section's parts, at whatever level, go
// together in part order, where the first of them loaded (placeParts).
func joinParts(blocks []Block, count Counter) []Block {
	type key struct{ doc, ref string }
	at := map[key]map[int]int{} // section → part → index in blocks
	for i, bl := range blocks {
		c := bl.Candidate
		if !joinable(c) {
			continue
		}
		k := key{c.Document, c.Ref}
		if at[k] == nil {
			at[k] = map[int]int{}
		}
		at[k][c.Part] = i
	}
	joins := false
	for _, parts := range at {
		for p := range parts {
			if _, ok := parts[p+1]; ok {
				joins = true
			}
		}
	}
	if !joins {
		return joinAbstracts(placeParts(blocks), count)
	}
	out := make([]Block, 0, len(blocks))
	done := make([]bool, len(blocks))
	for i, bl := range blocks {
		if done[i] {
			continue
		}
		c := bl.Candidate
		if !joinable(c) {
			out = append(out, bl)
			continue
		}
		parts := at[key{c.Document, c.Ref}]
		first := c.Part
		for _, ok := parts[first-1]; ok; _, ok = parts[first-1] {
			first--
		}
		last := c.Part
		for _, ok := parts[last+1]; ok; _, ok = parts[last+1] {
			last++
		}
		if first == last {
			out = append(out, bl)
			continue
		}
		head := blocks[parts[first]]
		joined := Block{Candidate: head.Candidate, Text: head.Text}
		done[parts[first]] = true
		for p := first + 1; p <= last; p++ {
			j := parts[p]
			done[j] = true
			next := blocks[j]
			sep, repeats := between(blocks[parts[p-1]].Candidate, next.Candidate)
			text, added := joinText(joined.Text, next.Text, sep, repeats)
			joined.Text = text
			joined.Joined = append(joined.Joined, next.Candidate)
			next.Candidate.LoadedTokens = count(added)
			next.Candidate.Reason += fmt.Sprintf("; read on from part %d, in its block", p-1)
		}
		out = append(out, joined)
	}
	return joinAbstracts(placeParts(out), count)
}

// joinAbstracts joins, in blocks (placeParts' order, a section's parts
// together in part order), each run of parts of one section loaded at the
// same smaller level (summary or essence) into one block: one header
// naming every part's id, in part order, and "parts 1, 2, 4/6"; their
// texts one after the other, a blank line between parts that follow each
// other and a "…" line where parts were left out. A summary is its part's
// own, so there is nothing repeated to leave out; what the block saves is
// the header each part would have had. Each joined part's LoadedTokens
// becomes what it adds, its separator with it.
func joinAbstracts(blocks []Block, count Counter) []Block {
	out := make([]Block, 0, len(blocks))
	for _, bl := range blocks {
		if n := len(out); n > 0 && abstractRun(out[n-1], bl) {
			head := &out[n-1]
			last := head.lastPart()
			sep := "\n\n"
			if bl.Candidate.Part > last.Part+1 {
				sep = "\n\n…\n\n"
			}
			text := strings.TrimSpace(BlockText(bl.Text))
			head.Text = strings.TrimRight(head.Text, " \t\r\n") + sep + text
			head.Joined = append(head.Joined, bl.Candidate)
			bl.Candidate.LoadedTokens = count(sep + text)
			bl.Candidate.Reason += fmt.Sprintf("; read after part %d, in its block", last.Part)
			continue
		}
		out = append(out, bl)
	}
	return out
}

// abstractRun: block b is a later part of a's section, at a's level, which
// is a summary or an essence.
func abstractRun(a, b Block) bool {
	x, y := a.Candidate, b.Candidate
	if l := x.Level; l != Summary && l != Essence || y.Level != l || x.Parts <= 1 || x.Document == "" {
		return false
	}
	return y.Document == x.Document && y.Ref == x.Ref && y.Parts == x.Parts && y.Part > a.lastPart().Part
}

// lastPart is the block's last node: its own, or the last part joined to it.
func (bl Block) lastPart() *Candidate {
	if len(bl.Joined) > 0 {
		return bl.Joined[len(bl.Joined)-1]
	}
	return bl.Candidate
}

// placeParts puts the blocks of one section's parts (at any level) together,
// in part order, where the first of them to load was, so that a section
// reads in order; a block that goes on from the one before it is headed by
// its part alone (groupHeader).
func placeParts(blocks []Block) []Block {
	type key struct{ doc, ref string }
	of := func(bl Block) (key, bool) {
		c := bl.Candidate
		return key{c.Document, c.Ref}, c.Parts > 1 && c.Document != ""
	}
	sections := map[key][]Block{}
	for _, bl := range blocks {
		if k, ok := of(bl); ok {
			sections[k] = append(sections[k], bl)
		}
	}
	if len(sections) == 0 {
		return blocks
	}
	out := make([]Block, 0, len(blocks))
	for _, bl := range blocks {
		k, ok := of(bl)
		if !ok {
			out = append(out, bl)
			continue
		}
		if parts, first := sections[k]; first {
			slices.SortStableFunc(parts, func(a, b Block) int { return a.Candidate.Part - b.Candidate.Part })
			out = append(out, parts...)
			delete(sections, k)
		}
	}
	return out
}

// continues: block b is the part of a's section right after a's last.
func continues(a, b Block) bool {
	x, y := a.Candidate, b.Candidate
	if y.Parts <= 1 || x.Document != y.Document || x.Ref != y.Ref || x.Parts != y.Parts {
		return false
	}
	return y.Part == a.lastPart().Part+1
}

// joinable: a part of a long section, loaded in full.
func joinable(c *Candidate) bool {
	return c.Parts > 1 && c.Part >= 1 && c.Level == Detailed && c.Document != ""
}

// joinText is a's text followed by b's, without the start of b that repeats
// a's end (looked for only when b may repeat it); added is what b adds.
// When b repeats nothing, sep comes between.
func joinText(a, b, sep string, repeats bool) (joined, added string) {
	a = strings.TrimRight(a, " \t\r\n")
	b = strings.TrimLeft(b, "\r\n")
	n := 0
	if repeats {
		n = overlap(a, b)
	}
	if n == 0 {
		added = sep + b
	} else {
		added = b[n:]
	}
	return a + added, added
}

// between says how part b's text follows part a's: sep is what comes
// between them when b repeats nothing of a (a line break where b's lines go
// straight on from a's, code cut between two lines; a blank line, a
// paragraph break, otherwise), and repeats whether b may start with a's
// end: not when b's lines start after a's last.
func between(a, b *Candidate) (sep string, repeats bool) {
	x, y := span.FindStringSubmatch(location(a)), span.FindStringSubmatch(location(b))
	if x == nil || y == nil || x[1] != "L" || y[1] != "L" {
		return "\n\n", true
	}
	end := x[3]
	if end == "" {
		end = x[2]
	}
	last, _ := strconv.Atoi(end)
	start, _ := strconv.Atoi(y[2])
	switch {
	case start <= last:
		return "\n", true
	case start == last+1:
		return "\n", false
	}
	return "\n\n", false
}

// overlap is the length of the longest end of a that b starts with, where
// that end starts a line (its indent aside) or a sentence in a, and b goes
// on from it at a space or a line break (or ends): what ingest repeated.
// Ends shorter than minOverlap bytes are taken for chance, not repetition.
func overlap(a, b string) int {
	for p := max(0, len(a)-maxOverlap); p < len(a); p++ {
		n := len(a) - p
		if n < minOverlap {
			break
		}
		if !startsUnit(a, p) || !strings.HasPrefix(b, a[p:]) {
			continue
		}
		if n == len(b) || strings.ContainsRune(" \t\r\n", rune(b[n])) {
			return n
		}
	}
	return 0
}

// startsUnit: position p of s starts a line, the text after a line's indent,
// or a sentence.
func startsUnit(s string, p int) bool {
	if p == 0 || s[p-1] == '\n' {
		return true
	}
	if s[p] == ' ' || s[p] == '\t' {
		return false
	}
	i := p - 1
	for i >= 0 && (s[i] == ' ' || s[i] == '\t') {
		i--
	}
	switch {
	case i < 0 || s[i] == '\n':
		return true
	case i < p-1:
		return strings.ContainsRune(".!?:;", rune(s[i]))
	}
	return false
}

// How far back the repeated end of a part may start, and the least of it
// taken for repetition.
const (
	maxOverlap = 8 << 10
	minOverlap = 12
)

// joinedHeader is what the header of a block of joined parts is made from:
// its first part with the ids of all, the title's part mark for the run
// ("" when the run is the whole section), and the location from the first
// part's start to the last part's end.
func joinedHeader(bl Block) *Candidate {
	c := *bl.Candidate
	last := bl.lastPart()
	ids := []string{bl.Candidate.short()}
	for _, j := range bl.Joined {
		ids = append(ids, j.short())
		if c.Stale == "" {
			c.Stale = j.Stale
		}
	}
	c.ShortID = strings.Join(ids, ", ")
	if loc := model.PartSuffix.FindStringIndex(c.Title); loc != nil {
		c.Title = c.Title[:loc[0]] + partsMark(append([]*Candidate{bl.Candidate}, bl.Joined...))
	}
	from, to := location(bl.Candidate), location(last)
	c.Cite = c.Document + " " + joinSpans(from, to)
	return &c
}

// span is a location's lines or pages: "L3–12", "L7", "p. 4–5".
var span = regexp.MustCompile(`^(L|p\. )(\d+)(?:–(\d+))?$`)

// joinSpans is the location from from's start to to's end when both are
// lines or both pages; otherwise from.
func joinSpans(from, to string) string {
	f, t := span.FindStringSubmatch(from), span.FindStringSubmatch(to)
	if f == nil || t == nil || f[1] != t[1] {
		return from
	}
	end := t[3]
	if end == "" {
		end = t[2]
	}
	if f[2] == end {
		return from
	}
	return f[1] + f[2] + "–" + end
}

// sectionsOf groups cands (best first) by section: the parts of one long
// section together, in part order, where its best part is; every other
// candidate alone. The manifest names a section's parts left out as one.
func sectionsOf(cands []*Candidate) [][]*Candidate {
	type key struct{ doc, ref string }
	var out [][]*Candidate
	at := map[key]int{}
	for _, c := range cands {
		if c.Parts <= 1 || c.Document == "" {
			out = append(out, []*Candidate{c})
			continue
		}
		k := key{c.Document, c.Ref}
		if i, ok := at[k]; ok {
			out[i] = append(out[i], c)
			continue
		}
		at[k] = len(out)
		out = append(out, []*Candidate{c})
	}
	for _, g := range out {
		slices.SortFunc(g, func(a, b *Candidate) int { return a.Part - b.Part })
	}
	return out
}

// partsMark says which parts of a section a group of them is: " (parts
// 2–3/5)", " (parts 1, 3/5)", " (part 2/5)"; "" for all of them.
func partsMark(group []*Candidate) string {
	first, last := group[0], group[len(group)-1]
	switch {
	case len(group) == first.Parts:
		return ""
	case len(group) == 1:
		return model.PartMark(first.Part, first.Parts)
	}
	if last.Part-first.Part+1 == len(group) {
		return fmt.Sprintf(" (parts %d–%d/%d)", first.Part, last.Part, first.Parts)
	}
	nums := make([]string, len(group))
	for i, c := range group {
		nums[i] = strconv.Itoa(c.Part)
	}
	return fmt.Sprintf(" (parts %s/%d)", strings.Join(nums, ", "), first.Parts)
}
