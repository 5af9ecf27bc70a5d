package bind

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/graphdb"
)

// The App's bound methods for the workbench: library, graph, query, chat
// and export. Each waits for the workspace, returns the engine's errors as
// they are (Payload gives the page their codes) and never blocks the
// window: Wails runs every call in its own goroutine, long ones report
// through events.

// Events the App sends to the page.
const (
	// EventIngestProgress carries an IngestProgress while an ingest runs.
	EventIngestProgress = "ingest:progress"
	// EventChatDelta carries a ChatDelta while an answer streams.
	EventChatDelta = "chat:delta"
	// EventOllamaWait carries a wait.Notice while a question that names a
	// model waits for the model server to describe it (its window).
	EventOllamaWait = "ollama:wait"
	// EventReembedProgress carries a ReembedProgress while a re-embed runs.
	EventReembedProgress = "reembed:progress"
)

// EventPayloads gives each event's payload, by a value of its type: the
// page's types of the events are made from it (tools/wiretypes), and
// bind's tests check that every event sent carries this type.
var EventPayloads = map[string]any{
	EventIngestProgress:  IngestProgress{},
	EventChatDelta:       ChatDelta{},
	EventOllamaWait:      wait.Notice{},
	EventWatchState:      WatchedFolder{},
	EventReembedProgress: ReembedProgress{},
}

// chatFlushEvery is how often streamed answer text is sent to the page: a
// token per event would flood the bridge; four batches a second would lag.
const chatFlushEvery = 50 * time.Millisecond

// jobs tracks the running ingest, re-embed and chat streams so they can be
// stopped.
type jobs struct {
	mu      sync.Mutex
	ingest  context.CancelFunc
	ingestN int
	reembed context.CancelFunc
	// auto is the background re-embed of upgrade.go while it runs (reembed
	// is its cancel too).
	auto  *upgradeRun
	chats map[string]context.CancelFunc
}

// running names the job that holds the workspace now ("" for none).
func (j *jobs) running() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.runningLocked()
}

// runningLocked is running with j.mu held.
func (j *jobs) runningLocked() string {
	switch {
	case j.ingest != nil:
		return "the ingest"
	case j.reembed != nil:
		return "the re-embed"
	case len(j.chats) > 0:
		return "the answer being written"
	}
	return ""
}

// use runs f with the open workspace, holding it open (Shutdown, Reopen
// and the doctor wait).
func (a *App) use(f func(ws workspace) error) error {
	if err := a.waitReady(); err != nil {
		return err
	}
	a.benchMu.RLock()
	defer a.benchMu.RUnlock()
	if a.openErr != nil {
		return a.openErr
	}
	if a.bench == nil {
		return closedError()
	}
	return f(a.bench)
}

// Documents lists the workspace's documents with their sizes.
func (a *App) Documents() ([]backend.DocumentInfo, error) {
	var out []backend.DocumentInfo
	err := a.use(func(ws workspace) (err error) {
		out, err = ws.Documents(a.ctx)
		return err
	})
	if out == nil {
		out = []backend.DocumentInfo{}
	}
	return out, err
}

// Collections lists the collections with their sizes.
func (a *App) Collections() ([]backend.CollectionInfo, error) {
	var out []backend.CollectionInfo
	err := a.use(func(ws workspace) (err error) {
		out, err = ws.Collections(a.ctx)
		return err
	})
	if out == nil {
		out = []backend.CollectionInfo{}
	}
	return out, err
}

// FileProblem is one file that could not be ingested.
type FileProblem struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// fileNote splits a report's note, "file: problem", into its file and
// problem.
func fileNote(note string) FileProblem {
	file, problem, _ := strings.Cut(note, ": ")
	return FileProblem{Path: file, Problem: problem}
}

// SkippedFile is one file of a folder that was left out on purpose (a
// format Loom does not read, say); it is not an error.
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// IngestResult is an ingest's report with its problems per file.
type IngestResult struct {
	*backend.IngestReport
	// Job is the id its progress events carry (events may arrive after
	// the result: the page drops those of a job that has ended).
	Job    string        `json:"job"`
	Errors []FileProblem `json:"errors"`
	// Skipped are the files left out on purpose, with the reason (the
	// report's Hidden counts what was left out without a word).
	Skipped []SkippedFile `json:"skipped"`
	// Warnings are problems that lost nothing, each with its file: front
	// matter kept as text, an upload added under another name.
	Warnings []FileProblem `json:"warnings"`
	// Watchable are the folders among the paths ingested (a drop, the
	// folder dialog) that the desktop could keep in step with their
	// files and does not yet: the page offers "Watch this folder" for
	// each (WatchFolder). Absent in the web edition, for uploads, and on
	// a workspace open read-only.
	Watchable []string `json:"watchable,omitempty"`
}

