// Package levels gives a content node's text at an abstraction level
// (context-query.md): detailed (the stored text), summary and essence (made
// by the workspace's summariser, Ollama or the extractive method, and kept
// as analysis nodes linked to their source), or, for an oversized node,
// its best-matching chunks. A question asks for the texts of the nodes it
// loads through Levels, which reads ahead on a few goroutines.
package levels

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/workspace"
)

// textAt returns a candidate's text at a level: the stored text, a cached
// or newly made summary/essence (cached as an analysis node linked to its
// source), or the source's best-matching chunks. It sets the candidate's
// size for that level to the real count. Callers hold w.mu.
func (w *Levels) TextAt(ctx context.Context, c *assemble.Candidate, l assemble.Level, terms []string, count assemble.Counter, pre *Prefetched) (string, error) {
	n := w.ws.CurrentIndex().Nodes[c.ID]
	if n == nil {
		return "", fmt.Errorf("node %s is gone", c.ID)
	}
	read := pre.read(w)
	if l == assemble.Summary || l == assemble.Essence {
		lvl := abstract.Level(l)
		if a := w.cached(n, lvl); a != nil {
			if t, err := read(a.ContentHash); err == nil {
				return t, nil
			}
		}
		if m, ok := pre.madeFor(n.ID, lvl); ok { // made and stored ahead
			if l == assemble.Summary {
				c.SummaryTokens = m.tokens
			} else {
				c.EssenceTokens = m.tokens
			}
			w.recordAnalysis(n, lvl, m.text, m.hash, m.tokens, m.by)
			return m.text, nil
		}
	}
	text, err := read(n.ContentHash)
	if err != nil {
		return "", err
	}
	switch l {
	case assemble.Detailed:
		return text, nil
	case assemble.Chunks:
		t := BestChunks(text, terms, c.ChunkTokens, count)
		c.ChunkTokens = count(t)
		return t, nil
	case assemble.Summary, assemble.Essence:
		lvl := abstract.Level(l)
		s, err := w.summarizerFor(n)
		if err != nil {
			return "", err
		}
		t, by, err := SummarizeWith(ctx, s, text, lvl, limitAt(c, l))
		if err != nil {
			return "", err
		}
		got := count(t)
		if l == assemble.Summary {
			c.SummaryTokens = got
		} else {
			c.EssenceTokens = got
		}
		w.cacheAnalysis(n, lvl, t, got, by)
		return t, nil
	}
	return "", fmt.Errorf("no text at level %q", l)
}

// summarizerFor is what makes a node's summary and essence: source code
// (a definition, or a file's own node) is summarised by its declaration and
// doc comment (abstract.Definition: instant, and faithful to the code); other
// nodes by the workspace's summariser (a model, with the extractive method
// as its fallback), else the extractive method.
func (w *Levels) summarizerFor(n *model.ContentNode) (abstract.Summarizer, error) {
	count, err := w.ws.Counter()
	if err != nil {
		return nil, err
	}
	if isCode(n) {
		return definitionSummarizer(n, abstract.Counter(count)), nil
	}
	if s := w.ws.Summarizer(); s != nil {
		return s, nil
	}
	return abstract.Extractive{Count: abstract.Counter(count), Additive: w.additiveCount()}, nil
}

// isDefinition: a node of source code, a definition (or a part of a long
// one) or a file's own node (its package clause, imports and comments).
func isCode(n *model.ContentNode) bool { return n.Symbol != nil }

// definitionSummarizer summarises definition n. A later part of a long
// definition starts inside its body: its own first line stands for the
// declaration there.
func definitionSummarizer(n *model.ContentNode, count abstract.Counter) abstract.Definition {
	d := abstract.Definition{Count: count, Name: n.Symbol.Name, File: n.Symbol.Kind == "file"}
	if n.Part <= 1 {
		d.Signature = n.Symbol.Signature
	} else {
		d.Continued = true
	}
	return d
}

