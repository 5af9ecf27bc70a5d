package bind

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/minilm"
	"github.com/loomwork/loom/backend/embed/synthetic"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
	"github.com/loomwork/loom/backend/sample"
)

// testOptions are the engine options of every real workspace in these
// tests: the deterministic synthetic embedder.
func testOptions() []backend.Option {
	return []backend.Option{backend.WithEmbedder(synthetic.New()), backend.WithConceptThreshold(0.5)}
}

// realApp is an App over a real workbench (bolt store in a temp folder,
// the deterministic synthetic embedder) and an Ollama URL (may be "").
func realApp(t *testing.T, ollamaURL string) (*App, *fakeShell) {
	t.Helper()
	return realAppIn(t, t.TempDir(), ollamaURL, nil)
}

// realAppIn is realApp on the workspace in dir, its Ollama clients made
// with the extra options given (a test's clock).
func realAppIn(t *testing.T, dir, ollamaURL string, clientOpts []wait.Options) (*App, *fakeShell) {
	t.Helper()
	t.Setenv(WorkspaceEnv, dir)
	shell := &fakeShell{}
	app := NewApp(shell)
	app.options = testOptions()
	if ollamaURL != "" {
		app.newServer = serverAt(ollamaURL, clientOpts...)
	}
	app.Startup(t.Context())
	t.Cleanup(func() {
		app.Shutdown(context.Background())
		assert.Empty(t, shell.wrongEvents, "every event carries the payload EventPayloads gives")
	})
	return app, shell
}

func TestIngestUploadsReportsEveryFileAndFillsTheLibrary(t *testing.T) {
	app, shell := realApp(t, "")
	res, err := app.IngestUploads([]backend.Upload{
		{Name: "notes/budget.md", Text: "# Budget\n\nThe context budget is the window minus the output reservation.\n\n## Output\n\nThirty percent is kept for the answer.\n"},
		{Name: "staleness.md", Text: "# Staleness\n\nStaleness decays exponentially with a half-life of thirty days.\n"},
		{Name: "binary.md", Text: "\xff\xfe\x00bad"},
		{Name: "../escape.md", Text: "# Out\n"},
	})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Added)
	require.Len(t, res.Errors, 2, "one problem per bad file: %+v", res.Errors)
	byFile := map[string]string{}
	for _, e := range res.Errors {
		byFile[e.Path] = e.Problem
	}
	assert.Contains(t, byFile["binary.md"], "not UTF-8")
	assert.Contains(t, byFile["../escape.md"], "not a file name inside the workspace")

	events := shell.eventsNamed(EventIngestProgress)
	require.NotEmpty(t, events)
	last := events[len(events)-1].(IngestProgress)
	assert.True(t, last.Finished)
	assert.Equal(t, last.FilesTotal, last.FilesDone)
	states := map[string]FileState{}
	for _, f := range last.Files {
		states[filepath.Base(f.Path)] = f.State
	}
	assert.Equal(t, FileDone, states["budget.md"])
	assert.Equal(t, FileDone, states["staleness.md"])
	assert.Equal(t, FileError, states["binary.md"])
	seenReading := false
	for _, e := range events {
		for _, f := range e.(IngestProgress).Files {
			seenReading = seenReading || f.State == FileReading
		}
	}
	assert.True(t, seenReading, "files are reported while they are read")

	docs, err := app.Documents()
	require.NoError(t, err)
	require.Len(t, docs, 2)
	collections := map[string]backend.DocumentInfo{}
	for _, d := range docs {
		collections[d.Collection] = d
		assert.Positive(t, d.Nodes)
		assert.Positive(t, d.Tokens)
		assert.FileExists(t, d.Source, "uploads are kept in the workspace")
	}
	assert.Contains(t, collections, "notes", "a folder in the upload's name is its collection")
	assert.Contains(t, collections, "uploads")

	// Pin a document, then remove the other.
	require.NoError(t, app.Pin([]string{collections["notes"].ID}, true))
	docs, err = app.Documents()
	require.NoError(t, err)
	for _, d := range docs {
		assert.Equal(t, d.ID == collections["notes"].ID, d.Pinned, d.Path)
	}
	require.NoError(t, app.RemoveDocument(collections["uploads"].ID))
	docs, err = app.Documents()
	require.NoError(t, err)
	require.Len(t, docs, 1)

	// The engine's remove says which id it does not have, as not_found.
	err = app.RemoveDocument("d-nonexistent")
	assert.Equal(t, CodeNotFound, pageCode(t, err))
	assert.Contains(t, Payload(err).Message, "d-nonexistent")
}

