package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/tokens"
	"github.com/loomwork/loom/internal/golden"
)

// ingested opens a bolt workspace with the fixture notes in it.
func ingested(t *testing.T, opts ...Option) (*Workbench, string) {
	t.Helper()
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openBolt(t, dir, opts...)
	rep, err := wb.Ingest(context.Background(), []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	return wb, dir
}

func loadedRefs(r *QueryResult) []string {
	var out []string
	for _, c := range r.LoadedCandidates() {
		out = append(out, c.Ref)
	}
	return out
}

// TestQueryGoldenPrompts pins the assembled prompt (system prompt,
// manifest, catalog, node blocks, question) for a few questions over the
// fixture: any change to ranking, selection or rendering shows up here.
// Rewrite with: go test ./backend -run TestQueryGoldenPrompts -update
func TestQueryGoldenPrompts(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	cases := []struct {
		name string
		req  QueryRequest
	}{
		{"budget-split", QueryRequest{Question: "How is the loadable token budget calculated from the window?", Budget: 600}},
		{"staleness", QueryRequest{Question: "How does staleness decay with time since last access?", Budget: 400}},
		{"tight-summary", QueryRequest{Question: "How is the loadable token budget calculated from the window?", Budget: 220, Level: "summary"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.NoTouch = true
			res, err := wb.Query(context.Background(), tc.req)
			require.NoError(t, err)
			var b strings.Builder
			fmt.Fprintf(&b, "# branch %s · loaded %d of %d relevant · window %d (%s) · context %d = manifest %d + catalog %d + nodes %d + free %d\n",
				res.Branch, res.Loaded, res.Relevant, res.Split.Window, res.Split.WindowSource, res.Split.Context,
				res.Split.Manifest, res.Split.Catalog, res.Split.Loaded, res.Split.Free)
			for _, c := range res.Candidates {
				fmt.Fprintf(&b, "# %-5v %-8s %.4f %s — %s\n", c.Loaded, c.Level, c.Score, c.Ref, c.Reason)
			}
			b.WriteString(res.Prompt)
			b.WriteString("\n")
			golden.Equal(t, filepath.Join("..", "testdata", "golden", "query-"+tc.name+".txt"), []byte(b.String()))
			assert.True(t, strings.HasPrefix(res.Prompt, assemble.DefaultSystemPrompt+"\n\n[Context loaded: "), "the manifest opens the context")
		})
	}
}

func TestQueryLoadsTheRelevantSectionAndStops(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	res, err := wb.Query(context.Background(), QueryRequest{Question: "How does staleness decay with time since last access?", Budget: 2000, NoTouch: true})
	require.NoError(t, err)
	refs := loadedRefs(res)
	require.NotEmpty(t, refs)
	assert.True(t, strings.HasPrefix(refs[0], "staleness.txt"), "the staleness notes come first, got %v", refs)
	assert.Less(t, res.Split.Loaded, 2000/2, "minimum relevant context: it stops well before the budget")
	assert.Equal(t, res.Relevant-res.Loaded, res.NotLoaded)
	for _, c := range res.Candidates {
		assert.NotEmpty(t, c.Reason, "every candidate says why: %s", c.Ref)
		for _, v := range append(c.Signals[:len(assemble.AllSignals())], c.Score) {
			assert.True(t, v >= 0 && v <= 1, "signals are normalised: %s %+v", c.Ref, c.Signals)
		}
	}
	b, err := json.Marshal(res)
	require.NoError(t, err)
	for _, key := range []string{`"manifest"`, `"budget"`, `"candidates"`, `"signals"`, `"reason"`, `"loaded"`, `"level"`, `"reference"`, `"tokens"`} {
		assert.Contains(t, string(b), key)
	}
}

// TestQueryNeverExceedsItsBudget: for many budgets, windows and levels the
// measured context never exceeds the context budget and the whole prompt
// plus the output reservation never exceeds the window.
func TestQueryNeverExceedsItsBudget(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	count := tokens.Default().Count
	questions := []string{"budget", "How does staleness decay?", "graphs of concepts and content nodes", "what is loaded first when the budget is tight and nodes are oversized?"}
	for _, q := range questions {
		for _, budget := range []int{48, 60, 90, 150, 300, 700, 1500, 5000} {
			for _, level := range []string{"", "detailed", "summary", "essence"} {
				res, err := wb.Query(context.Background(), QueryRequest{Question: q, Budget: budget, Level: level, NoTouch: true})
				if err != nil {
					assert.Contains(t, err.Error(), "budget", "only a too-small budget may fail: %v", err)
					continue
				}
				ctxTokens := count(strings.TrimPrefix(res.Prompt, assemble.DefaultSystemPrompt+"\n\n"))
				ctxTokens -= count("\n\n" + assemble.QuestionText(q))
				assert.LessOrEqual(t, ctxTokens, budget+2, "q=%q budget=%d level=%q", q, budget, level)
				assert.LessOrEqual(t, res.Split.Manifest+res.Split.Catalog+res.Split.Loaded, res.Split.Context)
			}
		}
		for _, window := range []int{400, 1000, 8192} {
			res, err := wb.Query(context.Background(), QueryRequest{Question: q, Window: window, NoTouch: true})
			require.NoError(t, err)
			assert.LessOrEqual(t, res.PromptTokens+res.Split.Output, window+4, "q=%q window=%d", q, window)
		}
	}
}

func TestQueryRejectsBadQuestions(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	cases := []struct {
		name string
		req  QueryRequest
		want string
	}{
		{"empty", QueryRequest{Question: "   ", Budget: 1000}, "empty"},
		{"100 KB", QueryRequest{Question: strings.Repeat("budget ", 100<<10/7), Budget: 1000}, "KB"},
		{"only punctuation", QueryRequest{Question: "?!… —— ;;", Budget: 1000}, "no words"},
		{"budget smaller than the manifest", QueryRequest{Question: "budget", Budget: 20}, "manifest"},
		{"no budget at all", QueryRequest{Question: "budget"}, "--budget"},
		{"negative budget", QueryRequest{Question: "budget", Budget: -5}, "positive"},
		{"a budget that would overflow", QueryRequest{Question: "budget", Budget: math.MaxInt64}, "not possible"},
		{"a window that would overflow", QueryRequest{Question: "budget", Window: 1 << 40}, "not possible"},
		{"unknown purpose", QueryRequest{Question: "budget", Budget: 500, Purpose: "vibes"}, "purpose"},
		{"unknown level", QueryRequest{Question: "budget", Budget: 500, Level: "tiny"}, "level"},
		{"unknown strategy", QueryRequest{Question: "budget", Budget: 500, Strategy: "magic"}, "strategy"},
		{"a model with no model server configured", QueryRequest{Question: "budget", Model: "llama3.2"}, "no model server is configured"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wb.Query(context.Background(), tc.req)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, errs.Invalid, errs.CodeOf(err), "a request the engine refuses is invalid, at its source")
		})
	}
}

