package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
)

// GetContextIn is get_context's input (context-query.md's ContextQuery).
type GetContextIn struct {
	Topic        string `json:"topic" jsonschema:"What the context is for: a question, a task or a topic, in words."`
	Purpose      string `json:"purpose,omitempty" jsonschema:"What the context is for, which weighs the ranking: answer (the default), verify (trust and provenance), explore and create (novelty), decide (recency)."`
	MaxTokens    int    `json:"max_tokens,omitempty" jsonschema:"Hard limit on the context's size in tokens (manifest and sections). Default 4000; more than the server's limit is clamped to it, and the result says so."`
	TargetTokens int    `json:"target_tokens,omitempty" jsonschema:"Preferred size in tokens, below max_tokens: the context is assembled for this size (never above max_tokens)."`
	Abstraction  string `json:"abstraction,omitempty" jsonschema:"How much of each section to load: adaptive (the default: full text while it fits, then summaries and essences), detailed, summary or essence; or map, for source code: a map of the files and the signatures of their key definitions, ranked by relevance and use."`
	Scope        string `json:"scope,omitempty" jsonschema:"Only this collection, or cluster:ID for only this cluster of related concepts (catalog lists both); empty for all."`
}

// ContextNode is one section the context loaded or left out.
type ContextNode struct {
	ID       string  `json:"id"`
	Cite     string  `json:"cite"`
	Title    string  `json:"title"`
	Document string  `json:"document"`
	Level    string  `json:"level,omitempty"`
	Tokens   int     `json:"tokens"`
	Score    float64 `json:"score"`
	Reason   string  `json:"reason"`
	URI      string  `json:"uri"`
}

// GetContextOut is get_context's result (context-query.md's
// ContextResult).
type GetContextOut struct {
	// Context is what to put before the model: the manifest, the catalog
	// and the loaded sections, each with its id and source.
	Context  string `json:"context"`
	Manifest string `json:"manifest"`
	Topic    string `json:"topic"`
	Purpose  string `json:"purpose"`
	// Abstraction is the level asked for; Branch the path the loading
	// decision took.
	Abstraction string `json:"abstraction"`
	Branch      string `json:"branch"`
	// MaxTokens is the budget used; RequestedMaxTokens what the call
	// asked, when it was clamped.
	MaxTokens          int  `json:"max_tokens"`
	RequestedMaxTokens int  `json:"requested_max_tokens,omitempty"`
	Clamped            bool `json:"clamped"`
	TokensUsed         int  `json:"tokens_used"`
	// Truncated: relevant sections were left out, or loaded condensed, to
	// fit the budget. Coverage is the share of the relevant sections
	// loaded (0–1).
	Truncated          bool          `json:"truncated"`
	Coverage           float64       `json:"coverage"`
	Relevant           int           `json:"relevant"`
	LoadedCount        int           `json:"loaded_count"`
	SelectionReasoning string        `json:"selection_reasoning"`
	ExpandableIDs      []string      `json:"expandable_ids"`
	Loaded             []ContextNode `json:"loaded"`
	// Available are relevant sections not loaded (best first).
	Available []ContextNode `json:"available"`
	Notes     []string      `json:"notes,omitempty"`
}

// SearchIn is search_context's input.
type SearchIn struct {
	Query string `json:"query" jsonschema:"What to look for: keywords or a short question; in regex mode a regular expression (RE2 syntax, (?i) ignores case)."`
	Scope string `json:"scope,omitempty" jsonschema:"A collection name, or cluster:ID for a cluster of related concepts, from the catalog, to search in; empty searches everything."`
	Limit int    `json:"limit,omitempty" jsonschema:"How many sections to return (default 5, at most 20)."`
	Mode  string `json:"mode,omitempty" jsonschema:"hybrid (the default: keywords and meaning), keyword (sections holding the words), semantic (meaning alone) or regex (a regular expression over the texts, in document order)."`
}

