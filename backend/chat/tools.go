package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// Tools gives a model more of the workspace during a turn. The Workbench
// implements it; Chat validates and defaults the arguments before calling
// (limit 1–20, level one of detailed/summary/essence, radius 1–200), so
// implementations see sane values. Every result should name the node ids
// it shows, in its Text as well as in NodeIDs, so the model can cite them,
// and their sources (Cites), so the reader can follow them.
type Tools interface {
	// SearchContext finds passages for query; scope is a collection name
	// or "cluster:" + a cluster's id, from the catalog, "" for all of them.
	SearchContext(ctx context.Context, query, scope string, limit int) (ToolResult, error)
	// Expand returns a node at an abstraction level: "detailed" (the full
	// text), "summary" or "essence".
	Expand(ctx context.Context, nodeID, level string) (ToolResult, error)
	// GetWindow returns the lines center-radius..center+radius of the
	// document that holds the node; center 0 means the node's first line.
	GetWindow(ctx context.Context, nodeID string, center, radius int) (ToolResult, error)
	// Catalog describes what the workspace holds: collections, documents,
	// concepts.
	Catalog(ctx context.Context) (ToolResult, error)
}

// ToolResult is what a tool returns to the model.
type ToolResult struct {
	// Text is sent to the model as the tool message; Chat may trim it at
	// a line boundary to stay within the turn's budget.
	Text string `json:"text"`
	// NodeIDs are the nodes Text shows.
	NodeIDs []string `json:"node_ids,omitempty"`
	// Cites are the human-readable references of those nodes, by id
	// (model.Cite).
	Cites map[string]string `json:"cites,omitempty"`
	// Tokens is the implementation's own count of Text (informative:
	// Chat recounts what it sends with Turn.Count).
	Tokens int `json:"tokens,omitempty"`
}

