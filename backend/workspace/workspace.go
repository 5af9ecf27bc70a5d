// Package workspace is one open workspace's state, shared by the engine's
// subsystems: its folder and settings, the graph store, the stored texts,
// the embedder and its vector log, the workspace facts, the working index
// (loaded on first need, with its caches), the writes questions leave
// behind (access times, summaries), and the one lock that orders them.
// The subsystems (library, query, levels, conversation) take a
// *Workspace; the engine's facade (package backend) opens and closes it.
//
// Every method that reads or changes the state expects the caller to hold
// the lock (Lock/Unlock) unless its comment says otherwise.
package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/tokens"
	"github.com/loomwork/loom/backend/vectors"
	"github.com/loomwork/loom/graphdb"
)

// Stats summarises a workspace.
type Stats struct {
	Workspace    string `json:"workspace"`
	Backend      string `json:"backend"`
	Documents    int    `json:"documents"`
	ContentNodes int    `json:"content_nodes"`
	ConceptNodes int    `json:"concept_nodes"`
	Edges        int    `json:"edges"`
	Tokens       int64  `json:"tokens"`
	// Embedder is the embedder the stored vectors were made with ("" for
	// an empty workspace).
	Embedder string `json:"embedder"`
	// EmbedderInUse is the embedder this session embeds with, once chosen
	// (on the first question or ingest: "" before); EmbedderChoice says
	// why it was chosen ("using offline embedder: Ollama is not running
	// at …").
	EmbedderInUse  string `json:"embedder_in_use,omitempty"`
	EmbedderChoice string `json:"embedder_choice,omitempty"`
	// EmbedderDims is the length of the vectors of the embedder in use (0
	// before it is chosen).
	EmbedderDims int `json:"embedder_dims,omitempty"`
	// FullEncoder says that the full MiniLM encoder's weights are
	// installed, so that a re-embed can use it (set by the desktop app;
	// the engine leaves it false).
	FullEncoder bool `json:"full_encoder,omitempty"`
	// Generation counts committed writes.
	Generation int64 `json:"generation"`
	// ReadOnly says why the workspace is open read-only ("" when it is
	// writable): another process holds it, or its folder cannot be
	// written; ReadOnlyCause is the same as a code.
	ReadOnly      string        `json:"read_only,omitempty"`
	ReadOnlyCause ReadOnlyCause `json:"read_only_cause,omitempty"`
}

// Workbench is an open workspace. Its methods are safe for concurrent use;
// writes are serialised.
type Workspace struct {
	dir     string
	tempDir bool // dir is a temporary folder Open made; Close removes it
	cfg     config
	store   *graphdb.Store
	counter tokens.Counter

	// storeMu serialises the store's transactions (apply, load). It is
	// taken after mu, which orders the writes; only the background persist
	// lets go of mu while its transaction commits (schedulePersist).
	storeMu sync.Mutex
	// bgCommit is what the background persist's last commit made the
	// workspace facts (guarded by storeMu), for Close, which may run
	// before that goroutine can record them.
	bgCommit model.Meta

	mu   sync.Mutex // guards everything below and serialises writes
	meta model.Meta
	emb  embed.Embedder
	// embChoice says why emb was chosen ("" when it was given).
	embChoice string
	vecs      *vectors.Log
	index     *index.Graph  // nil until first needed
	retr      *index.Search // query index; nil until first needed
	clusters  clusterCache  // the index's clusters, once asked for
	ranking   assemble.Config
	pending   pendingWrites
	closed    bool
	// bg counts answers being indexed in the background and the sweep of
	// leftover temporary files (sweepTemps); convMu guards
	// the conversation files, the audit log and the calibration file.
	bg     sync.WaitGroup
	convMu sync.Mutex
	// cachedGen is the generation the on-disk caches were read or written
	// at (-1: unknown).
	cachedGen int64
	// rowsKey is the slot table the rows cache on disk was made for, once
	// read or written (see saveRows).
	rowsKey string
	// sysTokens caches token counts of system prompts and short strings.
	sysTokens map[string]int
	// texts are the stored texts (content/, the summaries' pack, the
	// texts staged for writing, those read lately).
	texts *storage.Texts
	// swept is set once the first ingest has started sweepTemps.
	swept bool
	// readOnly says why the workspace is open read-only ("" when it is
	// writable); saved is then the index read from index.cache while
	// another process writes the store, with its concepts in order.
	readOnly      string
	readOnlyCause ReadOnlyCause
	saved         *index.Graph
	savedConcepts []model.Concept
}

// Option configures Open.
type Option func(*config)