// FileProgress is one file of an ingest, as it goes.
type FileProgress struct {
	Path    string    `json:"path"`
	State   FileState `json:"state"`
	Problem string    `json:"problem,omitempty"`
}

// FileState is where a file of an ingest is.
type FileState string

// The states of a file, in the order it goes through them.
const (
	FileQueued  FileState = "queued"
	FileReading FileState = "reading"
	// FileEmbedded: its sections are embedded (an ingest's first stage);
	// the second stage writes it to the library.
	FileEmbedded FileState = "embedded"
	FileDone     FileState = "done"
	// FileError: the file could not be ingested; Problem says why.
	FileError FileState = "error"
	// FileSkipped: the file was left out on purpose (IngestResult.Skipped:
	// a format Loom does not read, a vendored or minified file, a second
	// upload of one name), the reason as Problem; only the last progress
	// event of an ingest carries it.
	FileSkipped FileState = "skipped"
)

// IngestProgress is the event the page gets while an ingest runs.
type IngestProgress struct {
	Job        string `json:"job"`
	FilesDone  int    `json:"files_done"`
	FilesTotal int    `json:"files_total"`
	BytesDone  int64  `json:"bytes_done"`
	BytesTotal int64  `json:"bytes_total"`
	Current    string `json:"current"`
	// SectionsEmbedded of SectionsToEmbed sections of Current are
	// embedded: a long file's progress inside it (0 of 0 otherwise).
	SectionsEmbedded int `json:"sections_embedded"`
	SectionsToEmbed  int `json:"sections_to_embed"`
	// Stage is "embedding" while the files are embedded before the
	// library changes (questions go on meanwhile), then "writing"; "" for
	// an ingest in one stage. The file counts start again at each stage.
	Stage string `json:"stage,omitempty"`
	// Written counts the documents of this ingest already in the library:
	// a large drop embedded by the full encoder or a model server is
	// written in rounds, each searchable (and worth showing) at once.
	Written  int            `json:"written,omitempty"`
	Files    []FileProgress `json:"files"`
	Finished bool           `json:"finished"`
	Canceled bool           `json:"canceled,omitempty"`
	Error    string         `json:"error,omitempty"`
}

// IngestPaths ingests files and folders (a native drop or the file dialog).
func (a *App) IngestPaths(paths []string) (*IngestResult, error) {
	if len(paths) == 0 {
		return nil, &Error{Code: CodeInvalid, Message: "Nothing to ingest: drop files or folders, or pick them."}
	}
	res, err := a.ingest(func(ctx context.Context, ws workspace, opts backend.IngestOptions) (*backend.IngestReport, error) {
		return ws.Ingest(ctx, paths, opts)
	})
	if res != nil && !res.Canceled {
		res.Watchable = a.watchable(paths)
	}
	return res, err
}

// IngestUploads ingests texts the page read itself (file input, HTML drop).
func (a *App) IngestUploads(files []backend.Upload) (*IngestResult, error) {
	if len(files) == 0 {
		return nil, &Error{Code: CodeInvalid, Message: "Nothing to ingest: drop files or pick them."}
	}
	return a.ingest(func(ctx context.Context, ws workspace, opts backend.IngestOptions) (*backend.IngestReport, error) {
		return ws.IngestUploads(ctx, files, opts)
	})
}

// IngestSample adds the sample library (eight notes on retrieval-augmented
// generation, collection "sample") that the empty library offers, with the
// same progress events and report as any ingest.
func (a *App) IngestSample() (*IngestResult, error) {
	return a.ingest(func(ctx context.Context, ws workspace, opts backend.IngestOptions) (*backend.IngestReport, error) {
		return ws.IngestSample(ctx, opts)
	})
}

// ReingestDocument reads a document's file again.
func (a *App) ReingestDocument(id string) (*IngestResult, error) {
	return a.ingest(func(ctx context.Context, ws workspace, opts backend.IngestOptions) (*backend.IngestReport, error) {
		return ws.ReingestDocument(ctx, id, opts)
	})
}