// cached is the summary or essence of n made before, if it is still the
// one to use: a definition's made by another method (the extractive one,
// before definitions had their own), or any made by an older version of
// the extractive method, is made again (a model's stands).
func (w *Levels) cached(n *model.ContentNode, l abstract.Level) *model.ContentNode {
	a := w.ws.CurrentSearch().AnalysisOf(n.ID, l)
	if a == nil {
		return nil
	}
	_, by, _ := strings.Cut(a.Provenance, " by ")
	if isCode(n) && by != abstract.DefinitionID || strings.HasPrefix(by, "extractive/") && by != abstract.ExtractiveID {
		return nil
	}
	return a
}

// additiveCount tells whether countFunc is cl100k_base's counter (see
// abstract.Extractive's Additive): it is unless the options set another.
func (w *Levels) additiveCount() bool { return w.ws.CountsWithCL100K() }

// summarizeWith asks s for text's summary or essence and names what made
// it (s, or what s fell back to).
func SummarizeWith(ctx context.Context, s abstract.Summarizer, text string, l abstract.Level, limit int) (string, string, error) {
	t, err := s.Summarize(ctx, text, l, limit)
	var fb *abstract.FellBackError
	if err != nil && !errors.As(err, &fb) {
		return "", "", err
	}
	return t, abstract.MadeBy(s, err), nil
}

// limitAt is the token limit of a candidate's summary or essence.
func limitAt(c *assemble.Candidate, l assemble.Level) int {
	if l == assemble.Essence {
		return c.EssenceTokens
	}
	return c.SummaryTokens
}

// cacheAnalysis adds a summary node to the index now and queues the writes
// of its text (stageContent) and of the node (an analysis node in the
// source's document, with a derived edge).
func (w *Levels) cacheAnalysis(src *model.ContentNode, l abstract.Level, text string, tokens int, by string) {
	h := storage.Hash(text)
	w.ws.Texts().Stage(h, text)
	w.recordAnalysis(src, l, text, h, tokens, by)
}

// recordAnalysis is cacheAnalysis once the text is stored under hash h.
func (w *Levels) recordAnalysis(src *model.ContentNode, l abstract.Level, text, h string, tokens int, by string) {
	now := w.ws.Now()
	a := model.ContentNode{ID: "n-" + model.ShortHash(src.ID, string(l), by), DocID: src.DocID, Ref: src.Ref,
		Ancestors: src.Ancestors, HeadingPath: src.HeadingPath, LineStart: src.LineStart, LineEnd: src.LineEnd, PageStart: src.PageStart, PageEnd: src.PageEnd,
		Ordinal: src.Ordinal, Part: src.Part, Parts: src.Parts, ContentHash: h, Kind: model.KindAnalysis,
		ContentType: "prose", Tokens: tokens, Created: now, LastAccess: now,
		Provenance: string(l) + " of " + src.ID + " by " + by, Source: src.ID, Level: string(l)}
	w.ws.RecordAnalysis(a, model.Edge{Kind: model.EdgeDerived, From: a.ID, To: src.ID, Weight: 1, Created: now})
}

// offerLevels tells the selector what the smaller levels of a node would
// cost: made summaries by their real size, others by their upper bound;
// oversized nodes also offer their best-matching chunks.
func (w *Levels) Offer(c *assemble.Candidate, n *model.ContentNode, budget int, oversize float64) {
	if n.Tokens <= 8 {
		return
	}
	if a := w.cached(n, abstract.Summary); a != nil {
		c.SummaryTokens, c.SummaryCached = a.Tokens, true
	} else {
		c.SummaryTokens = abstract.Target(abstract.Summary, n.Tokens)
	}
	if a := w.cached(n, abstract.Essence); a != nil {
		c.EssenceTokens = a.Tokens
	} else {
		c.EssenceTokens = abstract.Target(abstract.Essence, n.Tokens)
	}
	if c.SummaryTokens >= n.Tokens {
		c.SummaryTokens = 0
	}
	if c.EssenceTokens >= n.Tokens {
		c.EssenceTokens = 0
	}
	if limit := int(oversize * float64(budget)); n.Tokens > limit && limit > 16 {
		c.ChunkTokens = min(limit, n.Tokens/2)
	}
}

// Levels makes and reads texts at levels for one workspace (whose lock its
// callers hold).
type Levels struct{ ws *workspace.Workspace }

// New returns the levels of ws.
func New(ws *workspace.Workspace) *Levels { return &Levels{ws} }
