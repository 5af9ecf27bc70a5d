// Package bind is the thin layer between the page and the engine: App's
// exported methods are what the page can call, the same in the desktop app
// (Wails binds them as promises) and in the web edition (cmd/loom-web
// dispatches calls from the page to them). It never imports Wails: the
// window system is reached through Shell.
package bind

import (
	"context"
	"errors"
	"os"
	"sync"

	"github.com/ollama/ollama/envconfig"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/minilm"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/graphdb"
)

// WorkspaceEnv names the environment variable that points the desktop app at
// another workspace folder than the default one (tests and the smoke test use
// it to open a throw-away workspace).
const WorkspaceEnv = "LOOM_WORKSPACE"

// OllamaEnv names the environment variable with Ollama's URL; unset, the
// app uses OLLAMA_HOST, else http://127.0.0.1:11434 (as the Ollama CLI).
// The address saved in Settings wins over it.
const OllamaEnv = modelserver.EnvOllamaURL

// ollamaAddress is Ollama's address: the one configured, else OLLAMA_HOST
// as the Ollama CLI reads it (which is http://127.0.0.1:11434 when unset).
// The environment is read here, at the edge, not in the engine.
func ollamaAddress(configured string) string {
	return ollama.Address(configured, envconfig.Host().String())
}

// Shell is the part of the window system the App talks to. runtime_wails.go
// implements it with the Wails runtime; tests use a fake, because calling a
// Wails runtime function with a context Wails did not make kills the process.
type Shell interface {
	LogInfo(ctx context.Context, message string)
	LogError(ctx context.Context, message string)
	// Emit sends an event to the page.
	Emit(ctx context.Context, event string, data any)
	// OpenFiles asks the person for files; nil when they cancel.
	OpenFiles(ctx context.Context, title string) ([]string, error)
	// OpenFolder asks the person for a folder; "" when they cancel.
	OpenFolder(ctx context.Context, title string) (string, error)
	// SaveFile asks where to save; "" when they cancel.
	SaveFile(ctx context.Context, title, defaultName string) (string, error)
	SetClipboard(ctx context.Context, text string) error
	// OpenURL hands a URL to the system: a file:// URL to the viewer of
	// its type.
	OpenURL(ctx context.Context, url string) error
}

// workspace is what the App needs of an open backend.Workbench.
type workspace interface {
	Stats(ctx context.Context) (backend.Stats, error)
	ChooseEmbedder(ctx context.Context)
	BudgetLimits(window int) (backend.Limits, error)
	Close() error
	Documents(ctx context.Context) ([]backend.DocumentInfo, error)
	Collections(ctx context.Context) ([]backend.CollectionInfo, error)
	Ingest(ctx context.Context, paths []string, opts backend.IngestOptions) (*backend.IngestReport, error)
	IngestUploads(ctx context.Context, files []backend.Upload, opts backend.IngestOptions) (*backend.IngestReport, error)
	IngestSample(ctx context.Context, opts backend.IngestOptions) (*backend.IngestReport, error)
	ReingestDocument(ctx context.Context, id string, opts backend.IngestOptions) (*backend.IngestReport, error)
	RemoveDocuments(ctx context.Context, ids []string) error
	Pin(ctx context.Context, ids []string, pinned bool) error
	Graph(ctx context.Context) (*backend.GraphData, error)
	Node(ctx context.Context, id string) (*backend.NodeDetail, error)
	Source(ctx context.Context, nodeID string) (*backend.SourceView, error)
	Locate(ctx context.Context, nodeID string) (*backend.Location, error)
	Query(ctx context.Context, req backend.QueryRequest) (*backend.QueryResult, error)
	Chat(ctx context.Context, client *chat.Client, req backend.ChatRequest) (*backend.ChatTurn, error)
	LoadCalibration(c *chat.Calibration) error
	Conversations() ([]backend.ConversationSummary, error)
	Conversation(id string) (*backend.Conversation, error)
	ExportGraph(ctx context.Context, withContent bool) (*graphdb.GraphJSON, error)
	ImportGraph(ctx context.Context, g *graphdb.GraphJSON) error
	Reembed(ctx context.Context, e embed.Embedder, choice string, progress func(backend.ReembedProgress)) (*backend.ReembedReport, error)
}

var _ workspace = (*backend.Workbench)(nil)

