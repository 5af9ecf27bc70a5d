package query

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// The pipeline answers the tools a chat model may call (context-loading-jit
// "search tool", rlm-context-store get-chunk/get-window, context-query
// expansion protocol): it implements chat.Tools. Every result names node
// ids with their sources (cites), so the model can cite them and ask for
// more, and the reader can follow them.
var _ chat.Tools = (*Pipeline)(nil)

// SearchContext runs the hybrid search (no graph signals, no budget: the
// chat loop budgets tool results) and returns the best nodes' text.
func (w *Pipeline) SearchContext(ctx context.Context, query, scope string, limit int) (chat.ToolResult, error) {
	return w.searchRanked(ctx, query, scope, limit, StrategyHybrid)
}

// searchRanked is SearchContext with the ranking of strategy: hybrid
// (keyword and vectors fused, what chat uses), bm25 (keyword alone: only
// sections holding a query term) or vector (embeddings alone).
func (w *Pipeline) searchRanked(ctx context.Context, query, scope string, limit int, strategy Strategy) (chat.ToolResult, error) {
	q, err := CheckQuestion(query)
	if err != nil {
		return chat.ToolResult{}, err
	}
	if limit <= 0 || limit > 20 {
		limit = 5
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	e, err := w.ws.Embedder(ctx)
	if err != nil {
		return chat.ToolResult{}, err
	}
	r, err := w.ws.Search(ctx)
	if err != nil {
		return chat.ToolResult{}, err
	}
	sc, err := w.resolveScope(ctx, scope, true)
	if err != nil {
		return chat.ToolResult{}, err
	}
	qv, err := e.Embed(ctx, []string{q})
	if err != nil {
		return chat.ToolResult{}, fmt.Errorf("embed the search: %w", err)
	}
	p := newPool(w, r, q, qv[0], QueryRequest{Scope: scope, Candidates: limit}, sc.slots(r), strategy, w.ws.RankingConfig().ForEncoder(sentenceEncoder(e)))
	defer p.release()
	var b strings.Builder
	var ids []string
	for _, s := range p.slots {
		if len(ids) >= limit {
			break
		}
		if strategy == StrategyBM25 && !(p.kw[s] > 0) {
			continue // keyword search: a section without a query term is no hit
		}
		n := r.Graph.Nodes[r.IDs[s]]
		text, err := w.ws.Content(n.ContentHash)
		if err != nil {
			return chat.ToolResult{}, err
		}
		if len(ids) > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "[%s] %s — %s (relevance %.2f)\n%s", w.idOf(n.ID), nodeTitle(r.Graph.Docs[n.DocID], n), citeOr(r.Graph, n), p.semantic(s), strings.TrimSpace(text))
		ids = append(ids, n.ID)
	}
	if len(ids) == 0 {
		return chat.ToolResult{Text: "nothing found for " + q}, nil
	}
	return w.toolResult(r.Graph, b.String(), ids), nil
}

