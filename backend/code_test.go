//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
)

// copyCode copies testdata/code (a small Go module of two packages) into
// a temp folder named figures; its files are stamped an hour old, so that
// their modification times are trusted by a re-ingest.
func copyCode(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "figures")
	require.NoError(t, os.CopyFS(dst, os.DirFS(filepath.Join("testdata", "code"))))
	ageFiles(t, dst, time.Hour)
	return dst
}

// ageFiles sets the modification time of every file under dir to age ago.
func ageFiles(t *testing.T, dir string, age time.Duration) {
	t.Helper()
	old := time.Now().Add(-age)
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	}))
}

// codeGraph indexes the graph's nodes by reference and its edges by kind.
type codeGraph struct {
	byRef map[string]model.ContentNode
	byID  map[string]model.ContentNode
	edges map[model.EdgeKind][][2]string // from ref → to ref
}

func readCodeGraph(t *testing.T, wb *Workbench) codeGraph {
	t.Helper()
	g, err := wb.ExportGraph(context.Background(), false)
	require.NoError(t, err)
	cg := codeGraph{byRef: map[string]model.ContentNode{}, byID: map[string]model.ContentNode{}, edges: map[model.EdgeKind][][2]string{}}
	for _, n := range g.ContentNodes {
		if n.Kind == model.KindInput {
			cg.byRef[n.Ref] = n
		}
		cg.byID[n.ID] = n
	}
	for _, e := range g.Edges {
		if !e.Kind.SymbolEdge() {
			continue
		}
		to := "(gone)"
		if n, ok := cg.byID[e.To]; ok {
			to = n.Ref
		}
		cg.edges[e.Kind] = append(cg.edges[e.Kind], [2]string{cg.byID[e.From].Ref, to})
	}
	return cg
}

func TestCodeIsIndexedAsDefinitionsWithASymbolGraph(t *testing.T) {
	ctx := context.Background()
	src := copyCode(t)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	rep, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	assert.Equal(t, 3, rep.Added)

	cg := readCodeGraph(t, wb)
	for _, ref := range []string{"shapes/shapes.go", "shapes/shapes.go#Shape", "shapes/shapes.go#Circle", "shapes/shapes.go#Circle.Area",
		"shapes/shapes.go#Circle.Perimeter", "shapes/shapes.go#Largest", "shapes/report.go#Report", "geo/point.go#Point", "geo/point.go#Distance"} {
		assert.Contains(t, cg.byRef, ref, "one node per definition, and one per file")
	}
	largest := cg.byRef["shapes/shapes.go#Largest"]
	require.NotNil(t, largest.Symbol)
	assert.Equal(t, "func", largest.Symbol.Kind)
	assert.Equal(t, "func Largest(shapes []Shape) Shape", largest.Symbol.Signature)
	assert.Equal(t, []string{"shapes/shapes.go"}, largest.Ancestors, "a definition is within its file")
	text, err := wb.Content(largest.ContentHash)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text, "// Largest returns the shape of the greatest area"), "the doc comment is part of the definition: %q", text)
	assert.Equal(t, model.CodeNodeID(largest.DocID, largest.Ref, 1), largest.ID, "a definition's id is stable")
	assert.Equal(t, "interface", cg.byRef["shapes/shapes.go#Shape"].Symbol.Kind)
	assert.ElementsMatch(t, []string{"Area", "Perimeter"}, cg.byRef["shapes/shapes.go#Shape"].Symbol.Methods)

	assert.Contains(t, cg.edges[model.EdgeCalls], [2]string{"shapes/report.go#Report", "shapes/shapes.go#Largest"}, "a call to a function of the package, in another file")
	assert.Contains(t, cg.edges[model.EdgeCalls], [2]string{"shapes/shapes.go#Largest", "shapes/shapes.go#Shape"}, "a type named in a signature")
	assert.Contains(t, cg.edges[model.EdgeCalls], [2]string{"shapes/shapes.go#Circle", "geo/point.go#Point"}, "a type of an imported package, by its import's name")
	assert.Contains(t, cg.edges[model.EdgeImplements], [2]string{"shapes/shapes.go#Circle", "shapes/shapes.go#Shape"}, "Go's implicit interfaces: Circle has Shape's methods")
	assert.Contains(t, cg.edges[model.EdgeImports], [2]string{"shapes/shapes.go", "geo/point.go"}, "a file imports the files of a package")
	for _, e := range cg.edges[model.EdgeCalls] {
		assert.NotEqual(t, "(gone)", e[1], "every edge of a fresh ingest points at a node")
	}

	// The graph view draws the symbol graph with its own edge kinds.
	gd, err := wb.Graph(ctx)
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, e := range gd.Edges {
		kinds[e.Kind]++
	}
	assert.Positive(t, kinds["calls"])
	assert.Positive(t, kinds["implements"])
	assert.Positive(t, kinds["imports"])
}

