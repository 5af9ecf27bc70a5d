package query

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/classify"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/synthetic"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/levels"
	"github.com/loomwork/loom/backend/tokens"
)

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
	scope   *scope
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
	sc, err := w.resolveScope(ctx, a.req.Scope, false)
	if err != nil {
		return nil, err
	}
	count, err := w.memoCounter()
	if err != nil {
		return nil, err
	}
	cfg := w.ws.RankingConfig().ForEncoder(sentenceEncoder(e))
	split, err := assemble.PlanSplit(assemble.SplitRequest{
		Window: a.window, WindowSource: a.source, Budget: a.req.Budget,
		System: count(cfg.SystemPrompt), Question: count(assemble.QuestionText(a.question)),
		Reserve: cfg.OutputReserve, Complexity: cls.Complexity,
	})
	if err != nil {
		return nil, err
	}
	return &run{w: w, ask: a, cls: cls, e: e, r: r, scope: sc, count: count, cfg: cfg, split: split}, nil
}

// gather is the candidates step: keyword, phrase and vector scores for
// every slot, fused; the best hits, their families, the nodes about the
// question's concepts and the pinned nodes make the pool.
func (run *run) gather(ctx context.Context) error {
	qv, err := run.e.Embed(ctx, []string{run.ask.question})
	if err != nil {
		return fmt.Errorf("embed the question with %s: %w", run.e.ID(), err)
	}
	run.pool = newPool(run.w, run.r, run.ask.question, qv[0], run.ask.req, run.scope.slots(run.r), run.ask.strategy, run.cfg)
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
		rcfg.RelevanceCut, rcfg.BackgroundCut, rcfg.GapCut, rcfg.MinSemantic, rcfg.SemanticCut, rcfg.MaxRelevant = 0, 0, 0, 0, 0, run.ask.req.Top
		rcfg.CodeCut, rcfg.OtherFileCut = 0, 0
	}
	assemble.Rank(run.cands, run.weights, rcfg)
	if run.ask.strategy == StrategyLoom {
		run.pool.relevantNeighbours(run.cands, rcfg)
	}
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
	opts.UniqueAmong = run.r.SortedIDs()
	fresh := newFreshness(run.r.Graph)
	text := func(c *assemble.Candidate, l assemble.Level) (string, error) {
		t, err := w.lv.TextAt(ctx, c, l, run.pool.terms, run.count, pre)
		if err != nil {
			return t, err
		}
		return fresh.check(c, l, t), nil
	}
	var err error
	if a.level == assemble.Map && a.strategy == StrategyLoom {
		run.asm, err = repoMap(run.r, run.cands, run.split, run.cfg.SystemPrompt, a.question, run.count)
		return err
	}
	if a.strategy == StrategyWholeFile {
		run.asm, run.cands, err = w.wholeFile(run.cands, opts.UniqueAmong, run.split, run.cfg.SystemPrompt, a.question, run.count)
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
	res.Loaded, res.Relevant, res.NotLoaded, res.Near = len(asm.Selection.Loaded), asm.Selection.Relevant, asm.Selection.NotLoaded, asm.Selection.Near
	if res.Near > 0 {
		res.RelevanceBudget = assemble.RelevanceBudget
	}
	res.Candidates = run.cands
	for _, c := range run.cands {
		if c.Unavailable != "" {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s (%s) was left out: %s", c.ID, c.Ref, c.Unavailable))
		}
		if c.Stale != "" && c.Loaded {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s (%s) may be out of date: %s; re-ingest it", c.ID, c.Ref, c.Stale))
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

// sentenceEncoder reports whether e is a sentence encoder (the full MiniLM
// encoder, a model server's embedding model), not the offline table or the
// benchmarks' random vectors: the ranking's Encoder settings are for its
// vectors (assemble.Config.ForEncoder).
func sentenceEncoder(e embed.Embedder) bool {
	id := e.ID()
	return !strings.HasPrefix(id, embed.OfflinePrefix) && id != synthetic.ID
}
