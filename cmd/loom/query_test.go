package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ingestFixture(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	_, _, err := runCLI(t, "ingest", "--workspace", ws, "--embedder", "offline", "--quiet", "../../testdata/fixture/notes")
	require.NoError(t, err)
	return ws
}

func TestQueryPrintsThePrompt(t *testing.T) {
	ws := ingestFixture(t)
	out, errOut, err := runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--budget", "800", "How does staleness decay?")
	require.NoError(t, err)
	assert.Contains(t, out, "[Context loaded: ")
	assert.Contains(t, out, "[Additional context available but not loaded: ")
	assert.Contains(t, out, "staleness.txt")
	assert.True(t, strings.HasSuffix(strings.TrimSpace(out), "Question: How does staleness decay?"))
	assert.Regexp(t, `\n\[[a-z]{3,16}\] staleness\.txt · L1\nPlain text notes about staleness\.\n`, out, "a block names its source as a person finds it, its title once (the text opens with it)")
	assert.Contains(t, errOut, "relevant nodes", "the summary line goes to stderr, so stdout is the prompt alone")
}

// TestQueryBeyondTheRelevanceBudget: a budget above 4,096 tokens also
// loads what is near the question, and the summary line and the manifest
// count it apart from the relevant nodes.
func TestQueryBeyondTheRelevanceBudget(t *testing.T) {
	ws := t.TempDir()
	_, _, err := runCLI(t, "ingest", "--workspace", ws, "--embedder", "offline", "--quiet", "../../testdata/eval/cargo-book/docs/guide")
	require.NoError(t, err)
	q := "How do I add a dependency from crates.io to my package?"
	_, errOut, err := runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--budget", "4000", q)
	require.NoError(t, err)
	assert.NotContains(t, errOut, "near the question")
	small := regexp.MustCompile(`loaded (\d+) of (\d+) relevant nodes \(`).FindStringSubmatch(errOut)
	require.NotNil(t, small, errOut)
	out, errOut, err := runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--budget", "16000", q)
	require.NoError(t, err)
	m := regexp.MustCompile(`loaded (\d+) of (\d+) relevant nodes and (\d+) near the question \(`).FindStringSubmatch(errOut)
	require.NotNil(t, m, errOut)
	assert.Equal(t, small[1:3], m[1:3], "the relevant nodes are the same at either budget")
	assert.Contains(t, out, "[Context loaded: "+m[1]+" of "+m[2]+" relevant nodes; and "+m[3]+" near the question, as the budget allowed]")
}

func TestQueryJSONCarriesEveryCandidate(t *testing.T) {
	ws := ingestFixture(t)
	out, _, err := runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--budget", "800", "--format", "json", "--purpose", "explore", "budget and window")
	require.NoError(t, err)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	for _, k := range []string{"manifest", "split", "candidates", "prompt", "branch", "weights", "limits", "concept_hops"} {
		assert.Contains(t, res, k)
	}
	assert.Equal(t, "explore", res["purpose"])
	split := res["split"].(map[string]any)
	for _, k := range []string{"window", "system", "output", "context", "manifest", "loaded", "free"} {
		assert.Contains(t, split, k)
	}
	cands := res["candidates"].([]any)
	require.NotEmpty(t, cands)
	for _, c := range cands {
		m := c.(map[string]any)
		for _, k := range []string{"id", "reference", "cite", "tokens", "score", "signals", "loaded", "reason"} {
			assert.Contains(t, m, k)
		}
		ref, _, _ := strings.Cut(m["reference"].(string), "#")
		assert.Regexp(t, "^"+regexp.QuoteMeta(ref)+`\S* L\d+`, m["cite"], "a candidate's cite is its file and lines")
	}
}

