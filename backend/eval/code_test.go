package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
)

func TestGlobMatch(t *testing.T) {
	c := CodeCorpus{Include: []string{"backend/**/*.go", "frontend/src/**/*.ts"}, Exclude: []string{"**/*_test.go", "**/testdata/**"}}
	assert.True(t, c.Matches("backend/assemble/select.go"))
	assert.True(t, c.Matches("backend/x.go"), "** spans no folder too")
	assert.True(t, c.Matches("frontend/src/lib/upload.ts"))
	assert.False(t, c.Matches("backend/assemble/select_test.go"))
	assert.False(t, c.Matches("backend/ingest/testdata/a.go"))
	assert.False(t, c.Matches("cmd/loom/main.go"))
	assert.False(t, c.Matches("backend/assemble/select.go.orig"))
}

func TestAcc(t *testing.T) {
	ranked := []string{"a", "a", "b", "c", "d", "e", "f"}
	assert.True(t, Acc(ranked, []string{"e"}, 5), "repeats count once")
	assert.False(t, Acc(ranked, []string{"f"}, 5))
	assert.False(t, Acc(nil, []string{"a"}, 5))
}

// repoRoot is this repository's root when its git history is here (a
// fresh clone has it; an export without .git does not: the code corpora
// are read from git at their commits).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := RepoRoot(context.Background(), ".")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the code corpora need the repository's history: %v", err)
		}
		t.Skipf("no git history here: %v", err)
	}
	return root
}

// Floors on Loom's own code (issue 20 §6), with the offline embedder and
// the default settings: the 110 questions at budget 4000 and the 24 bug
// cases from this repository's history. The targets are file
// Acc@5 ≥ 0.90 and definition Acc@5 ≥ 0.60 on the bugs (met, by one case
// each: 0.917 and 0.625) and definition-level recall ≥ 0.85 on the
// questions (not met: 0.626; BENCHMARKS.md). These floors keep what is:
// precision at least double BM25 filling the budget on the questions
// (issue 19's target for the dev sets; 2.3 × here) and 1.5 × on the bug
// cases (1.7 ×: a fix changes a type's fields as often as a function),
// accuracy at 5 not below BM25's by more than two paired standard errors,
// and the bug cases' file Acc@5 at least 0.85.
func TestLoomOnLoom(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests Loom's own code at several commits")
	}
	root := repoRoot(t)
	ctx := context.Background()
	check := func(t *testing.T, c *Comparison, precision float64) {
		loom, bm25 := c.Reports[0], c.Reports[1]
		t.Logf("loom P %.3f R %.3f file Acc@5 %.3f def Acc@5 %.3f; bm25 P %.3f R %.3f file Acc@5 %.3f def Acc@5 %.3f",
			loom.Precision, loom.Recall, loom.FileAcc5, loom.DefAcc5, bm25.Precision, bm25.Recall, bm25.FileAcc5, bm25.DefAcc5)
		assert.GreaterOrEqual(t, loom.Precision, precision*bm25.Precision, "precision against BM25's")
		for _, p := range c.Paired {
			if p.Metric == "file_acc@5" || p.Metric == "def_acc@5" {
				assert.GreaterOrEqual(t, p.Mean, -2*p.SE, "%s not significantly below BM25's", p.Metric)
			}
		}
	}
	t.Run("questions", func(t *testing.T) {
		dir := filepath.Join(root, "testdata", "eval", "loom-code")
		corpus, err := LoadCodeCorpus(filepath.Join(dir, "corpus.json"), true)
		require.NoError(t, err)
		qs, err := LoadQueries(filepath.Join(dir, "queries.jsonl"))
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(qs), 40)
		tree := filepath.Join(t.TempDir(), "repo")
		n, err := Checkout(ctx, root, corpus.Commit, corpus, tree)
		require.NoError(t, err)
		assert.Greater(t, n, 200)
		wb, err := backend.Open(ctx, t.TempDir())
		require.NoError(t, err)
		defer wb.Close()
		rep, err := wb.Ingest(ctx, []string{tree}, backend.IngestOptions{})
		require.NoError(t, err)
		require.Empty(t, rep.Errors)
		c, err := Compare(ctx, wb, "loom-code", qs, Options{Budget: 4000}, []string{"loom", "bm25"})
		require.NoError(t, err)
		c.MarkCode()
		check(t, c, 2)
	})
	t.Run("bugs", func(t *testing.T) {
		dir := filepath.Join(root, "testdata", "eval", "loom-bugs")
		corpus, err := LoadCodeCorpus(filepath.Join(dir, "corpus.json"), false)
		require.NoError(t, err)
		cases, err := LoadBugCases(filepath.Join(dir, "cases.jsonl"))
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(cases), 10)
		wb, err := backend.Open(ctx, t.TempDir())
		require.NoError(t, err)
		defer wb.Close()
		c, err := RunBugs(ctx, wb, root, filepath.Join(t.TempDir(), "repo"), corpus, cases, Options{Budget: 4000}, []string{"loom", "bm25"}, nil)
		require.NoError(t, err)
		assert.Equal(t, len(cases), c.Queries)
		check(t, c, 1.5)
		assert.GreaterOrEqual(t, c.Reports[0].FileAcc5, 0.85)
	})
}

func TestLoadBugCasesNamesTheFileAndLineOfABadCase(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"not JSON", []string{``, `{"parent": "abc",`}, ":2: not a bug case"},
		{"a case without files", []string{`{"parent": "abc", "query": "q", "relevant": ["a.go#F"]}`}, ":1: a bug case needs parent, query, relevant and files"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cases.jsonl")
			writeLines(t, path, tt.lines...)
			_, err := LoadBugCases(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path+tt.want)
		})
	}
	_, err := LoadBugCases(filepath.Join(t.TempDir(), "nope.jsonl"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, "read bug cases")
}