func TestQueryWindowFromTheModel(t *testing.T) {
	// The fake Ollama has llama3.2 with an 8k window, and no other model.
	llama := ollamatest.Llama32()
	llama.ContextLength = 8192
	srv := ollamatest.New(t, ollamatest.WithModels(llama))
	client, err := ollama.New(srv.URL)
	require.NoError(t, err)
	window := func(ctx context.Context, model string) (int, error) {
		info, err := client.Model(ctx, model)
		return info.ContextLength, err
	}
	wb, _ := ingested(t, WithModelWindow(window))
	defer wb.Close()

	res, err := wb.Query(context.Background(), QueryRequest{Question: "budget", Model: "llama3.2", NoTouch: true})
	require.NoError(t, err)
	assert.Equal(t, 8192, res.Split.Window)
	assert.Equal(t, "model llama3.2", res.Split.WindowSource)
	assert.Equal(t, res.Split.Window, res.Split.System+res.Split.Question+res.Split.Output+res.Split.Context)

	_, err = wb.Query(context.Background(), QueryRequest{Question: "budget", Model: "nosuchmodel", NoTouch: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ollama pull nosuchmodel")
}

func TestQueryOutputReservationFollowsComplexity(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	simple, err := wb.Query(context.Background(), QueryRequest{Question: "budget?", Window: 4000, NoTouch: true})
	require.NoError(t, err)
	hard, err := wb.Query(context.Background(), QueryRequest{Window: 4000, NoTouch: true,
		Question: "Compare how the budget calculation, the staleness decay curve and the loading decision tree interact when several oversized nodes compete, and explain step by step which would be summarised first and why, including trade-offs."})
	require.NoError(t, err)
	assert.Greater(t, hard.Complexity, simple.Complexity)
	assert.Greater(t, hard.Split.Output, simple.Split.Output, "a complex question reserves more room for the answer")
}

// TestSummariesAreCachedAsAnalysisNodes: a tight budget at summary level
// makes summaries, stores them as analysis nodes derived from their
// sources (their texts in the pack), and a reopened workspace finds them
// again.
func TestSummariesAreCachedAsAnalysisNodes(t *testing.T) {
	notes := copyFixtureWithLongSection(t)
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(context.Background(), []string{notes}, IngestOptions{})
	require.NoError(t, err)
	q := QueryRequest{Question: "How is the loadable budget calculated from the window and the output reservation?", Budget: 300, Level: "summary", NoTouch: true}
	res, err := wb.Query(context.Background(), q)
	require.NoError(t, err)
	var summarised []*assemble.Candidate
	for _, c := range res.LoadedCandidates() {
		if c.Level == assemble.Summary {
			summarised = append(summarised, c)
			assert.Less(t, c.LoadedTokens, c.Tokens)
		}
	}
	require.NotEmpty(t, summarised, "a tight budget at summary level loads summaries")
	require.NoError(t, wb.Close())

	wb = openBolt(t, dir)
	defer wb.Close()
	g, err := wb.ExportGraph(context.Background(), false)
	require.NoError(t, err)
	derived := map[string]string{}
	for _, e := range g.Edges {
		if e.Kind == model.EdgeDerived {
			derived[e.To] = e.From
		}
	}
	for _, c := range summarised {
		aid, ok := derived[c.ID]
		require.True(t, ok, "the summary of %s is linked to it", c.Ref)
		var a *model.ContentNode
		for i := range g.ContentNodes {
			if g.ContentNodes[i].ID == aid {
				a = &g.ContentNodes[i]
			}
		}
		require.NotNil(t, a)
		assert.Equal(t, model.KindAnalysis, a.Kind)
		assert.Equal(t, "summary", a.Level)
		assert.Equal(t, c.ID, a.Source)
		text, err := wb.Content(a.ContentHash)
		require.NoError(t, err, "the text of %s's summary is stored", c.Ref)
		assert.Equal(t, a.ContentHash, storage.Hash(text))
		_, err = os.Stat(wb.ws.Texts().Path(a.ContentHash))
		assert.ErrorIs(t, err, os.ErrNotExist, "kept in %s, not in a file of its own", PackFile)
	}
	res2, err := wb.Query(context.Background(), q)
	require.NoError(t, err)
	for _, c := range res2.Candidates {
		for _, s := range summarised {
			if c.ID == s.ID {
				assert.True(t, c.SummaryCached, "the cached summary is offered at its real size")
			}
		}
	}
	loaded2 := map[string]bool{}
	for _, c := range res2.LoadedCandidates() {
		loaded2[c.ID] = true
	}
	for _, c := range summarised {
		assert.True(t, loaded2[c.ID], "%s loads again, now from its cached summary", c.Ref)
	}
	st, err := wb.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, st.ContentNodes, len(g.ContentNodes))
}

func TestLoadedNodesGetTheirAccessTimeUpdated(t *testing.T) {
	now := fixedNow
	tick := func() time.Time { return now }
	notes := copyFixture(t)
	dir := t.TempDir()
	wb := openBolt(t, dir, WithClock(tick))
	_, err := wb.Ingest(context.Background(), []string{notes}, IngestOptions{})
	require.NoError(t, err)
	now = now.Add(90 * 24 * time.Hour)
	res, err := wb.Query(context.Background(), QueryRequest{Question: "How does staleness decay?", Budget: 800})
	require.NoError(t, err)
	loaded := res.LoadedCandidates()
	require.NotEmpty(t, loaded)
	for _, c := range loaded {
		assert.Less(t, c.Signals[assemble.Staleness], 0.2, "90 days unused at a 30-day half-life")
	}
	require.NoError(t, wb.Close()) // writes the pending access times

	wb = openBolt(t, dir, WithClock(tick))
	defer wb.Close()
	g, err := wb.ExportGraph(context.Background(), false)
	require.NoError(t, err)
	for _, c := range loaded {
		for _, n := range g.ContentNodes {
			if n.ID == c.ID {
				assert.True(t, n.LastAccess.Equal(now), "%s last access %v", c.Ref, n.LastAccess)
			}
		}
	}
	again, err := wb.Query(context.Background(), QueryRequest{Question: "How does staleness decay?", Budget: 800, NoTouch: true})
	require.NoError(t, err)
	for _, c := range again.Candidates {
		if c.ID == loaded[0].ID {
			assert.InDelta(t, 1.0, c.Signals[assemble.Staleness], 1e-9, "just accessed")
		}
	}
}

func TestPinnedNodesLoadFirst(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	ctx := context.Background()
	first, err := wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Budget: 3000, NoTouch: true})
	require.NoError(t, err)
	loadedFirst := map[string]bool{}
	for _, c := range first.LoadedCandidates() {
		loadedFirst[c.ID] = true
	}
	// A graphs.md node the question does not load (whether or not it was
	// a candidate: that depends on the embedder).
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	var unrelated *model.ContentNode
	for i, n := range g.ContentNodes {
		if !loadedFirst[n.ID] && strings.HasPrefix(n.Ref, "graphs.md") {
			unrelated = &g.ContentNodes[i]
			break
		}
	}
	require.NotNil(t, unrelated, "a graphs.md node is not loaded")
	res, err := wb.Query(ctx, QueryRequest{Question: "How does staleness decay?", Budget: 3000, NoTouch: true, Pin: []string{unrelated.ID}})
	require.NoError(t, err)
	loaded := res.LoadedCandidates()
	var got *assemble.Candidate
	for _, c := range res.Candidates {
		if c.ID == unrelated.ID {
			got = c
		}
	}
	require.NotNil(t, got)
	assert.True(t, got.Loaded)
	assert.Contains(t, got.Reason, "pinned")
	assert.Greater(t, len(loaded), len(first.LoadedCandidates())-1)
}