func TestQueryErrors(t *testing.T) {
	ws := ingestFixture(t)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no question", []string{"query", "--workspace", ws}, 2, "give a question"},
		{"bad format", []string{"query", "--workspace", ws, "--format", "xml", "q"}, 2, "--format"},
		{"bad level", []string{"query", "--workspace", ws, "--level", "tiny", "q"}, 2, "--level"},
		{"bad purpose", []string{"query", "--workspace", ws, "--purpose", "vibes", "q"}, 2, "--purpose"},
		{"punctuation", []string{"query", "--workspace", ws, "--embedder", "offline", "?!?"}, 2, "no words"},
		{"tiny budget", []string{"query", "--workspace", ws, "--embedder", "offline", "--budget", "10", "budget"}, 2, "manifest"},
		{"model without Ollama", []string{"query", "--workspace", ws, "--embedder", "offline", "--ollama-url", "http://127.0.0.1:9", "--model", "llama3.2", "budget"}, 2, "Ollama"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			require.Error(t, err)
			assert.Equal(t, tc.code, exitCode(err))
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestEvalReferenceQueries(t *testing.T) {
	ws := ingestFixture(t)
	qfile := filepath.Join(t.TempDir(), "q.jsonl")
	require.NoError(t, os.WriteFile(qfile, []byte(
		`{"id":"a","query":"How does staleness decay with time since last access?","relevant":["staleness.txt"]}`+"\n"+
			`{"id":"b","query":"How is the token budget calculated?","relevant":["budget.md#token-budget"]}`+"\n"), 0o644))
	for _, strategy := range []string{"loom", "whole-file", "bm25", "vector", "hybrid"} {
		out, _, err := runCLI(t, "eval", "--workspace", ws, "--embedder", "offline", "--queries", qfile, "--budget", "600", "--strategy", strategy, "--format", "json")
		require.NoError(t, err, strategy)
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &rep))
		for _, k := range []string{"precision", "recall", "f1", "token_ratio", "tokens_loaded", "ndcg@10", "recall@100", "mrr@10", "ceiling_precision", "ceiling_recall", "p50_ms", "p99_ms"} {
			assert.Contains(t, rep, k, strategy)
		}
		assert.Equal(t, strategy, rep["strategy"])
		assert.Greater(t, rep["recall"].(float64), 0.4, strategy)
	}
	out, _, err := runCLI(t, "eval", "--workspace", ws, "--embedder", "offline", "--queries", qfile)
	require.NoError(t, err)
	for _, s := range []string{"loom", "bm25", "hybrid", "whole-file"} {
		assert.Regexp(t, `\n  `+s+` +\d\.\d{3} `, out, "a text report sets Loom beside the baselines")
	}
	assert.Contains(t, out, "token ratio")
	assert.Regexp(t, `\n  loom +(\d+\.\d+%? +){7}\d\.\d{3}/\d\.\d{3} `, out, "with what a perfect stop would make of each ranking")
	assert.Contains(t, out, "(ceiling: what a perfect stop in the first 10 ranked would load)")
	assert.Regexp(t, `loom − bm25 +precision [+-]\d\.\d{3} ± \d\.\d{3}`, out, "with the paired difference")

	out, _, err = runCLI(t, "eval", "--workspace", ws, "--embedder", "offline", "--queries", qfile, "--compare", "none")
	require.NoError(t, err)
	assert.Contains(t, out, "strategy loom · budget 2000 · 2 queries")
	assert.Regexp(t, `\nceiling     precision \d\.\d{3} · recall \d\.\d{3}  \(a perfect stop in the first 10 ranked\)\n`, out)
	assert.NotContains(t, out, "bm25")

	out, _, err = runCLI(t, "eval", "--workspace", ws, "--embedder", "offline", "--queries", qfile, "--compare", "bm25", "--format", "json")
	require.NoError(t, err)
	var cmp []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &cmp))
	require.Len(t, cmp, 1)
	assert.Len(t, cmp[0]["reports"], 2)
	assert.Len(t, cmp[0]["paired"], 5)

	_, _, err = runCLI(t, "eval", "--workspace", ws, "--embedder", "offline", "--queries", qfile, "--compare", "bm26")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown strategy "bm26"`)
}

func TestEvalCorpusFolders(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"one", "two"} {
		docs := filepath.Join(dir, name, "docs")
		require.NoError(t, os.MkdirAll(docs, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(docs, "notes.md"), []byte("# Decay\n\nStaleness decays exponentially with a half-life.\n\n# Budget\n\nThe window minus the reservation is the budget.\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, "queries.jsonl"), []byte(`{"id":"a","query":"half-life of staleness","relevant":["notes.md#decay"]}`+"\n"), 0o644))
	}
	out, errOut, err := runCLI(t, "eval", "--embedder", "offline", "--corpus", filepath.Join(dir, "one"), "--corpus", filepath.Join(dir, "two"), "--budget", "600")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "one · budget 600 · 1 queries")
	assert.Contains(t, out, "two · budget 600 · 1 queries")
	assert.Equal(t, 2, strings.Count(errOut, "ingesting "), "each corpus in a workspace of its own")

	_, _, err = runCLI(t, "eval", "--embedder", "offline", "--corpus", t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "needs queries.jsonl and a docs/ folder")
}

func TestEvalBEIR(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "qrels"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "corpus.jsonl"), []byte(
		`{"_id":"d1","title":"Staleness","text":"Access times decay exponentially with a half-life."}`+"\n"+
			`{"_id":"d2","title":"Budgets","text":"The window minus the system prompt and output reservation is the budget."}`+"\n"+
			`{"_id":"d3","title":"Graphs","text":"Concept nodes link content nodes by cosine similarity."}`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "queries.jsonl"), []byte(
		`{"_id":"q1","text":"half-life decay of access times"}`+"\n"+`{"_id":"q2","text":"output reservation of the window"}`+"\n"+`{"_id":"q3","text":"unjudged"}`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "qrels", "dev.tsv"), []byte("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n"), 0o644))
	out, errOut, err := runCLI(t, "eval", "--embedder", "offline", "--beir", dir, "--split", "dev", "--format", "json")
	require.NoError(t, err, errOut)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.EqualValues(t, 2, rep["queries"], "only judged queries")
	assert.InDelta(t, 1.0, rep["ndcg@10"], 1e-9)
	assert.InDelta(t, 1.0, rep["mrr@10"], 1e-9)
	assert.InDelta(t, 1.0, rep["ceiling_recall"], 1e-9, "each judged record is ranked first")
	assert.InDelta(t, 1.0, rep["ceiling_precision"], 1e-9, "so a stop after it loads nothing else")

	_, _, err = runCLI(t, "eval", "--embedder", "offline", "--beir", dir, "--split", "test")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test")
	_, _, err = runCLI(t, "eval", "--embedder", "offline")
	require.Error(t, err)
	assert.Equal(t, 2, exitCode(err))
}

func TestPinPersistsAndLoadsFirst(t *testing.T) {
	ws := ingestFixture(t)
	q := []string{"query", "--workspace", ws, "--embedder", "offline", "--budget", "3000", "--format", "json", "--no-touch", "How does staleness decay?"}
	out, _, err := runCLI(t, q...)
	require.NoError(t, err)
	var res struct {
		Candidates []struct {
			ID     string `json:"id"`
			Ref    string `json:"reference"`
			Loaded bool   `json:"loaded"`
			Reason string `json:"reason"`
		} `json:"candidates"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	// A graphs.md section that did not load: taken from the graph (with the
	// offline embedder it may not even be a candidate of this question).
	loaded := map[string]bool{}
	for _, c := range res.Candidates {
		loaded[c.ID] = c.Loaded
	}
	exported, _, err := runCLI(t, "graph", "export", "--workspace", ws)
	require.NoError(t, err)
	var g struct {
		Content []struct {
			ID  string `json:"id"`
			Ref string `json:"reference"`
		} `json:"content_nodes"`
	}
	require.NoError(t, json.Unmarshal([]byte(exported), &g))
	id := ""
	for _, n := range g.Content {
		if !loaded[n.ID] && strings.HasPrefix(n.Ref, "graphs.md") {
			id = n.ID
			break
		}
	}
	require.NotEmpty(t, id)

	out, _, err = runCLI(t, "pin", "--workspace", ws, id)
	require.NoError(t, err)
	assert.Contains(t, out, "pinned "+id)
	out, _, err = runCLI(t, q...)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	found := false
	for _, c := range res.Candidates {
		if c.ID == id {
			found = true
			assert.True(t, c.Loaded, "a pinned node loads in a new process")
			assert.Contains(t, c.Reason, "pinned")
		}
	}
	assert.True(t, found)

	_, _, err = runCLI(t, "pin", "--workspace", ws, "--off", id)
	require.NoError(t, err)
	_, _, err = runCLI(t, "pin", "--workspace", ws, "n-nosuchnode")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "n-nosuchnode")
}

func TestCollectionCommand(t *testing.T) {
	ws := ingestFixture(t)
	out, _, err := runCLI(t, "collection", "--workspace", ws, "add", "reading", "budget.md")
	require.NoError(t, err)
	assert.Contains(t, out, "added 1 documents to reading")
	out, _, err = runCLI(t, "collection", "--workspace", ws, "list")
	require.NoError(t, err)
	assert.Contains(t, out, "reading")
	assert.Contains(t, out, "notes")
	out, _, err = runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--budget", "900", "--scope", "reading", "--format", "json", "graphs and budgets")
	require.NoError(t, err)
	assert.NotContains(t, out, `"document": "graphs.md"`)
	_, _, err = runCLI(t, "collection", "--workspace", ws, "add", "reading")
	require.Error(t, err)
	assert.Equal(t, 2, exitCode(err))
}

// Numbers that used to mean something else (--budget 0 was 4000 in query
// and 2000 in eval) or to overflow are refused with the range in the
// message, before any work is done.
func TestNumericFlagsOutOfRangeAreUsageErrors(t *testing.T) {
	ws := t.TempDir()
	huge := "9223372036854775807"
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"query budget 0", []string{"query", "--workspace", ws, "--budget", "0", "q"}, "--budget 0 is too small: it must be at least 48 tokens, enough for the manifest and one small node"},
		{"query negative budget", []string{"query", "--workspace", ws, "--budget", "-1", "q"}, "--budget -1 is too small"},
		{"query huge budget", []string{"query", "--workspace", ws, "--budget", huge, "q"}, "--budget " + huge + " is too large: it must be at most 10485760 tokens"},
		{"query window 0", []string{"query", "--workspace", ws, "--window", "0", "q"}, "--window 0 is too small: it must be at least 256 tokens"},
		{"query huge window", []string{"query", "--workspace", ws, "--window", "10485761", "q"}, "--window 10485761 is too large"},
		{"eval budget 0", []string{"eval", "--workspace", ws, "--queries", "q.jsonl", "--budget", "0"}, "--budget 0 is too small"},
		{"eval huge budget", []string{"eval", "--workspace", ws, "--queries", "q.jsonl", "--budget", huge}, "is too large"},
		{"eval window", []string{"eval", "--workspace", ws, "--queries", "q.jsonl", "--window", "8192"}, "--window is not used by eval"},
		{"eval negative top", []string{"eval", "--workspace", ws, "--queries", "q.jsonl", "--top", "-1"}, "--top -1 is out of range: give 1 to 100000 nodes, or 0 to fill the budget"},
		{"eval huge top", []string{"eval", "--workspace", ws, "--queries", "q.jsonl", "--top", huge}, "is out of range"},
		{"chat window 0", []string{"chat", "--workspace", ws, "--window", "0", "-m", "q"}, "--window 0 is too small: it must be at least 256 tokens"},
		{"chat huge window", []string{"chat", "--workspace", ws, "--window", huge, "-m", "q"}, "is too large: it must be at most 10485760 tokens"},
		{"bench no queries", []string{"bench", "--queries", "0"}, "--queries must be 1 to 1000000, not 0"},
		{"bench huge queries", []string{"bench", "--queries", huge}, "--queries must be 1 to 1000000"},
		{"bench huge nodes", []string{"bench", "--nodes", "1000," + huge}, "--nodes wants numbers from 30 to 1000000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			require.Error(t, err)
			assert.Equal(t, 2, exitCode(err))
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The bounds are honoured, not only refused past: the smallest budget and
// window work.
func TestTheSmallestBudgetAndWindowWork(t *testing.T) {
	ws := ingestFixture(t)
	for _, flags := range [][]string{{"--budget", "48"}, {"--window", "256"}} {
		args := append([]string{"query", "--workspace", ws, "--embedder", "offline"}, flags...)
		_, errOut, err := runCLI(t, append(args, "staleness?")...)
		require.NoError(t, err, flags)
		assert.Contains(t, errOut, "relevant nodes", flags)
	}
}

// query --summary-model against an Ollama that never answers: the
// summariser says it is waiting, gives up at its 2 minutes instead of
// waiting for ever, and the extractive method fills in.
func TestQuerySummaryModelSaysItIsWaitingAndFallsBack(t *testing.T) {
	ws := ingestFixture(t)
	srv := fakeOllama(t, silent)
	clock := useTestClock(t)
	stop := clock.Drive(time.Second) // nothing will ever answer
	out, errOut, err := runCLI(t, "query", "--workspace", ws, "--embedder", "offline", "--ollama-url", srv.URL,
		"--summary-model", "gemma:2b", "--level", "summary", "--budget", "800", "How does staleness decay?")
	stop()
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "[Context loaded: ")
	assert.Contains(t, errOut, "loom: Waiting for Ollama at "+srv.URL+" to summarise a section with model gemma:2b: nothing yet after 10 s; giving up after 2 min of silence.")
}
