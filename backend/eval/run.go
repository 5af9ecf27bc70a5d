package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/loomwork/loom/backend"
)

// Options configure a run.
type Options struct {
	Strategy string
	Budget   int
	Purpose  string
	Level    string
	// Top caps the nodes a baseline loads (0: fill the budget).
	Top int
	// Candidates is the pool size per query (ranking needs ≥ 100 documents).
	Candidates int
	// Progress, when set, hears after each query.
	Progress func(done, total int)
}

// QueryReport is one query's outcome.
type QueryReport struct {
	ID              string  `json:"id"`
	Query           string  `json:"query"`
	Precision       float64 `json:"precision"`
	Recall          float64 `json:"recall"`
	F1              float64 `json:"f1"`
	StrictPrecision float64 `json:"strict_precision"`
	StrictRecall    float64 `json:"strict_recall"`
	TokensLoaded    int     `json:"tokens_loaded"`
	WholeFileTokens int     `json:"whole_file_tokens"`
	TokenRatio      float64 `json:"token_ratio"`
	// FrameTokens is what the context spends besides the nodes' text: the
	// manifest, the catalog, the block headers and separators.
	FrameTokens int `json:"frame_tokens"`
	// FrameShare is FrameTokens over the budget.
	FrameShare float64 `json:"frame_share"`
	// TokenRatioFramed is TokenRatio with the frame counted as loaded.
	TokenRatioFramed float64 `json:"token_ratio_framed"`
	NDCG10           float64 `json:"ndcg@10"`
	Recall100        float64 `json:"recall@100"`
	MRR10            float64 `json:"mrr@10"`
	// CeilingPrecision and CeilingRecall are what a perfect stop in the
	// first CeilingDepth candidates of the ranking would score
	// (StopCeiling).
	CeilingPrecision float64 `json:"ceiling_precision"`
	CeilingRecall    float64 `json:"ceiling_recall"`
	// FileAcc5 and DefAcc5 are 1 when an answering file (definition) is
	// among the first five distinct files (definitions) of the ranking.
	FileAcc5 float64  `json:"file_acc@5"`
	DefAcc5  float64  `json:"def_acc@5"`
	Ms       float64  `json:"ms"`
	Loaded   []string `json:"loaded"`
	Missed   []string `json:"missed,omitempty"`
}

// Report aggregates a run: means over queries, latency percentiles.
type Report struct {
	Strategy        string  `json:"strategy"`
	Budget          int     `json:"budget"`
	Queries         int     `json:"queries"`
	Precision       float64 `json:"precision"`
	Recall          float64 `json:"recall"`
	F1              float64 `json:"f1"`
	StrictPrecision float64 `json:"strict_precision"`
	StrictRecall    float64 `json:"strict_recall"`
	TokenRatio      float64 `json:"token_ratio"`
	TokensLoaded    float64 `json:"tokens_loaded"`
	// FrameTokens, FrameShare and TokenRatioFramed are the per-query means
	// (see QueryReport).
	FrameTokens      float64       `json:"frame_tokens"`
	FrameShare       float64       `json:"frame_share"`
	TokenRatioFramed float64       `json:"token_ratio_framed"`
	NDCG10           float64       `json:"ndcg@10"`
	Recall100        float64       `json:"recall@100"`
	MRR10            float64       `json:"mrr@10"`
	CeilingPrecision float64       `json:"ceiling_precision"`
	CeilingRecall    float64       `json:"ceiling_recall"`
	FileAcc5         float64       `json:"file_acc@5"`
	DefAcc5          float64       `json:"def_acc@5"`
	P50              float64       `json:"p50_ms"`
	P99              float64       `json:"p99_ms"`
	PerQuery         []QueryReport `json:"per_query,omitempty"`
}