type config struct {
	memory           bool
	graph            *storage.GraphKind // nil: storage.DefaultGraph
	readOnly         bool
	readOnlyWhenBusy bool
	embedder         embed.Embedder
	resolveEmb       func(ctx context.Context, stored string) (embed.Embedder, string, error)
	clock            func() time.Time
	threshold        float64 // 0: per-embedder default
	ingest           ingest.Options
	contentRoot      string
	modelWindow      func(ctx context.Context, model string) (int, error)
	hooks            Hooks
	summarizer       abstract.Summarizer
}

// ReadOnly opens the workspace for reading only: nothing in its folder is
// written (a read-only folder works), other readers and a writer may have
// it open at the same time, and writes fail with storage.ErrReadOnly. Beside a
// writer it reads the index that writer saved last.
func ReadOnly() Option { return func(c *config) { c.readOnly = true } }

// ReadOnlyWhenBusy opens the workspace for writing when it can, and
// read-only (see ReadOnly) when another process holds it or its folder
// cannot be written; ReadOnlyReason says which.
func ReadOnlyWhenBusy() Option { return func(c *config) { c.readOnlyWhenBusy = true } }

// ReadOnlyReason says why the workspace is open read-only, or "" when it
// is writable.
func (w *Workspace) ReadOnlyReason() string { return w.readOnly }

// keepsFiles tells whether the workspace writes its files: not in memory,
// not read-only.
func (w *Workspace) KeepsFiles() bool { return !w.cfg.memory && w.readOnly == "" }

// writable fails when the workspace is open read-only, naming the write.
func (w *Workspace) Writable(what string) error {
	if w.readOnly == "" {
		return nil
	}
	return fmt.Errorf("%s: %w (%s)", what, storage.ErrReadOnly, w.readOnly)
}

// WithModelWindow tells queries how to read a model's context window
// (from Ollama's show), for QueryRequest.Model.
func WithModelWindow(f func(ctx context.Context, model string) (int, error)) Option {
	return func(c *config) { c.modelWindow = f }
}

// WithSummarizer makes summaries and essences with s (e.g. an Ollama model
// with the extractive method as fallback) instead of the extractive method.
func WithSummarizer(s abstract.Summarizer) Option { return func(c *config) { c.summarizer = s } }

// graphKind is the graph store the workspace is opened with.
func (c config) graphKind() storage.GraphKind {
	switch {
	case c.memory:
		return storage.MemoryGraph
	case c.graph != nil:
		return *c.graph
	}
	return storage.DefaultGraph()
}

// WithGraphStore keeps the graph in the given store instead of the
// platform's (tests of the browser edition's snapshot store run it
// natively this way).
func WithGraphStore(k storage.GraphKind) Option { return func(c *config) { c.graph = &k } }

// InMemory keeps the graph in Cayley's memstore and files in dir (or a
// temporary folder when dir is ""); for tests and the browser.
func InMemory() Option { return func(c *config) { c.memory = true } }

// WithEmbedder fixes the embedder (otherwise the offline one is used, or
// whatever WithEmbedderResolver picks).
func WithEmbedder(e embed.Embedder) Option { return func(c *config) { c.embedder = e } }

// WithEmbedderResolver picks the embedder lazily, on first need, and says
// why (e.g. "using Ollama nomic-embed-text at …").
func WithEmbedderResolver(f func(ctx context.Context, stored string) (embed.Embedder, string, error)) Option {
	return func(c *config) { c.resolveEmb = f }
}

// WithClock injects the clock (tests, golden files).
func WithClock(now func() time.Time) Option { return func(c *config) { c.clock = now } }

// WithConceptThreshold overrides the embedder's calibrated threshold.
func WithConceptThreshold(t float64) Option { return func(c *config) { c.threshold = t } }

// WithIngestOptions sets section sizes and file limits.
func WithIngestOptions(o ingest.Options) Option { return func(c *config) { c.ingest = o } }

// DefaultWorkspaceDir is $XDG_DATA_HOME/loom/<name>, i.e.
// ~/.local/share/loom/<name> by default.
func DefaultWorkspaceDir(name string) (string, error) {
	if name == "" {
		name = "default"
	}
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the data folder: %w (set XDG_DATA_HOME or pass --workspace)", err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "loom", name), nil
}

