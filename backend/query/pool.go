package query

import (
	"strings"
	"time"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
)

// pool gathers the candidates of one query.
type pool struct {
	w        *Pipeline
	r        *index.Search
	terms    []string
	strategy Strategy
	cfg      assemble.Config
	kw, cos  []float32
	kwMax    float64
	cosMax   float64
	cosFloor float64 // cosine that counts as no evidence: the mean over the workspace
	// fuse's parameters, for slots made exact later
	kwScale, vecScale, floor float32
	kwW                      float64
	slots                    []int32
	pinned                   map[string]bool
	seeds                    []ConceptHit
	dist                     map[string]int  // concept → hops from the seeds
	symbolHop                map[string]bool // definitions one symbol edge from the best hits
	topHit                   map[string]bool // the best hits (symbol link density)
	named                    map[string]bool // definitions the question names
	sc                       *index.Scratch  // per-slot arrays, returned by release
	fused                    []float32       // semantic relevance of every slot
	est                      *estimate       // non-nil when cos holds estimates for some slots
}

// newPool gathers the candidates of question q (vector qv) among the
// slots in (nil: every slot).
func newPool(w *Pipeline, r *index.Search, q string, qv []float32, req QueryRequest, in []bool, strategy Strategy, cfg assemble.Config) *pool {
	p := &pool{w: w, r: r, terms: search.Terms(q), strategy: strategy, cfg: cfg, pinned: map[string]bool{}}
	n := len(r.IDs)
	if prm := (search.BM25{K1: cfg.BM25K1, B: cfg.BM25B}); prm != r.Keyword.Params() {
		_ = r.Keyword.SetParams(prm) // validated with the config
		_ = r.Phrases.SetParams(prm)
	}
	p.sc = r.GetScratch(n)
	p.kw, p.cos = p.sc.KW, p.sc.Cos
	kwMax := r.Keyword.ScoreAll(p.terms, p.kw)
	if pw := float32(cfg.PhraseWeight); pw > 0 && strategy != StrategyBM25 && strategy != StrategyVector {
		if bg := index.Bigrams(p.terms); len(bg) > 0 {
			// Only the slots a phrase matched change, and only upwards:
			// the maximum is the larger of the two.
			kwMax = max(kwMax, r.Phrases.AddScaled(bg, pw, p.kw))
		}
	}
	p.kwMax = float64(kwMax)
	var allow func(int32) bool
	if in != nil {
		allow = func(s int32) bool { return in[s] }
	}
	var sum float64
	cnt := 0
	p.cosMax = -1
	every := allow == nil && len(r.Free) == 0 && len(p.cos) == len(r.IDs) // every slot counts
	var bound []float32
	var atLeast float32
	estimated := false
	if every {
		bound, atLeast, estimated = r.Vectors.Estimate(qv, p.cos)
		estimated = estimated && len(bound) == len(p.cos) // else some slot has no row: scan
	}
	if estimated {
		// Every slot counts, and the vectors have a quantised copy: cos
		// holds estimates within bound of the cosines (see
		// search.Vectors.Estimate); every decision below that reads one
		// first makes it exact where the bound could change the outcome.
		p.est = &estimate{qv: qv, bound: bound, exact: p.sc.Exact}
		sum, cnt = r.Vectors.SumCosine(qv), len(p.cos)
		p.cosMax = float64(p.exactMax(atLeast))
	} else if every { // no per-slot test
		r.Vectors.ScoreAll(qv, p.cos)
		var cosMax float32
		sum, cosMax = sumMax(p.cos)
		cnt, p.cosMax = len(p.cos), float64(cosMax)
	} else {
		r.Vectors.ScoreAll(qv, p.cos)
		for i, c := range p.cos {
			if (allow == nil || allow(int32(i))) && r.IDs[i] != "" {
				sum += float64(c)
				cnt++
				p.cosMax = max(p.cosMax, float64(c))
			}
		}
	}
	if cnt > 0 {
		p.cosFloor = sum / float64(cnt)
	}
	p.kwW = cfg.KeywordWeight
	switch strategy {
	case StrategyBM25:
		p.kwW = 1
	case StrategyVector:
		p.kwW = 0
	}
	// fused: assemble.SemanticRelevance for every slot, in one tight loop.
	fused := p.sc.Fused
	p.fused = fused
	var kwScale, vecScale float32
	if p.kwMax > 0 && p.kwW > 0 {
		kwScale = float32(p.kwW / p.kwMax)
	}
	vw := 1 - p.kwW
	if p.kwMax <= 0 || p.kwW == 0 {
		vw = 1 // no keyword evidence: vectors alone decide (as assemble.SemanticRelevance)
	}
	if rng := p.cosMax - p.cosFloor; rng > 0 {
		vecScale = float32(vw / rng)
	}
	p.kwScale, p.vecScale, p.floor = kwScale, vecScale, float32(p.cosFloor)
	limit := req.Candidates
	if limit <= 0 {
		limit = 100
	}
	var hits []search.Hit
	if p.est != nil {
		hits = p.topAll(limit)
	} else {
		fuse(fused, p.kw[:len(fused)], p.cos[:len(fused)], kwScale, vecScale, p.floor)
		hits = search.TopK(fused, limit, allow)
	}
	seen := p.sc.Seen
	for _, h := range hits {
		p.slots = append(p.slots, h.Slot)
		seen[h.Slot] = true
	}
	// Family: the subsections and the enclosing section of the best hits.
	for _, h := range hits[:min(10, len(hits))] {
		id := r.IDs[h.Slot]
		fam := append([]string(nil), r.Children[id]...)
		if n := r.Graph.Nodes[id]; n != nil && n.Parent != "" {
			fam = append(fam, n.Parent)
		}
		for _, f := range fam {
			if sl, ok := r.Slot[f]; ok && !seen[sl] && (allow == nil || allow(sl)) {
				p.slots = append(p.slots, sl)
				seen[sl] = true
			}
		}
	}
	// Source code: what the best definitions call, implement or import,
	// and what calls them, one edge away (the symbol graph).
	p.symbolHop = map[string]bool{}
	p.topHit = map[string]bool{}
	for _, h := range hits[:min(topHits, len(hits))] {
		p.topHit[r.IDs[h.Slot]] = true
	}
	for _, h := range hits[:min(symbolHits, len(hits))] {
		id := r.IDs[h.Slot]
		for _, nb := range p.symbolNeighbours(id) {
			p.symbolHop[nb] = true
			if sl, ok := r.Slot[nb]; ok && !seen[sl] && (allow == nil || allow(sl)) {
				p.slots = append(p.slots, sl)
				seen[sl] = true
			}
		}
	}
	// Source code: the definitions the question names.
	p.named = map[string]bool{}
	if strategy == StrategyLoom {
		for _, id := range namedDefinitions(q, r.Names, func(id string) string {
			if n := r.Graph.Nodes[id]; n != nil && n.Symbol != nil {
				return n.Symbol.Name
			}
			return ""
		}) {
			p.named[id] = true
			if sl, ok := r.Slot[id]; ok && !seen[sl] && (allow == nil || allow(sl)) {
				p.slots = append(p.slots, sl)
				seen[sl] = true
			}
		}
	}
	// Seed concepts: the nearest to the question, and those of the best
	// hits (the question's words may name what its vector misses).
	p.dist = map[string]int{}
	if strategy == StrategyLoom && r.Graph.Linker != nil {
		for _, m := range r.Graph.Linker.Nearest(qv, cfg.SeedConcepts) {
			p.addSeed(m.ID, m.Sim)
		}
		for _, h := range hits[:min(3, len(hits))] {
			for _, e := range r.Graph.Out[r.IDs[h.Slot]] {
				if e.Kind == model.EdgeAbout {
					p.addSeed(e.To, e.Weight)
				}
			}
		}
		p.bfs()
		// Graph expansion: the best nodes about a seed concept join the
		// pool even when neither search ranked them high enough.
		var from []int32
		for _, s := range p.seeds {
			for _, sl := range r.ConceptSlots[s.ID] {
				if !seen[sl] && (allow == nil || allow(sl)) {
					from = append(from, sl)
					seen[sl] = true // each slot once
				}
			}
		}
		for _, sl := range from {
			seen[sl] = false
		}
		var extra []search.Hit
		if p.est != nil {
			extra = p.topOf(from, max(10, limit/5))
		} else {
			for _, sl := range from {
				if fused[sl] > 0 {
					extra = append(extra, search.Hit{Slot: sl, Score: fused[sl]})
				}
			}
			extra = search.Best(extra, max(10, limit/5))
		}
		for _, h := range extra {
			p.slots = append(p.slots, h.Slot)
			seen[h.Slot] = true
		}
	}
	// Pinned nodes: in the workspace, or for this question.
	for _, id := range req.Pin {
		if _, ok := r.Graph.Nodes[id]; ok {
			p.pinned[id] = true
		}
		for _, nid := range r.Graph.DocNodes[id] {
			p.pinned[nid] = true
		}
	}
	for id := range r.Pinned() {
		p.pinned[id] = true
	}
	for id := range p.pinned {
		if sl, ok := r.Slot[id]; ok && !seen[sl] {
			p.slots = append(p.slots, sl)
			seen[sl] = true
		}
	}
	return p
}

