package bind

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
	"github.com/loomwork/loom/backend/openai/openaitest"
	"github.com/loomwork/loom/backend/watch"
	"github.com/loomwork/loom/internal/golden"
)

// The golden files: what the engine really sends the page, written by
// TestGoldenFilesAreWhatTheEngineSends from real workspaces (the fixture
// notes, the sample library) and a fake Ollama that speaks its wire
// protocol. The page's fake engine (frontend/src/bridge/fake.ts) serves
// them, so the page's tests run on the engine's output and the page's type
// check fails when they no longer fit its types. -update (internal/golden,
// the one flag every package's golden files answer to) rewrites them.

// goldenDir is where fake.ts imports them from.
const goldenDir = "../frontend/src/bridge/golden"

// What varies from run to run is written as these: every workspace's
// folder, the fake Ollama's address and the fixture folder's.
const (
	goldenWorkspaceDir = "/home/ada/.local/share/loom/default"
	goldenOllamaURL    = "http://127.0.0.1:11434"
	goldenNotesDir     = "/home/ada/notes"
	goldenOpenAIURL    = "http://127.0.0.1:1234/v1"
)

// goldenNow is the engine's clock: ingest, access and chat times.
var goldenNow = time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)

// goldens writes or checks the golden files, with the run's variable
// strings replaced by stable ones.
type goldens struct {
	t       *testing.T
	aliases map[string]string
	written map[string]bool
}

// alias makes every golden file say stable where the engine said real.
func (g *goldens) alias(real, stable string) {
	g.aliases[real] = stable
}

// aliasURL makes an Ollama address of the run the golden one, with its
// host:port (which connection errors name).
func (g *goldens) aliasURL(url string) {
	g.alias(url, goldenOllamaURL)
	g.alias(strings.TrimPrefix(url, "http://"), strings.TrimPrefix(goldenOllamaURL, "http://"))
}

// timingCounts are counts in the engine's text that depend on when its
// background work ran rather than on what it was given: how many pages a
// freshly written bolt store has.
var timingCounts = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b\d+ pages read\b`), "N pages read"},
	// The workspace's holder (storage.HolderFile): this test process, its
	// pid and when it opened the workspace.
	{regexp.MustCompile(`[^,()—:"\s][^,()—:"]*, pid \d+, since \d{4}-\d\d-\d\d \d\d:\d\d`), "the Loom desktop app, pid 4242, since 2026-01-02 15:04"},
	// A document's file's modification time: when the checkout wrote it.
	{regexp.MustCompile(`"modified": "[^"]*"`), `"modified": "2026-01-02T15:04:05Z"`},
}