// ExpandIn is expand's input.
type ExpandIn struct {
	NodeID string `json:"node_id" jsonschema:"The node id, exactly as shown (e.g. hpih); the several ids of one header (a long section's parts) may be given together."`
	Level  string `json:"level,omitempty" jsonschema:"detailed (the full text, the default), summary, essence (a few sentences), neighbours (its enclosing section, subsections and sections sharing its concepts) or derivations (summaries and answers made from it)."`
}

// WindowIn is get_window's input.
type WindowIn struct {
	NodeID string `json:"node_id" jsonschema:"The node id, exactly as shown."`
	Offset int    `json:"offset,omitempty" jsonschema:"Where to centre the window, in lines from the node's first line: 0 (the default) is the node's first line, negative reads before it."`
	Radius int    `json:"radius,omitempty" jsonschema:"Lines to read on each side (default 20, at most 200)."`
}

// CatalogIn is catalog's input: none.
type CatalogIn struct{}

// IngestIn is ingest's input.
type IngestIn struct {
	Paths []string `json:"paths" jsonschema:"Files or folders to read into the workspace: absolute, or relative to an allowed folder. They must lie inside the workspace's library folders or the folders the server allows."`
	Prune bool     `json:"prune,omitempty" jsonschema:"Also remove documents under these folders whose files were deleted."`
}

