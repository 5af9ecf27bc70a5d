package assemble

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Candidate is one content node considered for a question: what the engine
// knows about it, its signals and score, and what the selector decided.
type Candidate struct {
	ID string `json:"id"`
	// ShortID is how the prompt writes ID: its shortest prefix no other
	// candidate of the question shares (set by Assemble; see ShortIDs).
	ShortID string `json:"short_id,omitempty"`
	Ref     string `json:"reference"`
	// Cite is the reference a person can follow outside Loom (model.Cite:
	// the file and its lines, pages or section); the prompt names the
	// node's source by it. "" falls back to Ref.
	Cite string `json:"cite,omitempty"`
	// Ancestors are the references of the sections enclosing this one.
	Ancestors  []string `json:"ancestors,omitempty"`
	Title      string   `json:"title"`
	Document   string   `json:"document"`
	Collection string   `json:"collection"`
	// Source is the provenance class: input, output or analysis.
	Source string `json:"source"`
	// Tokens is the detailed (full) size.
	Tokens int `json:"tokens"`
	// Part and Parts say which part of a long section the node is (the
	// section was cut into Parts chunks; 0 when it was not): adjacent parts
	// loaded in full read as one block (joinParts).
	Part, Parts int `json:"-"`
	// SummaryTokens, EssenceTokens and ChunkTokens are the sizes of the
	// other levels (made or, for summaries not made yet, their upper
	// bound); 0 means the level is not offered.
	SummaryTokens int  `json:"summary_tokens,omitempty"`
	EssenceTokens int  `json:"essence_tokens,omitempty"`
	ChunkTokens   int  `json:"chunk_tokens,omitempty"`
	SummaryCached bool `json:"summary_cached,omitempty"`
	// Keyword and Cosine are the raw search scores; Hops the edges from the
	// query's best concepts (−1: unreachable).
	Keyword float64 `json:"keyword"`
	Cosine  float64 `json:"cosine"`
	Hops    int     `json:"hops"`
	Signals Signals `json:"signals"`
	Score   float64 `json:"score"`
	// Relevance is what the relevance decisions compare (Rank's cut, and
	// the query's rules for code): Score with the size signal taken at
	// RelevanceBudget instead of the question's budget, so that whether a
	// node is relevant does not depend on the budget; the budget decides
	// only what of the relevant loads (set by Rank).
	Relevance float64 `json:"-"`
	Pinned    bool    `json:"pinned,omitempty"`
	// Relevant: above the relevance cut (counted in the manifest).
	Relevant bool `json:"relevant"`
	// AfterDrop: above the cut, but after the clear drop in relevance that
	// ends the relevant set (Rank's gap rule).
	AfterDrop bool `json:"-"`
	// Definition: a definition in source code (the code rules of Rank
	// apply: Config.CodeCut and OtherFileCut); Document is its file.
	Definition bool `json:"-"`
	// Near: not relevant, but above the background (Rank): what a context
	// larger than RelevanceBudget takes next, in what it has beyond it
	// (Select).
	Near bool `json:"-"`
	// The decision.
	Loaded       bool   `json:"loaded"`
	Level        Level  `json:"level,omitempty"`
	LoadedTokens int    `json:"loaded_tokens,omitempty"`
	Reason       string `json:"reason"`
	// Unavailable says why the node's text cannot be read (set by
	// Assemble when fetching it failed with errs.Unavailable): such a node is
	// never loaded, whatever its score.
	Unavailable string `json:"unavailable,omitempty"`
	// Stale says why a loaded node's text may be out of date: its source
	// file changed since it was indexed (set while its text is fetched).
	// The block's header and the manifest say so.
	Stale string `json:"stale,omitempty"`
	// Vec is the node's unit vector (novelty); not serialised.
	Vec []float32 `json:"-"`
	// Overhead is what loading costs beyond the text: its block header and
	// separators (set by Assemble).
	Overhead int `json:"-"`
	// Unplaced: the block header leaves out the lines or pages (set by
	// Assemble when writing them would take the frame over FramePercent
	// of the context; the id still leads to the place).
	Unplaced bool `json:"-"`
	// Repeats is the id of the better-ranked relevant node whose text this
	// one's repeats (set by Assemble: markRepeats): it is not relevant
	// itself and does not load, and that node's block says where else its
	// text is.
	Repeats  string     `json:"repeats,omitempty"`
	repeated *Candidate // the node Repeats names
}

