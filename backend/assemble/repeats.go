package assemble

import (
	"fmt"
	"strings"
	"unicode"
)

// The same text is often in a library more than once: a paper as its
// preprint and as published, a man page's options on every command's page,
// a note copied into two vaults, a docs site's versions side by side.
// Loading each copy spends the budget on what the model has already read,
// so a relevant node whose text repeats a better-ranked one's is not
// loaded; the block of the one that is says where else the text is:
//
//	[deheep] commands/cargo-build.md › Manifest Options · L342–361 · also in cargo-run.md, cargo-bench.md and 6 more

// Repeats are told apart in two steps: their vectors are at least
// RepeatCosine alike (cheap, every relevant pair), then their texts share
// at least RepeatShare of their word triples (read only for those pairs).
// Texts of fewer than RepeatWords words are never repeats: short ones
// (a one-line method, a heading's sentence) look alike without being the
// same.
const (
	RepeatCosine = 0.95
	RepeatShare  = 0.8
	RepeatWords  = 20
)

// markRepeats marks each relevant candidate whose text repeats that of a
// better-ranked relevant one (cands are in rank order): its Repeats is the
// id of the first of them, and it is no longer relevant (what it says is
// counted once, where it loads; its Reason says whose text it repeats).
// With near set (the context is larger than RelevanceBudget, so candidates
// near the question may load: Select's step 6) those are compared too, and
// one that repeats a better-ranked node stays out (Select skips it). A
// pinned node is never marked (it loads whatever it repeats), but a node
// that repeats it is; parts of one section and nodes whose text cannot be
// read are left as they are. Marks from an earlier call are undone first.
func markRepeats(cands []*Candidate, text TextFunc, near bool) {
	var kept []*Candidate
	shingles := map[*Candidate]map[string]bool{}
	read := func(c *Candidate) map[string]bool {
		if s, ok := shingles[c]; ok {
			return s
		}
		t, err := text(c, Detailed)
		var s map[string]bool
		if err == nil {
			s = triples(t)
		}
		shingles[c] = s
		return s
	}
	for _, c := range cands {
		if c.Repeats != "" { // a near candidate keeps Near when marked; a relevant one is never near
			c.Relevant, c.Repeats, c.repeated = !c.Near, "", nil
		}
		if c.Pinned && len(c.Vec) > 0 { // it loads whatever it repeats: first
			kept = append(kept, c)
		}
	}
	for _, c := range cands {
		if len(c.Vec) == 0 || !(c.Relevant || near && c.Near) || c.Pinned {
			continue
		}
		for _, k := range kept {
			if k.Ref == c.Ref && k.Document == c.Document || cosine(k.Vec, c.Vec) < RepeatCosine {
				continue
			}
			a, b := read(k), read(c)
			if a != nil && b != nil && resemblance(a, b) >= RepeatShare {
				c.Repeats, c.repeated, c.Relevant = k.ID, k, false // Near stays: it says which it was
				break
			}
		}
		if c.Repeats == "" {
			kept = append(kept, c)
		}
	}
}

// triples are a text's runs of three words (lower case, letters and digits),
// nil when it has fewer than RepeatWords words.
func triples(text string) map[string]bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) < RepeatWords {
		return nil
	}
	out := make(map[string]bool, len(words))
	for i := 2; i < len(words); i++ {
		out[words[i-2]+" "+words[i-1]+" "+words[i]] = true
	}
	return out
}

// resemblance is the share of two sets' members they have in common
// (Jaccard).
func resemblance(a, b map[string]bool) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	both := 0
	for s := range a {
		if b[s] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}

// alsoIn says where else a block's text is: the documents (or, in its own
// document, the locations) of the nodes that repeat it, the first two named
// and the rest counted.
func alsoIn(c *Candidate, same []*Candidate) string {
	if len(same) == 0 {
		return ""
	}
	var names []string
	seen := map[string]bool{}
	for _, s := range same {
		n := s.Document
		if n == "" || n == c.Document { // in its own document: the node's title and lines
			n = strings.TrimSpace(clipWords(ownTitle(s), ListedWords) + " " + location(s))
		}
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, Clean(n))
		}
	}
	switch {
	case len(names) == 0:
		return ""
	case len(names) == 1:
		return "also in " + names[0]
	case len(names) == 2:
		return "also in " + names[0] + " and " + names[1]
	}
	return fmt.Sprintf("also in %s, %s and %d more", names[0], names[1], len(names)-2)
}

// sameAs gives each block the candidates whose text repeats its own.
func sameAs(blocks []Block, cands []*Candidate) []Block {
	at := map[string]int{}
	for i, bl := range blocks {
		at[bl.Candidate.ID] = i
		for _, c := range bl.Joined { // a part read in another part's block
			at[c.ID] = i
		}
	}
	for _, c := range cands {
		if i, ok := at[c.Repeats]; ok && c.Repeats != "" {
			blocks[i].Same = append(blocks[i].Same, c)
		}
	}
	return blocks
}

// repeatsWhat names the node c repeats: "[id] title".
func (c *Candidate) repeatsWhat() string {
	if c.repeated == nil {
		return "[" + c.Repeats + "]"
	}
	return "[" + c.repeated.short() + "] " + clipWords(Clean(c.repeated.Title), ListedWords)
}