// file writes (-update) or compares name.json with v as the page gets it.
func (g *goldens) file(name string, v any) {
	g.t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as Wails and the web edition send it: readable
	enc.SetIndent("", "  ")
	require.NoError(g.t, enc.Encode(v))
	// The longest first, so that a folder's sibling (<dir>.damaged-1) is
	// the stable folder's sibling too.
	reals := slices.SortedFunc(maps.Keys(g.aliases), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	var pairs []string
	for _, r := range reals {
		pairs = append(pairs, r, g.aliases[r])
	}
	got := strings.NewReplacer(pairs...).Replace(buf.String())
	for _, c := range timingCounts {
		got = c.re.ReplaceAllString(got, c.with)
	}
	path := filepath.Join(goldenDir, name+".json")
	g.written[name+".json"] = true
	if golden.Updating() {
		require.NoError(g.t, os.MkdirAll(goldenDir, 0o755))
		require.NoError(g.t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		g.t.Errorf("%s is missing: run go test ./bind -run TestGolden -update", path)
		return
	}
	if string(want) != got {
		g.t.Errorf("%s is stale — the engine sends something else now: run go test ./bind -run TestGolden -update (and make the page's tests pass)\n%s", path, firstDifference(string(want), got))
	}
}

func firstDifference(want, got string) string {
	w, h := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(h)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(h) {
			b = h[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  file:   %s\n  engine: %s", i+1, a, b)
		}
	}
	return ""
}

// finish fails on (or, with -update, removes) golden files no test wrote.
func (g *goldens) finish() {
	entries, err := os.ReadDir(goldenDir)
	require.NoError(g.t, err)
	for _, e := range entries {
		if g.written[e.Name()] || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if golden.Updating() {
			require.NoError(g.t, os.Remove(filepath.Join(goldenDir, e.Name())))
			continue
		}
		g.t.Errorf("%s is written by no test: remove it (go test ./bind -run TestGolden -update does)", filepath.Join(goldenDir, e.Name()))
	}
}

// goldenApp is an App over a real workspace in a new folder, on the golden
// clock, its Ollama at url (may be "") with the client options given.
func goldenApp(t *testing.T, g *goldens, url string, clientOpts ...wait.Options) (*App, *fakeShell, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "workspace")
	g.alias(dir, goldenWorkspaceDir)
	app, shell := goldenAppIn(t, dir, url, clientOpts...)
	return app, shell, dir
}

// goldenAppIn is goldenApp on the workspace in dir (which the caller
// aliases).
func goldenAppIn(t *testing.T, dir, url string, clientOpts ...wait.Options) (*App, *fakeShell) {
	t.Helper()
	t.Setenv(WorkspaceEnv, dir)
	shell := &fakeShell{}
	app := NewApp(shell)
	app.options = append(testOptions(), backend.WithClock(func() time.Time { return goldenNow }))
	app.fullEncoder = func() bool { return true } // the same with or without the weights
	if url != "" {
		app.newServer = serverAt(url, clientOpts...)
	}
	app.Startup(t.Context())
	t.Cleanup(func() {
		app.Shutdown(context.Background())
		assert.Empty(t, shell.wrongEvents, "every event carries the payload EventPayloads gives")
	})
	return app, shell
}

// The goldens' shapes. Each is what one or more calls return, as the page
// gets it; fake.ts types every part with the generated types.

// goldenWorkspace is a workspace as the page reads it after a change.
type goldenWorkspace struct {
	Workspace   *WorkspaceState          `json:"workspace"`
	Documents   []backend.DocumentInfo   `json:"documents"`
	Collections []backend.CollectionInfo `json:"collections"`
	Graph       *backend.GraphData       `json:"graph"`
	// Nodes are every node's details (Node), for the workspace questions
	// are asked of.
	Nodes map[string]*backend.NodeDetail `json:"nodes,omitempty"`
}

// goldenIngest is one ingest: what was given, the progress events and the
// result.
type goldenIngest struct {
	Uploads []backend.Upload `json:"uploads,omitempty"`
	Paths   []string         `json:"paths,omitempty"`
	Events  []IngestProgress `json:"events"`
	Result  *IngestResult    `json:"result"`
}

// goldenQuery is one question and what came back.
type goldenQuery struct {
	Request backend.QueryRequest `json:"request"`
	Result  *backend.QueryResult `json:"result,omitempty"`
	Error   *ErrorPayload        `json:"error,omitempty"`
}

// goldenChat is one turn: the chat:delta events and the turn.
type goldenChat struct {
	Args   ChatArgs          `json:"args"`
	Deltas []ChatDelta       `json:"deltas"`
	Turn   *backend.ChatTurn `json:"turn"`
}

func TestGoldenFilesAreWhatTheEngineSends(t *testing.T) {
	g := &goldens{t: t, aliases: map[string]string{}, written: map[string]bool{}}
	ollama := newGoldenOllama(t)
	g.aliasURL(ollama.url)
	notes, err := filepath.Abs("../testdata/fixture/notes")
	require.NoError(t, err)
	g.alias(notes, goldenNotesDir)

	empty, _, _ := goldenApp(t, g, "")
	g.file("workspace-empty", readWorkspace(t, empty, false))

	app, shell, dir := goldenApp(t, g, ollama.url)
	g.file("ingest-uploads", ingestGolden(t, shell, goldenUploads(t), nil, func() (*IngestResult, error) { return app.IngestUploads(goldenUploads(t)) }))
	g.file("workspace-notes", readWorkspace(t, app, true))
	g.file("queries", queryGoldens(t, app))
	g.file("sources", sourceGoldens(t, app))
	reingest := mustResult[*IngestResult](t)(app.ReingestDocument(firstDocument(t, app)))
	reingest.Duration = 0
	g.file("reingest", reingest)
	exported, err := app.ExportWorkspace()
	require.NoError(t, err)
	var exportedJSON json.RawMessage = []byte(exported)
	g.file("export", exportedJSON)
	g.file("checkup", mustResult[*backend.Checkup](t)(app.CheckWorkspace()))
	g.file("ollama", ollamaGoldens(t, g, app, ollama))
	g.file("errors", errorGoldens(t, g, app, shell, ollama))
	lostGoldens(t, g, app, dir)
	g.file("chat", chatGoldens(t, g, ollama))

	// An ingest cancelled once the first file is done: it stops after the
	// file in hand and keeps what is done.
	cancelled, cancelShell, _ := goldenApp(t, g, "")
	var once sync.Once
	cancelShell.onEmit = func(name string, data any) {
		if p, ok := data.(IngestProgress); ok && p.FilesDone >= 1 {
			once.Do(cancelled.CancelIngest)
		}
	}
	g.file("ingest-uploads-cancelled", ingestGolden(t, cancelShell, goldenUploads(t), nil, func() (*IngestResult, error) { return cancelled.IngestUploads(goldenUploads(t)) }))
	g.file("workspace-uploads-cancelled", readWorkspace(t, cancelled, false))

	// The workspace file of the notes, imported into an empty workspace.
	imported, _, _ := goldenApp(t, g, "")
	g.file("import", mustResult[backend.Stats](t)(imported.ImportWorkspace(exported)))
	g.file("workspace-imported", readWorkspace(t, imported, false))

	paths, pathsShell, _ := goldenApp(t, g, "")
	g.file("ingest-paths", ingestGolden(t, pathsShell, nil, []string{notes}, func() (*IngestResult, error) { return paths.IngestPaths([]string{notes}) }))
	g.file("workspace-paths", readWorkspace(t, paths, false))

	sampled, sampleShell, _ := goldenApp(t, g, "")
	g.file("ingest-sample", ingestGolden(t, sampleShell, nil, nil, sampled.IngestSample))
	g.file("workspace-sample", readWorkspace(t, sampled, false))

	damagedGoldens(t, g)
	g.file("model-server", modelServerGoldens(t, g))
	g.finish()
}

// mustResult returns a call's result, failing the test on its error.
func mustResult[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		require.NoError(t, err)
		return v
	}
}