// Expand returns a node at a level: detailed, summary, essence; or
// "neighbours" (its enclosing section, subsections and the nodes sharing
// its concepts) or "derivations" (summaries and answers made from it).
// nodeID may be several ids as a block header or the manifest writes the
// parts of one section ("[tdac, imkn]"): each is expanded, in
// order, in one result.
func (w *Pipeline) Expand(ctx context.Context, nodeID, level string) (chat.ToolResult, error) {
	if ids := strings.FieldsFunc(strings.Trim(strings.TrimSpace(nodeID), "[]"), func(r rune) bool { return r == ',' || unicode.IsSpace(r) }); len(ids) > 1 {
		if len(ids) > maxExpandIDs {
			return chat.ToolResult{}, errs.E(errs.Invalid, "%d node ids at once: expand at most %d", len(ids), maxExpandIDs)
		}
		out := chat.ToolResult{Cites: map[string]string{}}
		texts := make([]string, 0, len(ids))
		for _, id := range ids {
			r, err := w.Expand(ctx, id, level)
			if err != nil {
				return chat.ToolResult{}, err
			}
			texts = append(texts, r.Text)
			out.NodeIDs = append(out.NodeIDs, r.NodeIDs...)
			maps.Copy(out.Cites, r.Cites)
			out.Tokens += r.Tokens
		}
		out.Text = strings.Join(texts, "\n\n")
		return out, nil
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	r, err := w.ws.Search(ctx)
	if err != nil {
		return chat.ToolResult{}, err
	}
	n, err := resolveNode(r.Graph, nodeID)
	if err != nil {
		return chat.ToolResult{}, err
	}
	nodeID = n.ID
	if level == "" {
		level = "detailed"
	}
	switch level {
	case "detailed", "summary", "essence":
		count, err := w.memoCounter()
		if err != nil {
			return chat.ToolResult{}, err
		}
		c := &assemble.Candidate{ID: n.ID, Ref: n.Ref, Tokens: n.Tokens}
		w.lv.Offer(c, n, 1<<30, 1)
		l := assemble.Level(level)
		if c.SummaryTokens == 0 && c.EssenceTokens == 0 {
			l = assemble.Detailed // too small to condense
		}
		text, err := w.lv.TextAt(ctx, c, l, nil, count, nil)
		if err != nil {
			return chat.ToolResult{}, err
		}
		return w.toolResult(r.Graph, fmt.Sprintf("[%s] %s — %s (%s)\n%s", w.idOf(n.ID), nodeTitle(r.Graph.Docs[n.DocID], n), citeOr(r.Graph, n), l, strings.TrimSpace(text)), []string{n.ID}), nil
	case "neighbours", "neighbors":
		var lines []string
		var ids []string
		add := func(rel, id string) {
			m := r.Graph.Nodes[id]
			if m == nil || id == nodeID || !index.Searchable(m) {
				return
			}
			for _, x := range ids {
				if x == id {
					return
				}
			}
			ids = append(ids, id)
			lines = append(lines, fmt.Sprintf("- [%s] %s — %s (%s, %d tokens)", w.idOf(id), nodeTitle(r.Graph.Docs[m.DocID], m), citeOr(r.Graph, m), rel, m.Tokens))
		}
		if n.Parent != "" {
			add("enclosing section", n.Parent)
		}
		for _, c := range r.Children[nodeID] {
			add("subsection", c)
		}
		for _, e := range r.Graph.Out[nodeID] {
			if e.Kind == model.EdgeAbout {
				for _, other := range r.Concept[e.To] {
					if len(ids) < 12 {
						add("shares concept "+r.Graph.Concepts[e.To].Name, other)
					}
				}
			}
		}
		if len(lines) == 0 {
			return w.toolResult(r.Graph, "no neighbours of ["+w.idOf(nodeID)+"]", nil), nil
		}
		return w.toolResult(r.Graph, fmt.Sprintf("Neighbours of [%s] (expand any by id):\n%s", w.idOf(nodeID), strings.Join(lines, "\n")), ids), nil
	case "derivations":
		var lines []string
		var ids []string
		for lvl, id := range r.Analysis[nodeID] {
			if a := r.Graph.Nodes[id]; a != nil {
				ids = append(ids, id)
				lines = append(lines, fmt.Sprintf("- [%s] %s of [%s] — %s (%d tokens)", w.idOf(id), lvl, w.idOf(nodeID), citeOr(r.Graph, a), a.Tokens))
			}
		}
		sort.Strings(lines)
		if len(lines) == 0 {
			return w.toolResult(r.Graph, "nothing has been derived from ["+w.idOf(nodeID)+"] yet", nil), nil
		}
		return w.toolResult(r.Graph, strings.Join(lines, "\n"), ids), nil
	}
	return chat.ToolResult{}, fmt.Errorf("unknown level %q (detailed, summary, essence, neighbours, derivations)", level)
}

// GetWindow returns lines center−radius … center+radius of the document
// that holds a node, rebuilt from its sections; center counts from the
// node's first line.
func (w *Pipeline) GetWindow(ctx context.Context, nodeID string, center, radius int) (chat.ToolResult, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return chat.ToolResult{}, err
	}
	n, err := resolveNode(ix, nodeID)
	if err != nil {
		return chat.ToolResult{}, err
	}
	nodeID = n.ID
	if radius <= 0 {
		radius = 20
	}
	radius = min(radius, 200)
	// The document's lines, from its sections in order (a chunk's parts
	// overlap: keep each line once).
	lines := map[int]string{}
	shown := map[int]string{}
	for _, id := range ix.DocNodes[n.DocID] {
		m := ix.Nodes[id]
		if m == nil || !index.Searchable(m) || m.LineStart <= 0 {
			continue
		}
		text, err := w.ws.Content(m.ContentHash)
		if err != nil {
			return chat.ToolResult{}, err
		}
		for i, l := range strings.Split(text, "\n") {
			ln := m.LineStart + i
			if _, ok := lines[ln]; !ok {
				lines[ln], shown[ln] = l, m.ID
			}
		}
	}
	mid := n.LineStart + center
	var b strings.Builder
	ids := map[string]bool{}
	doc := n.Ref
	if d := ix.Docs[n.DocID]; d != nil && d.Path != "" {
		doc = d.Path
	}
	fmt.Fprintf(&b, "Lines %d–%d of %s around [%s] (%s):\n", max(1, mid-radius), mid+radius, doc, w.idOf(nodeID), citeOr(ix, n))
	for ln := max(1, mid-radius); ln <= mid+radius; ln++ {
		if l, ok := lines[ln]; ok {
			fmt.Fprintf(&b, "%5d  %s\n", ln, l)
			ids[shown[ln]] = true
		}
	}
	var idList []string
	for id := range ids {
		idList = append(idList, id)
	}
	sort.Strings(idList)
	return w.toolResult(ix, strings.TrimRight(b.String(), "\n"), idList), nil
}