// release returns the pool's per-slot arrays for the next query.
func (p *pool) release() {
	if p.sc != nil {
		p.r.PutScratch(p.sc)
		p.sc, p.kw, p.cos, p.fused, p.est = nil, nil, nil, nil, nil
	}
}

func (p *pool) addSeed(id string, sim float64) {
	if _, ok := p.dist[id]; ok {
		return
	}
	c := p.r.Graph.Concepts[id]
	if c == nil {
		return
	}
	p.dist[id] = 0
	p.seeds = append(p.seeds, ConceptHit{ID: id, Name: c.Name, Similarity: round3(sim)})
}

// semantic is a slot's hybrid relevance: keyword and vector evidence, each
// normalised to the query's best (the vector part above the workspace's
// mean cosine, which static embedders put well above 0), as computed
// for every slot in newPool.
func (p *pool) semantic(s int32) float64 {
	p.exactify(s)
	return float64(p.fused[s])
}

// cosine is a slot's cosine with the question.
func (p *pool) cosine(s int32) float64 {
	p.exactify(s)
	return float64(p.cos[s])
}

// symbolHits is how many of the best hits bring the definitions they are
// linked to in the symbol graph into the pool; symbolReach bounds how
// many each brings.
const (
	topHits     = 20
	symbolHits  = 5
	symbolReach = 12
)