// Run asks every query of the workspace (without touching access times)
// and scores what was loaded and how candidates were ranked.
func Run(ctx context.Context, wb *backend.Workbench, qs []Query, o Options) (*Report, error) {
	if o.Budget <= 0 {
		o.Budget = 2000
	}
	if o.Strategy == "" {
		o.Strategy = string(backend.StrategyLoom)
	}
	if o.Candidates <= 0 {
		o.Candidates = 200
	}
	rep := &Report{Strategy: o.Strategy, Budget: o.Budget, Queries: len(qs)}
	// Load indexes and the token table before the clock starts: latency is
	// per question, not the first question's cold start.
	if err := wb.Warm(ctx); err != nil {
		return nil, err
	}
	for i, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := wb.Query(ctx, backend.QueryRequest{Question: q.Text, Budget: o.Budget, Purpose: o.Purpose, Level: o.Level,
			Strategy: o.Strategy, Top: o.Top, Candidates: o.Candidates, NoTouch: true})
		if err != nil {
			return nil, fmt.Errorf("query %s (%q): %w", q.ID, q.Text, err)
		}
		qr := QueryReport{ID: q.ID, Query: q.Text, Ms: float64(res.Timing.Total) / 1000}
		var loaded, prefix []Loaded
		var ranked, rankedFiles, rankedDefs []string
		seen := map[string]bool{}
		for _, c := range res.Candidates {
			rankedFiles = append(rankedFiles, FileOf(c.Ref))
			if isDefinition(c.Ref) {
				rankedDefs = append(rankedDefs, c.Ref)
			}
			if len(prefix) < CeilingDepth {
				prefix = append(prefix, Loaded{Ref: c.Ref, Ancestors: c.Ancestors, Tokens: c.Tokens})
			}
			if c.Loaded {
				loaded = append(loaded, Loaded{Ref: c.Ref, Ancestors: c.Ancestors, Tokens: c.LoadedTokens})
				qr.TokensLoaded += c.LoadedTokens
				qr.Loaded = append(qr.Loaded, c.Ref)
			}
			// A document (or section) ranks as its best node; a node
			// counts for the labelled section that encloses it.
			ref := c.Ref
			for _, a := range c.Ancestors {
				if q.Relevant[a] > 0 && q.Relevant[ref] == 0 {
					ref = a
				}
			}
			if !seen[ref] {
				seen[ref] = true
				ranked = append(ranked, ref)
			}
		}
		s, strict := Set(loaded, q.Relevant, false), Set(loaded, q.Relevant, true)
		qr.Precision, qr.Recall, qr.F1 = s.Precision, s.Recall, s.F1
		qr.StrictPrecision, qr.StrictRecall = strict.Precision, strict.Recall
		ceil := StopCeiling(prefix, q.Relevant, CeilingDepth)
		qr.CeilingPrecision, qr.CeilingRecall = ceil.Precision, ceil.Recall
		files := map[string]bool{}
		for ref := range q.Relevant {
			path := ref
			if i := strings.IndexByte(ref, '#'); i >= 0 {
				path = ref[:i]
			}
			files[path] = true
		}
		for f := range files {
			qr.WholeFileTokens += wb.FileTokens(f)
		}
		// The frame as the prompt has it: the whole prompt counted, less
		// the system prompt, the question and the nodes' text. The
		// assembly's own split is an upper bound (it adds up parts
		// without counting the whole, for speed).
		whole, err := wb.CountTokens(res.Prompt)
		if err != nil {
			return nil, err
		}
		qr.FrameTokens = max(0, whole-res.Split.System-res.Split.Question-res.Split.Loaded)
		qr.FrameShare = float64(qr.FrameTokens) / float64(o.Budget)
		if qr.WholeFileTokens > 0 {
			qr.TokenRatio = float64(qr.TokensLoaded) / float64(qr.WholeFileTokens)
			qr.TokenRatioFramed = float64(qr.TokensLoaded+qr.FrameTokens) / float64(qr.WholeFileTokens)
		}
		for ref := range q.Relevant {
			hit := false
			for _, l := range loaded {
				for _, r := range matches(l, q.Relevant, false) {
					hit = hit || r == ref
				}
			}
			if !hit {
				qr.Missed = append(qr.Missed, ref)
			}
		}
		slices.Sort(qr.Missed) // the same report from run to run
		qr.NDCG10, qr.Recall100, qr.MRR10 = NDCG(ranked, q.Relevant, 10), RecallAt(ranked, q.Relevant, 100), MRR(ranked, q.Relevant, 10)
		var defs []string
		for ref := range q.Relevant {
			defs = append(defs, ref)
		}
		qr.FileAcc5, qr.DefAcc5 = b2f(Acc(rankedFiles, q.files(), 5)), b2f(Acc(rankedDefs, defs, 5))
		rep.PerQuery = append(rep.PerQuery, qr)
		if o.Progress != nil {
			o.Progress(i+1, len(qs))
		}
	}
	return aggregate(o.Strategy, o.Budget, rep.PerQuery), nil
}

// aggregate makes the report of a strategy's queries: means over them,
// latency percentiles.
func aggregate(strategy string, budget int, qs []QueryReport) *Report {
	rep := &Report{Strategy: strategy, Budget: budget, Queries: len(qs), PerQuery: qs}
	var ms []float64
	n := float64(len(qs))
	for _, qr := range qs {
		ms = append(ms, qr.Ms)
		rep.Precision += qr.Precision / n
		rep.Recall += qr.Recall / n
		rep.F1 += qr.F1 / n
		rep.StrictPrecision += qr.StrictPrecision / n
		rep.StrictRecall += qr.StrictRecall / n
		rep.TokenRatio += qr.TokenRatio / n
		rep.TokensLoaded += float64(qr.TokensLoaded) / n
		rep.FrameTokens += float64(qr.FrameTokens) / n
		rep.FrameShare += qr.FrameShare / n
		rep.TokenRatioFramed += qr.TokenRatioFramed / n
		rep.NDCG10 += qr.NDCG10 / n
		rep.Recall100 += qr.Recall100 / n
		rep.MRR10 += qr.MRR10 / n
		rep.CeilingPrecision += qr.CeilingPrecision / n
		rep.CeilingRecall += qr.CeilingRecall / n
		rep.FileAcc5 += qr.FileAcc5 / n
		rep.DefAcc5 += qr.DefAcc5 / n
	}
	rep.P50, rep.P99 = Percentile(ms, 50), Percentile(ms, 99)
	return rep
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
