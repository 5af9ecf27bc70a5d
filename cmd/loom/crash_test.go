//go:build !js

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/tokens"
)

// The crash test kills the real CLI at named steps of every kind of write
// (backend/crash: the process sends itself SIGKILL when it reaches the step
// LOOM_CRASH_AT names, so where it stops does not depend on timing), then
// checks the workspace: it opens, its stats agree with its store, every
// document in it is whole, every text matches its hash, its index agrees
// with its store, and running the command again finishes the job with
// exactly what an uninterrupted run makes.

// crashKillsWanted is how many kills the test makes at least: one at every
// step each scenario reaches, so the count follows how many steps there are
// (210 with the GloVe table, 198 with the distilled one, which makes fewer
// concepts from the same corpus; 273 since ingests and re-embeds with a
// slow embedder embed in a first stage of their own); a change that stops
// reaching steps shows here.
const crashKillsWanted = 260

// embedServer is the fake Ollama with nomic-embed-text, whose vectors are
// made from the words' hashes in 16 dimensions: the re-embed scenario
// switches the workspace to it.
func embedServer(t *testing.T) *ollamatest.Server {
	t.Helper()
	return ollamatest.New(t, ollamatest.WithModels(ollamatest.NomicEmbedText()), ollamatest.WithEmbedDim(16))
}

// crashCorpus writes version v of a small library into dir (replacing
// what was there): version 0 has ten notes; 1 changes three and adds
// three; 2 deletes four of those.
func crashCorpus(t *testing.T, dir string, v int) {
	t.Helper()
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "deep"), 0o755))
	topics := []string{"budget", "window", "manifest", "summary", "concept", "graph", "hops", "staleness", "novelty", "trust"}
	for i := 0; i < 13; i++ {
		if (i >= 10 && v == 0) || (v == 2 && i%3 == 1) {
			continue
		}
		var b strings.Builder
		topic := topics[i%len(topics)]
		fmt.Fprintf(&b, "# Note %d on %s\n\nThe %s of a context decides what loads; see [the next](n%d.md).\n\n", i, topic, topic, (i+1)%10)
		for s := 0; s < 3; s++ {
			fmt.Fprintf(&b, "## %s part %d\n\nPart %d says how %s and %s shape relevance, tokens and the manifest of note %d.\n\n",
				topic, s, s, topic, topics[(i+s)%len(topics)], i)
		}
		if v >= 1 && i%4 == 0 {
			fmt.Fprintf(&b, "## Revised\n\nA later thought on %s in version %d.\n", topic, v)
		}
		name := fmt.Sprintf("n%d.md", i)
		if i%5 == 4 {
			name = filepath.Join("deep", name)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644))
	}
}

// sectionsByHash maps each file version's hash to its number of sections,
// for checking that a stored document is whole.
func sectionsByHash(t *testing.T, dir string, into map[string]int) {
	t.Helper()
	count := tokens.Default().Count
	walked := ingest.Walk([]string{dir})
	require.Empty(t, walked.Errors)
	for _, f := range walked.Files {
		data, err := os.ReadFile(f.Abs)
		require.NoError(t, err)
		docs, err := ingest.Parse(f.Abs, f.Path, f.Collection, data, ingest.Options{CountTokens: count})
		require.NoError(t, err)
		for _, d := range docs {
			d.Chunk(ingest.Options{CountTokens: count})
			into[d.Hash] = len(d.Sections)
		}
	}
}

// copyTree copies a workspace or corpus folder.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, os.RemoveAll(dst))
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
}

// workspaceShape is what a workspace holds, as a fresh run must make it:
// documents with their hashes and the sections read from files (summaries
// made by questions aside).
func workspaceShape(t *testing.T, ws string) (shape []string, embedder string) {
	t.Helper()
	ctx := context.Background()
	wb, err := backend.Open(ctx, ws, backend.ReadOnly())
	require.NoError(t, err)
	defer wb.Close()
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	for _, d := range g.Documents {
		shape = append(shape, "doc "+d.ID+" "+d.Hash)
	}
	for _, n := range g.ContentNodes {
		if n.Source == "" {
			shape = append(shape, "node "+n.ID+" "+n.ContentHash)
		}
	}
	sort.Strings(shape)
	return shape, g.Meta.Embedder
}