// Open opens the workspace in dir, creating it when absent. Opening reads
// only the workspace facts; the working index loads on first need.
func Open(ctx context.Context, dir string, opts ...Option) (*Workspace, error) {
	cfg := config{clock: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	if dir == "" {
		if !cfg.memory {
			return nil, errors.New("open workspace: no folder given")
		}
		d, err := os.MkdirTemp("", "loom-mem-*")
		if err != nil {
			return nil, fmt.Errorf("open workspace in memory: %w", err)
		}
		dir = d
		w, err := open(ctx, dir, cfg)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		w.tempDir = true
		return w, nil
	}
	return open(ctx, dir, cfg)
}

func open(ctx context.Context, dir string, cfg config) (*Workspace, error) {
	if cfg.readOnly {
		return openReadOnly(ctx, dir, cfg, ReadOnlyAsked, "opened read-only")
	}
	w, err := openWritable(ctx, dir, cfg)
	if err != nil && cfg.readOnlyWhenBusy {
		if cause, why := busyCause(err); why != "" {
			return openReadOnly(ctx, dir, cfg, cause, why)
		}
	}
	return w, err
}

// busyReason says why a workspace that could not be opened for writing
// can still be read ("" when it cannot).
func busyReason(err error) string {
	_, why := busyCause(err)
	return why
}

// ReadOnlyCause is why a workspace is open read-only ("" when it is not).
type ReadOnlyCause string

// The causes.
const (
	// ReadOnlyAsked: opened with ReadOnly.
	ReadOnlyAsked ReadOnlyCause = "asked"
	// ReadOnlyInUse: another process holds the workspace for writing;
	// opening again after it lets go makes it writable.
	ReadOnlyInUse ReadOnlyCause = "in_use"
	// ReadOnlyFileSystem: the folder is on a read-only file system.
	ReadOnlyFileSystem ReadOnlyCause = "read_only_file_system"
	// ReadOnlyPermission: the files may not be written.
	ReadOnlyPermission ReadOnlyCause = "permission"
)

// busyCause says why a workspace that could not be opened for writing can
// still be read, as a cause and a sentence ("" when it cannot).
func busyCause(err error) (ReadOnlyCause, string) {
	switch {
	case errors.Is(err, storage.ErrInUse):
		var held *storage.InUseError
		if errors.As(err, &held) {
			return ReadOnlyInUse, "another Loom process is using it: " + held.Holder
		}
		return ReadOnlyInUse, "another Loom process is using it"
	case errors.Is(err, graphdb.ErrReadOnlyFS), errors.Is(err, syscall.EROFS):
		return ReadOnlyFileSystem, "its folder is on a read-only file system"
	case errors.Is(err, graphdb.ErrPermission), errors.Is(err, os.ErrPermission):
		return ReadOnlyPermission, "its files cannot be written (permission denied)"
	}
	return "", ""
}

func openWritable(ctx context.Context, dir string, cfg config) (*Workspace, error) {
	if err := os.MkdirAll(filepath.Join(dir, "content"), 0o755); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "vectors"), 0o755); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	crash.At("open-after-folders")
	cfgPath := filepath.Join(dir, ConfigFile)
	if err := assemble.WriteDefaultConfig(cfgPath); err != nil {
		return nil, fmt.Errorf("open workspace %s: write %s: %w", dir, ConfigFile, err)
	}
	ranking, err := assemble.LoadConfig(cfgPath)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	store, err := storage.OpenGraph(dir, cfg.graphKind(), false)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	meta, err := store.Meta(ctx)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	return &Workspace{dir: dir, cfg: cfg, store: store, meta: meta, ranking: ranking, cachedGen: -1,
		texts: storage.NewTexts(dir, false)}, nil
}

