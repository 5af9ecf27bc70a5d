package levels

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
)

// Prefetched is what prefetch read and made ahead of a context's texts.
type Prefetched struct {
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

// read returns a reader of stored texts: from memory what was Prefetched,
// the rest (or what failed) from disk. A nil p reads from disk.
func (p *Prefetched) read(w *Levels) func(hash string) (string, error) {
	if p == nil {
		return w.ws.Content
	}
	return func(hash string) (string, error) {
		if t, ok := p.texts[hash]; ok {
			return t, nil
		}
		return w.ws.Content(hash)
	}
}

func (p *Prefetched) madeFor(node string, l abstract.Level) (made, bool) {
	if p == nil {
		return made{}, false
	}
	m, ok := p.made[madeKey{node, l}]
	return m, ok
}

// prefetch does, on four goroutines, the slow part of fetching the texts
// of the nodes about to load: it reads what textAt will read (a summary's
// own text when one is cached, else the node's), and, with the extractive
// summariser (and for definitions of source code, whatever the
// summariser), makes and stores the summaries and essences not made yet
// (the first time a node loads at those levels: ~0.4 ms each, ten a
// question on a fresh workspace). textAt then records what was made, in
// the loading order, as if it had made it. An Ollama summariser is left
// to textAt, one request at a time.
func (w *Levels) Prefetch(ctx context.Context, cs []*assemble.Candidate) *Prefetched {
	type job struct {
		hash  string // the stored text to read
		node  *model.ContentNode
		level abstract.Level // a summary to make from it, if set
		limit int
	}
	var jobs []job
	for _, c := range cs {
		n := w.ws.CurrentIndex().Nodes[c.ID]
		if n == nil {
			continue
		}
		if c.Level == assemble.Summary || c.Level == assemble.Essence {
			lvl := abstract.Level(c.Level)
			if a := w.cached(n, lvl); a != nil {
				jobs = append(jobs, job{hash: a.ContentHash})
				continue
			}
			if w.ws.Summarizer() == nil || isCode(n) {
				jobs = append(jobs, job{hash: n.ContentHash, node: n, level: lvl, limit: limitAt(c, c.Level)})
				continue
			}
		}
		jobs = append(jobs, job{hash: n.ContentHash})
	}
	count, err := w.ws.Counter()
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
				texts[i], errs[i] = w.ws.Content(j.hash)
				if errs[i] != nil || j.level == "" || count == nil {
					continue
				}
				var s abstract.Summarizer = extractive
				if isCode(j.node) {
					s = definitionSummarizer(j.node, abstract.Counter(count))
				}
				t, by, err := SummarizeWith(ctx, s, texts[i], j.level, j.limit)
				if err != nil {
					continue // textAt tries again and reports it
				}
				sums[i] = &made{text: t, hash: storage.Hash(t), by: by, tokens: count(t)}
			}
		})
	}
	wg.Wait()
	p := &Prefetched{texts: make(map[string]string, len(jobs)), made: map[madeKey]made{}}
	for i, j := range jobs {
		if errs[i] == nil {
			p.texts[j.hash] = texts[i]
		}
		if m := sums[i]; m != nil {
			w.ws.Texts().Stage(m.hash, m.text)
			p.made[madeKey{j.node.ID, j.level}] = *m
		}
	}
	return p
}