// checkWorkspace is what must hold after any kill.
func checkWorkspace(t *testing.T, ws string, sections map[string]int) {
	t.Helper()
	ctx := context.Background()
	if _, err := os.Stat(ws); errors.Is(err, os.ErrNotExist) {
		return // killed before the folder was made
	}
	wb, err := backend.Open(ctx, ws)
	require.NoError(t, err, "the workspace opens")
	defer wb.Close()
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err, "the store reads whole")
	require.Equal(t, st.Documents, len(g.Documents), "stats agree with the store")
	require.Equal(t, st.ContentNodes, len(g.ContentNodes), "stats agree with the store")
	perDoc := map[string]int{}
	for _, n := range g.ContentNodes {
		if n.Source == "" {
			perDoc[n.DocID]++
		}
		_, err := wb.Content(n.ContentHash)
		require.NoError(t, err, "node %s's text is there and matches its hash", n.ID)
	}
	for _, d := range g.Documents {
		want, ok := sections[d.Hash]
		require.True(t, ok, "document %s is a version of a file that was written", d.Path)
		require.Equal(t, want, perDoc[d.ID], "document %s is whole", d.Path)
	}
	docs, err := wb.Documents(ctx)
	require.NoError(t, err)
	var fromIndex, fromStore []string
	for _, d := range docs {
		fromIndex = append(fromIndex, d.ID+" "+d.Hash)
	}
	for _, d := range g.Documents {
		fromStore = append(fromStore, d.ID+" "+d.Hash)
	}
	sort.Strings(fromIndex)
	sort.Strings(fromStore)
	require.Equal(t, fromStore, fromIndex, "the working index (from its cache if it is current) agrees with the store")
}

// crashScenario is one write to interrupt.
type crashScenario struct {
	name string
	// prepare makes the workspace the command starts from (in ws, which
	// does not exist yet) and the corpus it reads.
	prepare func(t *testing.T, ws, corpus string)
	args    func(ws, corpus string) []string
	// again is the command that finishes the job after a kill (nil: args).
	again func(t *testing.T, ws, corpus string) []string
}