// openReadOnly opens the workspace without writing anything in it: the
// graph store read-only (shared with other readers), or, while another
// process writes it, the index that process last saved (index.cache),
// which holds the whole graph as of that save. Access times and the
// summaries questions make are kept in memory only.
func openReadOnly(ctx context.Context, dir string, cfg config, cause ReadOnlyCause, why string) (*Workspace, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	ranking, err := assemble.LoadConfig(filepath.Join(dir, ConfigFile))
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	w := &Workspace{dir: dir, cfg: cfg, ranking: ranking, cachedGen: -1, readOnly: why, readOnlyCause: cause,
		texts: storage.NewTexts(dir, true)}
	store, err := storage.OpenGraph(dir, cfg.graphKind(), true)
	switch {
	case err == nil && store.Backend() != "bolt":
		w.store = store
		if w.meta, err = store.Meta(ctx); err != nil {
			store.Close()
			return nil, fmt.Errorf("open workspace %s: %w", dir, err)
		}
	case err == nil:
		// The graph is read now and the store let go of: a reader holds
		// bolt's shared lock, which keeps a writer out, only this long.
		if err := w.readGraphOnce(ctx, store); err != nil {
			return nil, fmt.Errorf("open workspace %s: %w", dir, err)
		}
	case errors.Is(err, storage.ErrInUse):
		ix, known := index.LoadGraphCache(w.IndexCachePath(), index.AnyGeneration)
		if ix == nil {
			return nil, fmt.Errorf("open workspace %s: %w, and it has no saved index to read meanwhile (try again once that process has finished its ingest or closed)", dir, err)
		}
		w.store, w.meta, w.saved, w.savedConcepts = graphdb.OpenMemory(), ix.Saved, ix, known
		w.readOnly = why + "; reading the index it saved last"
	default:
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	return w, nil
}

// readGraphOnce reads the workspace facts and the working index's graph
// (from index.cache when it matches, else from the store), then closes the
// store; the index is kept as w.saved.
func (w *Workspace) readGraphOnce(ctx context.Context, store *graphdb.Store) error {
	defer store.Close()
	meta, err := store.Meta(ctx)
	if err != nil {
		return err
	}
	ix, known := index.LoadGraphCache(w.IndexCachePath(), meta.Generation)
	if ix == nil {
		snap, err := store.Load(ctx)
		if err != nil {
			return err
		}
		ix, known = index.FromSnapshot(snap), snap.Concepts
	}
	w.store, w.meta, w.saved, w.savedConcepts = graphdb.OpenMemory(), meta, ix, known
	return nil
}

// ConfigFile is the workspace's settings file; its "ranking" section holds
// the signal weights per purpose and the budget settings (see
// assemble.Config for every key and its default).
const ConfigFile = "config.json"

// Ranking returns the workspace's ranking configuration.
func (w *Workspace) Ranking() assemble.Config {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ranking
}

// Dir is the workspace folder.
func (w *Workspace) Dir() string { return w.dir }

// Stats counts what the workspace holds, from the stored workspace facts
// (no scan).
func (w *Workspace) Stats(ctx context.Context) (Stats, error) {
	w.mu.Lock()
	m, inUse, choice, dims := w.meta, "", w.embChoice, 0
	if w.emb != nil {
		inUse, dims = w.emb.ID(), w.emb.Dim()
	}
	w.mu.Unlock()
	return Stats{Workspace: w.dir, Backend: w.store.Backend(), Documents: m.Documents, ContentNodes: m.ContentNodes,
		ConceptNodes: m.ConceptNodes, Edges: m.Edges, Tokens: m.Tokens, Embedder: m.Embedder, Generation: m.Generation,
		EmbedderInUse: inUse, EmbedderChoice: choice, EmbedderDims: dims, ReadOnly: w.readOnly, ReadOnlyCause: w.readOnlyCause}, nil
}

// Close saves the working-index cache and releases the workspace.
func (w *Workspace) Close() error {
	w.bg.Wait() // answers still being indexed
	w.mu.Lock()
	defer w.mu.Unlock()
	var errs []error
	if w.closed {
		return nil
	}
	crash.At("close-start")
	errs = append(errs, w.persistPending(context.Background()))
	w.cfg.hooks.waitingForStore()
	w.storeMu.Lock() // waits for a background commit in flight
	if w.bgCommit.Generation > w.meta.Generation {
		w.meta = w.bgCommit
	}
	w.storeMu.Unlock()
	w.SaveCaches()
	crash.At("close-after-caches")
	if r := w.LiveSearch(w.index); r != nil && w.KeepsFiles() {
		// The rows cache (150 MB at 50,000 vectors of 768) is written
		// here only, not after every ingest: keyed to the slot table, it
		// is rewritten when that changed.
		w.saveRows(r)
	}
	if w.retr != nil {
		w.retr.Vectors.Close() // a mapped rows cache is let go of now
	}
	w.closed = true
	errs = append(errs, w.texts.Close())
	if w.vecs != nil {
		errs = append(errs, w.vecs.Close())
	}
	w.storeMu.Lock() // after a background commit in flight
	errs = append(errs, w.store.Close())
	w.storeMu.Unlock()
	if w.tempDir {
		errs = append(errs, os.RemoveAll(w.dir))
	}
	return errors.Join(errs...)
}

// apply commits a write to the store. Callers hold w.mu.
func (w *Workspace) Apply(ctx context.Context, write graphdb.Write) (model.Meta, error) {
	w.cfg.hooks.waitingForStore()
	w.storeMu.Lock()
	defer w.storeMu.Unlock()
	return w.store.Apply(ctx, write)
}

// load reads the whole graph from the store (read-only: from the index
// read at open, the store being let go of). Callers hold w.mu.
func (w *Workspace) Load(ctx context.Context) (*graphdb.Snapshot, error) {
	if w.saved != nil {
		ix, err := w.Index(ctx)
		if err != nil {
			return nil, err
		}
		return ix.Snapshot(w.meta), nil
	}
	w.storeMu.Lock()
	defer w.storeMu.Unlock()
	return w.store.Load(ctx)
}

// Content returns the stored text of a content hash (storage.Texts.Read:
// checked against its hash).
func (w *Workspace) Content(hash string) (string, error) { return w.texts.Read(hash) }
