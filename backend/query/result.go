package query

import (
	"sort"

	"github.com/loomwork/loom/backend/assemble"
)

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
	PromptTokens int `json:"prompt_tokens"`
	Loaded       int `json:"loaded"`
	Relevant     int `json:"relevant"`
	NotLoaded    int `json:"not_loaded"`
	// Near counts the loaded nodes that are near the question, not
	// relevant: a context larger than assemble.RelevanceBudget takes them
	// beyond it (Loaded counts them too).
	Near int `json:"near,omitempty"`
	// RelevanceBudget is the budget relevance is judged at
	// (assemble.RelevanceBudget), given when Near is not 0: the page says
	// beyond how many tokens those nodes were taken.
	RelevanceBudget int          `json:"relevance_budget,omitempty"`
	Seeds           []ConceptHit `json:"seed_concepts"`
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
