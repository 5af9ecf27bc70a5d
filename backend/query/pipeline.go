// Package query is the query pipeline: a question becomes the minimum
// relevant context that fits its budget (seed §5–§6) — classify the
// question, gather candidates (keyword, phrase and vector search fused,
// the best hits' families, the sections about the question's nearest
// concepts), score them (the ranking signals), select under the budget
// (the decision tree, abstraction levels, novelty) and render the manifest
// and the prompt. It also answers the tools a model uses for more context
// (search_context, expand, get_window, catalog).
//
//	p := query.New(ws, levels.New(ws))
//	res, err := p.Query(ctx, query.Request{Question: "…", Budget: 4000})
package query

import (
	"github.com/loomwork/loom/backend/levels"
	"github.com/loomwork/loom/backend/workspace"
)

// Pipeline answers questions over one workspace.
type Pipeline struct {
	ws *workspace.Workspace
	lv *levels.Levels
	// sysTokens caches token counts of system prompts and short strings.
	sysTokens map[string]int
}

// New returns the query pipeline of ws, reading texts at levels through lv.
func New(ws *workspace.Workspace, lv *levels.Levels) *Pipeline {
	return &Pipeline{ws: ws, lv: lv}
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