// CancelIngest stops the running ingest after the file in hand; what is
// done stays.
func (a *App) CancelIngest() {
	a.jobs.mu.Lock()
	defer a.jobs.mu.Unlock()
	if a.jobs.ingest != nil {
		a.jobs.ingest()
	}
}

func (a *App) ingest(run func(ctx context.Context, ws workspace, opts backend.IngestOptions) (*backend.IngestReport, error)) (*IngestResult, error) {
	a.jobs.mu.Lock()
	// The background re-embed stops for the ingest (what it embedded is
	// kept) and starts again after it, with the new files.
	a.stopUpgradeLocked(false)
	if a.jobs.ingest != nil {
		a.jobs.mu.Unlock()
		return nil, &Error{Code: CodeBusy, Message: "An ingest is already running: wait for it to finish or cancel it."}
	}
	if a.jobs.reembed != nil {
		a.jobs.mu.Unlock()
		return nil, &Error{Code: CodeBusy, Message: "The workspace is being re-embedded: wait for it to finish or cancel it, then add files."}
	}
	ctx, cancel := context.WithCancel(a.ctx)
	a.jobs.ingest = cancel
	a.jobs.ingestN++
	job := fmt.Sprintf("ingest-%d", a.jobs.ingestN)
	a.jobs.mu.Unlock()
	defer func() {
		cancel()
		a.jobs.mu.Lock()
		a.jobs.ingest = nil
		a.jobs.mu.Unlock()
		a.upgradeLater()
	}()

	t := newIngestTracker(job)
	var res *IngestResult
	err := a.use(func(ws workspace) error {
		rep, err := run(ctx, ws, backend.IngestOptions{Progress: func(p backend.Progress) {
			a.shell.Emit(a.ctx, EventIngestProgress, t.update(p))
		}})
		if rep != nil {
			res = &IngestResult{IngestReport: rep, Job: job, Errors: []FileProblem{}, Skipped: []SkippedFile{}, Warnings: []FileProblem{}}
			for _, e := range rep.Errors {
				file, problem := backend.FileProblem(e)
				res.Errors = append(res.Errors, FileProblem{Path: file, Problem: problem})
			}
			for _, s := range rep.Skipped {
				res.Skipped = append(res.Skipped, SkippedFile{Path: s.Path, Reason: s.Reason})
			}
			for _, wn := range rep.Warnings {
				res.Warnings = append(res.Warnings, fileNote(wn))
			}
		}
		final := t.finish(res, err)
		a.shell.Emit(a.ctx, EventIngestProgress, final)
		return err
	})
	return res, err
}

// ingestTracker turns the engine's progress into per-file states.
type ingestTracker struct {
	p     IngestProgress
	index map[string]int
}

func newIngestTracker(job string) *ingestTracker {
	return &ingestTracker{p: IngestProgress{Job: job, Files: []FileProgress{}}, index: map[string]int{}}
}

func (t *ingestTracker) file(path string) *FileProgress {
	i, ok := t.index[path]
	if !ok {
		i = len(t.p.Files)
		t.index[path] = i
		t.p.Files = append(t.p.Files, FileProgress{Path: path, State: FileQueued})
	}
	return &t.p.Files[i]
}

func (t *ingestTracker) update(p backend.Progress) IngestProgress {
	if t.p.Current != "" && t.p.Current != p.Current {
		if f := t.file(t.p.Current); f.State == FileReading {
			f.State = FileDone
			if t.p.Stage == backend.StageEmbedding {
				f.State = FileEmbedded
			}
		}
	}
	t.p.FilesDone, t.p.FilesTotal, t.p.BytesDone, t.p.BytesTotal, t.p.Current = p.FilesDone, p.FilesTotal, p.BytesDone, p.BytesTotal, p.Current
	t.p.SectionsEmbedded, t.p.SectionsToEmbed, t.p.Stage, t.p.Written = p.Embedded, p.ToEmbed, p.Stage, p.Written
	if p.Current != "" {
		t.file(p.Current).State = FileReading
	}
	return t.snapshot()
}