// Catalog describes the workspace: collections with their documents and
// sizes, the largest clusters, and the most connected concepts.
func (w *Pipeline) Catalog(ctx context.Context) (chat.ToolResult, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return chat.ToolResult{}, err
	}
	type coll struct {
		docs     []string
		sections int
	}
	colls := map[string]*coll{}
	for id, d := range ix.Docs {
		for _, name := range append([]string{d.Collection}, d.Groups...) {
			c := colls[name]
			if c == nil {
				c = &coll{}
				colls[name] = c
			}
			if !slices.Contains(c.docs, d.Path) {
				c.docs = append(c.docs, d.Path)
				c.sections += ix.Sections(id)
			}
		}
	}
	names := make([]string, 0, len(colls))
	for n := range colls {
		names = append(names, n)
	}
	sort.Strings(names)
	sections := 0
	for id := range ix.Docs {
		sections += ix.Sections(id)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d documents, %d sections, %d concepts.\nCollections (use as search_context scope):\n", len(ix.Docs), sections, len(ix.Concepts))
	for _, n := range names {
		c := colls[n]
		sort.Strings(c.docs)
		shown := c.docs[:min(8, len(c.docs))]
		more := ""
		if len(c.docs) > len(shown) {
			more = fmt.Sprintf(", … %d more", len(c.docs)-len(shown))
		}
		fmt.Fprintf(&b, "- %s: %d documents, %d sections (%s%s)\n", n, len(c.docs), c.sections, strings.Join(shown, ", "), more)
	}
	if err := w.catalogClusters(ctx, &b); err != nil {
		return chat.ToolResult{}, err
	}
	type cc struct {
		name string
		n    int
	}
	var top []cc
	for id, c := range ix.Concepts {
		top = append(top, cc{c.Name, ix.AboutCount[id]})
	}
	sort.Slice(top, func(i, j int) bool {
		if top[i].n != top[j].n {
			return top[i].n > top[j].n
		}
		return top[i].name < top[j].name
	})
	if len(top) > 0 {
		b.WriteString("Main concepts: ")
		for i, c := range top[:min(12, len(top))] {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s (%d)", clean(c.name), c.n)
		}
	}
	return w.toolResult(ix, strings.TrimRight(b.String(), "\n"), nil), nil
}