// App is the thin binding layer between the frontend and the engine: Wails
// binds its exported methods as promises in the page. It opens one workspace
// on startup and closes it on shutdown; Reopen, CheckWorkspace and
// RepairWorkspace (workspace.go) close and open it again in between.
type App struct {
	shell Shell
	// open, doctor, repair and defaultDir reach the engine (backend.Open,
	// Doctor, Repair and DefaultWorkspaceDir); tests swap them for fakes.
	open       func(ctx context.Context, dir string) (workspace, error)
	doctor     func(ctx context.Context, dir string) (*backend.Checkup, error)
	repair     func(ctx context.Context, dir string) (*backend.RepairReport, error)
	defaultDir func() (string, error)
	// embedder and offline choose the embedder (backend.Config): auto in
	// the desktop app, the offline table the page fetched in the web
	// edition. options are more engine options (tests' synthetic
	// embedder).
	embedder embed.Mode
	offline  func() (embed.Embedder, error)
	options  []backend.Option
	// miniLM loads the full encoder (nil: the weights minilm.Find finds;
	// tests swap it for a stand-in).
	miniLM func() (embed.Embedder, error)
	// newServer makes the client of the model server configured
	// (backend.NewModelServer); tests swap it for one at their fake's
	// address.
	newServer func(c modelserver.Config, o modelserver.Options) (modelserver.Server, error)
	// ollamaURL is the Ollama address the edition was given ("": none; the
	// web edition's page sets it).
	ollamaURL func() string
	// fullEncoder says whether the full MiniLM encoder's weights are
	// installed, for Stats (nil in the web edition: it has none).
	fullEncoder func() bool
	// settingsMu orders the changes of the settings file; savedServer is
	// the model server's settings as last read or saved (nil: not read).
	settingsMu  sync.Mutex
	savedServer *modelServerSettings

	// ready is closed once Startup has finished trying to open the workspace.
	// On Linux Wails runs OnStartup in its own goroutine, so the page can call
	// Stats before the workspace is open; calls wait on ready.
	ready     chan struct{}
	startOnce sync.Once
	// stopping is closed when Shutdown begins, so calls still waiting for
	// the workspace give up instead of hanging.
	stopping chan struct{}
	stopOnce sync.Once
	// ctx is the context Wails passed to Startup; read it only after ready.
	ctx context.Context

	// dir is the workspace folder, fixed by Startup ("" when none could
	// be found).
	dir string

	// benchMu keeps Shutdown, Reopen, CheckWorkspace and RepairWorkspace
	// from closing the workspace under a call that is still using it; it
	// guards bench and openErr, which those change.
	benchMu sync.RWMutex
	bench   workspace
	// openErr is why the workspace did not open (the engine's error, or
	// bind's when there is no folder); calls fail with it.
	openErr error

	jobs jobs

	// mcpMu guards the MCP server (mcp.go): mcpOn is the setting, mcpRun
	// the server while it listens, mcpProblem why it does not while on;
	// mcpAddr is where it listens ("": 127.0.0.1:7337, else a free port).
	// Taken after benchMu, never before.
	mcpMu      sync.Mutex
	mcpOn      bool
	mcpRun     *mcpRun
	mcpProblem string
	mcpAddr    string

	// watches are the live folders (watch.go): started when the
	// workspace opens for writing, stopped when it closes.
	watches watches
	// web: the page runs the engine itself (WebAssembly); Ollama is then
	// reached by the browser, which CORS may refuse.
	web bool
}

// NewApp returns an App that reports through shell and opens workspaces with
// the engine.
func NewApp(shell Shell) *App {
	a := &App{
		shell:      shell,
		doctor:     func(ctx context.Context, dir string) (*backend.Checkup, error) { return backend.Doctor(ctx, dir) },
		defaultDir: func() (string, error) { return backend.DefaultWorkspaceDir("default") },
		newServer:  backend.NewModelServer,
		ollamaURL:  func() string { return os.Getenv(OllamaEnv) },
		fullEncoder: func() bool {
			_, err := minilm.Find()
			return err == nil
		},
		ready:    make(chan struct{}),
		stopping: make(chan struct{}),
		ctx:      context.Background(),
	}
	// The desktop app opens read-only when another Loom process (the CLI,
	// loom watch, another window) holds the workspace or its folder cannot
	// be written: questions still work, and the page says why nothing can
	// be changed instead of refusing to start.
	a.open = func(ctx context.Context, dir string) (workspace, error) {
		c := a.config(dir)
		c.Access = backend.WriteWhenFree
		return backend.New(ctx, c)
	}
	// Repair writes, so it never falls back to read-only: a busy workspace
	// is an error that says to close the other process.
	a.repair = func(ctx context.Context, dir string) (*backend.RepairReport, error) {
		opts, err := a.config(dir).EngineOptions()
		if err != nil {
			return nil, err
		}
		return backend.Repair(ctx, dir, backend.RepairOptions{Replace: true}, opts...)
	}
	return a
}

