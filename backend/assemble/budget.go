package assemble

import (
	"math"
)

// Split is how the model's window is spent (seed §6.1): the system prompt
// and question, the output reservation, and the loadable context — the
// manifest, the catalog, the loaded nodes and what is left free.
type Split struct {
	Window int `json:"window"`
	// WindowSource says where the window came from: "model <name>",
	// "window" (given) or "budget" (derived from a given context budget).
	WindowSource string  `json:"window_source"`
	System       int     `json:"system"`
	Question     int     `json:"question"`
	Output       int     `json:"output"`
	OutputShare  float64 `json:"output_share"`
	// Context = Manifest + Catalog + Loaded + Free; Manifest holds the
	// blocks' headers and separators too (the page's "Manifest and
	// headers").
	Context  int `json:"context"`
	Manifest int `json:"manifest"`
	Catalog  int `json:"catalog"`
	Loaded   int `json:"loaded"`
	Free     int `json:"free"`
}

// MinContext is the smallest context budget that holds a manifest and one
// small node; below it a query is refused with a clear error.
const MinContext = 48

// MaxTokens bounds a window or budget: 10 Mi tokens (10485760), the largest
// window of any model Ollama serves. Anything above is a mistake, and far
// above it the budget arithmetic would overflow.
const MaxTokens = 10 << 20

// SplitRequest describes the window: either Window (the model's context
// length) or Budget (the tokens for context alone) must be set.
type SplitRequest struct {
	Window       int
	WindowSource string
	Budget       int
	System       int
	Question     int
	// Reserve is the base output share (0.3); Complexity in [0, 1] from
	// the input classifier scales it between 0.75× and 1.25×.
	Reserve    float64
	Complexity float64
}

// MaxOutputShare caps the output reservation, so some of the window is
// always left for context.
const MaxOutputShare = 0.9

// OutputShare is the output reservation for a question of this complexity.
func OutputShare(reserve, complexity float64) float64 {
	return min(MaxOutputShare, reserve*(0.75+0.5*clamp01(complexity)))
}

// PlanSplit splits the window. With a window: output = share × window,
// context = window − system − question − output. With only a context
// budget: the window is what that budget implies at the same share, so the
// bar the UI draws is still the whole window.
func PlanSplit(r SplitRequest) (Split, error) {
	share := OutputShare(r.Reserve, r.Complexity)
	s := Split{System: r.System, Question: r.Question, OutputShare: round4(share)}
	switch {
	case r.Budget > 0:
		s.Context = r.Budget
		s.Window = int(math.Ceil(float64(r.Budget+r.System+r.Question) / (1 - share)))
		if r.Window > 0 && r.Window < s.Window {
			s.Window = r.Window
		}
		s.Output = s.Window - s.Context - s.System - s.Question
		s.WindowSource = "budget"
		if r.Window > 0 {
			s.WindowSource = r.WindowSource
		}
		if s.Output < 0 {
			return s, errUsage("a context budget of %d tokens does not fit a %d-token window with a %d-token system prompt and question", r.Budget, r.Window, r.System+r.Question)
		}
	case r.Window > 0:
		s.Window, s.WindowSource = r.Window, r.WindowSource
		if s.WindowSource == "" {
			s.WindowSource = "window"
		}
		s.Output = int(math.Round(share * float64(r.Window)))
		s.Context = r.Window - s.System - s.Question - s.Output
	default:
		return s, errUsage("no budget: give a context budget (--budget), a window (--window) or a model whose window Ollama reports (--model)")
	}
	if s.Context < MinContext {
		return s, errUsage("the budget leaves %d tokens for context, smaller than the manifest needs (at least %d): raise --budget or --window", s.Context, MinContext)
	}
	s.Free = s.Context
	return s, nil
}

// DefaultMaxBudget is the largest context budget offered when no window is
// known (a model's window decides it otherwise).
const DefaultMaxBudget = 32768

// Limits are the context budgets a request may ask for (the page's budget
// slider): from MinBudget up to MaxBudget, the most context the window
// holds once the system prompt and the largest output reservation any
// question can get are taken out.
type Limits struct {
	MinBudget int `json:"min_budget"`
	MaxBudget int `json:"max_budget"`
}

// BudgetLimits are the limits of a window (0: none known) with a system
// prompt of system tokens and the base output share reserve: the largest
// reservation is OutputShare at complexity 1; MaxBudget is in steps of 64
// tokens.
func BudgetLimits(window, system int, reserve float64) Limits {
	l := Limits{MinBudget: MinContext, MaxBudget: DefaultMaxBudget}
	if window > 0 {
		out := int(math.Ceil(OutputShare(reserve, 1) * float64(window)))
		l.MaxBudget = max(MinContext, (window-system-out)/64*64)
	}
	return l
}