// Two uploads of one name (loose files dropped from two folders, whose
// names the page sends without their folders) are both kept: the later
// under a new name, which its file's line says; the same file twice is
// added once and the second copy is reported.
func TestTwoUploadsOfOneNameAreBothKept(t *testing.T) {
	app, shell := realApp(t, "")
	res, err := app.IngestUploads([]backend.Upload{
		{Name: "types.ts", Text: "export interface First { a: string }\n"},
		{Name: "notes.md", Text: "# Notes\n\nA note.\n"},
		{Name: "types.ts", Text: "export interface Second { b: number }\n"},
		{Name: "notes.md", Text: "# Notes\n\nA note.\n"},
		{Name: "types.ts", Text: "export interface Second { b: number }\n"}, // the renamed one's copy
	})
	require.NoError(t, err)
	assert.Equal(t, 3, res.Added)
	require.Len(t, res.Skipped, 2, "%+v", res.Skipped)
	assert.Equal(t, "notes.md (a second copy)", res.Skipped[0].Path)
	assert.Contains(t, res.Skipped[0].Reason, "the same file is in this drop twice")
	assert.Equal(t, "types.ts (a second copy)", res.Skipped[1].Path)
	require.Len(t, res.Warnings, 1, "%+v", res.Warnings)
	assert.True(t, strings.HasSuffix(res.Warnings[0].Path, filepath.Join("uploads", "types (2).ts")), res.Warnings[0].Path)
	assert.Contains(t, res.Warnings[0].Problem, "this one is added as types (2).ts")
	events := shell.eventsNamed(EventIngestProgress)
	last := events[len(events)-1].(IngestProgress)
	states, problems := map[string]FileState{}, map[string]string{}
	for _, f := range last.Files {
		states[f.Path], problems[f.Path] = f.State, f.Problem
	}
	assert.Equal(t, map[string]FileState{"types.ts": FileDone, "notes.md": FileDone, "types (2).ts": FileDone, "notes.md (a second copy)": FileSkipped, "types.ts (a second copy)": FileSkipped}, states)
	assert.Contains(t, problems["types (2).ts"], "another file of this drop is also named types.ts")
	assert.Empty(t, problems["types.ts"])
	docs, err := app.Documents()
	require.NoError(t, err)
	require.Len(t, docs, 3)
	for _, q := range []string{"interface First", "interface Second"} {
		node, err := app.Query(backend.QueryRequest{Question: q, Budget: 400})
		require.NoError(t, err)
		assert.Contains(t, node.Prompt, q, "both are kept")
	}
}

// A file set aside after it was read (minified code) ends the ingest's
// progress as left out, with the reason, not as added.
func TestAFileLeftOutEndsTheProgressAsLeftOut(t *testing.T) {
	app, shell := realApp(t, "")
	res, err := app.IngestUploads([]backend.Upload{
		{Name: "app.min.js", Text: strings.Repeat("var a=1;", 40000)},
		{Name: "notes.md", Text: "# Notes\n\nA short note about tides.\n"},
	})
	require.NoError(t, err)
	require.Len(t, res.Skipped, 1)
	events := shell.eventsNamed(EventIngestProgress)
	last := events[len(events)-1].(IngestProgress)
	require.True(t, last.Finished)
	states := map[string]FileProgress{}
	for _, f := range last.Files {
		states[filepath.Base(f.Path)] = f
	}
	assert.Len(t, last.Files, 2, "each file once: %+v", last.Files)
	assert.Equal(t, FileSkipped, states["app.min.js"].State)
	assert.Contains(t, states["app.min.js"].Problem, "looks minified or generated")
	assert.Equal(t, FileDone, states["notes.md"].State)
}