// config is the engine's wiring (backend.Config, as the CLI's): the
// embedder (auto in the desktop app: the workspace's own; for a new one the
// model server's embedding model when it has one, else the offline table
// until the full encoder has re-embedded it in the background: upgrade.go),
// the model
// server as configured (Settings, else the environment) with its silences
// told to the page, the model windows it reports; the embedder chosen goes
// to the log, and Stats says it to the page.
func (a *App) config(dir string) backend.Config {
	embedModel := ""
	if c, err := a.serverConfig(); err == nil {
		embedModel = c.EmbedModel
	}
	return backend.Config{Dir: dir, Embedder: a.embedder, Offline: a.offline, MiniLM: a.miniLM, EmbedModel: embedModel,
		Server: func() (modelserver.Server, error) {
			return a.server(modelserver.Options{Notify: func(n wait.Notice) { a.shell.Emit(a.ctx, EventOllamaWait, n) }})
		},
		OnEmbedder:       func(reason string) { a.shell.LogInfo(a.ctx, "embedder: "+reason) },
		StartOnTable:     !a.web,
		OnStartedOnTable: func(target string) { a.startedOnTable(dir, target) },
		Options:          a.options,
	}
}

// WebConfig sets up an App for the web edition (cmd/loom-web): the
// workspace folder in the page's file system, the offline embedder (whose
// table the page fetched; the browser may not reach Ollama for
// embeddings), and the Ollama URL the person configured in the page.
type WebConfig struct {
	Dir       string
	Offline   func() (embed.Embedder, error)
	OllamaURL func() string
}

// NewWebApp returns an App for the web edition.
func NewWebApp(shell Shell, cfg WebConfig) *App {
	a := NewApp(shell)
	a.web = true
	a.embedder, a.offline = embed.ModeOffline, cfg.Offline
	a.fullEncoder = nil // the page has no weights to load
	a.defaultDir = func() (string, error) { return cfg.Dir, nil }
	// One tab holds the workspace at a time (the page waits for the
	// others), so there is no other process to fall back to read-only for.
	a.open = func(ctx context.Context, dir string) (workspace, error) {
		return backend.New(ctx, a.config(dir))
	}
	if cfg.OllamaURL != nil {
		a.ollamaURL = cfg.OllamaURL
	}
	return a
}

// Startup opens the workspace named by LOOM_WORKSPACE, or the default one.
// Wails calls it as OnStartup. A failure is kept, not fatal: the page asks
// for stats and shows the error to the person.
func (a *App) Startup(ctx context.Context) {
	a.startOnce.Do(func() {
		defer close(a.ready)
		a.ctx = ctx
		a.benchMu.Lock()
		defer a.benchMu.Unlock()
		dir, dirErr := a.workspaceFolder()
		if dirErr != nil {
			a.openErr = dirErr
			a.shell.LogError(ctx, dirErr.Error())
			return
		}
		a.dir = dir
		if !a.web {
			a.mcpSetting()
		}
		a.openLocked(ctx)
	})
}

// workspaceFolder is the folder LOOM_WORKSPACE names, or the default one.
func (a *App) workspaceFolder() (string, *Error) {
	dir := os.Getenv(WorkspaceEnv)
	if dir != "" && !a.web {
		return dir, nil
	}
	dir, err := a.defaultDir()
	if err == nil && dir == "" {
		err = errors.New("the engine named no folder")
	}
	if err != nil {
		return "", &Error{
			Code:    CodeWorkspaceUnavailable,
			Message: "Loom could not find its default workspace folder. Set " + WorkspaceEnv + " to a folder and start Loom again.",
			Err:     err,
		}
	}
	return dir, nil
}

// Shutdown closes the workspace. Wails calls it as OnShutdown.
func (a *App) Shutdown(ctx context.Context) {
	a.stopOnce.Do(func() { close(a.stopping) })
	// A re-embed stops: the workspace keeps the embedder it had (one in
	// the background goes on at the next start).
	a.jobs.mu.Lock()
	if a.jobs.reembed != nil {
		a.jobs.reembed()
	}
	a.jobs.mu.Unlock()
	select {
	case <-a.ready:
	case <-ctx.Done():
		return
	}
	a.benchMu.Lock()
	a.closeLocked(ctx)
	a.openErr = nil // calls now fail as closed, not with the last open's error
	a.benchMu.Unlock()
	// The watchers' syncs in flight end once they get the workspace and
	// find it closed.
	a.watches.running.Wait()
}

// WorkspaceDir is the folder of the workspace this window opened, or tried
// to open.
func (a *App) WorkspaceDir() (string, error) {
	if err := a.waitReady(); err != nil {
		return "", err
	}
	if a.dir == "" {
		a.benchMu.RLock()
		defer a.benchMu.RUnlock()
		return "", a.openErr
	}
	return a.dir, nil
}

// Stats counts what the open workspace holds and says which embedder it
// uses and why (choosing it now when no question or ingest has yet).
func (a *App) Stats() (backend.Stats, error) {
	var stats backend.Stats
	err := a.use(func(ws workspace) (err error) {
		ws.ChooseEmbedder(a.ctx)
		stats, err = ws.Stats(a.ctx)
		stats.FullEncoder = a.fullEncoder != nil && a.fullEncoder()
		return err
	})
	return stats, err
}

func (a *App) waitReady() error {
	select {
	case <-a.ready:
		return nil
	case <-a.stopping:
		return closedError()
	}
}