// symbolShare is link density in the symbol graph: the share of a
// definition's symbol neighbours that are among the question's best
// hits.
func (p *pool) symbolShare(id string) float64 {
	nbs := p.symbolNeighbours(id)
	if len(nbs) == 0 {
		return 0
	}
	in := 0
	for _, nb := range nbs {
		if p.topHit[nb] {
			in++
		}
	}
	return float64(in) / float64(len(nbs))
}

// relevantNeighbours marks as relevant the definitions one symbol edge
// from a relevant one (what it calls, implements or imports, what calls
// it) whose relevance is at least code's cut (Config.DefinitionCut) × the
// best on their own: in source
// code a question's answer is a few definitions that use each other, and
// their words overlap with the rest of the code more than a document's
// sections do, so the background rule alone stops too early. One step, so
// that relevance does not spread along call chains. A definition in the
// same file as one of the sameFileOf best relevant definitions is relevant
// too when it scores at least sameFileCut × the best.
//
// Neither rule reaches a definition that declares a shape instead of doing
// something (shapes: a type, a class, a file's own node): it is relevant on
// its own score or not at all. The rules brought them in by the handful —
// a file's structs and interfaces, the types every function of it uses —
// for questions that ask how the code behaves: of the shapes loaded at
// budget 4000, 1 of 689 on Loom's code and 7 of 136 on py-requests held a
// label (BENCHMARKS.md). Without them, Loom's code questions @4000
// precision 0.146 → 0.165 at equal recall (0.699), @2000 0.143 → 0.165
// and recall 0.664 → 0.686 (the room goes to functions); py-requests
// @4000 0.216 → 0.246, recall 0.817 both; @2000 0.222 → 0.252, recall
// 0.804 → 0.817. The 24 bug cases, whose fixes change a struct now and
// then, lose one label (recall 0.649 → 0.628, precision 0.079 → 0.087).
// A shape of smallShape tokens or fewer (not a file's node) — an exception
// class, a marker type, an alias: a line and its docstring — is no larger
// than the header that introduces it and joins as a function does
// (py-requests @4000 recall 0.804 → 0.817, precision 0.317 → 0.315: the
// exceptions a question about failures asks for; loom-code precision
// 0.164 → 0.163; the other sets and the bug cases as they were).
func (p *pool) relevantNeighbours(cands []*assemble.Candidate, cfg assemble.Config) {
	best := 0.0
	relevant := map[string]bool{}
	for _, c := range cands {
		best = max(best, c.Relevance)
		if c.Relevant {
			relevant[c.ID] = true
		}
	}
	if len(relevant) == 0 {
		return
	}
	floor := cfg.DefinitionCut() * best
	files := map[string]bool{} // the files of the best relevant definitions
	nf := sameFileOf
	for _, c := range cands { // in rank order
		if !c.Relevant || nf <= 0 {
			continue
		}
		if n := p.r.Graph.Nodes[c.ID]; n != nil && n.Symbol != nil && n.Symbol.Kind != "file" {
			files[n.DocID] = true
			nf--
		}
	}
	fileFloor := sameFileCut * best
	for _, c := range cands {
		n := p.r.Graph.Nodes[c.ID]
		if c.Relevant || n == nil || n.Symbol == nil || shapes[n.Symbol.Kind] && (n.Symbol.Kind == "file" || n.Tokens > smallShape) {
			continue
		}
		if c.Relevance >= fileFloor && files[n.DocID] {
			c.Relevant, c.Near = true, false // relevant now, not merely near (Rank)
			continue
		}
		if c.Relevance < floor {
			continue
		}
		for _, nb := range p.symbolNeighbours(c.ID) {
			if relevant[nb] {
				c.Relevant, c.Near = true, false
				break
			}
		}
	}
}