// goldenUploads are what the page uploads: the fixture notes, a file that
// is not text and one that is empty (each a problem of its own).
func goldenUploads(t *testing.T) []backend.Upload {
	t.Helper()
	var uploads []backend.Upload
	for _, name := range []string{"budget.md", "graphs.md", "staleness.txt"} {
		b, err := os.ReadFile(filepath.Join("../testdata/fixture/notes", name))
		require.NoError(t, err)
		uploads = append(uploads, backend.Upload{Name: "notes/" + name, Text: string(b)})
	}
	return append(uploads,
		backend.Upload{Name: "notes/diagram.md", Text: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"},
		backend.Upload{Name: "notes/empty.md", Text: ""},
	)
}

// ingestGolden runs an ingest and keeps its progress events.
func ingestGolden(t *testing.T, shell *fakeShell, uploads []backend.Upload, paths []string, run func() (*IngestResult, error)) goldenIngest {
	t.Helper()
	before := len(shell.eventsNamed(EventIngestProgress))
	res, err := run()
	require.NoError(t, err)
	res.Duration = 0 // measured, not the engine's to say twice the same
	var events []IngestProgress
	for _, e := range shell.eventsNamed(EventIngestProgress)[before:] {
		events = append(events, e.(IngestProgress))
	}
	return goldenIngest{Uploads: uploads, Paths: paths, Events: events, Result: res}
}

func readWorkspace(t *testing.T, app *App, withNodes bool) goldenWorkspace {
	t.Helper()
	ws := goldenWorkspace{
		Workspace:   mustResult[*WorkspaceState](t)(app.Workspace()),
		Documents:   mustResult[[]backend.DocumentInfo](t)(app.Documents()),
		Collections: mustResult[[]backend.CollectionInfo](t)(app.Collections()),
		Graph:       mustResult[*backend.GraphData](t)(app.Graph()),
	}
	if withNodes {
		ws.Nodes = map[string]*backend.NodeDetail{}
		for _, n := range ws.Graph.Nodes {
			ws.Nodes[n.ID] = mustResult[*backend.NodeDetail](t)(app.Node(n.ID))
		}
	}
	return ws
}

func firstDocument(t *testing.T, app *App) string {
	t.Helper()
	docs, err := app.Documents()
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	return docs[0].ID
}

// The questions the page's tests ask, at the budgets they use: the page's
// default (4096), budgets that load fewer of the nodes that are relevant
// (three at 300, two at 100, one at 70 and at 50), one too small for the manifest,
// and a question with no words.
var goldenQuestions = []struct {
	question string
	budgets  []int
}{
	{"How does staleness decay?", []int{4096, 2000}},
	{"How are concept nodes and content nodes linked?", []int{4096, 2000, 300, 100, 70, 50, 20}},
	{"?!", []int{4096}},
}

func queryGoldens(t *testing.T, app *App) []goldenQuery {
	t.Helper()
	var out []goldenQuery
	for _, q := range goldenQuestions {
		for _, budget := range q.budgets {
			req := backend.QueryRequest{Question: q.question, Budget: budget, Purpose: "answer", Level: "adaptive"}
			out = append(out, runQuery(t, app, req))
		}
	}
	return out
}

func runQuery(t *testing.T, app *App, req backend.QueryRequest) goldenQuery {
	t.Helper()
	v, err := app.Query(req)
	if err != nil {
		p := Payload(err)
		return goldenQuery{Request: req, Error: &p}
	}
	v.Timing = backend.Timing{} // measured
	return goldenQuery{Request: req, Result: v}
}

// sourceGoldens: what the source viewer gets for every section of the
// workspace (OpenSource), by node id.
func sourceGoldens(t *testing.T, app *App) map[string]*backend.SourceView {
	t.Helper()
	g, err := app.Graph()
	require.NoError(t, err)
	out := map[string]*backend.SourceView{}
	for _, n := range g.Nodes {
		if n.Kind == "content" {
			out[n.ID] = mustResult[*backend.SourceView](t)(app.OpenSource(n.ID))
		}
	}
	return out
}

// goldenOllama is a fake Ollama that speaks the wire protocol, playing the
// scenario set before each chat.
type goldenOllama struct {
	url      string
	scenario atomic.Value // string
	// sent is called after each piece of an answer with the answer so far;
	// the next piece goes when it returns.
	sent atomic.Value // func(soFar string)
	// show is called before /api/show answers.
	show atomic.Value // func()
}

// The two models the fake Ollama has.
var goldenModels = []struct {
	name   string
	window int
}{{"llama3.2:3b", 8192}, {"qwen2.5:7b", 32768}}

// blockID is the id of a block's header, as the prompt writes it
// (shortened to a unique prefix, in letters: model.PromptID).
var blockID = regexp.MustCompile(`(?m)^\[([a-z]{3,16})\] `)

// firstNodeID is the id of a prompt's first block.
func firstNodeID(prompt string) string {
	if m := blockID.FindStringSubmatch(prompt); m != nil {
		return m[1]
	}
	return ""
}

func newGoldenOllama(t *testing.T) *goldenOllama {
	o := &goldenOllama{}
	o.scenario.Store("answer")
	o.sent.Store(func(string) {})
	o.show.Store(func() {})
	var models []ollamatest.Model
	for _, m := range goldenModels {
		models = append(models, ollamatest.Model{Name: m.name, ContextLength: m.window, Capabilities: []string{"completion", "tools"},
			ParameterSize: "3.2B", Quantization: "Q4_K_M", Size: 2019393189})
	}
	srv := ollamatest.New(t, ollamatest.WithModels(models...), ollamatest.WithChat(o.chat),
		ollamatest.Hook(func(r *http.Request) {
			if r.URL.Path == "/api/show" {
				o.show.Load().(func())()
			}
		}))
	o.url = srv.URL
	return o
}

// chat plays the scenario set: an answer in three pieces citing the first
// node it was given (as a model is asked to), a round of tool calls first,
// an error line half-way, or a stop half-way that waits for the client to
// hang up.
func (o *goldenOllama) chat(s *ollamatest.Stream) {
	req := s.Chat
	scenario := o.scenario.Load().(string)
	if scenario == "tools" && req.Messages[len(req.Messages)-1].Role == "user" {
		// The first round: the model asks for more context.
		s.ToolCalls(ollamatest.ToolCall{Name: "search_context", Args: map[string]any{"query": "half-life of staleness"}})
		s.Done("stop", 700, 12)
		return
	}
	cite := "[" + firstNodeID(req.Messages[0].Content) + "]"
	pieces := []string{"Staleness ", "decays exponentially ", "with time since the last access " + cite + "."}
	var soFar strings.Builder
	for i, piece := range pieces {
		s.Content(piece)
		soFar.WriteString(piece)
		if i == len(pieces)-1 {
			break
		}
		o.sent.Load().(func(string))(soFar.String())
		switch scenario {
		case "broken":
			s.Error("llama runner process has terminated: signal: killed")
			return
		case "stopped":
			<-s.Context().Done()
			return
		}
	}
	s.Done("stop", 700, 12)
}

// ollamaGoldens: the status the page shows, up and down.
func ollamaGoldens(t *testing.T, g *goldens, app *App, o *goldenOllama) map[string]*OllamaStatus {
	t.Helper()
	up, err := app.Ollama()
	require.NoError(t, err)

	down := ollamatest.Closed(t) // nothing listens there
	g.aliasURL(down)
	app.newServer = serverAt(down)
	defer func() {
		app.newServer = serverAt(o.url)
	}()
	notRunning, err := app.Ollama()
	require.NoError(t, err)

	// The web edition cannot tell not running from refused by CORS.
	SetPageOrigin("http://127.0.0.1:8080")
	defer SetPageOrigin("")
	app.web = true
	defer func() { app.web = false }()
	web, err := app.Ollama()
	require.NoError(t, err)
	return map[string]*OllamaStatus{"up": up, "not_running": notRunning, "web_not_running": web}
}

// chatGoldens: a turn in each way a turn can go, and the conversation the
// first one started. Each turn is asked of the notes alone, in a workspace
// of its own: an answer becomes a node of the workspace (in the
// background), which the next turn's context would hold.
func chatGoldens(t *testing.T, g *goldens, o *goldenOllama) map[string]any {
	t.Helper()
	var app *App
	var shell *fakeShell
	fresh := func(clientOpts ...wait.Options) {
		t.Helper()
		app, shell, _ = goldenApp(t, g, o.url, clientOpts...)
		_, err := app.IngestUploads(goldenUploads(t))
		require.NoError(t, err)
	}
	args := ChatArgs{Question: "How does staleness decay?", Model: goldenModels[0].name, Window: goldenModels[0].window, Purpose: "answer", Level: "adaptive"}
	// The stream of the turn being played. Each piece of the answer goes
	// once the page has the one before, so every piece is a delta of its
	// own, whatever the batching's timing.
	var current atomic.Value
	o.sent.Store(func(soFar string) {
		stream := current.Load().(string)
		shell.waitFor(t, fmt.Sprintf("the page to be sent %q", soFar), func(events []event) bool {
			return streamedText(events, stream) == soFar
		})
	})
	defer o.sent.Store(func(string) {})

	out := map[string]any{}
	turns := 0
	play := func(scenario string, during func(stream string)) goldenChat {
		t.Helper()
		if scenario != "silent" {
			fresh()
		}
		turns++
		stream := fmt.Sprintf("chat-%d", turns)
		o.scenario.Store(scenario)
		current.Store(stream)
		var turn *backend.ChatTurn
		var err error
		var wg sync.WaitGroup
		wg.Go(func() { turn, err = app.Chat(args, stream) })
		if during != nil {
			during(stream)
		}
		wg.Wait()
		require.NoError(t, err, scenario)
		var deltas []ChatDelta
		for _, e := range shell.eventsNamed(EventChatDelta) {
			if d := e.(ChatDelta); d.Stream == stream {
				if d.Tool != nil {
					d.Tool.Duration = 0 // measured
				}
				deltas = append(deltas, d)
			}
		}
		for i := range turn.Tools {
			turn.Tools[i].Duration = 0
		}
		// Conversation ids are random, and so the ids of the nodes an
		// answer becomes.
		g.alias(turn.Conversation, fmt.Sprintf("conv-golden%04d", turns))
		for i, id := range turn.AnswerNodes {
			g.alias(id, fmt.Sprintf("n-golden%04danswer%d", turns, i))
		}
		return goldenChat{Args: args, Deltas: deltas, Turn: turn}
	}

	answer := play("answer", nil)
	out["answer"] = answer
	out["conversations"] = mustResult[[]backend.ConversationSummary](t)(app.Conversations())
	out["conversation"] = mustResult[*backend.Conversation](t)(app.Conversation(answer.Turn.Conversation))
	out["tools"] = play("tools", nil)
	out["broken"] = play("broken", nil)
	out["stopped"] = play("stopped", func(stream string) {
		shell.waitFor(t, "the first piece of the answer", func(events []event) bool { return streamedText(events, stream) != "" })
		app.CancelChat(stream)
	})

	// A silent Ollama, on a clock the test moves: the model's details
	// take a while, and the page is told so before the answer.
	clock := waittest.NewClock()
	fresh(wait.Options{Clock: clock})
	o.show.Store(func() {
		stream := current.Load().(string)
		clock.Tick(10 * time.Second) // the details give up at 30 s
		shell.waitFor(t, "a notice while the model is described", func(events []event) bool {
			return len(waitNotices(events, stream)) == 1
		})
	})
	defer o.show.Store(func() {})
	out["silent"] = play("silent", nil)
	return out
}

// errorGoldens: what the page gets when a call fails, for each way the
// page tells apart.
func errorGoldens(t *testing.T, g *goldens, app *App, shell *fakeShell, o *goldenOllama) map[string]ErrorPayload {
	t.Helper()
	out := map[string]ErrorPayload{}
	fail := func(name string, err error) {
		t.Helper()
		require.Error(t, err, name)
		out[name] = Payload(err)
	}
	_, err := app.Query(backend.QueryRequest{Question: "   ", Budget: 4096})
	fail("empty_question", err)
	_, err = app.Node("n-0000000000000000")
	fail("node_not_found", err)
	_, err = app.Conversation("conv-missing")
	fail("conversation_not_found", err)
	_, err = app.OpenSource("n-0000000000000000")
	fail("source_not_found", err)
	fail("remove_unknown", app.RemoveDocument("d-0000000000000000"))
	_, err = app.ReingestDocument("d-0000000000000000")
	fail("reingest_unknown", err)
	exported, err := app.ExportWorkspace()
	require.NoError(t, err)
	_, err = app.ImportWorkspace(exported)
	fail("import_not_empty", err)
	_, err = app.ImportWorkspace("these are notes, not a workspace")
	fail("import_not_a_workspace", err)
	_, err = app.Chat(ChatArgs{Question: "How does staleness decay?"}, "no-model")
	fail("chat_without_model", err)

	down := ollamatest.Closed(t) // nothing listens there
	g.aliasURL(down)
	app.newServer = serverAt(down)
	_, err = app.Chat(ChatArgs{Question: "How does staleness decay?", Model: goldenModels[0].name, Window: goldenModels[0].window}, "down")
	fail("ollama_not_running", err)
	app.newServer = serverAt(o.url)

	app.jobs.mu.Lock()
	app.jobs.ingest = func() {}
	app.jobs.mu.Unlock()
	_, err = app.IngestSample()
	fail("ingest_running", err)
	_, err = app.CheckWorkspace()
	fail("check_while_ingesting", err)
	app.jobs.mu.Lock()
	app.jobs.ingest = nil
	app.jobs.mu.Unlock()

	// Beside another Loom: read-only with a saved index, in use without.
	held := filepath.Join(t.TempDir(), "held")
	g.alias(held, goldenWorkspaceDir)
	holder := holdWorkspace(t, held, "../testdata/fixture/notes")
	ro, _ := goldenAppIn(t, held, "")
	st, err := ro.Workspace()
	require.NoError(t, err)
	require.NotNil(t, st.ReadOnly)
	g.file("workspace-read-only", st)
	fail("read_only", ro.Pin([]string{firstDocument(t, ro)}, true))
	_, err = ro.RepairWorkspace()
	fail("repair_in_use", err)
	ro.Shutdown(context.Background())
	require.NoError(t, holder.Close())

	busy := filepath.Join(t.TempDir(), "busy")
	g.alias(busy, goldenWorkspaceDir)
	holdWorkspace(t, busy)
	inUse, _ := goldenAppIn(t, busy, "")
	_, err = inUse.Workspace()
	fail("in_use", err)

	// A failure nobody foresaw (no code of its own): the workspace's
	// folder is a file.
	notAFolder := filepath.Join(t.TempDir(), "workspace")
	require.NoError(t, os.WriteFile(notAFolder, []byte("a file, not a folder\n"), 0o644))
	g.alias(notAFolder, goldenWorkspaceDir)
	unforeseen, _ := goldenAppIn(t, notAFolder, "")
	_, err = unforeseen.Workspace()
	fail("internal", err)

	closing, _, _ := goldenApp(t, g, "")
	closing.Shutdown(context.Background())
	_, err = closing.Stats()
	fail("closed", err)

	shell.failDialogs = fmt.Errorf("no file chooser portal on the session bus")
	_, err = app.PickFiles()
	fail("dialog_failed", err)
	shell.failDialogs = nil
	return out
}

// lostGoldens: the texts of the workspace questions are asked of go
// missing; a question leaves their nodes out and says so, the doctor lists
// them and the repair reads them back from their files. The workspace is
// last to be used for this.
func lostGoldens(t *testing.T, g *goldens, app *App, dir string) {
	t.Helper()
	content := filepath.Join(dir, "content")
	require.NoError(t, os.RemoveAll(content))
	require.NoError(t, os.Mkdir(content, 0o755))
	_, err := app.Reopen() // the open workspace holds texts it read
	require.NoError(t, err)
	q := runQuery(t, app, backend.QueryRequest{Question: goldenQuestions[0].question, Budget: 4096, Purpose: "answer", Level: "adaptive"})
	require.NotNil(t, q.Result)
	require.NotEmpty(t, q.Result.Warnings)
	g.file("query-lost", q)
	// The list of watched folders damaged too: a number among the paths,
	// and a folder that is gone (none that exists: nothing syncs).
	notes, err := filepath.Abs("../testdata/fixture/notes")
	require.NoError(t, err)
	b, err := json.Marshal(map[string]any{"folders": []any{filepath.Join(notes, "archive"), 7}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, watch.ListFile), b, 0o644))
	c, err := app.CheckWorkspace()
	require.NoError(t, err)
	require.NotEmpty(t, c.LostTexts)
	g.file("checkup-lost", c)
	g.file("repair-lost", mustResult[*backend.RepairReport](t)(app.RepairWorkspace()))
}