// costAt is what loading c at level l takes from the budget (0: the level
// is not offered).
func (c *Candidate) costAt(l Level) int {
	t := c.tokensAt(l)
	if t <= 0 {
		return 0
	}
	return t + c.Overhead
}

// tokensAt is the cost of loading c at level l (0: not offered).
func (c *Candidate) tokensAt(l Level) int {
	switch l {
	case Detailed:
		return c.Tokens
	case Summary:
		return c.SummaryTokens
	case Essence:
		return c.EssenceTokens
	case Chunks:
		return c.ChunkTokens
	}
	return 0
}

// retention is how much of a node's value a level keeps, for the adaptive
// knapsack.
var retention = map[Level]float64{Detailed: 1, Chunks: 0.8, Summary: 0.6, Essence: 0.3}

// Branch names the path the decision tree took (seed §6.2).
type Branch string

// Branches.
const (
	BranchNothing  Branch = "nothing-relevant"
	BranchAllFit   Branch = "all-relevant-fit"
	BranchByScore  Branch = "descending-score"
	BranchAdaptive Branch = "adaptive-levels"
	// BranchMap: the context is a map of the code (level map).
	BranchMap Branch = "repository-map"
)

// Selection is what Select decided.
type Selection struct {
	Branch Branch `json:"branch"`
	// Loaded in load order (pinned first, then by utility).
	Loaded []*Candidate `json:"-"`
	// Relevant counts relevant and pinned candidates; NotLoaded those of
	// them that were not loaded.
	Relevant  int `json:"relevant"`
	NotLoaded int `json:"not_loaded"`
	// Near counts the loaded candidates that are near the question, not
	// relevant (step 6).
	Near int `json:"near,omitempty"`
	Used int `json:"used"`
}

// Rank scores candidates, marks the relevant ones and sorts by score
// (descending; ties by reference then id, so runs are reproducible).
//
// The stopping rule: a candidate is relevant when its relevance (its score
// with the size signal taken at RelevanceBudget: Candidate.Relevance) is at
// least RelevanceCut × the best, and stands out of the background — at
// least Background(cands) + BackgroundCut × (best − background) — and its
// semantic relevance passes MinSemantic and SemanticCut. The background is
// what an unrelated section scores for this question: the median relevance
// of the candidates ranked BackgroundFrom to BackgroundTo. A question that one
// section answers has a steep curve and a low background; one that a whole
// chapter answers has many sections near the best: the cut follows each
// curve instead of a fixed share or count. The set then ends at its largest
// drop in relevance after its first GapFrom candidates when that drop is at
// least GapCut (gapCut). MaxRelevant (0: none) caps the set.
//
// Source code's definitions (Candidate.Definition) are held to CodeCut
// instead of RelevanceCut, and one outside the question's own file
// (ownFile) to OtherFileCut × the best as well.
func Rank(cands []*Candidate, w Weights, cfg Config) {
	best, bestSem := 0.0, 0.0
	for _, c := range cands {
		c.Score = round4(c.Signals.Composite(w))
		at := c.Signals
		at[Size] = round4(SizeSignal(c.Tokens, RelevanceBudget))
		c.Relevance = round4(at.Composite(w))
		best = math.Max(best, c.Relevance)
		bestSem = math.Max(bestSem, c.Signals[Semantic])
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].Score != cands[j].Score {
			return cands[i].Score > cands[j].Score
		}
		if cands[i].Ref != cands[j].Ref {
			return cands[i].Ref < cands[j].Ref
		}
		return cands[i].ID < cands[j].ID
	})
	bg, background := Background(cands), 0.0
	if cfg.BackgroundCut > 0 {
		background = bg + cfg.BackgroundCut*(best-bg)
	}
	cut, codeCut := math.Max(cfg.RelevanceCut*best, background), math.Max(cfg.DefinitionCut()*best, background)
	own, otherCut := ownFile(cands), 0.0
	if own != "" && cfg.OtherFileCut > 0 {
		otherCut = cfg.OtherFileCut * best
	}
	var relevant []*Candidate
	for _, c := range cands {
		c.AfterDrop = false
		at := cut
		if c.Definition {
			at = codeCut
			if otherCut > 0 && c.Document != own {
				at = math.Max(at, otherCut)
			}
		}
		c.Relevant = best > 0 && c.Relevance >= at && c.Signals[Semantic] >= cfg.MinSemantic &&
			c.Signals[Semantic] >= cfg.SemanticCut*bestSem &&
			(cfg.MaxRelevant <= 0 || len(relevant) < cfg.MaxRelevant)
		if c.Relevant {
			relevant = append(relevant, c)
		}
	}
	if cfg.GapCut > 0 {
		gapCut(relevant, cfg.GapCut)
	}
	for _, c := range cands {
		c.Near = !c.Relevant && !c.Pinned && best > 0 && c.Relevance > bg && c.Signals[Semantic] >= cfg.MinSemantic
	}
}