func TestCodeEdgesOutliveAnEditOfTheCallee(t *testing.T) {
	ctx := context.Background()
	src := copyCode(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	defer func() { wb.Close() }()
	_, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	before := readCodeGraph(t, wb)

	// Largest's body changes; report.go, which calls it, is not read again.
	file := filepath.Join(src, "shapes", "shapes.go")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	edited := strings.Replace(string(b), "if best == nil || s.Area() > best.Area() {", "if best == nil || s.Area() >= best.Area() {", 1)
	require.NotEqual(t, string(b), edited)
	require.NoError(t, os.WriteFile(file, []byte(edited), 0o644))
	rep, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Updated)
	assert.Equal(t, 2, rep.Unchanged)
	assert.Equal(t, 2, rep.Unread, "files of the same size and modification time are not read again")

	after := readCodeGraph(t, wb)
	assert.NotEqual(t, before.byRef["shapes/shapes.go#Largest"].ContentHash, after.byRef["shapes/shapes.go#Largest"].ContentHash)
	assert.Equal(t, before.byRef["shapes/shapes.go#Largest"].ID, after.byRef["shapes/shapes.go#Largest"].ID)
	assert.Contains(t, after.edges[model.EdgeCalls], [2]string{"shapes/report.go#Report", "shapes/shapes.go#Largest"}, "the caller's edge still reaches the callee")

	// …in the store too: read back without the index's cache.
	require.NoError(t, wb.Close())
	require.NoError(t, os.Remove(filepath.Join(dir, "index.cache")))
	wb = openBolt(t, dir)
	stored := readCodeGraph(t, wb)
	assert.Contains(t, stored.edges[model.EdgeCalls], [2]string{"shapes/report.go#Report", "shapes/shapes.go#Largest"}, "the edge was written again with the callee's file")
	assert.Contains(t, stored.edges[model.EdgeImplements], [2]string{"shapes/shapes.go#Circle", "shapes/shapes.go#Shape"})
}

// TestCodeDefinitionsOfOneNameShareAConcept: two files of one package on
// unrelated matters would each found a concept named "package ledger";
// the second links to the first's instead, so a package is one concept.
func TestCodeDefinitionsOfOneNameShareAConcept(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "ledger")
	require.NoError(t, os.MkdirAll(src, 0o755))
	file := func(name, head, doc string, funcs ...string) {
		var b strings.Builder
		b.WriteString(head)
		for _, f := range funcs {
			b.WriteString("// " + f + " " + doc + "\nfunc " + f + "(x int) int { return x }\n\n")
		}
		require.NoError(t, os.WriteFile(filepath.Join(src, name), []byte(b.String()), 0o644))
	}
	file("accounts.go", "// Package ledger keeps double-entry accounts.\npackage ledger\n\n", "books an entry of the accounts.",
		"Balance", "Debit", "Credit", "PostJournal", "TrialBalance", "CloseYear", "Reconcile", "Accrue")
	file("render.go", "package ledger\n\n", "typesets glyphs of an invoice page.",
		"DrawGlyph", "KernPair", "LoadFont", "RasterizeOutline", "Hyphenate", "JustifyLine", "EmbedTypeface", "ShapeText")
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	byName := map[string][]string{}
	for _, c := range g.ConceptNodes {
		byName[strings.ToLower(c.Name)] = append(byName[strings.ToLower(c.Name)], c.ID)
	}
	require.NotEmpty(t, byName["package ledger"])
	for name, ids := range byName {
		assert.Len(t, ids, 1, "one concept named %q", name)
	}
	refs := map[string]string{}
	for _, n := range g.ContentNodes {
		refs[n.ID] = n.Ref
	}
	about := map[string][]string{} // node ref → concept ids
	for _, e := range g.Edges {
		if e.Kind == model.EdgeAbout {
			about[refs[e.From]] = append(about[refs[e.From]], e.To)
		}
	}
	assert.Contains(t, about["accounts.go"], byName["package ledger"][0])
	assert.Contains(t, about["render.go"], byName["package ledger"][0], "the two files of package ledger are about one concept")
}