// goldenDamaged is a workspace whose graph store is damaged: what the page
// gets on opening it, its checkup and its repair.
type goldenDamaged struct {
	Open    ErrorPayload          `json:"open"`
	Checkup *backend.Checkup      `json:"checkup"`
	Repair  *backend.RepairReport `json:"repair"`
}

func damagedGoldens(t *testing.T, g *goldens) {
	t.Helper()
	dir, _ := damageGraph(t)
	g.alias(dir, goldenWorkspaceDir)
	app, _ := goldenAppIn(t, dir, "")
	_, err := app.Workspace()
	require.Error(t, err)
	open := Payload(err)
	c, err := app.CheckWorkspace()
	require.NoError(t, err)
	rep, err := app.RepairWorkspace()
	require.NoError(t, err)
	g.file("damaged", goldenDamaged{Open: open, Checkup: c, Repair: rep})
}

// goldenModelServer is an OpenAI-compatible server (LM Studio, as
// openaitest plays it) as the settings panel shows it — its status with
// every model's capabilities, and the settings without the key — and a
// re-embed of the notes with its embedding model: the progress events, the
// report and the workspace's stats after it.
type goldenModelServer struct {
	// Status is LM Studio's, with a chat model the settings name that it
	// lacks; LlamaCpp llama.cpp's server's, which does not say everything.
	Status   *OllamaStatus        `json:"status"`
	LlamaCpp *OllamaStatus        `json:"llamacpp"`
	Settings *ModelServerSettings `json:"settings"`
	Reembed  struct {
		Events []ReembedProgress      `json:"events"`
		Report *backend.ReembedReport `json:"report"`
		Stats  backend.Stats          `json:"stats"`
	} `json:"reembed"`
	// Cancelled is a re-embed (to the offline embedder) cancelled at its
	// first progress: its events and its rejection.
	Cancelled struct {
		Events []ReembedProgress `json:"events"`
		Error  ErrorPayload      `json:"error"`
	} `json:"cancelled"`
}

