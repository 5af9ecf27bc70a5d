package workspace

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/tokens"
	"github.com/loomwork/loom/backend/vectors"
)

// embedder returns the embedder, resolving it on first use, and opens its
// vector log.
func (w *Workspace) Embedder(ctx context.Context) (embed.Embedder, error) {
	if w.emb != nil {
		return w.emb, nil
	}
	e, choice := w.cfg.embedder, ""
	if e == nil && w.cfg.resolveEmb != nil {
		var err error
		if e, choice, err = w.cfg.resolveEmb(ctx, w.meta.Embedder); err != nil {
			return nil, err
		}
	}
	if e == nil {
		off, err := offline.New()
		if err != nil {
			return nil, err
		}
		e = off
	}
	open := vectors.Open
	if w.readOnly != "" {
		open = vectors.OpenReadOnly
	}
	vl, err := open(filepath.Join(w.dir, "vectors", safeName(e.ID())+".vec"), e.Dim())
	if err != nil {
		return nil, err
	}
	w.emb, w.vecs, w.embChoice = e, vl, choice
	return e, nil
}

// VectorsPath is the file of e's vector log in this workspace.
func (w *Workspace) VectorsPath(e embed.Embedder) string {
	return filepath.Join(w.dir, "vectors", safeName(e.ID())+".vec")
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ':' || r == '\\' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

func (w *Workspace) Threshold(e embed.Embedder) float64 {
	if w.cfg.threshold > 0 {
		return w.cfg.threshold
	}
	return embed.ConceptThreshold(e.ID())
}

func (w *Workspace) IngestOptions() (ingest.Options, error) {
	o := w.cfg.ingest
	if o.CountTokens == nil {
		if w.counter == nil { // loaded on first need: opening stays fast
			c, err := tokens.New(tokens.DefaultEncoding)
			if err != nil {
				return o, err
			}
			w.counter = c
		}
		o.CountTokens = w.counter.Count
	}
	return o, nil
}

// countFunc is the token counter (loaded on first need).
func (w *Workspace) Counter() (assemble.Counter, error) {
	o, err := w.IngestOptions()
	if err != nil {
		return nil, err
	}
	return o.CountTokens, nil
}

// VectorLogName is the file, under vectors/, of an embedder's vector log
// (an id with slashes and colons in it makes a plain file name).
func VectorLogName(embedderID string) string { return safeName(embedderID) + ".vec" }

// GraphKindOf is the graph store the options open.
func GraphKindOf(opts ...Option) storage.GraphKind {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c.graphKind()
}

// ChooseEmbedder chooses the embedder now instead of on first need, so
// Stats can say which one this session uses and why; when none can be
// had, Stats says why instead.
func (w *Workspace) ChooseEmbedder(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.emb != nil {
		return
	}
	if _, err := w.Embedder(ctx); err != nil {
		w.embChoice = "no embedder: " + err.Error()
	}
}

// PreviousEmbedder is what SwitchEmbedder replaced: the embedder, its
// vector log and why it was chosen.
type PreviousEmbedder struct {
	emb    embed.Embedder
	vecs   *vectors.Log
	choice string
	same   bool // the switch kept the embedder: nothing to put back or close
}

// SwitchEmbedder makes e the session's embedder, with its vector log
// (opened here; the vectors it already holds are reused), for a re-embed
// that the caller runs next, holding the lock. If the re-embed fails, the
// caller puts the previous embedder back with RestoreEmbedder; once it has
// committed, it closes the previous log with Release.
func (w *Workspace) SwitchEmbedder(e embed.Embedder, choice string) (*PreviousEmbedder, error) {
	if w.emb != nil && w.emb.ID() == e.ID() {
		prev := &PreviousEmbedder{emb: w.emb, vecs: w.vecs, choice: w.embChoice, same: true}
		w.embChoice = choice
		return prev, nil
	}
	if err := w.Writable("re-embed"); err != nil {
		return nil, err
	}
	vl, err := vectors.Open(w.VectorsPath(e), e.Dim())
	if err != nil {
		return nil, err
	}
	prev := &PreviousEmbedder{emb: w.emb, vecs: w.vecs, choice: w.embChoice}
	w.emb, w.vecs, w.embChoice = e, vl, choice
	return prev, nil
}

// RestoreEmbedder puts back the embedder a failed re-embed switched from,
// closing the new one's log (what it holds stays on disk for the next
// try), and drops the working index, which the failed re-embed may have
// changed.
func (w *Workspace) RestoreEmbedder(p *PreviousEmbedder) {
	if !p.same {
		if w.vecs != nil {
			_ = w.vecs.Flush()
			_ = w.vecs.Close()
		}
		w.emb, w.vecs = p.emb, p.vecs
	}
	w.embChoice = p.choice
	w.Invalidate()
}

// Release closes the previous embedder's vector log once the re-embed has
// committed.
func (p *PreviousEmbedder) Release() error {
	if p.same || p.vecs == nil {
		return nil
	}
	return p.vecs.Close()
}