// TestCodeEdgesReachADefinitionAddedLater: a file calls a function that
// does not exist yet; when a later ingest adds it in another file, the
// caller's file is left unread (unchanged) but its call is linked, in the
// index and in the store.
func TestCodeEdgesReachADefinitionAddedLater(t *testing.T) {
	ctx := context.Background()
	src := copyCode(t)
	caller := filepath.Join(src, "shapes", "summary.go")
	require.NoError(t, os.WriteFile(caller, []byte("package shapes\n\n// Summary describes the figures.\nfunc Summary(shapes []Shape) string { return Describe(Largest(shapes)) }\n"), 0o644))
	ageFiles(t, src, time.Hour)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	defer func() { wb.Close() }()
	_, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	before := readCodeGraph(t, wb)
	assert.Contains(t, before.edges[model.EdgeCalls], [2]string{"shapes/summary.go#Summary", "shapes/shapes.go#Largest"})

	require.NoError(t, os.WriteFile(filepath.Join(src, "shapes", "describe.go"), []byte("package shapes\n\n// Describe names a figure.\nfunc Describe(s Shape) string { return \"a figure\" }\n"), 0o644))
	rep, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Added)
	assert.Equal(t, 4, rep.Unread, "summary.go is not read as a document again")
	assert.Empty(t, rep.Warnings)
	after := readCodeGraph(t, wb)
	assert.Contains(t, after.edges[model.EdgeCalls], [2]string{"shapes/summary.go#Summary", "shapes/describe.go#Describe"})
	assert.Contains(t, after.edges[model.EdgeCalls], [2]string{"shapes/summary.go#Summary", "shapes/shapes.go#Largest"}, "the edges it had stay")

	// …in the store too: read back without the index's cache.
	require.NoError(t, wb.Close())
	require.NoError(t, os.Remove(filepath.Join(dir, "index.cache")))
	wb = openBolt(t, dir)
	stored := readCodeGraph(t, wb)
	assert.Contains(t, stored.edges[model.EdgeCalls], [2]string{"shapes/summary.go#Summary", "shapes/describe.go#Describe"})
	assert.Contains(t, stored.edges[model.EdgeCalls], [2]string{"shapes/summary.go#Summary", "shapes/shapes.go#Largest"})

	// Ingesting again changes nothing and adds no edge twice.
	rep, err = wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Zero(t, rep.Added+rep.Updated)
	again := readCodeGraph(t, wb)
	assert.Equal(t, stored.edges[model.EdgeCalls], again.edges[model.EdgeCalls])
}

