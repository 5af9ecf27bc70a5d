package query

import (
	"context"
	"strings"
	"unicode"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/errs"
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
			return nil, errs.E(errs.Invalid, "cannot read the window of model %q: no model server is configured; give --budget or --window", req.Model)
		}
		n, err := w.ws.ModelWindow()(ctx, req.Model)
		if err != nil {
			return nil, err
		}
		a.window, a.source = n, "model "+req.Model
	}
	return a, nil
}