func (t *ingestTracker) finish(res *IngestResult, err error) IngestProgress {
	for i := range t.p.Files {
		if st := t.p.Files[i].State; st == FileReading || st == FileEmbedded {
			t.p.Files[i].State = FileDone
		}
	}
	if res != nil {
		for _, e := range res.Errors {
			f := t.matching(e.Path)
			f.State, f.Problem = FileError, e.Problem
		}
		// What was left out on purpose: a file read and then set aside
		// (minified code) is no longer shown as added, and one the walk
		// never read joins the list, each with the reason.
		for _, sk := range res.Skipped {
			f := t.matching(sk.Path)
			f.State, f.Problem = FileSkipped, sk.Reason
		}
		// A warning goes beside its file, which keeps its state; a file's
		// warnings are joined, the first maxFileNotes of them.
		notes := map[*FileProgress]int{}
		for _, wn := range res.Warnings {
			f := t.find(wn.Path)
			if f == nil || f.State == FileError || f.State == FileSkipped {
				continue
			}
			switch n := notes[f]; {
			case n == 0:
				f.Problem = wn.Problem
			case n < maxFileNotes:
				f.Problem += " · " + wn.Problem
			}
			notes[f]++
		}
		for f, n := range notes {
			if n > maxFileNotes {
				f.Problem += fmt.Sprintf(" · and %d more", n-maxFileNotes)
			}
		}
		t.p.Canceled = res.Canceled
	}
	if err != nil {
		t.p.Error = err.Error()
	}
	t.p.Current, t.p.Finished = "", true
	return t.snapshot()
}

// maxFileNotes is how many of one file's warnings its line in the ingest
// panel spells out; the rest are counted.
const maxFileNotes = 3

// matching finds the file an error names (errors may name it absolute or
// relative), or adds it.
func (t *ingestTracker) matching(path string) *FileProgress {
	if f := t.find(path); f != nil {
		return f
	}
	return t.file(path)
}

// find is the file of the ingest that path names, nil when none.
func (t *ingestTracker) find(path string) *FileProgress {
	for i := range t.p.Files {
		f := &t.p.Files[i]
		if f.Path == path || strings.HasSuffix(path, string(filepath.Separator)+f.Path) || strings.HasSuffix(f.Path, string(filepath.Separator)+path) {
			return f
		}
	}
	return nil
}

func (t *ingestTracker) snapshot() IngestProgress {
	s := t.p
	s.Files = append([]FileProgress(nil), t.p.Files...)
	return s
}

// PickFiles asks the person for files to ingest.
func (a *App) PickFiles() ([]string, error) {
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	paths, err := a.shell.OpenFiles(a.ctx, "Add documents to Loom")
	if err != nil {
		return nil, &Error{Code: CodeShellFailed, Message: "The file dialog failed.", Err: err}
	}
	if paths == nil {
		paths = []string{}
	}
	return paths, nil
}

// RemoveDocument deletes a document with its sections.
func (a *App) RemoveDocument(id string) error {
	return a.use(func(ws workspace) error {
		return ws.RemoveDocuments(a.ctx, []string{id})
	})
}

// Pin pins or unpins nodes or documents (always loaded first).
func (a *App) Pin(ids []string, pinned bool) error {
	return a.use(func(ws workspace) error {
		return ws.Pin(a.ctx, ids, pinned)
	})
}

// Graph returns the whole graph for the graph view.
func (a *App) Graph() (*backend.GraphData, error) {
	var g *backend.GraphData
	err := a.use(func(ws workspace) (err error) {
		g, err = ws.Graph(a.ctx)
		return err
	})
	return g, err
}

// Node returns one node with its text, concepts and neighbours.
func (a *App) Node(id string) (*backend.NodeDetail, error) {
	var d *backend.NodeDetail
	err := a.use(func(ws workspace) (err error) {
		d, err = ws.Node(a.ctx, id)
		return err
	})
	return d, err
}

// Query assembles the context for a question; the result carries the hop
// distances the graph is coloured by and the budgets the slider offers.
func (a *App) Query(req backend.QueryRequest) (*backend.QueryResult, error) {
	if req.Budget == 0 && req.Window == 0 && req.Model == "" {
		req.Budget = 4000
	}
	var res *backend.QueryResult
	err := a.use(func(ws workspace) (err error) {
		res, err = ws.Query(a.ctx, req)
		return err
	})
	return res, err
}