// sameFileCut and sameFileOf: a definition in the file of one of the
// sameFileOf best relevant definitions is relevant when it scores at least
// sameFileCut × the best candidate, whatever the background (Rank's
// BackgroundCut): a file holds what belongs together (a type's methods, a
// function and its helpers), which calls and imports do not always link.
// The floor sits a little above the offline table's RelevanceCut (0.65),
// not below it: a file's definitions share its names, imports and
// comments, so a sibling of the best hit scores higher than its own
// relevance warrants. A sentence encoder's cut is higher (0.72,
// assemble.Config.Encoder); the floor stays 0.7 there: with a cut of
// 0.74, a floor of 0.76 took py-requests @4000 from 0.319 / 0.804 to
// 0.359 / 0.754 and Loom's code questions from 0.162 / 0.633 to 0.170 /
// 0.582 (P / R), recall falling more than precision rose. On Loom's own
// code at budget 4000 (BENCHMARKS.md), against no such rule: the 110
// questions' recall 0.570 → 0.689 and the 24 bug cases' 0.593 → 0.656
// with the files of every relevant definition; the files of the 1 / 2 /
// 3 / 5 / all best gave the questions R 0.662 / 0.685 / 0.691 / 0.700 /
// 0.703 — 3 has the best F1 on both. The floor, with the later changes,
// at 0.6 / 0.65 / 0.7 / 0.72 × the best and with no rule (P / R @4000):
// py-requests 0.246 / 0.817, 0.280 / 0.800, 0.309 / 0.800, 0.319 / 0.779,
// 0.334 / 0.767; the questions 0.165 / 0.699, 0.175 / 0.645, 0.179 /
// 0.636, 0.179 / 0.631, 0.178 / 0.617; the bug cases 0.087 / 0.628,
// 0.106 / 0.628, 0.107 / 0.628, 0.110 / 0.628, 0.107 / 0.572. Of the
// definitions the rule added between 0.6 and 0.7 × the best, 25 of 281
// held a label on the questions and 5 of 205 on py-requests; 0.7 is the
// highest floor at which neither py-requests' nor the bug cases' recall
// falls.
const (
	sameFileCut = 0.7
	sameFileOf  = 3
)

// shapes are the kinds of definition that declare a shape (fields, a
// method set, a whole class or file) rather than a behaviour: the
// widening rules of relevantNeighbours do not reach them.
var shapes = map[string]bool{"file": true, "type": true, "struct": true, "interface": true, "class": true, "enum": true, "trait": true}

// smallShape is the most tokens of a shape that the widening rules reach
// all the same (relevantNeighbours).
const smallShape = 24

// symbolNeighbours are a definition's neighbours in the symbol graph:
// what it calls, implements or imports, then what calls it.
func (p *pool) symbolNeighbours(id string) []string {
	var out []string
	for _, e := range p.r.Graph.Out[id] {
		if e.Kind.SymbolEdge() && len(out) < symbolReach {
			out = append(out, e.To)
		}
	}
	for _, from := range p.r.Callers[id] {
		if len(out) >= 2*symbolReach {
			break
		}
		out = append(out, from)
	}
	return out
}

// HopReach is how far, in related edges from the seed concepts, a
// result's hop distances reach (the graph's colouring shows 0 to 4+); the
// hop signal counts only up to the ranking's MaxHops.
const HopReach = 6

// bfs fills dist with hop counts over related edges from the seeds (seeds
// are 0), as far as HopReach or the hop signal's reach, whichever is
// farther.
func (p *pool) bfs() {
	frontier := make([]string, 0, len(p.seeds))
	for _, s := range p.seeds {
		frontier = append(frontier, s.ID)
	}
	for d := 1; d <= max(HopReach, p.cfg.MaxHops-1) && len(frontier) > 0; d++ {
		var next []string
		for _, c := range frontier {
			for _, nb := range p.r.RelAdj[c] {
				if _, ok := p.dist[nb]; !ok {
					p.dist[nb] = d
					next = append(next, nb)
				}
			}
		}
		frontier = next
	}
}

// hops is a node's distance from the seeds: 1 when it is about a seed
// concept, one more per related edge beyond; −1 when out of reach. Its
// relevant concepts are those within one edge of a seed.
func (p *pool) hops(id string) (hops, relevantConcepts, concepts int) {
	hops = -1
	for _, e := range p.r.Graph.Out[id] {
		if e.Kind != model.EdgeAbout {
			continue
		}
		concepts++
		if d, ok := p.dist[e.To]; ok {
			if hops < 0 || d+1 < hops {
				hops = d + 1
			}
			if d <= 1 {
				relevantConcepts++
			}
		}
	}
	return hops, relevantConcepts, concepts
}

// inherited is a section's semantic relevance given its own and its
// parent's id: the most of its own and Inherit^k × that of its ancestor k
// levels up (Config.Inherit). It stops where no ancestor could raise it
// (Inherit^k at most what it has: relevance is at most 1), at a node the
// index does not hold, and after maxInherit levels (a damaged store's
// parents could go round in a circle).
func (p *pool) inherited(parent string, own float64) float64 {
	k := p.cfg.Inherit
	for level := 0; parent != "" && k > own && level < maxInherit; level++ {
		ps, ok := p.r.Slot[parent]
		n := p.r.Graph.Nodes[parent]
		if !ok || n == nil {
			break
		}
		own = max(own, k*p.semantic(ps))
		k, parent = k*p.cfg.Inherit, n.Parent
	}
	return own
}

// maxInherit bounds how many levels up a section's relevance is inherited
// from (Markdown has six heading levels; code nests a method in a type in
// a file).
const maxInherit = 16

// candidates makes every pooled node a candidate with its facts, then
// scores its signals (assemble.AllSignals; the baselines use semantic
// relevance alone).
func (p *pool) candidates(budget int) []*assemble.Candidate {
	ix := p.r.Graph
	now := p.w.ws.Now()
	out := make([]*assemble.Candidate, 0, len(p.slots))
	facts := make([]assemble.Facts, len(p.slots))
	best := 0.0 // the best share of concepts near the question
	for i, s := range p.slots {
		id := p.r.IDs[s]
		n := ix.Nodes[id]
		d := ix.Docs[n.DocID]
		c := &assemble.Candidate{ID: id, Ref: n.Ref, Cite: ix.Cite(id), Ancestors: n.Ancestors, Title: nodeTitle(d, n), Source: string(n.Kind), Tokens: n.Tokens,
			Part: n.Part, Parts: n.Parts, Keyword: round4(float64(p.kw[s])), Cosine: round4(p.cosine(s)), Pinned: p.pinned[id], Hops: -1,
			Vec: p.r.Vectors.Row(s), Definition: n.Symbol != nil}
		f := &facts[i]
		f.Semantic = round4(p.semantic(s))
		if p.strategy == StrategyLoom { // the baselines rank by the search alone
			f.Semantic = round4(p.inherited(n.Parent, f.Semantic))
			if p.named[id] {
				f.Semantic = round4(min(1, f.Semantic+nameBoost))
			}
		}
		if d != nil {
			c.Document, c.Collection = d.Path, d.Collection
			f.Collection, f.Path, f.HasDocument = d.Collection, d.Path, true
		}
		if p.strategy == StrategyLoom {
			var rel, all int
			c.Hops, rel, all = p.hops(id)
			if all > 0 { // the share of its topics that are the question's
				f.TopicShare = float64(rel) / float64(all)
			}
			if n.Symbol != nil {
				f.TopicShare = max(f.TopicShare, p.symbolShare(id))
			}
			if p.symbolHop[id] && (c.Hops < 0 || c.Hops > 1) {
				c.Hops = 1 // one call away from one of the best definitions
			}
			f.Hops, f.MaxHops = c.Hops, p.cfg.MaxHops
			f.Touched = n.LastAccess
			if f.Touched.IsZero() {
				f.Touched = n.Created
			}
			f.Now, f.HalfLife = now, time.Duration(p.cfg.HalfLife)
			f.Tokens, f.Budget, f.Kind, f.Config = n.Tokens, budget, string(n.Kind), &p.cfg
			p.w.lv.Offer(c, n, budget, p.cfg.Oversize)
		}
		best = max(best, f.TopicShare)
		out = append(out, c)
	}
	signals := assemble.AllSignals()
	for i, c := range out {
		f := &facts[i]
		if p.strategy != StrategyLoom {
			c.Signals[assemble.Semantic] = f.Semantic
			continue
		}
		f.BestTopicShare = best
		for _, sig := range signals {
			c.Signals[sig.ID()] = sig.Score(f)
		}
	}
	return out
}

// nodeTitle names a node for the manifest: file › heading (part i/n).
func nodeTitle(d *model.Document, n *model.ContentNode) string {
	t := ""
	if d != nil {
		t = d.Path
		if d.Format == "beir" && d.Title != "" {
			t = n.Ref + " " + d.Title
		}
	}
	if h := model.LastHeading(n.HeadingPath); h != "" && (d == nil || d.Format != "beir") {
		t += " › " + h
	}
	if n.Level != "" {
		t += " (" + n.Level + ")"
	}
	t += model.PartMark(n.Part, n.Parts)
	return strings.TrimSpace(t)
}