func TestQueryScopeLimitsCandidates(t *testing.T) {
	notes := copyFixture(t)
	other := filepath.Join(t.TempDir(), "other")
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "decay.md"), []byte("# Decay\n\nStaleness decay with a half-life: exponential decay since last access.\n"), 0o644))
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	_, err := wb.Ingest(context.Background(), []string{notes, other}, IngestOptions{})
	require.NoError(t, err)
	res, err := wb.Query(context.Background(), QueryRequest{Question: "staleness decay half-life", Budget: 2000, Scope: "other", NoTouch: true})
	require.NoError(t, err)
	require.NotEmpty(t, res.Candidates)
	for _, c := range res.Candidates {
		assert.Equal(t, "other", c.Collection)
	}
}

func TestBaselineStrategies(t *testing.T) {
	wb, _ := ingested(t)
	defer wb.Close()
	q := "How does staleness decay with time since last access?"
	for _, s := range Strategies {
		t.Run(string(s), func(t *testing.T) {
			res, err := wb.Query(context.Background(), QueryRequest{Question: q, Budget: 900, Strategy: string(s), NoTouch: true})
			require.NoError(t, err)
			require.NotEmpty(t, res.LoadedCandidates())
			switch s {
			case StrategyWholeFile:
				files := map[string]int{}
				for _, c := range res.LoadedCandidates() {
					files[c.Document]++
				}
				for f, n := range files {
					assert.Positive(t, wb.FileTokens(f))
					sections := 0
					for _, id := range wb.ws.CurrentIndex().DocNodes[model.DocumentID("notes", f)] {
						if index.Searchable(wb.ws.CurrentIndex().Nodes[id]) {
							sections++
						}
					}
					assert.Equal(t, sections, n, "all of %s loads", f)
				}
			case StrategyBM25, StrategyVector, StrategyHybrid:
				assert.Equal(t, assemble.Weights{assemble.Semantic: 1}, res.Weights, "no graph signals")
				assert.Greater(t, res.Split.Loaded, 0)
			}
		})
	}
}