func TestUploadsKeepTheirFoldersSoSameNamedNotesStayApart(t *testing.T) {
	app, _ := realApp(t, "")
	res, err := app.IngestUploads([]backend.Upload{
		{Name: "vault/daily/index.md", Text: "# Daily\n\nThe daily notes gather what happened each day.\n"},
		{Name: "vault/projects/index.md", Text: "# Projects\n\nThe projects list what is being built and by whom.\n"},
		{Name: "archive/daily/index.md", Text: "# Old days\n\nThe archive keeps the daily notes of last year.\n"},
		{Name: "loose.md", Text: "# Loose\n\nA note dropped on its own.\n"},
	})
	require.NoError(t, err)
	require.Empty(t, res.Errors)
	assert.Equal(t, 4, res.Added, "four notes, none replacing another")

	docs, err := app.Documents()
	require.NoError(t, err)
	var got []string
	for _, d := range docs {
		got = append(got, d.Collection+" | "+d.Path)
	}
	// As the desktop names a dropped folder's files: the folder is the
	// collection, the path below it is the reference.
	assert.ElementsMatch(t, []string{
		"vault | daily/index.md",
		"vault | projects/index.md",
		"archive | daily/index.md",
		"uploads | loose.md",
	}, got)
}

func TestReingestingAnUploadKeepsItsName(t *testing.T) {
	app, _ := realApp(t, "")
	_, err := app.IngestUploads([]backend.Upload{{Name: "vault/daily/index.md", Text: "# Daily\n\nThe daily notes gather what happened each day.\n"}})
	require.NoError(t, err)
	before, err := app.Documents()
	require.NoError(t, err)
	require.Len(t, before, 1)

	_, err = app.ReingestDocument(before[0].ID)
	require.NoError(t, err)
	after, err := app.Documents()
	require.NoError(t, err)
	require.Len(t, after, 1, "re-ingesting replaces the document rather than adding a second")
	assert.Equal(t, before[0].ID, after[0].ID)
	assert.Equal(t, "vault | daily/index.md", after[0].Collection+" | "+after[0].Path)
}