// catalogClusters is the catalog's list of the largest clusters, with
// the scope that searches each (none when the workspace has fewer than
// two: one cluster scopes nothing).
func (w *Pipeline) catalogClusters(ctx context.Context, b *strings.Builder) error {
	cr, err := w.ws.Clusters(ctx)
	if err != nil {
		return err
	}
	if len(cr.Clusters) < 2 {
		return nil
	}
	b.WriteString("Clusters of related concepts (use " + ClusterScope + "ID as search_context scope):\n")
	for i, c := range cr.Clusters {
		if i == catalogClusters {
			fmt.Fprintf(b, "- … %d more\n", len(cr.Clusters)-i)
			break
		}
		fmt.Fprintf(b, "- %s (%s%s): %d sections, %d documents\n", clean(c.Name), ClusterScope, c.ID, c.Sections, c.Documents)
	}
	return nil
}

// catalogClusters bounds the clusters the catalog lists.
const catalogClusters = 12

func (w *Pipeline) hasCollection(name string) bool {
	for _, d := range w.ws.CurrentIndex().Docs {
		if d.InCollection(name) {
			return true
		}
	}
	return false
}

// toolResult is a tool's text with the nodes it shows and their cites.
func (w *Pipeline) toolResult(g *index.Graph, text string, ids []string) chat.ToolResult {
	n := 0
	if count, err := w.ws.Counter(); err == nil {
		n = count(text)
	}
	return chat.ToolResult{Text: text, NodeIDs: ids, Cites: g.Cites(ids), Tokens: n}
}

// idOf is how a tool's text writes a node's id: as a prompt does, its
// shortest prefix that no other searchable node shares, in letters
// (assemble.PromptIDAmong), when the workspace's search is at hand; its
// letters in full otherwise. resolveNode takes either.
func (w *Pipeline) idOf(id string) string {
	var among []string
	if r := w.ws.CurrentSearch(); r != nil {
		among = r.SortedIDs()
	}
	return assemble.PromptIDAmong(id, among)
}

// citeOr is how a tool names a node's source: its cite, else its
// reference.
func citeOr(g *index.Graph, n *model.ContentNode) string {
	if c := g.Cite(n.ID); c != "" {
		return c
	}
	return n.Ref
}

// maxExpandIDs is the most node ids one expand takes (a long section's
// parts, as a header names them).
const maxExpandIDs = 16

// resolveNode finds a node by its id or by a prefix of it that no other
// searchable node shares, in hex ("n-8f48") or in the letters a prompt
// writes it in ("hpih": the prompt writes ids shortened, unique among
// those, and as letters: assemble.ShortIDs, model.PromptID; a summary is
// reached through its source). No such node is errs.NotFound; a prefix
// several nodes share is errs.Invalid, naming them.
func resolveNode(g *index.Graph, raw string) (*model.ContentNode, error) {
	raw = strings.Trim(strings.TrimSpace(raw), "[]")
	if n := g.Nodes[raw]; n != nil {
		return n, nil
	}
	if id, ok := model.FromPromptID(raw); ok && len(raw) >= assemble.ShortIDHex {
		if n := g.Nodes[id]; n != nil {
			return n, nil
		}
		raw = id
	}
	const minPrefix = len("n-") + assemble.ShortIDHex
	if len(raw) < minPrefix || !strings.HasPrefix(raw, "n-") {
		return nil, errs.E(errs.NotFound, "no node %q", raw)
	}
	var matches []string
	for id, n := range g.Nodes {
		if strings.HasPrefix(id, raw) && index.Searchable(n) {
			matches = append(matches, id)
		}
	}
	switch len(matches) {
	case 0:
		return nil, errs.E(errs.NotFound, "no node %q", raw)
	case 1:
		return g.Nodes[matches[0]], nil
	}
	slices.Sort(matches)
	lines := make([]string, 0, min(len(matches), 8))
	for _, id := range matches[:min(len(matches), 8)] {
		n := g.Nodes[id]
		lines = append(lines, fmt.Sprintf("[%s] %s", model.PromptID(id), nodeTitle(g.Docs[n.DocID], n)))
	}
	return nil, errs.E(errs.Invalid, "%q is the start of %d node ids; give one in full: %s", raw, len(matches), strings.Join(lines, "; "))
}