// TestALongSectionLoadsAsOneBlock: a section too long for one node is
// stored in parts, each repeating the end of the one before; when adjacent
// parts load in full, the prompt reads them as one block, in order, under
// one header that names every part, with the repeated text written once.
func TestALongSectionLoadsAsOneBlock(t *testing.T) {
	notes := copyFixture(t)
	var b strings.Builder
	b.WriteString("# Weaving\n\n## Warp tension\n\n")
	for i := range 30 {
		fmt.Fprintf(&b, "Paragraph %d on warp tension: the weaver sets the tension of thread %d before the shuttle passes, and checks it again after every %d picks so that the cloth keeps an even width.\n\n", i+1, i+1, i+3)
	}
	require.NoError(t, os.WriteFile(filepath.Join(notes, "weaving.md"), []byte(b.String()), 0o644))
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	rep, err := wb.Ingest(context.Background(), []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)

	res, err := wb.Query(context.Background(), QueryRequest{Question: "How does the weaver set and check the warp tension of each thread?", Budget: 8000, Level: "detailed", NoTouch: true})
	require.NoError(t, err)
	var parts []*assemble.Candidate
	for _, c := range res.LoadedCandidates() {
		if c.Ref == "weaving.md#warp-tension" {
			parts = append(parts, c)
		}
	}
	require.GreaterOrEqual(t, len(parts), 3, "the section is stored in parts, and they load: %v", loadedRefs(res))
	slices.SortFunc(parts, func(a, b *assemble.Candidate) int { return a.Part - b.Part })
	ids := make([]string, len(parts))
	for i, c := range parts {
		ids[i] = c.ShortID
		require.Equal(t, i+1, c.Part, "parts 1 to %d load", len(parts))
	}
	header := "\n[" + strings.Join(ids, ", ") + "] weaving.md · L3\n## Warp tension\n\nParagraph 1 on"
	require.Contains(t, res.Prompt, header, "one header names every part and the heading's line, where their text starts")
	for _, id := range ids {
		assert.Equal(t, 1, strings.Count(res.Prompt, id), "%s is written once", id)
	}
	last := 0
	for i := range 30 {
		p := fmt.Sprintf("Paragraph %d on warp tension", i+1)
		assert.Equal(t, 1, strings.Count(res.Prompt, p), "%q is in the prompt once", p)
		at := strings.Index(res.Prompt, p)
		assert.Greater(t, at, last, "%q follows the paragraph before it", p)
		last = at
	}
	for _, c := range parts[1:] {
		assert.Less(t, c.LoadedTokens, c.Tokens, "part %d is charged what it adds", c.Part)
	}
	assert.LessOrEqual(t, res.Split.Manifest+res.Split.Catalog+res.Split.Loaded+res.Split.Free, res.Split.Context)
}