func TestCodeLoadsFromTheFileAndTellsWhenItChanged(t *testing.T) {
	ctx := context.Background()
	src := copyCode(t)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	ask := func() *QueryResult {
		res, err := wb.Query(ctx, QueryRequest{Question: "Which shape has the greatest area, for the largest figure report?", Budget: 1500, Level: "detailed", NoTouch: true})
		require.NoError(t, err)
		return res
	}
	loaded := func(res *QueryResult, ref string) bool {
		for _, c := range res.Candidates {
			if c.Ref == ref && c.Loaded {
				return true
			}
		}
		return false
	}
	res := ask()
	require.True(t, loaded(res, "shapes/shapes.go#Largest"), "the question is about Largest")
	assert.NotContains(t, res.Prompt, "STALE")
	assert.NotContains(t, res.Manifest, "[Stale")

	// Another definition of the file changes on its own lines: Largest's
	// lines are the same, so it still loads from the file, fresh.
	file := filepath.Join(src, "shapes", "shapes.go")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	other := strings.Replace(string(b), "return 2 * math.Pi * c.Radius }", "return math.Pi * (c.Radius + c.Radius) }", 1)
	require.NotEqual(t, string(b), other)
	require.NoError(t, os.WriteFile(file, []byte(other), 0o644))
	res = ask()
	require.True(t, loaded(res, "shapes/shapes.go#Largest"))
	assert.NotContains(t, res.Prompt, "STALE", "a change elsewhere in the file leaves Largest fresh")

	// Largest itself changes: it loads as indexed, marked stale.
	edited := strings.Replace(other, "var best Shape", "var best Shape // the largest so far", 1)
	require.NoError(t, os.WriteFile(file, []byte(edited), 0o644))
	res = ask()
	require.True(t, loaded(res, "shapes/shapes.go#Largest"))
	assert.Regexp(t, `\] shapes/shapes\.go · L\d+ · STALE\n// Largest returns`, res.Prompt, "its header, the name left to the text that opens with it")
	assert.Contains(t, res.Manifest, "[Stale: ")
	assert.Contains(t, res.Manifest, "its definition changed since indexing")
	assert.NotContains(t, res.Prompt, "the largest so far", "a stale node loads as it was indexed, and says so")
	joined := strings.Join(res.Warnings, "\n")
	assert.Contains(t, joined, "shapes/shapes.go#Largest")

	// The file is gone.
	require.NoError(t, os.Remove(file))
	res = ask()
	assert.Contains(t, res.Manifest, "its file is gone")

	// Re-ingesting (with prune) brings the library up to date.
	_, err = wb.Ingest(ctx, []string{src}, IngestOptions{Prune: true})
	require.NoError(t, err)
	res = ask()
	assert.NotContains(t, res.Manifest, "[Stale")
}