// ChatDelta is the event the page gets while an answer streams.
type ChatDelta struct {
	Stream   string         `json:"stream"`
	Text     string         `json:"text"`
	Tool     *chat.ToolCall `json:"tool,omitempty"`
	Manifest string         `json:"manifest,omitempty"`
	Loaded   []string       `json:"loaded,omitempty"`
	// Cites are the loaded nodes' human-readable references, by id (sent
	// with Manifest and Loaded; a tool call carries its own).
	Cites map[string]string `json:"cites,omitempty"`
	// Wait says that Ollama has sent nothing for a while (10 s, stalled at
	// 30 s and every 30 s after) while the turn waits for it: the model's
	// details before the turn, or the answer. The page shows it until the
	// next text or tool call, or the turn's end.
	Wait *wait.Notice `json:"wait,omitempty"`
}

// ChatArgs is what the page sends to start a turn.
type ChatArgs struct {
	Conversation string `json:"conversation,omitempty"`
	Question     string `json:"question"`
	Model        string `json:"model"`
	Window       int    `json:"window,omitempty"`
	Purpose      string `json:"purpose,omitempty"`
	Level        string `json:"level,omitempty"`
	Scope        string `json:"scope,omitempty"`
	NoTools      bool   `json:"no_tools,omitempty"`
}

// Chat answers a question with a local model over assembled context,
// streaming the answer as chat:delta events under the stream id.
func (a *App) Chat(args ChatArgs, stream string) (*backend.ChatTurn, error) {
	if strings.TrimSpace(args.Model) == "" {
		return nil, &Error{Code: CodeInvalid, Message: "Pick a model to chat with."}
	}
	s := &chatStream{app: a, id: stream}
	// The client's notifier hears the waits the turn's own OnWait does
	// not: the model's details, asked before the turn.
	srv, err := a.server(modelserver.Options{Notify: s.wait})
	if err != nil {
		return nil, &Error{Code: CodeInvalid, Message: "The model server's settings are not valid: correct them in Settings (Model server).", Err: err}
	}
	client := chat.New(srv)
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	a.jobs.mu.Lock()
	if a.jobs.chats == nil {
		a.jobs.chats = map[string]context.CancelFunc{}
	}
	a.jobs.chats[stream] = cancel
	a.jobs.mu.Unlock()
	defer func() {
		a.jobs.mu.Lock()
		delete(a.jobs.chats, stream)
		a.jobs.mu.Unlock()
	}()

	stop := s.start()
	var turn *backend.ChatTurn
	err = a.use(func(ws workspace) error {
		if err := ws.LoadCalibration(client.Calibration()); err != nil {
			a.shell.LogError(a.ctx, "calibration: "+err.Error())
		}
		req := backend.ChatRequest{Conversation: args.Conversation, Question: args.Question, Model: args.Model, Window: args.Window,
			Purpose: args.Purpose, Level: args.Level, Scope: args.Scope,
			OnToken:    s.add,
			OnToolCall: func(c chat.ToolCall) { s.flush(); s.emit(ChatDelta{Stream: stream, Tool: &c}) },
			OnContext: func(m string, loaded []string, cites map[string]string) {
				s.emit(ChatDelta{Stream: stream, Manifest: m, Loaded: loaded, Cites: cites})
			},
			OnWait: s.wait,
		}
		if args.NoTools {
			req.MaxToolRounds = -1
		}
		var err error
		turn, err = ws.Chat(ctx, client, req)
		return err
	})
	stop()
	// A turn that failed part way carries the error and the partial answer
	// (and is kept in its conversation). Ollama not running at all is the
	// chat being off, which the page shows as such, not as an answer.
	if err == nil || turn != nil && errs.CodeOf(err) != errs.OllamaNotRunning {
		return turn, nil
	}
	return nil, err
}

// CancelChat stops the answer streaming under the id; what came is kept.
func (a *App) CancelChat(stream string) {
	a.jobs.mu.Lock()
	defer a.jobs.mu.Unlock()
	if c := a.jobs.chats[stream]; c != nil {
		c()
	}
}

// chatStream batches answer tokens into chat:delta events.
type chatStream struct {
	app  *App
	id   string
	mu   sync.Mutex
	buf  strings.Builder
	done chan struct{}
}

func (s *chatStream) start() (stop func()) {
	s.done = make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(chatFlushEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				s.flush()
			case <-s.done:
				return
			}
		}
	}()
	return func() {
		close(s.done)
		wg.Wait()
		s.flush()
	}
}

func (s *chatStream) add(text string) {
	s.mu.Lock()
	s.buf.WriteString(text)
	s.mu.Unlock()
}