func modelServerGoldens(t *testing.T, g *goldens) goldenModelServer {
	t.Helper()
	t.Setenv(OllamaEnv, "")
	t.Setenv("OLLAMA_HOST", "")
	t.Setenv(modelserver.EnvProvider, "")
	t.Setenv(modelserver.EnvOpenAIURL, "")
	t.Setenv(modelserver.EnvAPIKey, "")
	srv := openaitest.New(t, openaitest.LMStudio)
	g.alias(srv.URL, goldenOpenAIURL)
	g.alias(strings.TrimPrefix(srv.Root, "http://"), strings.TrimPrefix(strings.TrimSuffix(goldenOpenAIURL, "/v1"), "http://"))
	app, shell, _ := goldenApp(t, g, "")
	defer func() { require.NoError(t, saveSettings(settings{})) }()
	const key = "a-key-that-never-comes-back"
	var out goldenModelServer
	out.Status = mustResult[*OllamaStatus](t)(app.SetModelServer(ModelServerSettings{Provider: "openai", OpenAIURL: srv.URL, APIKey: key, ChatModel: "mistral-7b"}))
	out.Settings = mustResult[*ModelServerSettings](t)(app.ModelServerSettings())
	llama := openaitest.New(t, openaitest.LlamaCpp, openaitest.WithModels(openaitest.Model{ID: "Qwen3-4B-Q4_K_M.gguf", Tools: true, ContextLength: 40960, Loaded: 16384}))
	g.alias(llama.URL, "http://127.0.0.1:8080/v1")
	g.alias(strings.TrimPrefix(llama.Root, "http://"), "127.0.0.1:8080")
	llamaApp, _, _ := goldenApp(t, g, llama.URL)
	out.LlamaCpp = mustResult[*OllamaStatus](t)(llamaApp.Ollama())
	_, err := app.IngestUploads(goldenUploads(t))
	require.NoError(t, err)
	out.Reembed.Report = mustResult[*backend.ReembedReport](t)(app.Reembed("text-embedding-nomic-embed-text-v1.5"))
	out.Reembed.Report.Duration = 0
	for _, e := range shell.eventsNamed(EventReembedProgress) {
		p := e.(ReembedProgress)
		p.Elapsed = 0
		out.Reembed.Events = append(out.Reembed.Events, p)
	}
	out.Reembed.Stats = mustResult[backend.Stats](t)(app.Stats())

	seen := len(shell.eventsNamed(EventReembedProgress))
	shell.onEmit = func(name string, data any) {
		if p, ok := data.(ReembedProgress); ok && !p.Finished && p.Total > 0 {
			app.CancelReembed()
		}
	}
	_, err = app.Reembed("offline")
	require.Error(t, err)
	shell.onEmit = nil
	out.Cancelled.Error = Payload(err)
	for _, e := range shell.eventsNamed(EventReembedProgress)[seen:] {
		p := e.(ReembedProgress)
		p.Elapsed = 0
		out.Cancelled.Events = append(out.Cancelled.Events, p)
	}
	b, _ := json.Marshal(out)
	require.NotContains(t, string(b), key, "the key never reaches the page")
	return out
}
