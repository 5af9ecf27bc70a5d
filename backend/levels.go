package backend

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/graphdb"
)

// textAt returns a candidate's text at a level: the stored text, a cached
// or newly made summary/essence (cached as an analysis node linked to its
// source), or the source's best-matching chunks. It sets the candidate's
// size for that level to the real count. Callers hold w.mu.
func (w *Workbench) textAt(ctx context.Context, c *assemble.Candidate, l assemble.Level, terms []string, count assemble.Counter, pre *prefetched) (string, error) {
	n := w.CurrentIndex().Nodes[c.ID]
	if n == nil {
		return "", fmt.Errorf("node %s is gone", c.ID)
	}
	read := pre.read(w)
	if l == assemble.Summary || l == assemble.Essence {
		lvl := abstract.Level(l)
		if a := w.CurrentSearch().AnalysisOf(n.ID, lvl); a != nil {
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
		t := bestChunks(text, terms, c.ChunkTokens, count)
		c.ChunkTokens = count(t)
		return t, nil
	case assemble.Summary, assemble.Essence:
		lvl := abstract.Level(l)
		t, by, err := w.summarize(ctx, text, lvl, limitAt(c, l))
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

// summarize uses the configured summariser (Ollama when set up, with the
// extractive method as fallback) or the extractive one.
func (w *Workbench) summarize(ctx context.Context, text string, l abstract.Level, limit int) (string, string, error) {
	count, err := w.Counter()
	if err != nil {
		return "", "", err
	}
	var s abstract.Summarizer = abstract.Extractive{Count: abstract.Counter(count), Additive: w.additiveCount()}
	if w.Summarizer() != nil {
		s = w.Summarizer()
	}
	return summarizeWith(ctx, s, text, l, limit)
}

// additiveCount tells whether countFunc is cl100k_base's counter (see
// abstract.Extractive's Additive): it is unless the options set another.
func (w *Workbench) additiveCount() bool { return w.CountsWithCL100K() }

// summarizeWith asks s for text's summary or essence and names what made
// it (s, or what s fell back to).
func summarizeWith(ctx context.Context, s abstract.Summarizer, text string, l abstract.Level, limit int) (string, string, error) {
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
func (w *Workbench) cacheAnalysis(src *model.ContentNode, l abstract.Level, text string, tokens int, by string) {
	h := storage.Hash(text)
	w.Texts().Stage(h, text)
	w.recordAnalysis(src, l, text, h, tokens, by)
}

// recordAnalysis is cacheAnalysis once the text is stored under hash h.
func (w *Workbench) recordAnalysis(src *model.ContentNode, l abstract.Level, text, h string, tokens int, by string) {
	now := w.Now()
	a := model.ContentNode{ID: "n-" + shortHash(src.ID, string(l), by), DocID: src.DocID, Ref: src.Ref,
		Ancestors: src.Ancestors, HeadingPath: src.HeadingPath, LineStart: src.LineStart, LineEnd: src.LineEnd,
		Ordinal: src.Ordinal, Part: src.Part, Parts: src.Parts, ContentHash: h, Kind: model.KindAnalysis,
		ContentType: "prose", Tokens: tokens, Created: now, LastAccess: now,
		Provenance: string(l) + " of " + src.ID + " by " + by, Source: src.ID, Level: string(l)}
	w.RecordAnalysis(a, model.Edge{Kind: model.EdgeDerived, From: a.ID, To: src.ID, Weight: 1, Created: now})
}

// bestChunks keeps the paragraphs of text that share the most terms with
// the question, in their order, within limit tokens.
func bestChunks(text string, terms []string, limit int, count assemble.Counter) string {
	paras := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n")
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	type scored struct {
		i      int
		score  float64
		tokens int
	}
	var ss []scored
	for i, p := range paras {
		if strings.TrimSpace(p) == "" {
			continue
		}
		hit := 0
		pt := search.Terms(p)
		for _, t := range pt {
			if want[t] {
				hit++
			}
		}
		score := float64(hit) / float64(1+len(pt)/16)
		if i == 0 {
			score += 0.1 // the opening paragraph frames the section
		}
		ss = append(ss, scored{i, score, count(p)})
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
	used := 0
	var keep []int
	for _, s := range ss {
		if used+s.tokens+2 <= limit {
			keep = append(keep, s.i)
			used += s.tokens + 2
		}
	}
	if len(keep) == 0 && len(ss) > 0 { // one paragraph larger than the limit: its head
		return abstract.Truncate(abstract.Counter(count), paras[ss[0].i], limit)
	}
	sort.Ints(keep)
	parts := make([]string, len(keep))
	for k, i := range keep {
		parts[k] = strings.TrimSpace(paras[i])
	}
	out := strings.Join(parts, "\n\n…\n\n")
	if count(out) > limit {
		out = abstract.Truncate(abstract.Counter(count), out, limit)
	}
	return out
}

// Pin marks nodes — or every section of a document — as always loaded
// first (pinned = true) or not, and writes it at once. Unknown ids are an
// error naming them.
func (w *Workbench) Pin(ctx context.Context, ids []string, pinned bool) error {
	if err := w.Writable("pin"); err != nil {
		return err
	}
	w.Lock()
	defer w.Unlock()
	ix, err := w.Index(ctx)
	if err != nil {
		return err
	}
	var touch []model.ContentNode
	var unknown []string
	for _, id := range ids {
		nodes := []string{id}
		if _, ok := ix.Docs[id]; ok {
			nodes = ix.DocNodes[id]
		} else if _, ok := ix.Nodes[id]; !ok {
			unknown = append(unknown, id)
			continue
		}
		for _, nid := range nodes {
			if n := ix.Nodes[nid]; n != nil && index.Searchable(n) && n.Pinned != pinned {
				n.Pinned = pinned
				touch = append(touch, *n)
			}
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("pin: no node or document %s in this workspace", strings.Join(unknown, ", "))
	}
	if len(touch) == 0 {
		return nil
	}
	if r := w.LiveSearch(ix); r != nil {
		for _, n := range touch {
			if pinned {
				r.Pins[n.ID] = true
			} else {
				delete(r.Pins, n.ID)
			}
		}
	}
	meta, err := w.Apply(ctx, graphdb.Write{Touch: touch, Meta: w.Meta()})
	if err != nil {
		w.Invalidate()
		return fmt.Errorf("pin: %w", err)
	}
	w.SetMeta(meta)
	return nil
}

// prefetched is what prefetch read and made ahead of a context's texts.
type prefetched struct {
	texts map[string]string // stored texts by hash
	made  map[madeKey]made  // summaries made (and stored) ahead
}

type madeKey struct {
	node  string
	level abstract.Level
}

type made struct {
	text, hash, by string
	tokens         int
}

// read returns a reader of stored texts: from memory what was prefetched,
// the rest (or what failed) from disk. A nil p reads from disk.
func (p *prefetched) read(w *Workbench) func(hash string) (string, error) {
	if p == nil {
		return w.Content
	}
	return func(hash string) (string, error) {
		if t, ok := p.texts[hash]; ok {
			return t, nil
		}
		return w.Content(hash)
	}
}

func (p *prefetched) madeFor(node string, l abstract.Level) (made, bool) {
	if p == nil {
		return made{}, false
	}
	m, ok := p.made[madeKey{node, l}]
	return m, ok
}

// prefetch does, on four goroutines, the slow part of fetching the texts
// of the nodes about to load: it reads what textAt will read (a summary's
// own text when one is cached, else the node's), and, with the extractive
// summariser, makes and stores the summaries and essences not made yet
// (the first time a node loads at those levels: ~0.4 ms each, ten a
// question on a fresh workspace). textAt then records what was made, in
// the loading order, as if it had made it. An Ollama summariser is left
// to textAt, one request at a time.
func (w *Workbench) prefetch(ctx context.Context, cs []*assemble.Candidate) *prefetched {
	type job struct {
		hash  string // the stored text to read
		node  *model.ContentNode
		level abstract.Level // a summary to make from it, if set
		limit int
	}
	var jobs []job
	for _, c := range cs {
		n := w.CurrentIndex().Nodes[c.ID]
		if n == nil {
			continue
		}
		if c.Level == assemble.Summary || c.Level == assemble.Essence {
			lvl := abstract.Level(c.Level)
			if a := w.CurrentSearch().AnalysisOf(n.ID, lvl); a != nil {
				jobs = append(jobs, job{hash: a.ContentHash})
				continue
			}
			if w.Summarizer() == nil {
				jobs = append(jobs, job{hash: n.ContentHash, node: n, level: lvl, limit: limitAt(c, c.Level)})
				continue
			}
		}
		jobs = append(jobs, job{hash: n.ContentHash})
	}
	count, err := w.Counter()
	if err != nil {
		count = nil // summaries are then made by textAt, which reports it
	}
	extractive := abstract.Extractive{Count: abstract.Counter(count), Additive: w.additiveCount()}
	texts := make([]string, len(jobs))
	errs := make([]error, len(jobs))
	sums := make([]*made, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(jobs), 4) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
				j := jobs[i]
				texts[i], errs[i] = w.Content(j.hash)
				if errs[i] != nil || j.level == "" || count == nil {
					continue
				}
				t, by, err := summarizeWith(ctx, extractive, texts[i], j.level, j.limit)
				if err != nil {
					continue // textAt tries again and reports it
				}
				sums[i] = &made{text: t, hash: storage.Hash(t), by: by, tokens: count(t)}
			}
		})
	}
	wg.Wait()
	p := &prefetched{texts: make(map[string]string, len(jobs)), made: map[madeKey]made{}}
	for i, j := range jobs {
		if errs[i] == nil {
			p.texts[j.hash] = texts[i]
		}
		if m := sums[i]; m != nil {
			w.Texts().Stage(m.hash, m.text)
			p.made[madeKey{j.node.ID, j.level}] = *m
		}
	}
	return p
}
