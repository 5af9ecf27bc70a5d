package workspace

import (
	"context"
	"sync"
	"time"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/vectors"
)

// The state the subsystems read and change, under the lock.

// Lock takes the workspace's lock: one write or question at a time.
func (w *Workspace) Lock() { w.mu.Lock() }

// Unlock lets go of it.
func (w *Workspace) Unlock() { w.mu.Unlock() }

// Meta is the workspace facts as of the last commit.
func (w *Workspace) Meta() model.Meta { return w.meta }

// SetMeta records the facts a commit made.
func (w *Workspace) SetMeta(m model.Meta) { w.meta = m }

// CurrentIndex is the working index if it is loaded (nil otherwise).
func (w *Workspace) CurrentIndex() *index.Graph { return w.index }

// CurrentSearch is the query index if it is built (nil otherwise).
func (w *Workspace) CurrentSearch() *index.Search { return w.retr }

// Invalidate drops the working index: a write ran ahead of the store (it
// failed), so the index is read again from the store when next needed.
func (w *Workspace) Invalidate() { w.index = nil }

// Replace installs a working index built elsewhere (a re-embed builds a
// new concept layer), with the embedder it was built with and the facts
// its commit made; the query index is rebuilt on next need.
func (w *Workspace) Replace(g *index.Graph, e embed.Embedder, m model.Meta) {
	w.index, w.emb, w.meta = g, e, m
}

// EmbedderNow is the embedder once resolved (Embedder resolves it).
func (w *Workspace) EmbedderNow() embed.Embedder { return w.emb }

// Vectors is the embedder's vector log, once the embedder is resolved.
func (w *Workspace) Vectors() *vectors.Log { return w.vecs }

// Texts are the workspace's stored texts.
func (w *Workspace) Texts() *storage.Texts { return w.texts }

// Now is the workspace's clock.
func (w *Workspace) Now() time.Time { return w.cfg.clock() }

// Summarizer is the summariser questions make summaries with (nil: the
// extractive method).
func (w *Workspace) Summarizer() abstract.Summarizer { return w.cfg.summarizer }

// ModelWindow reads a model's context window (nil when no model server is
// configured).
func (w *Workspace) ModelWindow() func(ctx context.Context, model string) (int, error) {
	return w.cfg.modelWindow
}

// RankingConfig is the workspace's ranking configuration (the caller holds
// the lock; Ranking takes it).
func (w *Workspace) RankingConfig() assemble.Config { return w.ranking }

// InMemory tells whether nothing of the workspace is kept on disk.
func (w *Workspace) InMemory() bool { return w.cfg.memory }

// Closed tells whether Close has run.
func (w *Workspace) Closed() bool { return w.closed }

// Background counts work running beside the caller (answers being
// indexed, the sweep of leftover temporary files); Close waits for it.
func (w *Workspace) Background() *sync.WaitGroup { return &w.bg }

// FirstWrite reports true once per open, for the work the first write does
// (sweeping what an interrupted process left).
func (w *Workspace) FirstWrite() bool {
	first := !w.swept
	w.swept = true
	return first
}

// CountsWithCL100K tells whether token counts are cl100k_base's (the
// default), which the extractive summariser can add up by parts.
func (w *Workspace) CountsWithCL100K() bool { return w.cfg.ingest.CountTokens == nil }

// RowsCacheKey is the slot table the rows cache on disk was made for,
// once it was adopted or written ("" before).
func (w *Workspace) RowsCacheKey() string { return w.rowsKey }

// StoreMeta reads the workspace facts from the graph store itself (not
// from memory).
func (w *Workspace) StoreMeta(ctx context.Context) (model.Meta, error) { return w.store.Meta(ctx) }
