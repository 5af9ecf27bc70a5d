package query

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// The ways search_context can search (rlm-context-store's context_search
// modes, with Loom's own ranked searches beside the plain regex scan).
const (
	// SearchHybrid fuses keyword and vector scores: what the chat tool does.
	SearchHybrid = "hybrid"
	// SearchKeyword ranks by BM25 alone: only sections holding a term.
	SearchKeyword = "keyword"
	// SearchSemantic ranks by embedding cosine alone.
	SearchSemantic = "semantic"
	// SearchRegex scans the sections' texts with a regular expression
	// (RE2 syntax: linear time, no backtracking), in document order.
	SearchRegex = "regex"
)

// SearchModes lists the modes in a stable order.
var SearchModes = []string{SearchHybrid, SearchKeyword, SearchSemantic, SearchRegex}

// MaxPatternBytes bounds a regular expression.
const MaxPatternBytes = 1 << 10

// Bounds of a regex search's answer: lines shown per section, and the
// characters shown of a line.
const (
	regexLinesPerNode = 5
	regexLineChars    = 240
)

// SearchMode is SearchContext in one of SearchModes ("" is hybrid): the
// same text, node ids and cites, from a keyword, semantic or regex search.
// limit is the number of sections (1–20; other values mean 5).
func (w *Pipeline) SearchMode(ctx context.Context, query, scope string, limit int, mode string) (chat.ToolResult, error) {
	switch mode {
	case "", SearchHybrid:
		return w.searchRanked(ctx, query, scope, limit, StrategyHybrid)
	case SearchKeyword:
		return w.searchRanked(ctx, query, scope, limit, StrategyBM25)
	case SearchSemantic:
		return w.searchRanked(ctx, query, scope, limit, StrategyVector)
	case SearchRegex:
		return w.searchRegex(ctx, query, scope, limit)
	}
	return chat.ToolResult{}, errs.E(errs.Invalid, "unknown search mode %q (use %s)", mode, strings.Join(SearchModes, ", "))
}

// searchRegex scans the searchable sections of the scope in document order
// (documents by path, sections by position) and returns the first limit
// that match, each with its matching lines.
func (w *Pipeline) searchRegex(ctx context.Context, pattern, scope string, limit int) (chat.ToolResult, error) {
	if strings.TrimSpace(pattern) == "" {
		return chat.ToolResult{}, errs.E(errs.Invalid, "the pattern is empty: give a regular expression, e.g. (?i)token budget")
	}
	if len(pattern) > MaxPatternBytes {
		return chat.ToolResult{}, errs.E(errs.Invalid, "the pattern is %d bytes, longer than the %d a pattern may be", len(pattern), MaxPatternBytes)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return chat.ToolResult{}, errs.E(errs.Invalid, "bad regular expression: %v (RE2 syntax; (?i) ignores case)", err)
	}
	if limit <= 0 || limit > chat.MaxSearchLimit {
		limit = chat.DefaultSearchLimit
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return chat.ToolResult{}, err
	}
	sc, err := w.resolveScope(ctx, scope, true)
	if err != nil {
		return chat.ToolResult{}, err
	}
	docs := make([]*model.Document, 0, len(ix.Docs))
	for _, d := range ix.Docs {
		if sc.cluster >= 0 || sc.holds(nil, d) {
			docs = append(docs, d)
		}
	}
	sort.Slice(docs, func(i, j int) bool {
		if docs[i].Path != docs[j].Path {
			return docs[i].Path < docs[j].Path
		}
		return docs[i].ID < docs[j].ID
	})
	var b strings.Builder
	var ids []string
	scanned := 0
	for _, d := range docs {
		nodes := make([]*model.ContentNode, 0, len(ix.DocNodes[d.ID]))
		for _, id := range ix.DocNodes[d.ID] {
			if n := ix.Nodes[id]; n != nil && index.Searchable(n) && sc.holds(n, d) {
				nodes = append(nodes, n)
			}
		}
		sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].Ordinal < nodes[j].Ordinal })
		for _, n := range nodes {
			if len(ids) >= limit {
				break
			}
			if err := ctx.Err(); err != nil {
				return chat.ToolResult{}, fmt.Errorf("regex search stopped after %d sections: %w", scanned, err)
			}
			scanned++
			text, err := w.ws.Content(n.ContentHash)
			if err != nil {
				continue // a missing text cannot match; doctor reports it
			}
			lines := matchingLines(re, text, n.LineStart)
			if len(lines) == 0 {
				continue
			}
			if len(ids) > 0 {
				b.WriteString("\n\n")
			}
			fmt.Fprintf(&b, "[%s] %s — %s (%s)\n%s", w.idOf(n.ID), nodeTitle(d, n), citeOr(ix, n), plural(len(lines), "matching line"), strings.Join(firstLines(lines), "\n"))
			ids = append(ids, n.ID)
		}
	}
	if len(ids) == 0 {
		return w.toolResult(ix, fmt.Sprintf("no section matches %s (%d sections searched)", pattern, scanned), nil), nil
	}
	return w.toolResult(ix, b.String(), ids), nil
}

// matchingLines are the lines of text that re matches, as "L12: …" (the
// document's line, when the section's first line is known) or "#3: …"
// (the section's own line).
func matchingLines(re *regexp.Regexp, text string, lineStart int) []string {
	var out []string
	for i, l := range strings.Split(text, "\n") {
		if !re.MatchString(l) {
			continue
		}
		l = strings.TrimSpace(l)
		if utf8.RuneCountInString(l) > regexLineChars {
			l = string([]rune(l)[:regexLineChars]) + "…"
		}
		if lineStart > 0 {
			out = append(out, fmt.Sprintf("  L%d: %s", lineStart+i, l))
		} else {
			out = append(out, fmt.Sprintf("  #%d: %s", i+1, l))
		}
	}
	if len(out) == 0 && re.MatchString(text) {
		out = append(out, "  (the match spans lines)") // a pattern with \n
	}
	return out
}

// firstLines is the first regexLinesPerNode lines and how many more there are.
func firstLines(lines []string) []string {
	if len(lines) <= regexLinesPerNode {
		return lines
	}
	return append(lines[:regexLinesPerNode:regexLinesPerNode], fmt.Sprintf("  … %d more", len(lines)-regexLinesPerNode))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