// OwnFileFrom and OwnFileOf: the best definition's file is the question's
// own when it holds at least OwnFileFrom of the first OwnFileOf candidates
// (ownFile).
const (
	OwnFileFrom = 2
	OwnFileOf   = 10
)

// ownFile is the file of the best-ranked definition among ranked when it
// holds at least OwnFileFrom definitions of the first OwnFileOf
// candidates, else "": a question whose best hits are spread over many
// files has no file of its own, and Config.OtherFileCut does not apply.
func ownFile(ranked []*Candidate) string {
	file := ""
	for _, c := range ranked {
		if c.Definition && c.Document != "" {
			file = c.Document
			break
		}
	}
	if file == "" {
		return ""
	}
	in := 0
	for _, c := range ranked[:min(len(ranked), OwnFileOf)] {
		if c.Definition && c.Document == file {
			in++
		}
	}
	if in < OwnFileFrom {
		return ""
	}
	return file
}

// GapFrom is how many of the most relevant candidates the gap rule keeps
// whatever the drop after them: a question is often answered by two
// sections (a definition and its use, a claim and its evidence), and the
// drop after the best alone says little.
const GapFrom = 2

// gapCut ends the relevant set at its largest drop in relevance after its
// first GapFrom candidates, when that drop is at least gap: what follows a
// clear drop is of another order of relevance. The relevant set's
// candidates are marked not relevant below the drop.
func gapCut(relevant []*Candidate, gap float64) {
	if len(relevant) <= GapFrom {
		return
	}
	byRelevance := slices.Clone(relevant)
	slices.SortStableFunc(byRelevance, func(a, b *Candidate) int { return cmp.Compare(b.Relevance, a.Relevance) })
	drop, at := 0.0, -1
	for i := GapFrom - 1; i+1 < len(byRelevance); i++ {
		if d := byRelevance[i].Relevance - byRelevance[i+1].Relevance; d > drop {
			drop, at = d, i
		}
	}
	if drop < gap {
		return
	}
	for _, c := range byRelevance[at+1:] {
		c.Relevant, c.AfterDrop = false, true
	}
}

// RelevanceBudget is the budget the size signal is taken at for the
// relevance decisions (Candidate.Relevance): the page's default context
// budget. With the question's own budget there, a node's relevance moved
// with the budget — the size signal (1 − tokens/budget) lifts every node
// as the budget grows, the large ones most — and a node on the edge of
// the cut was relevant at 4,000 tokens and not at 8,000: recall fell as
// the budget doubled (py-requests, BENCHMARKS.md).
const RelevanceBudget = 4096

// The background is taken from the candidates ranked BackgroundFrom to
// BackgroundTo (1-based, inclusive of the first).
const (
	BackgroundFrom = 11
	BackgroundTo   = 40
)