func TestRepositoryMapLevel(t *testing.T) {
	ctx := context.Background()
	src := copyCode(t)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	res, err := wb.Query(ctx, QueryRequest{Question: "How is the area of a circle computed?", Budget: 300, Level: "map", NoTouch: true})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(res.Context, "[Repository map: "), res.Context)
	assert.Contains(t, res.Context, "shapes/shapes.go:\n")
	assert.Contains(t, res.Context, "] func (c Circle) Area() float64 · L")
	assert.LessOrEqual(t, res.Split.Manifest+res.Split.Loaded, 300)
	assert.Equal(t, "repository-map", res.Branch)

	// Every id the map names can be expanded to the definition's code.
	var id string
	for _, line := range strings.Split(res.Context, "\n") {
		if strings.Contains(line, "Circle) Area()") {
			id = line[strings.Index(line, "[")+1 : strings.Index(line, "]")]
		}
	}
	require.NotEmpty(t, id)
	ex, err := wb.query.Expand(ctx, id, "detailed")
	require.NoError(t, err)
	assert.Contains(t, ex.Text, "math.Pi * c.Radius * c.Radius")

	// A library without code has no map to draw.
	notes := copyFixture(t)
	wb2 := openBolt(t, t.TempDir())
	defer wb2.Close()
	_, err = wb2.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	_, err = wb2.Query(ctx, QueryRequest{Question: "How are staleness and decay computed?", Budget: 300, Level: "map", NoTouch: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no source file")
}

// git runs git in dir for a test.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Loom", "-c", "user.email=loom@localhost", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

func TestReingestOfAGitRepositoryReadsWhatGitSaysChanged(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is missing: CI must have it")
		}
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	src := copyCode(t)
	gitIn(t, src, "init", "-q")
	gitIn(t, src, "add", ".")
	gitIn(t, src, "commit", "-q", "-m", "figures")
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	rep, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 3, rep.Added)

	// A commit changes report.go (fresh times: only git can tell the
	// others are unchanged).
	ageFiles(t, src, 0)
	report := filepath.Join(src, "shapes", "report.go")
	require.NoError(t, os.WriteFile(report, []byte(strings.Replace(mustRead(t, report), "no shapes", "nothing to report", 1)), 0o644))
	gitIn(t, src, "commit", "-q", "-am", "report: say nothing to report")
	rep, err = wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Updated)
	assert.Equal(t, 2, rep.Unread, "git says the other two files did not change: they are not read")

	// A change not committed is read too.
	require.NoError(t, os.WriteFile(report, []byte(strings.Replace(mustRead(t, report), "largest area", "the largest area", 1)), 0o644))
	rep, err = wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Updated)
	assert.Equal(t, 2, rep.Unread)
	// …and read again once it is undone, though git no longer names it.
	gitIn(t, src, "checkout", "-q", "--", "shapes/report.go")
	rep, err = wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Updated, "the file the last run saw changed is read again")

	// Renamed and deleted files leave no stale nodes, without --prune.
	gitIn(t, src, "mv", "shapes/report.go", "shapes/summary.go")
	gitIn(t, src, "rm", "-q", "geo/point.go")
	gitIn(t, src, "commit", "-q", "-m", "rename the report, drop geo")
	rep, err = wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Removed)
	assert.Equal(t, 1, rep.Added)
	cg := readCodeGraph(t, wb)
	assert.Contains(t, cg.byRef, "shapes/summary.go#Report")
	for ref := range cg.byRef {
		assert.False(t, strings.HasPrefix(ref, "shapes/report.go") || strings.HasPrefix(ref, "geo/"), "no node of a file that is gone: %s", ref)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

// A definition's summary and essence are read from its code: the
// declaration and its doc comment, not the extractive method's reading of
// comments and code as prose. One made the old way is made again.
func TestCodeSummaryIsTheDeclarationAndItsDocComment(t *testing.T) {
	ctx := context.Background()
	src := copyCode(t)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{src}, IngestOptions{})
	require.NoError(t, err)
	block := func(level string) string {
		t.Helper()
		res, err := wb.Query(ctx, QueryRequest{Question: "Which shape has the greatest area, for the largest figure report?", Budget: 1500, Level: level, NoTouch: true})
		require.NoError(t, err)
		for _, c := range res.Candidates {
			if c.Ref == "shapes/shapes.go#Largest" {
				require.True(t, c.Loaded, "Largest loads: %s", c.Reason)
				require.Equal(t, level, string(c.Level))
			}
		}
		_, after, ok := strings.Cut(res.Prompt, " · "+level+"\n")
		require.True(t, ok, "a block at level %s:\n%s", level, res.Prompt)
		text, _, _ := strings.Cut(after, "\n\n")
		return text
	}
	assert.Equal(t, "func Largest(shapes []Shape) Shape\nLargest returns the shape of the greatest area, for the report.", block("summary"))
	assert.Equal(t, "Largest returns the shape of the greatest area, for the report.", block("essence"))

	// A summary the extractive method made (before definitions had their
	// own) is not served: the definition's own is made in its place.
	var src0 *model.ContentNode
	wb.ws.Lock()
	for _, n := range wb.ws.CurrentIndex().Nodes {
		if n.Ref == "shapes/shapes.go#Largest" && n.Kind == model.KindInput {
			src0 = n
		}
	}
	require.NotNil(t, src0)
	old := "// Largest returns the shape of the greatest area, for the report. func Largest(shapes []Shape) Shape { var best Shape…"
	h := storage.Hash(old)
	wb.ws.Texts().Stage(h, old)
	now := time.Now()
	a := model.ContentNode{ID: "n-" + model.ShortHash(src0.ID, "summary", abstract.ExtractiveID), DocID: src0.DocID, Ref: src0.Ref,
		LineStart: src0.LineStart, LineEnd: src0.LineEnd, ContentHash: h, Kind: model.KindAnalysis, ContentType: "prose",
		Tokens: 30, Created: now, LastAccess: now, Provenance: "summary of " + src0.ID + " by " + abstract.ExtractiveID,
		Source: src0.ID, Level: "summary"}
	wb.ws.RecordAnalysis(a, model.Edge{Kind: model.EdgeDerived, From: a.ID, To: src0.ID, Weight: 1, Created: now})
	wb.ws.Unlock()
	assert.Equal(t, "func Largest(shapes []Shape) Shape\nLargest returns the shape of the greatest area, for the report.", block("summary"))
}

