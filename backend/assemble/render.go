package assemble

import (
	"errors"
	"fmt"
	"strings"

	"github.com/loomwork/loom/backend/errs"
)

// Manifest renders the header of seed §6.3, each node's line followed by
// where it comes from (its cite, when it has one):
//
//	[Context loaded: 3 of 7 relevant nodes]
//	[Node: OAuth token analysis | relevance: 0.92 | source: output | cite: auth.md#tokens L4–19]
//	[Additional context available but not loaded: 4 nodes]
func Manifest(loaded []*Candidate, relevant, notLoaded int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Context loaded: %d of %d relevant nodes]\n", len(loaded), max(relevant, len(loaded)))
	for _, c := range loaded {
		b.WriteString(manifestLine(c, c.Score))
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[Additional context available but not loaded: %d nodes]", notLoaded)
	return b.String()
}

// manifestLine is a loaded node's line of the manifest at a relevance
// (Assemble charges each node its line at 0.00, which counts the same).
func manifestLine(c *Candidate, relevance float64) string {
	line := fmt.Sprintf("[Node: %s | relevance: %.2f | source: %s", Clean(c.Title), relevance, c.Source)
	if c.Cite != "" {
		line += " | cite: " + Clean(c.Cite)
	}
	return line + "]"
}

// Clean keeps a title from breaking the manifest's one-line brackets.
func Clean(s string) string { return cleaner.Replace(strings.TrimSpace(s)) }

var cleaner = strings.NewReplacer("\n", " ", "\r", " ", "|", "/", "[", "(", "]", ")")

// BlockHeader introduces one loaded node in the context: its id first
// (what the model cites, and what the expand tool takes), its title, its
// source as a person finds it (the cite, else the reference) and its
// level:
//
//	[n-1a2b3c4d] notes/budget.md › Split — notes/budget.md#split L3–12
func BlockHeader(c *Candidate) string {
	src := c.Ref
	if c.Cite != "" {
		src = c.Cite
	}
	h := fmt.Sprintf("[%s] %s — %s", c.ID, Clean(c.Title), src)
	if c.Level != "" && c.Level != Detailed {
		h += " (" + string(c.Level) + ")"
	}
	return h
}

// Block is a loaded node's text at its level.
type Block struct {
	Candidate *Candidate
	Text      string
}

// ContextText joins the manifest, the catalog (may be "") and the blocks.
func ContextText(manifest, catalog string, blocks []Block) string {
	headers := make([]string, len(blocks))
	size := len(manifest) + 2 + len(catalog)
	for i, bl := range blocks {
		headers[i] = BlockHeader(bl.Candidate)
		size += 3 + len(headers[i]) + len(bl.Text)
	}
	var b strings.Builder
	b.Grow(size) // one allocation: the context is ~16 KB at a budget of 4,000
	b.WriteString(manifest)
	if catalog != "" {
		b.WriteString("\n\n")
		b.WriteString(catalog)
	}
	for i, bl := range blocks {
		b.WriteString("\n\n")
		b.WriteString(headers[i])
		b.WriteString("\n")
		b.WriteString(strings.TrimSpace(bl.Text))
	}
	return b.String()
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
		n += count(sameCount(line))
	}
	return n
}

// sameCount rewrites a manifest node line's relevance ("0.92") as "0.00":
// every value %.2f prints in [0, 1] is three tokens, so the count is the
// same and a memoising counter recognises the line from query to query.
func sameCount(line string) string {
	const key = " | relevance: "
	if !strings.HasPrefix(line, "[Node: ") {
		return line
	}
	i := strings.LastIndex(line, key)
	if i < 0 || len(line) < i+len(key)+4 {
		return line
	}
	v := line[i+len(key) : i+len(key)+4]
	if (v[0] != '0' && v[0] != '1') || v[1] != '.' || v[2] < '0' || v[2] > '9' || v[3] < '0' || v[3] > '9' {
		return line
	}
	return line[:i+len(key)] + "0.00" + line[i+len(key)+4:]
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
	// Each node costs its text plus its block header and manifest line;
	// the ones beyond what could load are charged the largest of those.
	most := 0
	inUpper := make(map[*Candidate]bool, len(upper))
	for _, c := range upper {
		c.Overhead = count(BlockHeader(c)) + count(manifestLine(c, 0)) + 6
		most = max(most, c.Overhead)
		inUpper[c] = true
	}
	for _, c := range cands {
		if (c.Relevant || c.Pinned) && !inUpper[c] {
			c.Overhead = max(most, 48)
		}
	}
	frame := count(Manifest(nil, relevant, relevant)) + 8
	loadable := split.Context - frame
	if loadable < 0 {
		return nil, errUsage("the context budget of %d tokens is smaller than the manifest (%d tokens): raise the budget", split.Context, frame)
	}
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
			blocks = append(blocks, Block{c, t})
		}
		if lost {
			attempt--
			continue
		}
		sel.Used = 0
		for _, c := range sel.Loaded {
			sel.Used += c.LoadedTokens
		}
		manifest := Manifest(sel.Loaded, sel.Relevant, sel.NotLoaded)
		// Counting the whole context is the query's largest cost, so add
		// up its parts: each block's size is known, and a part counted
		// alone never takes fewer tokens than inside the whole, since parts
		// meet at line breaks, where the pre-tokeniser splits (a line break
		// may only join the punctuation before it). The sum is an upper
		// bound; the whole is counted only when the bound is over budget.
		m := countLines(count, manifest)
		total := m
		for _, bl := range blocks {
			total += count(BlockHeader(bl.Candidate)) + bl.Candidate.LoadedTokens + 3
		}
		if total > split.Context {
			total = count(ContextText(manifest, "", blocks))
		}
		if total > split.Context { // BPE merges at the seams: take a little more room
			if attempt < 4 && loadable > 0 {
				loadable = max(0, loadable-(total-split.Context)-8)
				continue
			}
			if len(sel.Loaded) == 0 {
				return nil, fmt.Errorf("could not fit the context into %d tokens (the manifest alone takes %d)", split.Context, count(manifest))
			}
			loadable = max(0, sel.Used-sel.Loaded[len(sel.Loaded)-1].LoadedTokens-1)
			continue
		}
		a := &Assembly{Split: split, Selection: sel, Manifest: manifest, Blocks: blocks}
		if catalog != "" {
			// Optional: it joins when the upper bound says it fits (an
			// exact count of a full context costs more than the catalog is
			// worth).
			if withCat := total + count(catalog) + 2; withCat <= split.Context {
				a.Catalog, total = catalog, withCat
			}
		}
		a.Context = ContextText(manifest, a.Catalog, blocks)
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
		return a, nil
	}
}

// usageError is a bad request (as opposed to a failure).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// ErrorCode: a bad request.
func (e *usageError) ErrorCode() errs.Code { return errs.Invalid }

func errUsage(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }
