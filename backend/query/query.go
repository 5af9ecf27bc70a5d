package query

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/classify"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/levels"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
	"github.com/loomwork/loom/backend/tokens"
)

// Strategy is how a query picks context; everything but StrategyLoom is a
// baseline that `loom eval` measures Loom against.
type Strategy string

// Strategies.
const (
	// StrategyLoom: hybrid candidates, every signal, the relevance cut,
	// the decision tree and abstraction levels.
	StrategyLoom Strategy = "loom"
	// StrategyWholeFile: the seed's Strategy A — whole files of the best
	// hits, in rank order.
	StrategyWholeFile Strategy = "whole-file"
	// StrategyBM25, StrategyVector, StrategyHybrid: plain retrieval over
	// sections (keyword, vector, or both fused, no graph signals), loading
	// in rank order until the budget is full (or Top nodes).
	StrategyBM25   Strategy = "bm25"
	StrategyVector Strategy = "vector"
	StrategyHybrid Strategy = "hybrid"
)

// Strategies lists them in a stable order.
var Strategies = []Strategy{StrategyLoom, StrategyWholeFile, StrategyBM25, StrategyVector, StrategyHybrid}

// ParseStrategy reads a strategy name; "" is StrategyLoom.
func ParseStrategy(s string) (Strategy, error) {
	if s == "" {
		return StrategyLoom, nil
	}
	for _, st := range Strategies {
		if string(st) == s {
			return st, nil
		}
	}
	return "", errs.E(errs.Invalid, "unknown strategy %q (use loom, whole-file, bm25, vector or hybrid)", s)
}

// MaxQuestionBytes bounds a question: longer material belongs in a
// document.
const MaxQuestionBytes = 16 << 10

// QueryRequest is one question and how to assemble context for it.
type QueryRequest struct {
	Question string `json:"question"`
	// Budget is the tokens for context (manifest + nodes); Window the
	// model's whole window; Model a model whose window Ollama reports.
	// One of them is needed; Budget wins over the others.
	Budget int    `json:"budget,omitempty"`
	Window int    `json:"window,omitempty"`
	Model  string `json:"model,omitempty"`
	// Purpose picks the weight preset (answer, verify, explore, decide,
	// create); Level the abstraction level (adaptive by default).
	Purpose  string `json:"purpose,omitempty"`
	Level    string `json:"level,omitempty"`
	Strategy string `json:"strategy,omitempty"`
	// Scope limits candidates to one collection ("" or "all": every one).
	Scope string `json:"scope,omitempty"`
	// Pin adds node or document ids to the always-loaded tier for this
	// question (nodes pinned in the workspace are always there).
	Pin []string `json:"pin,omitempty"`
	// Candidates is the size of the candidate pool (default 100).
	Candidates int `json:"candidates,omitempty"`
	// Top caps how many nodes the baselines load (0: fill the budget).
	Top int `json:"top,omitempty"`
	// NoTouch leaves access times alone (evaluation, benchmarks).
	NoTouch bool `json:"no_touch,omitempty"`
	// NoCatalog leaves the catalog out.
	NoCatalog bool `json:"no_catalog,omitempty"`
}

// ConceptHit is a concept near the question.
type ConceptHit struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Similarity float64 `json:"similarity"`
}

// Timing is where a query's time went, in microseconds.
type Timing struct {
	Classify   int64 `json:"classify_us"`
	Candidates int64 `json:"candidates_us"`
	Score      int64 `json:"score_us"`
	Select     int64 `json:"select_us"`
	Assemble   int64 `json:"assemble_us"`
	Total      int64 `json:"total_us"`
}

// QueryResult is everything about one assembled context: the prompt, the
// manifest, the budget split and every candidate with its signals and the
// reason it was or was not loaded.
type QueryResult struct {
	Question   string           `json:"question"`
	Purpose    string           `json:"purpose"`
	Level      string           `json:"level"`
	Strategy   string           `json:"strategy"`
	QueryType  string           `json:"query_type"`
	Complexity float64          `json:"complexity"`
	Embedder   string           `json:"embedder"`
	Weights    assemble.Weights `json:"weights"`
	// Split is how the window was spent: system prompt, question, output
	// reservation, and the context budget as manifest, catalog, loaded
	// nodes and what is left free.
	Split    assemble.Split `json:"split"`
	Branch   string         `json:"branch"`
	Manifest string         `json:"manifest"`
	Catalog  string         `json:"catalog,omitempty"`
	Prompt   string         `json:"prompt"`
	// System and Context are the prompt's parts: the system prompt, and
	// manifest + catalog + loaded nodes (chat sends them as the system
	// message and the question as the user's).
	System  string `json:"-"`
	Context string `json:"-"`
	// PromptTokens counts the whole prompt (system + context + question).
	PromptTokens int          `json:"prompt_tokens"`
	Loaded       int          `json:"loaded"`
	Relevant     int          `json:"relevant"`
	NotLoaded    int          `json:"not_loaded"`
	Seeds        []ConceptHit `json:"seed_concepts"`
	// Limits are the budgets a request with this window may ask for (the
	// page's slider): the window of the request or its model, else none.
	Limits assemble.Limits `json:"limits"`
	// ConceptHops is the hop distance of every concept within HopReach
	// related edges of the seeds (seeds are 0), the walk the hop signal
	// uses; a content node's distance (its candidate's Hops) is one more
	// than its nearest concept's.
	ConceptHops map[string]int        `json:"concept_hops"`
	Candidates  []*assemble.Candidate `json:"candidates"`
	Timing      Timing                `json:"timing"`
	// Warnings name what the question could not use (a node whose stored
	// text is missing or damaged), for the person, not the model.
	Warnings []string `json:"warnings,omitempty"`
}

// LoadedCandidates are the loaded candidates in load order.
func (r *QueryResult) LoadedCandidates() []*assemble.Candidate {
	var out []*assemble.Candidate
	for _, c := range r.Candidates {
		if c.Loaded {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// checkQuestion refuses questions no search can serve, with a sentence a
// person can act on.
func CheckQuestion(q string) (string, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return "", errs.E(errs.Invalid, "the question is empty: type what you want to know")
	}
	if len(q) > MaxQuestionBytes {
		return "", errs.E(errs.Invalid, "the question is %d KB, longer than the %d KB a question may be: put long material in a file and ingest it, then ask about it", len(q)>>10, MaxQuestionBytes>>10)
	}
	if !strings.ContainsFunc(q, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return "", errs.E(errs.Invalid, "the question has no words to search for (only punctuation or symbols)")
	}
	return q, nil
}

// Query assembles the minimum relevant context for a question within its
// budget (seed §5–§6), in five steps: classify the question, gather the
// candidates, score them, select what loads (and at which level), render
// the manifest and the prompt. It reads the in-memory working index only;
// loaded nodes get their access time updated (persisted in the background
// with the next write, or on Close) unless NoTouch.
func (w *Pipeline) Query(ctx context.Context, req QueryRequest) (*QueryResult, error) {
	t0 := time.Now()
	a, err := w.parse(ctx, req)
	if err != nil {
		return nil, err
	}
	cls := classify.Classify(a.question)
	tClassify := time.Since(t0)

	w.ws.Lock()
	defer w.ws.Unlock()
	run, err := w.start(ctx, a, cls)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	if err := run.gather(ctx); err != nil {
		return nil, err
	}
	defer run.pool.release()
	t2 := time.Now()
	run.score()
	t3 := time.Now()
	if err := run.choose(ctx); err != nil {
		return nil, err
	}
	t4 := time.Now()
	res := run.render()
	if !req.NoTouch {
		w.ws.Touch(run.asm.Selection.Loaded)
	}
	res.Timing = Timing{Classify: tClassify.Microseconds(), Candidates: t2.Sub(t1).Microseconds(), Score: t3.Sub(t2).Microseconds(),
		Select: t4.Sub(t3).Microseconds(), Assemble: time.Since(t4).Microseconds(), Total: time.Since(t0).Microseconds()}
	return res, nil
}

// ask is a request checked and read: the question, its settings, and the
// window it is to fit (from the request, or the model's).
type ask struct {
	req      QueryRequest
	question string
	purpose  assemble.Purpose
	level    assemble.Level
	strategy Strategy
	// window and source say which window the split plans (0: the budget
	// alone decides).
	window int
	source string
}

// parse checks a request and reads the model's window when it names a
// model and gives neither a budget nor a window.
func (w *Pipeline) parse(ctx context.Context, req QueryRequest) (*ask, error) {
	q, err := CheckQuestion(req.Question)
	if err != nil {
		return nil, err
	}
	a := &ask{req: req, question: q, window: req.Window, source: "window"}
	if a.purpose, err = assemble.ParsePurpose(req.Purpose); err != nil {
		return nil, err
	}
	if a.level, err = assemble.ParseLevel(req.Level); err != nil {
		return nil, err
	}
	if a.strategy, err = ParseStrategy(req.Strategy); err != nil {
		return nil, err
	}
	if req.Budget < 0 || req.Window < 0 {
		return nil, errs.E(errs.Invalid, "the budget and window must be positive numbers of tokens")
	}
	if req.Budget > assemble.MaxTokens || req.Window > assemble.MaxTokens {
		return nil, errs.E(errs.Invalid, "a budget or window of more than %d tokens (10 Mi, beyond the largest window of any model) is not possible", assemble.MaxTokens)
	}
	if req.Model != "" && req.Window == 0 && req.Budget == 0 {
		if w.ws.ModelWindow() == nil {
			return nil, errs.E(errs.Invalid, "cannot read the window of model %q: no Ollama is configured; give --budget or --window", req.Model)
		}
		n, err := w.ws.ModelWindow()(ctx, req.Model)
		if err != nil {
			return nil, err
		}
		a.window, a.source = n, "model "+req.Model
	}
	return a, nil
}

// run is one question on its way through the pipeline, under the
// workspace's lock.
type run struct {
	w     *Pipeline
	ask   *ask
	cls   classify.Classification
	e     embed.Embedder
	r     *index.Search
	count assemble.Counter
	cfg   assemble.Config
	// split is the window planned for the question; weights the purpose's
	// (semantic relevance alone for the baselines).
	split   assemble.Split
	weights assemble.Weights
	pool    *pool
	cands   []*assemble.Candidate
	asm     *assemble.Assembly
}

// start opens the question's run: the embedder, the search index, the
// token counter and the window's split.
func (w *Pipeline) start(ctx context.Context, a *ask, cls classify.Classification) (*run, error) {
	e, err := w.ws.Embedder(ctx)
	if err != nil {
		return nil, err
	}
	r, err := w.ws.Search(ctx)
	if err != nil {
		return nil, err
	}
	count, err := w.memoCounter()
	if err != nil {
		return nil, err
	}
	cfg := w.ws.RankingConfig()
	split, err := assemble.PlanSplit(assemble.SplitRequest{
		Window: a.window, WindowSource: a.source, Budget: a.req.Budget,
		System: count(cfg.SystemPrompt), Question: count(assemble.QuestionText(a.question)),
		Reserve: cfg.OutputReserve, Complexity: cls.Complexity,
	})
	if err != nil {
		return nil, err
	}
	return &run{w: w, ask: a, cls: cls, e: e, r: r, count: count, cfg: cfg, split: split}, nil
}

// gather is the candidates step: keyword, phrase and vector scores for
// every slot, fused; the best hits, their families, the nodes about the
// question's concepts and the pinned nodes make the pool.
func (run *run) gather(ctx context.Context) error {
	qv, err := run.e.Embed(ctx, []string{run.ask.question})
	if err != nil {
		return fmt.Errorf("embed the question with %s: %w", run.e.ID(), err)
	}
	run.pool = newPool(run.w, run.r, run.ask.question, qv[0], run.ask.req, run.ask.strategy, run.cfg)
	return nil
}

// score is the scoring step: every candidate's signals, the composite
// score by the purpose's weights, the relevance cut.
func (run *run) score() {
	run.weights = run.cfg.Weights(run.ask.purpose)
	if run.ask.strategy != StrategyLoom {
		run.weights = assemble.Weights{assemble.Semantic: 1}
	}
	run.cands = run.pool.candidates(run.split.Context)
	rcfg := run.cfg
	if run.ask.strategy != StrategyLoom { // baselines: rank order, no relevance cut
		rcfg.RelevanceCut, rcfg.MinSemantic, rcfg.SemanticCut, rcfg.MaxRelevant = 0, 0, 0, run.ask.req.Top
	}
	assemble.Rank(run.cands, run.weights, rcfg)
}

// choose is the selection step: the decision tree picks what loads within
// the split and at which level (reading texts and making summaries ahead),
// and assembles the context.
func (run *run) choose(ctx context.Context) error {
	a, w := run.ask, run.w
	opts := assemble.SelectOptions{Level: a.level, Oversize: run.cfg.Oversize, Novelty: run.weights[assemble.Novelty]}
	if a.strategy != StrategyLoom {
		opts = assemble.SelectOptions{Level: assemble.Detailed, Oversize: 1}
	}
	catalog := ""
	if !a.req.NoCatalog && a.strategy == StrategyLoom {
		catalog = w.catalog(run.pool)
	}
	var pre *levels.Prefetched // the texts read and summaries made ahead
	opts.Prefetch = func(cs []*assemble.Candidate) { pre = w.lv.Prefetch(ctx, cs) }
	text := func(c *assemble.Candidate, l assemble.Level) (string, error) {
		return w.lv.TextAt(ctx, c, l, run.pool.terms, run.count, pre)
	}
	var err error
	if a.strategy == StrategyWholeFile {
		run.asm, run.cands, err = w.wholeFile(run.cands, run.split, run.cfg.SystemPrompt, a.question, run.count)
	} else {
		run.asm, err = assemble.Assemble(run.cands, run.split, opts, run.cfg.SystemPrompt, a.question, catalog, run.count, text)
	}
	return err
}

// render is the last step: the result, with the prompt and its parts, the
// split as spent, every candidate and the warnings.
func (run *run) render() *QueryResult {
	a, asm := run.ask, run.asm
	res := &QueryResult{Question: a.question, Purpose: string(a.purpose), Level: string(a.level), Strategy: string(a.strategy),
		QueryType: run.cls.Type.String(), Complexity: round3(run.cls.Complexity), Embedder: run.e.ID(), Weights: run.weights,
		Seeds: run.pool.seeds, ConceptHops: run.pool.dist,
		Limits: assemble.BudgetLimits(a.window, run.split.System, run.cfg.OutputReserve)}
	res.Split, res.Branch = asm.Split, string(asm.Selection.Branch)
	res.Manifest, res.Catalog, res.Prompt = asm.Manifest, asm.Catalog, asm.Prompt
	res.System, res.Context = run.cfg.SystemPrompt, asm.Context
	// The context was measured whole; system prompt and question were
	// counted apart (they are separated by blank lines, where BPE splits).
	res.PromptTokens = asm.Split.System + asm.Split.Question + asm.Split.Context - asm.Split.Free + 2
	res.Loaded, res.Relevant, res.NotLoaded = len(asm.Selection.Loaded), asm.Selection.Relevant, asm.Selection.NotLoaded
	res.Candidates = run.cands
	for _, c := range run.cands {
		if c.Unavailable != "" {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s (%s) was left out: %s", c.ID, c.Ref, c.Unavailable))
		}
		// Vec is a row of the vector matrix, which may be a mapped file
		// (adoptRows): it is not to outlive the question.
		c.Vec = nil
	}
	return res
}

// Limits are the context budgets a request may ask for with a model of
// this window (0: none known). It does not wait for the workspace's lock
// (the ranking settings are fixed when the workspace opens), so the page
// can ask while an ingest runs.
func (w *Pipeline) Limits(window int) (assemble.Limits, error) {
	cfg := w.ws.RankingConfig()
	return assemble.BudgetLimits(window, tokens.Default().Count(cfg.SystemPrompt), cfg.OutputReserve), nil
}

// memoCounter counts tokens, remembering short strings (the system prompt,
// block headers and manifest lines recur from query to query; tiktoken's
// pre-tokeniser is the query path's largest cost).
func (w *Pipeline) memoCounter() (assemble.Counter, error) {
	count, err := w.ws.Counter()
	if err != nil {
		return nil, err
	}
	return func(s string) int {
		if len(s) > 1024 {
			return count(s)
		}
		if n, ok := w.sysTokens[s]; ok {
			return n
		}
		if w.sysTokens == nil || len(w.sysTokens) > 200000 {
			w.sysTokens = map[string]int{}
		}
		n := count(s)
		w.sysTokens[s] = n
		return n
	}, nil
}

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
	dist                     map[string]int // concept → hops from the seeds
	sc                       *index.Scratch // per-slot arrays, returned by release
	fused                    []float32      // semantic relevance of every slot
	est                      *estimate      // non-nil when cos holds estimates for some slots
}

func newPool(w *Pipeline, r *index.Search, q string, qv []float32, req QueryRequest, strategy Strategy, cfg assemble.Config) *pool {
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
	if req.Scope != "" && req.Scope != "all" {
		in := make([]bool, n) // the scope's slots, from its documents
		for id, d := range r.Graph.Docs {
			if d.InCollection(req.Scope) {
				for _, nid := range r.Graph.DocNodes[id] {
					if sl, ok := r.Slot[nid]; ok {
						in[sl] = true
					}
				}
			}
		}
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
// mean cosine, which embedders like GloVe put well above 0), as computed
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
		c := &assemble.Candidate{ID: id, Ref: n.Ref, Ancestors: n.Ancestors, Title: nodeTitle(d, n), Source: string(n.Kind), Tokens: n.Tokens,
			Keyword: round4(float64(p.kw[s])), Cosine: round4(p.cosine(s)), Pinned: p.pinned[id], Hops: -1,
			Vec: p.r.Vectors.Row(s)}
		f := &facts[i]
		f.Semantic = round4(p.semantic(s))
		if n.Parent != "" && p.cfg.Inherit > 0 {
			if ps, ok := p.r.Slot[n.Parent]; ok {
				f.Semantic = round4(max(f.Semantic, p.cfg.Inherit*p.semantic(ps)))
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
	if n.Parts > 1 {
		t += fmt.Sprintf(" (part %d/%d)", n.Part, n.Parts)
	}
	return strings.TrimSpace(t)
}

func round4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }

// catalog is the short "what exists" block (context-loading-jit tier 2):
// counts, the documents the candidates came from, the concepts near the
// question.
func (w *Pipeline) catalog(p *pool) string {
	ix := p.r.Graph
	var b strings.Builder
	fmt.Fprintf(&b, "[Catalog: %d documents, %d sections, %d concepts in this workspace]", len(ix.Docs), len(p.r.Slot), len(ix.Concepts))
	seen := map[string]bool{}
	var docs []string
	for _, s := range p.slots {
		n := ix.Nodes[p.r.IDs[s]]
		if d := ix.Docs[n.DocID]; d != nil && !seen[d.ID] && len(docs) < 6 {
			seen[d.ID] = true
			docs = append(docs, fmt.Sprintf("%s (%d sections)", d.Path, len(ix.DocNodes[d.ID])))
		}
	}
	if len(docs) > 0 {
		fmt.Fprintf(&b, "\n[Documents near this question: %s]", strings.Join(docs, "; "))
	}
	var names []string
	for _, s := range p.seeds {
		if len(names) < 8 {
			names = append(names, clean(s.Name))
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(&b, "\n[Concepts near this question: %s]", strings.Join(names, "; "))
	}
	return b.String()
}

// clean is assemble.Clean, with ";" (the catalog's separator) as ",".
func clean(s string) string { return strings.ReplaceAll(assemble.Clean(s), ";", ",") }

// wholeFile is the whole-file baseline: the files of the best hits, whole,
// in rank order, while they fit (the first always loads).
func (w *Pipeline) wholeFile(ranked []*assemble.Candidate, split assemble.Split, system, q string, count assemble.Counter) (*assemble.Assembly, []*assemble.Candidate, error) {
	ix := w.ws.CurrentIndex()
	var out, loaded []*assemble.Candidate
	var blocks []assemble.Block
	used := 0
	seen := map[string]bool{}
	for _, c := range ranked {
		n := ix.Nodes[c.ID]
		if n == nil || seen[n.DocID] {
			continue
		}
		seen[n.DocID] = true
		size := 0
		for _, nid := range ix.DocNodes[n.DocID] {
			size += ix.Nodes[nid].Tokens
		}
		if used > 0 && used+size > split.Context {
			continue
		}
		for _, nid := range ix.DocNodes[n.DocID] {
			m := ix.Nodes[nid]
			if !index.Searchable(m) {
				continue
			}
			mc := &assemble.Candidate{ID: m.ID, Ref: m.Ref, Ancestors: m.Ancestors, Title: nodeTitle(ix.Docs[m.DocID], m), Source: string(m.Kind),
				Tokens: m.Tokens, Score: c.Score, Relevant: true, Loaded: true, Level: assemble.Detailed, LoadedTokens: m.Tokens,
				Reason: "whole-file baseline: the whole file of a top hit", Signals: c.Signals, Hops: -1}
			if d := ix.Docs[m.DocID]; d != nil {
				mc.Document, mc.Collection = d.Path, d.Collection
			}
			t, err := w.ws.Content(m.ContentHash)
			if err != nil {
				return nil, nil, err
			}
			blocks = append(blocks, assemble.Block{Candidate: mc, Text: t})
			loaded = append(loaded, mc)
			out = append(out, mc)
			used += m.Tokens
		}
	}
	manifest := assemble.Manifest(loaded, len(loaded), 0)
	ctxText := assemble.ContextText(manifest, "", blocks)
	sp := split
	sp.Loaded, sp.Manifest = used, count(manifest)
	sp.Free = max(0, sp.Context-sp.Loaded-sp.Manifest)
	return &assemble.Assembly{Split: sp, Selection: assemble.Selection{Branch: "whole-file", Loaded: loaded, Relevant: len(loaded), Used: used},
		Manifest: manifest, Context: ctxText, Prompt: assemble.Prompt(system, ctxText, q), Blocks: blocks}, out, nil
}

// FileTokens is the size of the whole file at a reference path (the
// whole-file baseline's cost), over every collection that holds it.
func (w *Pipeline) FileTokens(path string) int {
	w.ws.Lock()
	defer w.ws.Unlock()
	if w.ws.CurrentIndex() == nil {
		return 0
	}
	total := 0
	for id, d := range w.ws.CurrentIndex().Docs {
		if d.Path != path && d.Key != path {
			continue
		}
		for _, nid := range w.ws.CurrentIndex().DocNodes[id] {
			if n := w.ws.CurrentIndex().Nodes[nid]; n != nil && index.Searchable(n) {
				total += n.Tokens
			}
		}
	}
	return total
}