// A long function is cut into parts; a later part starts inside the body,
// and its essence is what the comment in it says, not its first line of
// code ("var (").
func TestALaterPartOfALongFunctionHasAnEssenceThatSaysSomething(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package relay\n\n// Forward copies every frame of the stream to the peer.\nfunc Forward(in []int) int {\n\ttotal := 0\n")
	for i := range 90 {
		fmt.Fprintf(&b, "\ttotal += in[%d] * %d // frame %d\n", i%7, i, i)
	}
	b.WriteString("\tvar (\n\t\tlimit = 3\n\t)\n\t// Retry the handshake when the peer resets the connection.\n\tfor attempt := 0; attempt < limit; attempt++ {\n\t\ttotal -= attempt\n\t}\n")
	for i := range 90 {
		fmt.Fprintf(&b, "\ttotal -= in[%d] + %d\n", i%5, i)
	}
	b.WriteString("\treturn total\n}\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "relay.go"), []byte(b.String()), 0o644))
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{dir}, IngestOptions{})
	require.NoError(t, err)
	res, err := wb.Query(ctx, QueryRequest{Question: "Does Forward retry the handshake when the peer resets the connection?", Budget: 1500, Level: "essence", NoTouch: true})
	require.NoError(t, err)
	var essences []string
	for _, c := range res.Candidates {
		if !c.Loaded || c.Part <= 1 || !strings.HasPrefix(c.Ref, "relay.go#Forward") {
			continue
		}
		// The block is the part's own, or the one its essence joined
		// ("[tdac, imkn] func Forward parts 1, 4/6"): the parts'
		// essences are its paragraphs, in the order of the header's ids,
		// with a "…" where a part was left out.
		m := regexp.MustCompile(`(?m)^\[([^\]\n]*\b` + regexp.QuoteMeta(c.ShortID) + `\b[^\]\n]*)\][^\n]*\n`).FindStringSubmatchIndex(res.Prompt)
		require.NotNil(t, m, "the block of %s:\n%s", c.ID, res.Prompt)
		ids := strings.Split(res.Prompt[m[2]:m[3]], ", ")
		text, _, _ := strings.Cut(res.Prompt[m[1]:], "\n\nQuestion:")
		if next := regexp.MustCompile(`(?m)^\[[a-z]{3,16}[,\]]`).FindStringIndex(text); next != nil {
			text = text[:next[0]] // the next block
		}
		var paras []string
		for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
			if p != "…" {
				paras = append(paras, p)
			}
		}
		require.Len(t, paras, len(ids), "one paragraph a part:\n%s", text)
		essences = append(essences, paras[slices.Index(ids, c.ShortID)])
	}
	require.NotEmpty(t, essences, "a later part of Forward loads as an essence:\n%s", res.Prompt)
	assert.Contains(t, essences, "Retry the handshake when the peer resets the connection.", "the part holding the comment")
	for _, e := range essences {
		assert.NotEqual(t, "var (", strings.TrimSpace(e))
	}
	// The first part's essence is its doc comment's sentence, which names
	// Forward but does not declare it: the header names the function.
	assert.Regexp(t, `\] (relay\.go › )?func Forward parts? 1[/,][^·]* · L3[–\d]* · essence\nForward copies`, res.Prompt)

	// Its summary: where the part starts, then what its comment says.
	res, err = wb.Query(ctx, QueryRequest{Question: "Does Forward retry the handshake when the peer resets the connection?", Budget: 1500, Level: "summary", NoTouch: true})
	require.NoError(t, err)
	assert.Regexp(t, `parts? [\d, ]*\d/\d · L\d+–\d+ · summary\n(?:[^\n]*\n)*?[^\n]+\nRetry the handshake when the peer resets the connection\.`, res.Prompt)
}