// Background is the median relevance of the ranked candidates BackgroundFrom
// to BackgroundTo (fewer when the pool is smaller), 0 when there are fewer
// than BackgroundFrom: with so few candidates there is no background.
func Background(ranked []*Candidate) float64 {
	if len(ranked) < BackgroundFrom {
		return 0
	}
	tail := ranked[BackgroundFrom-1 : min(len(ranked), BackgroundTo)]
	s := make([]float64, len(tail))
	for i, c := range tail {
		s[i] = c.Relevance
	}
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// SelectOptions are the knobs of one selection.
type SelectOptions struct {
	// Loadable is the tokens available for node text: the context budget
	// less the manifest and the catalog.
	Loadable int
	// Level is the requested abstraction level (Adaptive by default).
	Level Level
	// Oversize is the share of Loadable above which a node is oversized.
	Oversize float64
	// Novelty is the MMR trade-off λ: utility = score × (1 − λ·redundancy).
	Novelty float64
	// Prefetch, when set, is told which nodes are about to load (at their
	// Level) before Assemble asks for their texts one by one, so that the
	// text source can read them at once.
	Prefetch func(loaded []*Candidate)
	// UniqueAmong are the ids (sorted) the prompt's shortened ids must
	// tell apart besides the candidates': the workspace's (ShortIDs).
	UniqueAmong []string
	// Beyond is how much larger the context is than RelevanceBudget (set
	// by Assemble; 0 or less: not larger): the room that candidates near
	// the question, not relevant, may take once every relevant one is
	// loaded (step 6).
	Beyond int
}

// Select runs the loading decision tree (seed §6.2) over ranked candidates:
//
//  1. pinned nodes load first, at the largest level that fits;
//  2. nothing relevant → nothing more loads;
//  3. all relevant nodes fit at the requested level → all load;
//  4. otherwise, at a fixed level, by utility (score × novelty) until the
//     budget is used — an oversized node (larger than Oversize × Budget)
//     loads its summary when one exists, else its best-matching chunks;
//     with Adaptive, a knapsack picks one level per node to get the most
//     score into the budget;
//  5. relevant nodes left out are counted for the manifest;
//  6. when every relevant node loaded and the context is larger than
//     RelevanceBudget (SelectOptions.Beyond), candidates near the question
//     (Candidate.Near) load in rank order within what it has beyond it;
//
// every candidate gets a Reason.
func Select(cands []*Candidate, o SelectOptions) Selection {
	if o.Level == "" {
		o.Level = Adaptive
	}
	sel := Selection{}
	remaining := o.Loadable
	load := func(c *Candidate, l Level, why string) {
		c.Loaded, c.Level, c.LoadedTokens, c.Reason = true, l, c.tokensAt(l), why
		remaining -= c.costAt(l)
		sel.Loaded = append(sel.Loaded, c)
	}
	var relevant []*Candidate
	for _, c := range cands {
		c.Loaded, c.Level, c.LoadedTokens, c.Reason = false, "", 0, ""
		switch {
		case c.Unavailable != "":
			c.Reason = "not loaded: " + c.Unavailable
		case c.Repeats != "":
			c.Reason = "not loaded: the same text as " + c.repeatsWhat()
		case c.Pinned:
			sel.Relevant++
		case c.Relevant:
			sel.Relevant++
			relevant = append(relevant, c)
		}
	}

	// 1. Pinned: always upfront.
	for _, c := range cands {
		if !c.Pinned || c.Unavailable != "" {
			continue
		}
		placed := false
		for _, l := range fallbackLevels(o.Level) {
			l = levelFor(c, l)
			if t := c.costAt(l); t > 0 && t <= remaining {
				why := "pinned: always loaded"
				if l != Detailed {
					why = fmt.Sprintf("pinned: loaded as %s (full text is %d tokens)", l, c.Tokens)
				}
				load(c, l, why)
				placed = true
				break
			}
		}
		if !placed {
			c.Reason = fmt.Sprintf("pinned, but even its smallest form does not fit the %d tokens left", remaining)
		}
	}

	noveltyOrder(relevant, o.Novelty)
	fixed := o.Level
	if fixed == Adaptive {
		fixed = Detailed
	}
	total := 0
	for _, c := range relevant {
		total += c.costAt(levelFor(c, fixed))
	}
	switch {
	case len(relevant) == 0:
		sel.Branch = BranchNothing
	case total <= remaining && allOffered(relevant, fixed):
		sel.Branch = BranchAllFit
		for _, c := range relevant {
			load(c, levelFor(c, fixed), "relevant; all relevant content fits the budget")
		}
	case o.Level == Adaptive:
		sel.Branch = BranchAdaptive
		for _, pick := range knapsack(relevant, remaining, o.Oversize*float64(o.Loadable), o.Novelty) {
			why := "relevant; the adaptive knapsack chose " + string(pick.level)
			if pick.level != Detailed {
				why += fmt.Sprintf(" (full text is %d tokens)", pick.c.Tokens)
			}
			load(pick.c, pick.level, why)
		}
	default:
		sel.Branch = BranchByScore
		limit := o.Oversize * float64(o.Loadable)
		for _, c := range relevant {
			l := levelFor(c, fixed)
			why := "relevant; loaded in descending score"
			if l == Detailed && float64(c.Tokens) > limit {
				switch {
				case c.SummaryCached && c.SummaryTokens > 0:
					l, why = Summary, fmt.Sprintf("oversized (%d tokens): loaded its summary", c.Tokens)
				case c.ChunkTokens > 0:
					l, why = Chunks, fmt.Sprintf("oversized (%d tokens): loaded its best-matching chunks", c.Tokens)
				case c.SummaryTokens > 0:
					l, why = Summary, fmt.Sprintf("oversized (%d tokens): loaded a summary", c.Tokens)
				}
			}
			if t := c.costAt(l); t > 0 && t <= remaining {
				load(c, l, why)
			}
		}
	}
	for _, c := range relevant {
		if !c.Loaded {
			sel.NotLoaded++
			c.Reason = fmt.Sprintf("relevant, but did not fit the budget (%d tokens left); listed in the manifest", remaining)
		}
	}
	// 6. Near the question: a context larger than relevance is judged at
	// takes, in what it has beyond RelevanceBudget, the next candidates in
	// rank order that stand above the background, each at the largest
	// level that fits.
	if sel.NotLoaded == 0 {
		room := min(remaining, o.Beyond)
		for _, c := range cands {
			if room <= 0 {
				break
			}
			if !c.Near || c.Loaded || c.Unavailable != "" || c.Repeats != "" {
				continue
			}
			for _, l := range fallbackLevels(o.Level) {
				l = levelFor(c, l)
				if t := c.costAt(l); t > 0 && t <= room {
					why := fmt.Sprintf("near the question (score %.2f): loaded in the budget beyond the %d tokens relevance is judged at", c.Score, RelevanceBudget)
					if l != Detailed {
						why += fmt.Sprintf(", as %s (full text is %d tokens)", l, c.Tokens)
					}
					load(c, l, why)
					room -= t
					sel.Near++
					break
				}
			}
		}
	}
	for _, c := range cands {
		if c.Unavailable != "" || c.Repeats != "" {
			continue
		}
		if c.Pinned && !c.Loaded {
			sel.NotLoaded++
		}
		switch {
		case c.Pinned || c.Relevant || c.Loaded:
		case c.AfterDrop:
			c.Reason = fmt.Sprintf("after a clear drop in relevance (score %.2f)", c.Score)
		default:
			c.Reason = fmt.Sprintf("below the relevance cut (score %.2f)", c.Score)
		}
	}
	for _, c := range sel.Loaded {
		sel.Used += c.LoadedTokens
	}
	return sel
}

// levelFor is the level c loads at when l is asked for: l itself, or the
// full text when the node is already smaller than its summary would be.
func levelFor(c *Candidate, l Level) Level {
	if c.tokensAt(l) > 0 {
		return l
	}
	if (l == Summary || l == Essence) && c.Tokens > 0 && c.SummaryTokens == 0 && c.EssenceTokens == 0 {
		return Detailed
	}
	if l == Summary && c.SummaryTokens == 0 && c.EssenceTokens > 0 && c.Tokens <= 2*c.EssenceTokens+8 {
		return Detailed // too small to summarise: its text is the summary
	}
	return l
}

func allOffered(cs []*Candidate, l Level) bool {
	for _, c := range cs {
		if c.tokensAt(levelFor(c, l)) <= 0 {
			return false
		}
	}
	return true
}

// fallbackLevels lists the levels to try for a pinned node, largest first.
func fallbackLevels(l Level) []Level {
	switch l {
	case Summary:
		return []Level{Summary, Essence}
	case Essence:
		return []Level{Essence}
	}
	return []Level{Detailed, Summary, Chunks, Essence}
}

// noveltyOrder sets each relevant candidate's novelty against the ones
// ranked before it in MMR order and re-sorts them by utility =
// score × (1 − λ·redundancy): a near-duplicate of a better node sinks.
func noveltyOrder(cs []*Candidate, lambda float64) {
	if len(cs) == 0 {
		return
	}
	rest := append([]*Candidate(nil), cs...)
	out := cs[:0]
	var last *Candidate
	reds := make([]float64, len(rest)) // each one's largest cosine to the chosen so far
	for len(rest) > 0 {
		bi, bu := 0, -1.0
		for i, c := range rest {
			if last != nil {
				reds[i] = math.Max(reds[i], cosine(c.Vec, last.Vec))
			}
			red := reds[i]
			c.Signals[Novelty] = round4(clamp01(1 - red))
			u := c.Score * (1 - lambda*(1-c.Signals[Novelty]))
			if u > bu {
				bi, bu = i, u
			}
		}
		c := rest[bi]
		last = c
		out = append(out, c)
		rest = append(rest[:bi], rest[bi+1:]...)
		reds = append(reds[:bi], reds[bi+1:]...)
	}
}

type knapPick struct {
	c     *Candidate
	level Level
}

// knapsack chooses at most one level per candidate to maximise
// Σ utility·retention(level) / log2(rank+1) within capacity tokens (a
// multiple-choice knapsack; tokens are bucketed so the table stays
// small). Oversized candidates are not offered at Detailed, nor any at a
// summary or an essence shorter than its block header (Overhead): such a
// block is more frame than text (go-http @2000: 29 of the 687 nodes its
// 36 questions loaded, 5 of 43 on the widest; leaving them out takes the
// frame from 9.9% to 9.7% of the budget, precision and recall unchanged
// on every set: BENCHMARKS.md).
//
// The rank discount (nDCG's) keeps the load in rank order where it
// matters: relevant scores are close (all above the relevance cut), so
// without it the sum rewards the count of nodes, and the knapsack left
// out the best definition (333 tokens, no summary) to load six
// three-line methods ranked thirtieth. On the dev sets at budget 2000
// (BENCHMARKS.md), of the questions whose best relevant node or one of
// its three best was not loaded — py-requests 1 and 3 of 40, Loom's code
// 1 and 6 of 110 — none remain; precision and recall move by less than
// 0.01 on every set.
func knapsack(cs []*Candidate, capacity int, oversize, lambda float64) []knapPick {
	if capacity <= 0 || len(cs) == 0 {
		return nil
	}
	unit := max(1, capacity/500) // 500 buckets: tokens rounded up, so never over budget
	W := capacity / unit
	type option struct {
		level Level
		w     int
		v     float64
	}
	opts := make([][]option, len(cs))
	for i, c := range cs {
		val := c.Score * (1 - lambda*(1-c.Signals[Novelty])) // the MMR utility, as at fixed levels
		val /= math.Log2(float64(i) + 2)                     // rank discount: see knapsack's comment
		for _, l := range []Level{Detailed, Chunks, Summary, Essence} {
			t := c.tokensAt(l)
			if t <= 0 || (l == Detailed && float64(t) > oversize && (c.SummaryTokens > 0 || c.ChunkTokens > 0)) {
				continue
			}
			if l != Detailed && t < c.Overhead {
				continue // a summary or essence shorter than its header is mostly frame
			}
			w := (t + c.Overhead + unit - 1) / unit
			if w > W {
				continue
			}
			opts[i] = append(opts[i], option{l, w, val * retention[l]})
		}
	}
	// best[w]: the best value of the candidates so far within weight w (one
	// row, rolled forward); choice[i][w]: the option candidate i takes
	// there (−1: none). Options are tried in order at each weight, each
	// against the best so far, as the textbook recurrence does.
	prev, best := make([]float64, W+1), make([]float64, W+1)
	choice := make([]int8, len(cs)*(W+1))
	for i := range cs {
		ch := choice[i*(W+1) : (i+1)*(W+1)]
		copy(best, prev)
		for w := range ch {
			ch[w] = -1
		}
		for k, op := range opts[i] {
			from := prev[:W+1-op.w]
			to, chk := best[op.w:], ch[op.w:]
			for w, b := range from {
				if v := b + op.v; v > to[w]+1e-12 {
					to[w], chk[w] = v, int8(k)
				}
			}
		}
		prev, best = best, prev
	}
	var picks []knapPick
	w := W
	for i := len(cs) - 1; i >= 0; i-- {
		if k := choice[i*(W+1)+w]; k >= 0 {
			op := opts[i][k]
			picks = append(picks, knapPick{cs[i], op.level})
			w -= op.w
		}
	}
	// Load in utility order (the order of cs): picked last to first.
	slices.Reverse(picks)
	return picks
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