// ToolOut is the result of search_context, expand, get_window and
// catalog: the text the model reads and the nodes it names.
type ToolOut struct {
	Text    string            `json:"text"`
	NodeIDs []string          `json:"node_ids"`
	Cites   map[string]string `json:"cites,omitempty"`
	Tokens  int               `json:"tokens"`
	// Trimmed: the text was cut at a line to stay within the result cap.
	Trimmed bool     `json:"trimmed,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	// Documents (catalog) are the workspace's documents, each readable as
	// its URI; DocumentsTotal counts them all when the list is cut.
	Documents      []DocumentEntry `json:"documents,omitempty"`
	DocumentsTotal int             `json:"documents_total,omitempty"`
}

// DocumentEntry is one document in the catalog.
type DocumentEntry struct {
	ID         string `json:"id"`
	Path       string `json:"path"`
	Title      string `json:"title,omitempty"`
	Collection string `json:"collection"`
	Sections   int    `json:"sections"`
	Tokens     int    `json:"tokens"`
	URI        string `json:"uri"`
}

// IngestOut is ingest's result.
type IngestOut struct {
	Files           int      `json:"files"`
	Added           int      `json:"added"`
	Updated         int      `json:"updated"`
	Unchanged       int      `json:"unchanged"`
	Removed         int      `json:"removed"`
	Nodes           int      `json:"nodes"`
	ConceptsCreated int      `json:"concepts_created"`
	Errors          []string `json:"errors"`
	Skipped         []string `json:"skipped"`
	Warnings        []string `json:"warnings,omitempty"`
	Summary         string   `json:"summary"`
}

func (s *Server) addTools() {
	addTool(s, &mcp.Tool{Name: ToolGetContext, Title: "Get context",
		Description: "Assemble the most useful context from the workspace for a topic within a token budget: Loom ranks sections by relevance, graph distance, recency, trust and novelty, loads the best (condensing them when they do not fit), and returns the context with a manifest of what it loaded and what it left out, the coverage, why it chose so, and the ids you can expand. Start here; cite the node ids in square brackets.",
		Annotations: readOnly("Get context")},
		withSchema[GetContextIn](func(sc *jsonschema.Schema) {
			enum(sc, "purpose", "answer", "verify", "explore", "decide", "create")
			enum(sc, "abstraction", "adaptive", "detailed", "summary", "essence", "map")
			sc.Properties["max_tokens"].Default = json.RawMessage(fmt.Sprint(DefaultMaxTokens))
			sc.Properties["topic"].MinLength = jsonschema.Ptr(1)
		}), s.getContext)
	addTool(s, &mcp.Tool{Name: ToolSearchContext, Title: "Search context",
		Description: "Search the workspace for passages not in the context you have: hybrid (keywords and meaning), keyword, semantic or regex. Returns sections, each with its node id and source (file, page, lines); cite the node ids you use in square brackets.",
		Annotations: readOnly("Search context")},
		withSchema[SearchIn](func(sc *jsonschema.Schema) {
			enum(sc, "mode", backend.SearchModes...)
			sc.Properties["limit"].Default = json.RawMessage(fmt.Sprint(chat.DefaultSearchLimit))
			sc.Properties["query"].MinLength = jsonschema.Ptr(1)
		}), s.searchContext)
	addTool(s, &mcp.Tool{Name: ToolExpand, Title: "Expand a node",
		Description: "Read one node (by its id from get_context, a search or the catalog) at another level of detail — e.g. the full text of a section you only have a summary of — or list its neighbours or what was derived from it.",
		Annotations: readOnly("Expand a node")},
		withSchema[ExpandIn](func(sc *jsonschema.Schema) {
			enum(sc, "level", "detailed", "summary", "essence", "neighbours", "derivations")
			sc.Properties["node_id"].MinLength = jsonschema.Ptr(1)
		}), s.expand)
	addTool(s, &mcp.Tool{Name: ToolGetWindow, Title: "Read around a node",
		Description: "Read the lines around a node in its source document, to see what comes just before or after a passage. Cite the node ids it returns in square brackets.",
		Annotations: readOnly("Read around a node")},
		withSchema[WindowIn](func(sc *jsonschema.Schema) {
			sc.Properties["radius"].Default = json.RawMessage(fmt.Sprint(chat.DefaultRadius))
			sc.Properties["node_id"].MinLength = jsonschema.Ptr(1)
		}), s.getWindow)
	addTool(s, &mcp.Tool{Name: ToolCatalog, Title: "Catalog",
		Description: "List what the workspace holds: collections and clusters of related concepts (use them as a search scope), documents with their ids and sizes (read one as the resource loom://document/{id}), and the main concepts.",
		Annotations: readOnly("Catalog")},
		withSchema[CatalogIn](nil), s.catalog)
	if s.opts.AllowIngest {
		addTool(s, &mcp.Tool{Name: ToolIngest, Title: "Ingest files",
			Description: "Read files or folders into the workspace (Markdown, text, PDF, HTML, DOCX, BibTeX, code…). Only paths inside the workspace's library folders or the folders this server allows are accepted: " + strings.Join(s.roots, ", ") + ".",
			Annotations: &mcp.ToolAnnotations{Title: "Ingest files", DestructiveHint: jsonschema.Ptr(false), IdempotentHint: true, OpenWorldHint: jsonschema.Ptr(false)}},
			withSchema[IngestIn](func(sc *jsonschema.Schema) {
				sc.Properties["paths"].MinItems = jsonschema.Ptr(1)
				sc.Properties["paths"].MaxItems = jsonschema.Ptr(MaxIngestPaths)
			}), s.ingest)
	}
}

func addTool[In, Out any](s *Server, t *mcp.Tool, schema *jsonschema.Schema, h mcp.ToolHandlerFor[In, Out]) {
	t.InputSchema = schema
	mcp.AddTool(s.srv, t, h)
	s.tools = append(s.tools, t.Name)
}

func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: jsonschema.Ptr(false)}
}

// withSchema is the input schema inferred from In, adjusted by more.
func withSchema[In any](more func(*jsonschema.Schema)) *jsonschema.Schema {
	sc, err := jsonschema.For[In](nil)
	if err != nil {
		panic(err) // the types above are fixed: a bug
	}
	if sc.Properties == nil {
		sc.Properties = map[string]*jsonschema.Schema{}
	}
	if more != nil {
		more(sc)
	}
	return sc
}

func enum(sc *jsonschema.Schema, prop string, values ...string) {
	p := sc.Properties[prop]
	for _, v := range values {
		p.Enum = append(p.Enum, v)
	}
	p.Default = json.RawMessage(fmt.Sprintf("%q", values[0]))
}

// nodeID reads a node id as models write it ("[n-…]" too).
func nodeID(id string) (string, error) {
	id = strings.Trim(strings.TrimSpace(id), "[]")
	if id == "" {
		return "", errors.New("node_id is empty: give a node id from get_context, search_context or the catalog")
	}
	return id, nil
}

func nodeURI(id string) string     { return "loom://node/" + id }
func documentURI(id string) string { return "loom://document/" + id }

func (s *Server) getContext(ctx context.Context, _ *mcp.CallToolRequest, in GetContextIn) (*mcp.CallToolResult, GetContextOut, error) {
	var out GetContextOut
	if in.MaxTokens < 0 || in.TargetTokens < 0 {
		return nil, out, errors.New("max_tokens and target_tokens must be positive numbers of tokens")
	}
	budget := in.MaxTokens
	if budget == 0 {
		budget = DefaultMaxTokens
	}
	if budget < assemble.MinContext {
		return nil, out, fmt.Errorf("max_tokens %d is too small: at least %d tokens, enough for the manifest and one small section", budget, assemble.MinContext)
	}
	if budget > s.limit {
		out.RequestedMaxTokens, out.Clamped = budget, true
		out.Notes = append(out.Notes, fmt.Sprintf("max_tokens %d was clamped to %d, the most context this server assembles in one call", budget, s.limit))
		budget = s.limit
	}
	out.MaxTokens = budget
	plan := budget
	if t := in.TargetTokens; t > 0 {
		switch {
		case t < assemble.MinContext:
			return nil, out, fmt.Errorf("target_tokens %d is too small: at least %d tokens, enough for the manifest and one small section", t, assemble.MinContext)
		case t < budget:
			plan = t
		default:
			out.Notes = append(out.Notes, fmt.Sprintf("target_tokens %d is not below max_tokens: assembled for max_tokens %d", t, budget))
		}
	}
	res, err := s.wb.Query(ctx, backend.QueryRequest{Question: in.Topic, Budget: plan, Purpose: in.Purpose, Level: in.Abstraction, Scope: scope(in.Scope)})
	if err != nil {
		return nil, out, s.failed(ctx, ToolGetContext, err)
	}
	out.Context, out.Manifest, out.Topic, out.Purpose, out.Abstraction, out.Branch = res.Context, res.Manifest, res.Question, res.Purpose, res.Level, res.Branch
	out.TokensUsed = res.Split.Context - res.Split.Free
	out.Relevant, out.LoadedCount = res.Relevant, res.Loaded
	out.Notes = append(out.Notes, res.Warnings...)
	condensed := 0
	var loadedIDs []string
	cites := map[string]string{}
	for _, c := range res.LoadedCandidates() {
		out.Loaded = append(out.Loaded, contextNode(c))
		loadedIDs = append(loadedIDs, c.ID)
		if c.Cite != "" {
			cites[c.ID] = c.Cite
		}
		if c.Level != assemble.Detailed {
			condensed++
			out.ExpandableIDs = append(out.ExpandableIDs, c.ID)
		}
	}
	var avail []*assemble.Candidate
	for _, c := range res.Candidates {
		if c.Relevant && !c.Loaded {
			avail = append(avail, c)
		}
	}
	sort.SliceStable(avail, func(i, j int) bool { return avail[i].Score > avail[j].Score })
	for _, c := range avail[:min(len(avail), maxListed)] {
		out.Available = append(out.Available, contextNode(c))
		out.ExpandableIDs = append(out.ExpandableIDs, c.ID)
	}
	if res.Relevant > 0 {
		out.Coverage = math.Round(min(1, float64(res.Loaded-res.Near)/float64(res.Relevant))*1000) / 1000
	}
	adaptive := res.Level == string(assemble.Adaptive)
	out.Truncated = res.NotLoaded > 0 || (adaptive && condensed > 0)
	out.SelectionReasoning = reasoning(res, plan, condensed)
	if out.ExpandableIDs == nil {
		out.ExpandableIDs = []string{}
	}
	i := info(ctx)
	i.nodeIDs, i.cites, i.tokens = loadedIDs, cites, out.TokensUsed
	text := res.Context + "\n\n" + summaryLine(&out)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

func contextNode(c *assemble.Candidate) ContextNode {
	n := ContextNode{ID: c.ID, Cite: c.Cite, Title: c.Title, Document: c.Document, Level: string(c.Level), Tokens: c.Tokens,
		Score: math.Round(c.Score*1000) / 1000, Reason: c.Reason, URI: nodeURI(c.ID)}
	if c.Loaded {
		n.Tokens = c.LoadedTokens
	}
	if n.Cite == "" {
		n.Cite = c.Ref
	}
	return n
}

// reasoning says why the context is what it is, in a sentence or two.
func reasoning(res *backend.QueryResult, budget, condensed int) string {
	var b strings.Builder
	switch assemble.Branch(res.Branch) {
	case assemble.BranchNothing:
		fmt.Fprintf(&b, "Nothing in the workspace passed the relevance cut for this topic (purpose %s).", res.Purpose)
	case assemble.BranchAllFit:
		if res.Relevant == 1 {
			fmt.Fprintf(&b, "The one relevant section fit the %d-token budget and was loaded (purpose %s).", budget, res.Purpose)
		} else {
			fmt.Fprintf(&b, "All %d relevant sections fit the %d-token budget, so all were loaded (purpose %s).", res.Relevant, budget, res.Purpose)
		}
	default:
		fmt.Fprintf(&b, "%d relevant sections did not all fit the %d-token budget: loaded %d by descending score (purpose %s, ranking by relevance, graph distance, recency, size, provenance, trust and novelty)", res.Relevant, budget, res.Loaded, res.Purpose)
		if condensed > 0 {
			fmt.Fprintf(&b, ", %d of them condensed to a summary, an essence or their best chunks", condensed)
		}
		b.WriteString(".")
		if res.NotLoaded > 0 {
			fmt.Fprintf(&b, " %d more are listed as available: expand them by id.", res.NotLoaded)
		}
	}
	if res.Near > 0 {
		fmt.Fprintf(&b, " The budget being larger than %d tokens, %d more sections near the topic (not relevant by the cut) were loaded after them.", assemble.RelevanceBudget, res.Near)
	}
	if len(res.Seeds) > 0 {
		var names []string
		for _, c := range res.Seeds[:min(5, len(res.Seeds))] {
			names = append(names, c.Name)
		}
		fmt.Fprintf(&b, " Concepts nearest the topic: %s.", strings.Join(names, "; "))
	}
	return b.String()
}

// summaryLine is the result's metadata for a model that reads only the
// text content.
func summaryLine(o *GetContextOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Loom: %d of %d tokens used · coverage %.0f%% of %d relevant sections", o.TokensUsed, o.MaxTokens, o.Coverage*100, o.Relevant)
	if o.Truncated {
		b.WriteString(" · truncated")
	}
	b.WriteString("]\n[Why: " + o.SelectionReasoning + "]")
	if len(o.ExpandableIDs) > 0 {
		ids := o.ExpandableIDs[:min(20, len(o.ExpandableIDs))]
		fmt.Fprintf(&b, "\n[Expandable: %s]", strings.Join(ids, ", "))
	}
	for _, n := range o.Notes {
		b.WriteString("\n[Note: " + n + "]")
	}
	return b.String()
}

func scope(s string) string {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") {
		return ""
	}
	return s
}

// toolOut turns a chat tool's result into this server's: its text capped
// at the result limit, with notes appended.
func (s *Server) toolOut(ctx context.Context, r chat.ToolResult, notes ...string) (*mcp.CallToolResult, ToolOut, error) {
	text, n, trimmed := trim(r.Text, s.opts.ResultTokens)
	out := ToolOut{Text: text, NodeIDs: r.NodeIDs, Cites: r.Cites, Tokens: n, Trimmed: trimmed, Notes: notes}
	if trimmed {
		out.Notes = append(out.Notes, fmt.Sprintf("the result was cut at %d tokens, the most one result carries: ask for less (a smaller limit or radius, a narrower scope)", s.opts.ResultTokens))
		out.NodeIDs = shownIDs(text, r.NodeIDs)
	}
	if out.NodeIDs == nil {
		out.NodeIDs = []string{}
	}
	i := info(ctx)
	i.nodeIDs, i.cites, i.tokens, i.trimmed = out.NodeIDs, out.Cites, out.Tokens, trimmed
	for _, note := range out.Notes {
		text += "\n[Note: " + note + "]"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

// shownIDs are the ids of ids that text still names.
func shownIDs(text string, ids []string) []string {
	var out []string
	for _, id := range ids {
		if strings.Contains(text, id) {
			out = append(out, id)
		}
	}
	return out
}

func (s *Server) searchContext(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, ToolOut, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, ToolOut{}, errors.New("query is empty: say what to look for")
	}
	limit, notes, err := bounded("limit", "", in.Limit, chat.DefaultSearchLimit, chat.MaxSearchLimit, "the most one search returns")
	if err != nil {
		return nil, ToolOut{}, err
	}
	r, err := s.wb.SearchContext(ctx, in.Query, scope(in.Scope), limit, in.Mode)
	if err != nil {
		return nil, ToolOut{}, s.failed(ctx, ToolSearchContext, err)
	}
	return s.toolOut(ctx, r, notes...)
}

// bounded reads a count argument: 0 means def, a negative one is an
// error, one above most is clamped to most with a note saying so (and why,
// when there is a reason).
func bounded(name, unit string, v, def, most int, why string) (int, []string, error) {
	switch {
	case v == 0:
		return def, nil, nil
	case v < 0:
		return 0, nil, fmt.Errorf("%s must be between 1 and %d%s, not %d", name, most, unit, v)
	case v > most:
		note := fmt.Sprintf("%s %d was clamped to %d%s", name, v, most, unit)
		if why != "" {
			note += ", " + why
		}
		return most, []string{note}, nil
	}
	return v, nil, nil
}

func (s *Server) expand(ctx context.Context, _ *mcp.CallToolRequest, in ExpandIn) (*mcp.CallToolResult, ToolOut, error) {
	id, err := nodeID(in.NodeID)
	if err != nil {
		return nil, ToolOut{}, err
	}
	level := strings.ToLower(strings.TrimSpace(in.Level))
	r, err := s.wb.Tools().Expand(ctx, id, level)
	if err != nil {
		return nil, ToolOut{}, s.failed(ctx, ToolExpand, s.unknownNode(id, err))
	}
	return s.toolOut(ctx, r)
}

func (s *Server) getWindow(ctx context.Context, _ *mcp.CallToolRequest, in WindowIn) (*mcp.CallToolResult, ToolOut, error) {
	id, err := nodeID(in.NodeID)
	if err != nil {
		return nil, ToolOut{}, err
	}
	radius, notes, err := bounded("radius", " lines", in.Radius, chat.DefaultRadius, chat.MaxRadius, "")
	if err != nil {
		return nil, ToolOut{}, err
	}
	if in.Offset > math.MaxInt32 || in.Offset < -math.MaxInt32 {
		return nil, ToolOut{}, fmt.Errorf("offset %d is beyond any document", in.Offset)
	}
	r, err := s.wb.Tools().GetWindow(ctx, id, in.Offset, radius)
	if err != nil {
		return nil, ToolOut{}, s.failed(ctx, ToolGetWindow, s.unknownNode(id, err))
	}
	return s.toolOut(ctx, r, notes...)
}

// unknownNode says what to do about an id the workspace does not have.
func (s *Server) unknownNode(id string, err error) error {
	if errs.CodeOf(err) == errs.NotFound {
		return fmt.Errorf("no node %q in this workspace: use the node ids get_context, search_context or catalog return (like hpih; a resource's n-1a2b3c4d5e6f7a8b is one too)", id)
	}
	return err
}

func (s *Server) catalog(ctx context.Context, _ *mcp.CallToolRequest, _ CatalogIn) (*mcp.CallToolResult, ToolOut, error) {
	r, err := s.wb.Tools().Catalog(ctx)
	if err != nil {
		return nil, ToolOut{}, s.failed(ctx, ToolCatalog, err)
	}
	docs, err := s.wb.Documents(ctx)
	if err != nil {
		return nil, ToolOut{}, s.failed(ctx, ToolCatalog, err)
	}
	var entries []DocumentEntry
	var b strings.Builder
	b.WriteString(r.Text)
	b.WriteString("\nDocuments (read one as loom://document/{id}):")
	for _, d := range docs {
		if len(entries) == maxListed {
			break
		}
		e := DocumentEntry{ID: d.ID, Path: d.Path, Title: d.Title, Collection: d.Collection, Sections: d.Nodes, Tokens: d.Tokens, URI: documentURI(d.ID)}
		entries = append(entries, e)
		fmt.Fprintf(&b, "\n- %s %s (%s, %d sections, %d tokens)", e.ID, e.Path, e.Collection, e.Sections, e.Tokens)
	}
	if len(docs) > len(entries) {
		fmt.Fprintf(&b, "\n… %d more documents (search_context finds their sections)", len(docs)-len(entries))
	}
	r.Text = b.String()
	res, out, err := s.toolOut(ctx, r)
	out.Documents, out.DocumentsTotal = entries, len(docs)
	return res, out, err
}

func (s *Server) ingest(ctx context.Context, _ *mcp.CallToolRequest, in IngestIn) (*mcp.CallToolResult, IngestOut, error) {
	var out IngestOut
	if len(in.Paths) == 0 {
		return nil, out, errors.New("paths is empty: name the files or folders to ingest")
	}
	if len(in.Paths) > MaxIngestPaths {
		return nil, out, fmt.Errorf("%d paths is more than the %d one call may ingest: name their folders instead", len(in.Paths), MaxIngestPaths)
	}
	paths := make([]string, 0, len(in.Paths))
	for _, p := range in.Paths {
		abs, err := s.allowed(p)
		if err != nil {
			return nil, out, err
		}
		paths = append(paths, abs)
	}
	rep, err := s.wb.Ingest(ctx, paths, backend.IngestOptions{Prune: in.Prune})
	if err != nil {
		return nil, out, s.failed(ctx, ToolIngest, err)
	}
	out = IngestOut{Files: rep.Files, Added: rep.Added, Updated: rep.Updated, Unchanged: rep.Unchanged, Removed: rep.Removed,
		Nodes: rep.Nodes, ConceptsCreated: rep.ConceptsCreated, Errors: []string{}, Skipped: []string{}, Warnings: rep.Warnings}
	for _, e := range rep.Errors {
		out.Errors = append(out.Errors, e.Error())
	}
	for _, sk := range rep.Skipped {
		out.Skipped = append(out.Skipped, sk.String())
	}
	out.Errors, out.Skipped = out.Errors[:min(len(out.Errors), maxListed)], out.Skipped[:min(len(out.Skipped), maxListed)]
	out.Summary = fmt.Sprintf("ingested %d files: %d added, %d updated, %d unchanged, %d removed, %d sections, %d new concepts; %d errors",
		rep.Files, rep.Added, rep.Updated, rep.Unchanged, rep.Removed, rep.Nodes, rep.ConceptsCreated, len(rep.Errors))
	if rep.Canceled {
		out.Summary += " (stopped early: the documents committed so far are kept)"
	}
	text := out.Summary
	for _, e := range out.Errors {
		text += "\nerror: " + e
	}
	info(ctx).tokens = 0
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if rep.Canceled {
		res.IsError = true
	}
	return res, out, nil
}