func round4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }

// namedDefinitions are the definitions a question names: a word written
// as code is (an inner capital or an underscore: "persistPending",
// "max_tokens"; or a capital not opening a sentence: "Close"; not an
// acronym: "MCP") that is the name of at most maxNamed definitions. A
// name in plain lower case ("change") is an English word as often as not,
// and one that many definitions share ("String") says little. A qualified
// name ("Library.RemoveDocuments") names the method, not its type. name
// reads a definition's full name (receiver included).
func namedDefinitions(q string, names map[string][]string, name func(id string) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range codeWords(q) {
		ids := names[w.name]
		if w.qualifier != "" {
			var own []string
			for _, id := range ids {
				if full := name(id); strings.HasSuffix(full, w.qualifier+"."+w.name) {
					own = append(own, id)
				}
			}
			if len(own) > 0 {
				ids = own
			}
		}
		key := w.qualifier + "." + w.name
		if seen[key] || len(ids) == 0 || len(ids) > maxNamed {
			continue
		}
		seen[key] = true
		out = append(out, ids...)
	}
	return out
}

// maxNamed: a name shared by more definitions than this is not taken as
// naming one of them.
const maxNamed = 4

// nameBoost is added to the semantic relevance of a definition the
// question names (namedDefinitions), which also joins the pool. On Loom's
// own code at budget 4000 (BENCHMARKS.md), 0 → 0.4: the 24 bug cases'
// nDCG@10 0.317 → 0.369, file Acc@5 0.875 → 0.917, definition Acc@5
// 0.500 → 0.583, recall 0.656 → 0.697; the 110 questions, most of which
// name no definition, unchanged (nDCG@10 0.399). 0.2 / 0.3: bugs def
// Acc@5 0.542, file Acc@5 0.875; 0.5 / 0.7: as 0.4 on the bugs, questions
// nDCG@10 0.397 / 0.394.
const nameBoost = 0.4

// codeWord is a word of a question written as an identifier is, with the
// word before it when the two are joined by a dot ("Library.Pin").
type codeWord struct{ qualifier, name string }

// codeWords are the words of q written as identifiers are (see
// namedDefinitions), in order; the qualifier of a qualified name is not
// one of them.
func codeWords(q string) []codeWord {
	var out []codeWord
	start := true // at the start of a sentence
	prev, prevEnd := "", -1
	i := 0
	for i < len(q) {
		c := q[i]
		if !isIdentByte(c) {
			switch c {
			case '.', '!', '?', '\n', ':', ';':
				start = true
			case ' ', '\t', '\r', '"', '\'', '(', '[', '`':
			default:
				start = false
			}
			i++
			continue
		}
		j := i
		for j < len(q) && isIdentByte(q[j]) {
			j++
		}
		w := q[i:j]
		qualified := prevEnd >= 0 && i == prevEnd+1 && q[prevEnd] == '.'
		if qualified && len(out) > 0 && out[len(out)-1].name == prev && out[len(out)-1].qualifier == "" {
			out = out[:len(out)-1] // the type of a method named with it
		}
		if (w[0] < '0' || w[0] > '9') && (identifierLike(w) || (!start || qualified) && w[0] >= 'A' && w[0] <= 'Z' && hasLower(w)) {
			cw := codeWord{name: w}
			if qualified {
				cw.qualifier = prev
			}
			out = append(out, cw)
		}
		start = false
		prev, prevEnd = w, j
		i = j
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func hasLower(w string) bool {
	return strings.ContainsFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' })
}

// identifierLike: an inner capital after a lower-case letter, or an
// underscore between letters.
func identifierLike(w string) bool {
	for k := 1; k < len(w); k++ {
		if w[k] >= 'A' && w[k] <= 'Z' && w[k-1] >= 'a' && w[k-1] <= 'z' {
			return true
		}
		if w[k] == '_' && k+1 < len(w) {
			return true
		}
	}
	return false
}
