package backend

import (
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/query"
	"github.com/loomwork/loom/backend/tokens"
)

// The query pipeline's types (backend/query).
type (
	QueryRequest = query.QueryRequest
	QueryResult  = query.QueryResult
	Strategy     = query.Strategy
	ConceptHit   = query.ConceptHit
	Timing       = query.Timing
	// Limits are the budgets a request may ask for (assemble).
	Limits = assemble.Limits
)

// The strategies a question can be answered with.
const (
	StrategyLoom      = query.StrategyLoom
	StrategyWholeFile = query.StrategyWholeFile
	StrategyBM25      = query.StrategyBM25
	StrategyVector    = query.StrategyVector
	StrategyHybrid    = query.StrategyHybrid
)

// The modes SearchContext searches in (query.SearchModes).
const (
	SearchHybrid   = query.SearchHybrid
	SearchKeyword  = query.SearchKeyword
	SearchSemantic = query.SearchSemantic
	SearchRegex    = query.SearchRegex
)

// SearchModes lists them in a stable order.
var SearchModes = query.SearchModes

// MaxQuestionBytes bounds a question.
const MaxQuestionBytes = query.MaxQuestionBytes

// ParseStrategy reads a strategy name; "" is StrategyLoom.
func ParseStrategy(s string) (Strategy, error) { return query.ParseStrategy(s) }

// DefaultBudgetLimits are the budgets a question may ask for in a window
// under the default ranking settings (no workspace open).
func DefaultBudgetLimits(window int) Limits {
	cfg := assemble.DefaultConfig()
	return assemble.BudgetLimits(window, tokens.Default().Count(cfg.SystemPrompt), cfg.OutputReserve)
}

// Strategies lists the strategies in a stable order.
var Strategies = query.Strategies