func TestUploadsCarryBytesWrittenAsTheyCame(t *testing.T) {
	app, _ := realApp(t, "")
	dir, err := app.WorkspaceDir()
	require.NoError(t, err)
	paper := []byte("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
	res, err := app.IngestUploads([]backend.Upload{
		{Name: "papers/paper.pdf", Data: paper},
		{Name: "notes/bytes.md", Data: []byte("# Bytes\n\nA note sent as bytes is read as the note it is.\n")},
		{Name: "notes/both.md", Text: "# Both", Data: []byte("# Both")},
	})
	require.NoError(t, err)
	stored, err := os.ReadFile(filepath.Join(dir, "uploads", "papers", "paper.pdf"))
	require.NoError(t, err, "the PDF's bytes are kept in the workspace")
	assert.Equal(t, paper, stored)

	docs, err := app.Documents()
	require.NoError(t, err)
	var paths []string
	for _, d := range docs {
		paths = append(paths, d.Path)
	}
	assert.Contains(t, paths, "bytes.md")
	problems := map[string]string{}
	for _, e := range res.Errors {
		problems[e.Path] = e.Problem
	}
	assert.Contains(t, problems["notes/both.md"], "both text and bytes")
	assert.NoFileExists(t, filepath.Join(dir, "uploads", "notes", "both.md"))
}

func TestIngestPathsGraphNodeAndQuery(t *testing.T) {
	app, _ := realApp(t, "")
	_, err := app.IngestPaths(nil)
	assert.Equal(t, CodeInvalid, pageCode(t, err))

	res, err := app.IngestPaths([]string{"../testdata/fixture/notes"})
	require.NoError(t, err)
	assert.Equal(t, 3, res.Added)
	assert.Empty(t, res.Errors)

	g, err := app.Graph()
	require.NoError(t, err)
	kinds := map[string]int{}
	ids := map[string]bool{}
	for _, n := range g.Nodes {
		kinds[n.Kind]++
		ids[n.ID] = true
	}
	assert.Positive(t, kinds["concept"])
	assert.Positive(t, kinds["content"])
	require.NotEmpty(t, g.Edges)
	for _, e := range g.Edges {
		assert.True(t, ids[e.Source] && ids[e.Target], "edge %v ends at nodes of the graph", e)
	}

	var content backend.GraphNode
	for _, n := range g.Nodes {
		if n.Kind == "content" && strings.Contains(strings.ToLower(n.Label), "staleness") {
			content = n
			break
		}
	}
	require.NotEmpty(t, content.ID, "a staleness section")
	d, err := app.Node(content.ID)
	require.NoError(t, err)
	assert.Contains(t, strings.ToLower(d.Text), "staleness")
	assert.NotEmpty(t, d.Reference)
	assert.NotEmpty(t, d.Concepts, "a section is about concepts")
	assert.NotEmpty(t, d.Neighbours)

	_, err = app.Node("n-missing")
	assert.Equal(t, CodeNotFound, pageCode(t, err))

	v, err := app.Query(backend.QueryRequest{Question: "How does staleness decay over time?", Budget: 600})
	require.NoError(t, err)
	assert.Positive(t, v.Loaded)
	assert.Contains(t, v.Manifest, "[Context loaded: ")
	require.NotEmpty(t, v.Seeds)
	for _, s := range v.Seeds {
		assert.Equal(t, 0, v.ConceptHops[s.ID], "a seed concept is 0 hops away")
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var wire map[string]any
	require.NoError(t, json.Unmarshal(b, &wire))
	for _, key := range []string{"manifest", "prompt", "split", "candidates", "seed_concepts", "concept_hops", "limits"} {
		assert.Contains(t, wire, key, "the page reads %s", key)
	}
	assert.NotEmpty(t, wire["concept_hops"])

	// A smaller budget loads less: what the budget slider shows.
	small, err := app.Query(backend.QueryRequest{Question: "How does staleness decay over time?", Budget: 120})
	require.NoError(t, err)
	assert.LessOrEqual(t, small.Split.Loaded, v.Split.Loaded)

	_, err = app.Query(backend.QueryRequest{Question: "  ", Budget: 600})
	assert.Equal(t, CodeInvalid, pageCode(t, err))
	assert.Contains(t, Payload(err).Message, "empty")
}

// The empty library's "Try a sample library" calls IngestSample: the same
// progress events and report as any ingest, and the notes, the paper and
// the bibliography's entries in the library.
func TestIngestSampleFillsAnEmptyLibrary(t *testing.T) {
	app, shell := realApp(t, "")
	res, err := app.IngestSample()
	require.NoError(t, err)
	assert.Empty(t, res.Errors)
	files := len(sample.Files()) + len(sample.Papers())
	const docs = 8 + 1 + 5 // notes, the paper, the entries of references.bib
	assert.Equal(t, docs, res.Added)
	assert.NotEmpty(t, res.Job)

	events := shell.eventsNamed(EventIngestProgress)
	require.NotEmpty(t, events)
	last := events[len(events)-1].(IngestProgress)
	assert.True(t, last.Finished)
	assert.Equal(t, res.Job, last.Job)
	assert.Equal(t, files, last.FilesDone)

	list, err := app.Documents()
	require.NoError(t, err)
	require.Len(t, list, docs)
	for _, d := range list {
		assert.Equal(t, sample.Collection, d.Collection)
	}
}

func TestIngestOneAtATime(t *testing.T) {
	app, _ := realApp(t, "")
	app.jobs.mu.Lock()
	app.jobs.ingest = func() {}
	app.jobs.mu.Unlock()
	_, err := app.IngestPaths([]string{"../testdata/fixture/notes"})
	assert.Equal(t, CodeBusy, pageCode(t, err))
}

// ollamaHooks let a test hold the fake Ollama at a point of its choice.
type ollamaHooks struct {
	// sent is called after each piece of the answer but the last with the
	// answer so far; the next piece is sent when it returns.
	sent func(soFar string)
	// tags and show are called before /api/tags and /api/show answer; the
	// answer is sent when they return (none when the request has ended).
	tags, show func(r *http.Request)
}

// fakeOllama is the fake Ollama with llama3.2 (tools, an 8k window),
// which answers every question with three pieces, held where the hooks
// say: a test can hold the stream until the page has seen that much, or
// keep Ollama silent while it moves a clock.
func fakeOllama(t *testing.T, hooks ollamaHooks) string {
	t.Helper()
	llama := ollamatest.Llama32()
	llama.ContextLength = 8192
	srv := ollamatest.New(t, ollamatest.WithModels(llama),
		ollamatest.Hook(func(r *http.Request) {
			switch {
			case r.URL.Path == "/api/tags" && hooks.tags != nil:
				hooks.tags(r)
			case r.URL.Path == "/api/show" && hooks.show != nil:
				hooks.show(r)
			}
		}),
		ollamatest.WithChat(func(s *ollamatest.Stream) {
			pieces := []string{"Staleness ", "decays ", "exponentially."}
			var soFar strings.Builder
			for i, piece := range pieces {
				s.Content(piece)
				soFar.WriteString(piece)
				if hooks.sent != nil && i < len(pieces)-1 {
					hooks.sent(soFar.String())
				}
			}
			s.Done("stop", 700, 3)
		}))
	return srv.URL
}

// streamedText is the answer text the page has been sent on a stream.
func streamedText(events []event, stream string) string {
	var b strings.Builder
	for _, e := range events {
		if d, ok := e.data.(ChatDelta); ok && e.name == EventChatDelta && d.Stream == stream {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func TestOllamaStatusAndStreamingChat(t *testing.T) {
	// The fake sends the next piece only once the page has the answer so
	// far: the answer must reach the page while it is still being written.
	var shell atomic.Pointer[fakeShell]
	url := fakeOllama(t, ollamaHooks{sent: func(soFar string) {
		shell.Load().waitFor(t, fmt.Sprintf("the page to be sent %q", soFar), func(events []event) bool {
			return streamedText(events, "s1") == soFar
		})
	}})
	app, sh := realApp(t, url)
	shell.Store(sh)
	_, err := app.IngestPaths([]string{"../testdata/fixture/notes"})
	require.NoError(t, err)

	st, err := app.Ollama()
	require.NoError(t, err)
	assert.True(t, st.Up)
	require.Len(t, st.Models, 1)
	assert.Equal(t, 8192, st.Models[0].ContextLength)
	assert.True(t, st.Models[0].Tools)

	turn, err := app.Chat(ChatArgs{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096, NoTools: true}, "s1")
	require.NoError(t, err)
	assert.Equal(t, "Staleness decays exponentially.", turn.Answer)

	var streamed strings.Builder
	var manifest string
	texts := 0
	for _, e := range sh.eventsNamed(EventChatDelta) {
		d := e.(ChatDelta)
		assert.Equal(t, "s1", d.Stream)
		if d.Manifest != "" {
			assert.Empty(t, streamed.String(), "the manifest comes before the answer")
			manifest = d.Manifest
		}
		if d.Text != "" {
			texts++
		}
		streamed.WriteString(d.Text)
	}
	assert.Equal(t, turn.Answer, streamed.String(), "the deltas add up to the answer")
	assert.Equal(t, 3, texts, "each piece reached the page before the next was written")
	assert.Equal(t, turn.Manifest, manifest)

	convs, err := app.Conversations()
	require.NoError(t, err)
	require.Len(t, convs, 1)
	c, err := app.Conversation(convs[0].ID)
	require.NoError(t, err)
	require.Len(t, c.Turns, 1)
}

func TestOllamaDownSaysWhatToDo(t *testing.T) {
	url := ollamatest.Closed(t) // nothing listens there
	app, _ := realApp(t, url)

	st, err := app.Ollama()
	require.NoError(t, err)
	assert.False(t, st.Up)
	assert.Contains(t, st.Problem, url)
	assert.Contains(t, st.Fix, "ollama serve")

	assert.Equal(t, CodeOllamaNotRunning, st.Code)

	_, err = app.Chat(ChatArgs{Question: "anything?", Model: "llama3.2", Window: 4096}, "s2")
	assert.Equal(t, CodeOllamaNotRunning, pageCode(t, err))
	assert.Contains(t, Payload(err).Message, url)
}

func TestCopyAndSave(t *testing.T) {
	app, shell := realApp(t, "")
	require.NoError(t, app.CopyText("the prompt"))
	assert.Equal(t, "the prompt", shell.clipboard)

	path, err := app.SaveMarkdown("how/does: staleness?", "# Prompt\n")
	require.NoError(t, err)
	assert.Empty(t, path, "no save path chosen: cancelled")

	shell.savePath = t.TempDir()
	path, err = app.SaveMarkdown("how/does: staleness?", "# Prompt\n")
	require.NoError(t, err)
	assert.Equal(t, "how-does- staleness-.md", filepath.Base(path))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "# Prompt\n", string(b))

	path, err = app.SaveMarkdown("loom-workspace-2026-11-22.json", "{}")
	require.NoError(t, err)
	assert.Equal(t, "loom-workspace-2026-11-22.json", filepath.Base(path), "a workspace file keeps its .json")
}

func TestExportImportMovesAWorkspace(t *testing.T) {
	from, _ := realApp(t, "")
	_, err := from.IngestPaths([]string{"../testdata/fixture/notes"})
	require.NoError(t, err)
	file, err := from.ExportWorkspace()
	require.NoError(t, err)
	assert.Contains(t, file, `"content"`, "the file carries the text")

	to, _ := realApp(t, "")
	st, err := to.ImportWorkspace(file)
	require.NoError(t, err)
	want, err := from.Stats()
	require.NoError(t, err)
	assert.Equal(t, want.Documents, st.Documents)
	assert.Equal(t, want.ContentNodes, st.ContentNodes)
	a, err := from.Query(backend.QueryRequest{Question: "How does staleness decay?", Budget: 400, NoTouch: true})
	require.NoError(t, err)
	b, err := to.Query(backend.QueryRequest{Question: "How does staleness decay?", Budget: 400, NoTouch: true})
	require.NoError(t, err)
	assert.Equal(t, a.Manifest, b.Manifest, "the same question loads the same context")

	_, err = to.ImportWorkspace(file)
	assert.Equal(t, CodeConflict, pageCode(t, err))
	assert.Contains(t, Payload(err).Message, "not empty")
	_, err = to.ImportWorkspace("{not json")
	assert.Equal(t, CodeInvalid, pageCode(t, err))
}

func TestWebOllamaAdviceNamesCORS(t *testing.T) {
	url := ollamatest.Closed(t)
	SetPageOrigin("http://127.0.0.1:8080")
	t.Cleanup(func() { SetPageOrigin("") })
	app := NewWebApp(&fakeShell{}, WebConfig{Dir: t.TempDir(), OllamaURL: func() string { return url }, Offline: func() (embed.Embedder, error) { return synthetic.New(), nil }})
	app.Startup(t.Context())
	t.Cleanup(func() { app.Shutdown(context.Background()) })
	st, err := app.Ollama()
	require.NoError(t, err)
	assert.False(t, st.Up)
	assert.Contains(t, st.Problem, "CORS")
	assert.Contains(t, st.Fix, "OLLAMA_ORIGINS=http://127.0.0.1:8080")
}

// A question that names a model gets the model's window from the Ollama
// the App is configured with — in the web edition too (its Open is given
// the option that asks).
func TestWebQueryWithAModelAsksTheConfiguredOllama(t *testing.T) {
	url := fakeOllama(t, ollamaHooks{})
	app := NewWebApp(&fakeShell{}, WebConfig{Dir: t.TempDir(), OllamaURL: func() string { return url }, Offline: func() (embed.Embedder, error) { return synthetic.New(), nil }})
	app.Startup(t.Context())
	t.Cleanup(func() { app.Shutdown(context.Background()) })
	_, err := app.IngestPaths([]string{"../testdata/fixture/notes"})
	require.NoError(t, err)

	v, err := app.Query(backend.QueryRequest{Question: "How does staleness decay?", Model: "llama3.2"})
	require.NoError(t, err)
	assert.Equal(t, 8192, v.Split.Window, "the fake Ollama's llama.context_length")
	assert.Contains(t, v.Split.WindowSource, "llama3.2")
}

// waitNotices are the notices the page has been sent on a stream.
func waitNotices(events []event, stream string) []wait.Notice {
	var out []wait.Notice
	for _, e := range events {
		if d, ok := e.data.(ChatDelta); ok && e.name == EventChatDelta && d.Stream == stream && d.Wait != nil {
			out = append(out, *d.Wait)
		}
	}
	return out
}

// While Ollama is silent the page hears of it on the chat's stream: the
// model's details asked before the turn (the client's notifier) and the
// answer stopping half-way (the turn's OnWait), after the text that came
// before. The fake holds Ollama at those points while the test moves the
// watch's clock, so what the page is sent depends on no real time.
func TestChatTellsThePageWhileOllamaIsSilent(t *testing.T) {
	clock := waittest.NewClock()
	var shell atomic.Pointer[fakeShell]
	var chatting atomic.Bool
	url := fakeOllama(t, ollamaHooks{
		show: func(*http.Request) {
			if !chatting.Load() {
				return
			}
			clock.Tick(10 * time.Second)
			shell.Load().waitFor(t, "a notice while the model is described", func(events []event) bool {
				return len(waitNotices(events, "w1")) == 1
			})
		},
		sent: func(soFar string) {
			shell.Load().waitFor(t, fmt.Sprintf("the page to be sent %q", soFar), func(events []event) bool {
				return streamedText(events, "w1") == soFar
			})
			if soFar != "Staleness " {
				return
			}
			clock.Tick(10 * time.Second) // a pause
			clock.Tick(20 * time.Second) // 30 s: stalled
			shell.Load().waitFor(t, "two notices in the middle of the answer", func(events []event) bool {
				return len(waitNotices(events, "w1")) == 3
			})
		},
	})
	app, sh := realAppIn(t, t.TempDir(), url, []wait.Options{{Clock: clock}})
	shell.Store(sh)
	_, err := app.IngestPaths([]string{"../testdata/fixture/notes"})
	require.NoError(t, err)

	chatting.Store(true)
	turn, err := app.Chat(ChatArgs{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096, NoTools: true}, "w1")
	require.NoError(t, err)
	assert.Equal(t, "Staleness decays exponentially.", turn.Answer)
	assert.Empty(t, turn.Error)

	events := sh.eventsNamed(EventChatDelta)
	notices := waitNotices(sh.events, "w1")
	require.Len(t, notices, 3)
	lookup, paused, stalled := notices[0], notices[1], notices[2]
	assert.Contains(t, lookup.Task, "llama3.2")
	assert.False(t, lookup.Midstream)
	assert.Equal(t, 10*time.Second, lookup.Silent)
	assert.True(t, paused.Midstream)
	assert.False(t, paused.Stalled)
	assert.True(t, stalled.Stalled)
	assert.Equal(t, 30*time.Second, stalled.Silent)
	assert.Equal(t, ollama.DefaultIdleTimeout, stalled.Limit)
	assert.Contains(t, stalled.Message, "may be stuck")
	assert.Contains(t, stalled.Message, "5 min")

	// In order: the lookup's notice before the manifest, the answer's
	// notices after the text that came before them and before the rest.
	var order []string
	for _, e := range events {
		d := e.(ChatDelta)
		switch {
		case d.Wait != nil:
			order = append(order, "wait")
		case d.Manifest != "":
			order = append(order, "manifest")
		case d.Text != "":
			order = append(order, "text:"+d.Text)
		}
	}
	require.GreaterOrEqual(t, len(order), 6, "%v", order)
	assert.Equal(t, []string{"wait", "manifest", "text:Staleness ", "wait", "wait"}, order[:5])
	assert.Equal(t, "text:decays ", order[5])
}

// A status check that Ollama never answers says so plainly, as a note with
// the time waited, not as something Loom could not read.
func TestOllamaThatDoesNotAnswerIsSaidPlainly(t *testing.T) {
	clock := waittest.NewClock()
	asked := make(chan struct{}, 1)
	url := fakeOllama(t, ollamaHooks{tags: func(r *http.Request) {
		asked <- struct{}{}
		<-r.Context().Done() // never answers
	}})
	app, _ := realAppIn(t, t.TempDir(), url, []wait.Options{{Clock: clock}})

	got := make(chan *OllamaStatus, 1)
	go func() {
		st, err := app.Ollama()
		assert.NoError(t, err)
		got <- st
	}()
	<-asked
	stop := clock.Drive(time.Second) // nothing more can come: let the watch's time run
	st := <-got
	stop()
	assert.False(t, st.Up)
	assert.Equal(t, "Ollama at "+url+" did not answer within 3 s.", st.Problem)
	assert.Contains(t, st.Fix, "Retry")
	assert.NotContains(t, st.Problem, "could not read")
}

// TestDesktopChoosesItsEmbedderAsTheCLIDoes: the desktop app opens its
// workspace with backend.New in auto mode, as the CLI does: Ollama's
// embedder when Ollama has the model, else the offline one; Stats tells
// the page which one and why. Where the CLI would give a new workspace the
// full encoder, the desktop app starts it on the table, the full encoder
// to re-embed it in the background (upgrade_test.go).
func TestDesktopChoosesItsEmbedderAsTheCLIDoes(t *testing.T) {
	for _, tc := range []struct {
		name, prefix string
		models       []ollamatest.Model
		noWeights    bool
	}{
		{"Ollama has the embedding model", "ollama/nomic-embed-text", ollamatest.Standard(), false},
		{"Ollama lacks it, the full encoder's weights are installed: the table until the full encoder has re-embedded it", "offline/", []ollamatest.Model{ollamatest.Llama32()}, false},
		{"Ollama lacks it, and there are no weights", "offline/", []ollamatest.Model{ollamatest.Llama32()}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.noWeights {
				t.Setenv(minilm.DirEnv, t.TempDir())
			} else if _, err := minilm.Find(); err != nil {
				t.Skipf("the full encoder's weights are not installed (bash scripts/minilm.sh): %v", err)
			}
			srv := ollamatest.New(t, ollamatest.WithModels(tc.models...), ollamatest.WithEmbedDim(16))
			t.Setenv(WorkspaceEnv, t.TempDir())
			t.Setenv(OllamaEnv, srv.URL)
			shell := &fakeShell{}
			app := NewApp(shell)
			app.Startup(t.Context())
			t.Cleanup(func() { app.Shutdown(context.Background()) })
			st, err := app.Stats()
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(st.EmbedderInUse, tc.prefix), "in use: %q", st.EmbedderInUse)
			assert.NotEmpty(t, st.EmbedderChoice, "the page can say why")
			if !tc.noWeights && tc.prefix == "offline/" {
				assert.Contains(t, st.EmbedderChoice, "the full MiniLM encoder re-embeds it in the background")
				assert.Equal(t, backend.MiniLMTarget, backend.PendingReembed(os.Getenv(WorkspaceEnv)))
			}
		})
	}
}

// A file with more than one warning has them all beside it: here a
// second upload of one name that also has a syntax error.
func TestAFilesWarningsAreAllBesideIt(t *testing.T) {
	app, shell := realApp(t, "")
	res, err := app.IngestUploads([]backend.Upload{
		{Name: "tool.py", Text: "def first():\n    return 1\n"},
		{Name: "tool.py", Text: "def second():\n    return 2\n\ndef broken(:\n    pass\n"},
	})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Added)
	require.Len(t, res.Warnings, 2, "%+v", res.Warnings)
	events := shell.eventsNamed(EventIngestProgress)
	last := events[len(events)-1].(IngestProgress)
	problems := map[string]string{}
	for _, f := range last.Files {
		problems[f.Path] = f.Problem
	}
	assert.Empty(t, problems["tool.py"])
	assert.Contains(t, problems["tool (2).py"], "another file of this drop is also named tool.py")
	assert.Contains(t, problems["tool (2).py"], "has syntax errors")
	assert.Equal(t, 1, strings.Count(problems["tool (2).py"], " · "), "two warnings, joined: %s", problems["tool (2).py"])
}

// The ingest panel's line spells out a file's first maxFileNotes warnings
// and counts the rest.
func TestAFilesManyWarningsAreCounted(t *testing.T) {
	tr := newIngestTracker("j1")
	tr.update(backend.Progress{Current: "paper.pdf", FilesTotal: 1})
	res := &IngestResult{IngestReport: &backend.IngestReport{}}
	for i := range 5 {
		res.Warnings = append(res.Warnings, FileProblem{Path: "paper.pdf", Problem: fmt.Sprintf("page %d has no text layer", i+1)})
	}
	p := tr.finish(res, nil)
	require.Len(t, p.Files, 1)
	assert.Equal(t, "page 1 has no text layer · page 2 has no text layer · page 3 has no text layer · and 2 more", p.Files[0].Problem)
}