// A section shares in the relevance of every section that encloses it,
// less by Inherit at each level up: a question that names a paper's
// subject makes the subsections of its chapters relevant too, not only
// the chapters (whose text is often a heading and a sentence).
func TestASectionSharesInItsAncestorsRelevance(t *testing.T) {
	notes := copyFixture(t)
	note := "# Connectionist temporal classification\n\nConnectionist temporal classification trains sequence models on unaligned labels.\n\n" +
		"## The algorithm\n\nThe steps, one by one.\n\n" +
		"### Alignment\n\nAn extra symbol lets the model emit nothing between two outputs, so that repeated characters stay apart.\n"
	require.NoError(t, os.WriteFile(filepath.Join(notes, "ctc.md"), []byte(note), 0o644))
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	rep, err := wb.Ingest(context.Background(), []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)

	res, err := wb.Query(context.Background(), QueryRequest{Question: "What is connectionist temporal classification?", Budget: 4000, NoTouch: true})
	require.NoError(t, err)
	sem := map[string]float64{}
	for _, c := range res.Candidates {
		sem[c.Ref] = c.Signals[assemble.Semantic]
	}
	root, child, grandchild := sem["ctc.md#connectionist-temporal-classification"], sem["ctc.md#the-algorithm"], sem["ctc.md#alignment"]
	require.Positive(t, root, "the note's title matches: %v", sem)
	inherit := assemble.DefaultConfig().Inherit
	assert.GreaterOrEqual(t, child, inherit*root-1e-4)
	assert.InDelta(t, inherit*inherit*root, grandchild, 1e-3, "the subsection of a chapter shares in the note's relevance")
	assert.Contains(t, loadedRefs(res), "ctc.md#alignment")

	// The baselines are plain retrieval: a section ranks by its own text.
	plain, err := wb.Query(context.Background(), QueryRequest{Question: "What is connectionist temporal classification?", Budget: 4000, Strategy: "bm25", NoTouch: true})
	require.NoError(t, err)
	found := false
	for _, c := range plain.Candidates {
		if c.Ref == "ctc.md#alignment" {
			found = true
			assert.Less(t, c.Signals[assemble.Semantic], grandchild, "bm25 gives the subsection no share of the note's relevance")
		}
	}
	assert.True(t, found, "the subsection is a bm25 candidate")
}