// ToolCall records one tool call the model made, for the audit log.
type ToolCall struct {
	// Round is the request (1-based) whose reply asked for the call.
	Round int `json:"round"`
	// Name and Args are what the model asked for (Args as it sent them).
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
	// NodeIDs are the node ids in what the model was sent (after
	// trimming); Tokens the Turn.Count of the tool message's text.
	NodeIDs []string `json:"node_ids,omitempty"`
	// Cites are the references of those nodes, by id, as the tool gave
	// them: the page labels its links with them.
	Cites  map[string]string `json:"cites,omitempty"`
	Tokens int               `json:"tokens"`
	// Trimmed says the result was cut to fit the budget.
	Trimmed bool `json:"trimmed,omitempty"`
	// Error says why the call was not run or failed (unknown tool, bad
	// arguments, a repeated call, budget exhausted, the tool's error);
	// the model was sent "error: " and this text.
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Names of the tools.
const (
	ToolSearchContext = "search_context"
	ToolExpand        = "expand"
	ToolGetWindow     = "get_window"
	ToolCatalog       = "catalog"
)

// Argument bounds the tool definitions promise and Chat enforces.
const (
	DefaultSearchLimit = 5
	MaxSearchLimit     = 20
	DefaultRadius      = 20
	MaxRadius          = 200
)

// Levels expand accepts.
var expandLevels = []string{"detailed", "summary", "essence"}

// Definitions returns the four tools as Ollama's /api/chat expects them,
// with JSON-schema parameters and descriptions that tell the model when to
// use each and to cite the node ids they return. Each call returns new
// values, safe to modify.
func Definitions() []api.Tool {
	str := func(desc string) api.ToolProperty {
		return api.ToolProperty{Type: api.PropertyType{"string"}, Description: desc}
	}
	integer := func(desc string) api.ToolProperty {
		return api.ToolProperty{Type: api.PropertyType{"integer"}, Description: desc}
	}
	type param struct {
		name string
		prop api.ToolProperty
	}
	tool := func(name, desc string, required []string, params ...param) api.Tool {
		p := api.NewToolPropertiesMap()
		for _, pr := range params {
			p.Set(pr.name, pr.prop)
		}
		return api.Tool{Type: "function", Function: api.ToolFunction{
			Name: name, Description: desc,
			Parameters: api.ToolFunctionParameters{Type: "object", Required: required, Properties: p},
		}}
	}
	level := str("How much of the node to read: \"detailed\" (the full text, the default), \"summary\" or \"essence\" (a few sentences).")
	level.Enum = []any{"detailed", "summary", "essence"}
	return []api.Tool{
		tool(ToolSearchContext,
			"Search the workspace for passages that are not in the context you were given. Use it when the loaded context does not answer the question, or the manifest lists relevant nodes as available but not loaded. Returns passages, each with its node id and its source (file, page, lines); cite the node ids you use in square brackets.",
			[]string{"query"},
			param{"query", str("What to look for: keywords or a short question.")},
			param{"scope", str("A collection name, or cluster:ID for a cluster of related concepts, from the catalog, to search in; empty searches everything.")},
			param{"limit", integer(fmt.Sprintf("How many passages to return (default %d, at most %d).", DefaultSearchLimit, MaxSearchLimit))},
		),
		tool(ToolExpand,
			"Read one node (by its node id from the context or a search result) at another level of detail, e.g. the full text of a node you only have a summary of. Returns it with its source; cite the node id in square brackets when you use it.",
			[]string{"node_id"},
			param{"node_id", str("The node id, exactly as shown; the several ids of one header (a long section's parts) may be given together.")},
			param{"level", level},
		),
		tool(ToolGetWindow,
			"Read the lines around a node in its source document, to see what comes just before or after a passage. Cite the node ids it returns in square brackets.",
			[]string{"node_id"},
			param{"node_id", str("The node id, exactly as shown.")},
			param{"center", integer("Line number in the document to centre on; 0 (the default) centres on the node's first line.")},
			param{"radius", integer(fmt.Sprintf("Lines to read on each side of center (default %d, at most %d).", DefaultRadius, MaxRadius))},
		),
		tool(ToolCatalog,
			"List what the workspace holds (collections, clusters of related concepts, documents, concepts) with their node ids. Use it to choose a search scope or to find where a topic lives.",
			nil,
		),
	}
}

// ToolGuide is appended to the system message when tools are offered.
func ToolGuide(maxRounds int) string {
	return fmt.Sprintf("You can call tools to read more of the workspace: search_context finds passages, expand reads a node at another level of detail, get_window reads the text around a node, catalog lists what exists. "+
		"Call a tool only when the context above does not answer the question; you have at most %d rounds of tool calls. "+
		"Every tool result names its node ids with their sources (file, page, lines), which the reader can open: cite the node ids you rely on in square brackets, e.g. [hpih].", maxRounds)
}

// runTool validates a call's arguments and runs it. A returned error is
// reported to the model as a tool message, never to the caller.
func runTool(ctx context.Context, tools Tools, name string, args map[string]any) (ToolResult, error) {
	switch name {
	case ToolSearchContext:
		query, err := stringArg(args, "query", true)
		if err != nil {
			return ToolResult{}, err
		}
		if strings.TrimSpace(query) == "" {
			return ToolResult{}, fmt.Errorf("query is empty: say what to look for")
		}
		scope, err := stringArg(args, "scope", false)
		if err != nil {
			return ToolResult{}, err
		}
		limit, err := intArg(args, "limit", DefaultSearchLimit, 1, MaxSearchLimit)
		if err != nil {
			return ToolResult{}, err
		}
		if strings.EqualFold(strings.TrimSpace(scope), "all") {
			scope = ""
		}
		return tools.SearchContext(ctx, query, strings.TrimSpace(scope), limit)
	case ToolExpand:
		id, err := nodeIDArg(args)
		if err != nil {
			return ToolResult{}, err
		}
		level, err := stringArg(args, "level", false)
		if err != nil {
			return ToolResult{}, err
		}
		level = strings.ToLower(strings.TrimSpace(level))
		if level == "" {
			level = "detailed"
		}
		if !slices.Contains(expandLevels, level) {
			return ToolResult{}, fmt.Errorf("level %q is not one of detailed, summary, essence", level)
		}
		return tools.Expand(ctx, id, level)
	case ToolGetWindow:
		id, err := nodeIDArg(args)
		if err != nil {
			return ToolResult{}, err
		}
		center, err := intArg(args, "center", 0, 0, math.MaxInt32)
		if err != nil {
			return ToolResult{}, err
		}
		radius, err := intArg(args, "radius", DefaultRadius, 1, MaxRadius)
		if err != nil {
			return ToolResult{}, err
		}
		return tools.GetWindow(ctx, id, center, radius)
	case ToolCatalog:
		return tools.Catalog(ctx)
	default:
		return ToolResult{}, fmt.Errorf("unknown tool %q: the tools are search_context, expand, get_window and catalog", name)
	}
}

func nodeIDArg(args map[string]any) (string, error) {
	id, err := stringArg(args, "node_id", true)
	if err != nil {
		return "", err
	}
	id = strings.Trim(strings.TrimSpace(id), "[]")
	if id == "" {
		return "", fmt.Errorf("node_id is empty: give a node id from the context or a search result")
	}
	return id, nil
}

// stringArg reads a string argument; small models sometimes send numbers
// for strings, which are accepted as their text.
func stringArg(args map[string]any, name string, required bool) (string, error) {
	v, ok := args[name]
	if !ok || v == nil {
		if required {
			return "", fmt.Errorf("missing argument %q", name)
		}
		return "", nil
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case float64, json.Number:
		return fmt.Sprint(v), nil
	default:
		return "", fmt.Errorf("argument %q must be a string, not %s", name, jsonType(v))
	}
}

// intArg reads a whole-number argument, given as a number or as a string
// of digits, defaulting when absent and clamping into [lo, hi].
func intArg(args map[string]any, name string, def, lo, hi int) (int, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case json.Number:
		x, err := v.Float64()
		if err != nil {
			return 0, fmt.Errorf("argument %q must be a whole number, not %q", name, v)
		}
		f = x
	case string:
		s := strings.TrimSpace(v)
		if s == "" {
			return def, nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("argument %q must be a whole number, not %q", name, v)
		}
		f = x
	default:
		return 0, fmt.Errorf("argument %q must be a whole number, not %s", name, jsonType(v))
	}
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("argument %q must be a whole number, not %v", name, f)
	}
	if f < float64(lo) {
		return 0, fmt.Errorf("argument %q must be at least %d, not %v", name, lo, f)
	}
	return int(min(f, float64(hi))), nil
}

func jsonType(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