func TestKillsAtEveryStepLeaveWorkspacesThatOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and runs it hundreds of times")
	}
	bin := filepath.Join(t.TempDir(), "loom")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	embedder := embedServer(t)
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(append(os.Environ(), "LOOM_OLLAMA_URL=", "OLLAMA_HOST="), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	mustRun := func(t *testing.T, args ...string) {
		t.Helper()
		out, err := run(nil, args...)
		require.NoError(t, err, "loom %s: %s", strings.Join(args, " "), out)
	}

	sections := map[string]int{}
	for v := 0; v < 3; v++ {
		dir := filepath.Join(t.TempDir(), "lib")
		crashCorpus(t, dir, v)
		sectionsByHash(t, dir, sections)
	}
	ingestArgs := func(ws, corpus string, more ...string) []string {
		return append([]string{"ingest", "--workspace", ws, "--embedder", "offline", "--quiet", "--batch", "30"}, append(more, corpus)...)
	}
	exported := filepath.Join(t.TempDir(), "export.json")
	{
		ws, corpus := filepath.Join(t.TempDir(), "ws"), filepath.Join(t.TempDir(), "lib")
		crashCorpus(t, corpus, 0)
		mustRun(t, ingestArgs(ws, corpus)...)
		mustRun(t, "graph", "export", "--workspace", ws, "--content", "--out", exported)
	}
	ingested := func(v int) func(t *testing.T, ws, corpus string) {
		return func(t *testing.T, ws, corpus string) {
			crashCorpus(t, corpus, v)
			mustRun(t, ingestArgs(ws, corpus)...)
		}
	}
	scenarios := []crashScenario{
		{name: "create and ingest",
			prepare: func(t *testing.T, ws, corpus string) { crashCorpus(t, corpus, 0) },
			args:    func(ws, corpus string) []string { return ingestArgs(ws, corpus) }},
		{name: "ingest changes",
			prepare: func(t *testing.T, ws, corpus string) { ingested(0)(t, ws, corpus); crashCorpus(t, corpus, 1) },
			args:    func(ws, corpus string) []string { return ingestArgs(ws, corpus) }},
		{name: "prune",
			prepare: func(t *testing.T, ws, corpus string) { ingested(1)(t, ws, corpus); crashCorpus(t, corpus, 2) },
			args:    func(ws, corpus string) []string { return ingestArgs(ws, corpus, "--prune") }},
		{name: "import",
			prepare: func(t *testing.T, ws, corpus string) { crashCorpus(t, corpus, 0) },
			args: func(ws, corpus string) []string {
				return []string{"graph", "import", "--workspace", ws, "--embedder", "offline", exported}
			},
			again: func(t *testing.T, ws, corpus string) []string {
				if shape, _ := workspaceShape(t, ws); len(shape) > 0 {
					return nil // the import had committed: there is nothing left to do
				}
				return []string{"graph", "import", "--workspace", ws, "--embedder", "offline", exported}
			}},
		{name: "re-embed",
			prepare: ingested(0),
			args: func(ws, corpus string) []string {
				return []string{"ingest", "--workspace", ws, "--embedder", "ollama", "--ollama-url", embedder.URL, "--quiet", corpus}
			}},
		{name: "ingest changes in two stages",
			// A workspace on the server's embedder (not the offline table)
			// embeds an ingest's files before it writes them.
			prepare: func(t *testing.T, ws, corpus string) {
				crashCorpus(t, corpus, 0)
				mustRun(t, "ingest", "--workspace", ws, "--embedder", "ollama", "--ollama-url", embedder.URL, "--quiet", corpus)
				crashCorpus(t, corpus, 1)
			},
			args: func(ws, corpus string) []string {
				return []string{"ingest", "--workspace", ws, "--embedder", "ollama", "--ollama-url", embedder.URL, "--quiet", "--batch", "30", corpus}
			}},
		{name: "reembed command",
			prepare: ingested(0),
			args: func(ws, corpus string) []string {
				return []string{"reembed", "--workspace", ws, "--ollama-url", embedder.URL, "--embed-model", "nomic-embed-text", "--quiet"}
			}},
		{name: "question and close",
			prepare: ingested(0),
			args: func(ws, corpus string) []string {
				return []string{"query", "--workspace", ws, "--embedder", "offline", "--budget", "300", "--level", "summary",
					"How do the budget and the window shape relevance?"}
			}},
	}

	kills := 0
	var mu sync.Mutex
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			template := filepath.Join(t.TempDir(), "template")
			corpus := filepath.Join(t.TempDir(), "lib")
			sc.prepare(t, filepath.Join(template, "ws"), corpus)

			// A clean run, traced: the steps it passes, and what it makes.
			clean := filepath.Join(t.TempDir(), "clean")
			if _, err := os.Stat(template); err == nil {
				copyTree(t, template, clean)
			}
			trace := filepath.Join(t.TempDir(), "trace")
			out, err := run([]string{crash.EnvTrace + "=" + trace}, sc.args(filepath.Join(clean, "ws"), corpus)...)
			require.NoError(t, err, out)
			want, wantEmb := workspaceShape(t, filepath.Join(clean, "ws"))
			points := killPoints(t, trace)
			require.NotEmpty(t, points)
			t.Logf("%d steps to kill at: %s", len(points), strings.Join(points, " "))

			for _, p := range points {
				t.Run(p, func(t *testing.T) {
					t.Parallel()
					root := filepath.Join(t.TempDir(), "run")
					if _, err := os.Stat(template); err == nil {
						copyTree(t, template, root)
					}
					ws := filepath.Join(root, "ws")
					out, err := run([]string{crash.EnvAt + "=" + p}, sc.args(ws, corpus)...)
					var ee *exec.ExitError
					require.ErrorAs(t, err, &ee, "the run reached %s and was killed there: %s", p, out)
					status, ok := ee.Sys().(syscall.WaitStatus)
					require.True(t, ok && status.Signaled() && status.Signal() == syscall.SIGKILL, "killed by SIGKILL at %s: %s", p, out)
					mu.Lock()
					kills++
					mu.Unlock()

					checkWorkspace(t, ws, sections)
					again := sc.args(ws, corpus)
					if sc.again != nil {
						again = sc.again(t, ws, corpus)
					}
					if again != nil {
						out, err = run(nil, again...)
						require.NoError(t, err, "running it again finishes the job: %s", out)
					}
					got, gotEmb := workspaceShape(t, ws)
					require.Equal(t, want, got, "the same workspace as an uninterrupted run")
					require.Equal(t, wantEmb, gotEmb)
				})
			}
		})
	}
	t.Logf("%d kills", kills)
	if !t.Failed() {
		require.GreaterOrEqual(t, kills, crashKillsWanted)
	}
}

// perStep is how many of a step's occurrences in one run are killed at.
const perStep = 12

// killPoints turns a trace into the steps to kill at, as step#n: every
// time a step is reached in a run, up to perStep times a step, spread
// evenly over its occurrences, so that each step of each write is
// interrupted.
func killPoints(t *testing.T, trace string) []string {
	t.Helper()
	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	seen := map[string]int{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		step := sc.Text()
		if seen[step] == 0 {
			order = append(order, step)
		}
		seen[step]++
	}
	require.NoError(t, sc.Err())
	var points []string
	for _, step := range order {
		n := seen[step]
		picks := map[int]bool{}
		for k := 0; k < min(n, perStep); k++ {
			picks[1+k*(n-1)/max(min(n, perStep)-1, 1)] = true
		}
		var nth []int
		for k := range picks {
			nth = append(nth, k)
		}
		sort.Ints(nth)
		for _, k := range nth {
			points = append(points, fmt.Sprintf("%s#%d", step, k))
		}
	}
	return points
}