func (s *chatStream) flush() {
	s.mu.Lock()
	text := s.buf.String()
	s.buf.Reset()
	s.mu.Unlock()
	if text != "" {
		s.emit(ChatDelta{Stream: s.id, Text: text})
	}
}

func (s *chatStream) emit(d ChatDelta) { s.app.shell.Emit(s.app.ctx, EventChatDelta, d) }

// wait sends a notice that Ollama is silent, after the text that came
// before it, so the page never shows a wait older than the text.
func (s *chatStream) wait(n wait.Notice) {
	s.flush()
	s.emit(ChatDelta{Stream: s.id, Wait: &n})
}

// Conversations lists the stored conversations, most recent first.
func (a *App) Conversations() ([]backend.ConversationSummary, error) {
	var out []backend.ConversationSummary
	err := a.use(func(ws workspace) (err error) {
		out, err = ws.Conversations()
		return err
	})
	if out == nil {
		out = []backend.ConversationSummary{}
	}
	return out, err
}

// Conversation returns one stored conversation.
func (a *App) Conversation(id string) (*backend.Conversation, error) {
	var c *backend.Conversation
	err := a.use(func(ws workspace) (err error) {
		c, err = ws.Conversation(id)
		return err
	})
	return c, err
}

// CopyText puts text on the system clipboard.
func (a *App) CopyText(text string) error {
	if err := a.waitReady(); err != nil {
		return err
	}
	if err := a.shell.SetClipboard(a.ctx, text); err != nil {
		return &Error{Code: CodeShellFailed, Message: "Loom could not put the prompt on the clipboard.", Err: err}
	}
	return nil
}

var unsafeName = regexp.MustCompile(`[^\p{L}\p{N}._ -]+`)

// SaveMarkdown asks where to save and writes text there; "" if cancelled.
func (a *App) SaveMarkdown(suggestedName, text string) (string, error) {
	if err := a.waitReady(); err != nil {
		return "", err
	}
	name := strings.TrimSpace(unsafeName.ReplaceAllString(suggestedName, "-"))
	if name == "" {
		name = "loom-prompt"
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".json", ".txt":
		// a name that says what it holds (the workspace file is .json)
	default:
		name += ".md"
	}
	path, err := a.shell.SaveFile(a.ctx, "Save the prompt as markdown", name)
	if err != nil {
		return "", &Error{Code: CodeShellFailed, Message: "The save dialog failed.", Err: err}
	}
	if path == "" {
		return "", nil
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", &Error{Code: CodeShellFailed, Message: "Loom could not write " + path + ".", Err: err}
	}
	return path, nil
}

// pageOrigin is the web page's origin as the web edition reported it
// (SetPageOrigin), or "*" when unknown.
func pageOrigin() string {
	originMu.Lock()
	defer originMu.Unlock()
	if origin == "" {
		return "*"
	}
	return origin
}

var (
	originMu sync.Mutex
	origin   string
)

// SetPageOrigin records the page's origin for the CORS advice.
func SetPageOrigin(o string) {
	originMu.Lock()
	defer originMu.Unlock()
	origin = o
}

// ExportWorkspace returns the whole workspace as one graph.json with every
// node's text: the file that moves a workspace between the desktop and the
// web edition (ImportWorkspace reads it).
func (a *App) ExportWorkspace() (string, error) {
	var out string
	err := a.use(func(ws workspace) error {
		g, err := ws.ExportGraph(a.ctx, true)
		if err != nil {
			return err
		}
		var b strings.Builder
		if err := g.Encode(&b); err != nil {
			return err
		}
		out = b.String()
		return nil
	})
	return out, err
}

// ImportWorkspace loads a workspace file (ExportWorkspace's, or `loom graph
// export --content`) into this workspace, which must be empty.
func (a *App) ImportWorkspace(text string) (backend.Stats, error) {
	var st backend.Stats
	err := a.use(func(ws workspace) error {
		g, err := graphdb.DecodeGraphJSON(strings.NewReader(text))
		if err != nil {
			// graphdb's decoding errors carry no code; the file is the
			// page's argument, so this is bind's check of it.
			return &Error{Code: CodeInvalid, Message: "This is not a Loom workspace file.", Err: err}
		}
		if err := ws.ImportGraph(a.ctx, g); err != nil {
			return err
		}
		st, err = ws.Stats(a.ctx)
		return err
	})
	return st, err
}
