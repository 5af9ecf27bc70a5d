package eval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rel(ids ...string) map[string]int {
	out := map[string]int{}
	for _, id := range ids {
		out[id] = 1
	}
	return out
}

func TestNDCG(t *testing.T) {
	log2 := math.Log2
	tests := []struct {
		name   string
		ranked []string
		rel    map[string]int
		k      int
		want   float64
	}{
		{"a perfect binary ranking scores one", []string{"a", "b", "c", "x"}, rel("a", "b", "c"), 10, 1},
		{"a perfect graded ranking scores one", []string{"a", "b", "c"}, map[string]int{"a": 3, "b": 2, "c": 1}, 10, 1},
		{"relevant documents at ranks two and four score by hand",
			[]string{"x", "a", "y", "b"}, rel("a", "b"), 10,
			(1/log2(3) + 1/log2(5)) / (1 + 1/log2(3))},
		{"a reversed graded ranking is discounted by grade",
			[]string{"c", "b", "a"}, map[string]int{"a": 3, "b": 2, "c": 1}, 10,
			(1 + 2/log2(3) + 3/log2(4)) / (3 + 2/log2(3) + 1/log2(4))},
		{"a higher grade first beats a lower grade first",
			[]string{"a", "b"}, map[string]int{"a": 2, "b": 1}, 10, 1},
		{"only the first k ranks count", []string{"x", "a"}, rel("a"), 1, 0},
		{"the ideal ranking is cut at k too",
			[]string{"a", "x", "b"}, rel("a", "b"), 2,
			1 / (1 + 1/log2(3))},
		{"a k beyond the list is the whole list", []string{"a"}, rel("a"), 100, 1},
		{"no relevant documents score zero", []string{"a", "b"}, map[string]int{}, 10, 0},
		{"judgements of grade zero are not relevant", []string{"a", "b"}, map[string]int{"a": 0}, 10, 0},
		{"an empty ranking scores zero", nil, rel("a"), 10, 0},
		{"a k of zero scores zero", []string{"a"}, rel("a"), 0, 0},
		{"relevant documents not retrieved lower the score",
			[]string{"a"}, rel("a", "b"), 10, 1 / (1 + 1/log2(3))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, NDCG(tt.ranked, tt.rel, tt.k), 1e-12)
		})
	}
}

func TestRecallAt(t *testing.T) {
	tests := []struct {
		name   string
		ranked []string
		rel    map[string]int
		k      int
		want   float64
	}{
		{"all relevant within k is one", []string{"b", "x", "a"}, rel("a", "b"), 3, 1},
		{"relevant documents past k do not count", []string{"a", "x", "b"}, rel("a", "b", "c", "d"), 2, 0.25},
		{"nothing relevant retrieved is zero", []string{"x", "y"}, rel("a"), 10, 0},
		{"no judgements is zero", []string{"a"}, map[string]int{}, 10, 0},
		{"a k beyond the list is the whole list", []string{"a", "b"}, rel("a", "b", "c"), 100, 2.0 / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, RecallAt(tt.ranked, tt.rel, tt.k), 1e-12)
		})
	}
}

func TestMRR(t *testing.T) {
	tests := []struct {
		name   string
		ranked []string
		rel    map[string]int
		k      int
		want   float64
	}{
		{"a relevant first document scores one", []string{"a", "b"}, rel("a", "b"), 10, 1},
		{"the first relevant document at rank three scores a third", []string{"x", "y", "b", "a"}, rel("a", "b"), 10, 1.0 / 3},
		{"a first relevant document past k scores zero", []string{"x", "y", "a"}, rel("a"), 2, 0},
		{"nothing relevant scores zero", []string{"x"}, rel("a"), 10, 0},
		{"an empty ranking scores zero", nil, rel("a"), 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, MRR(tt.ranked, tt.rel, tt.k), 1e-12)
		})
	}
}

func TestPercentile(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		p    float64
		want float64
	}{
		{"the median of five is the third smallest", []float64{5, 1, 3, 2, 4}, 50, 3},
		{"the 99th percentile of five is the largest", []float64{5, 1, 3, 2, 4}, 99, 5},
		{"the 100th percentile is the largest", []float64{5, 1, 3, 2, 4}, 100, 5},
		{"the 0th percentile is the smallest", []float64{5, 1, 3, 2, 4}, 0, 1},
		{"the 90th percentile of ten is the ninth by nearest rank", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 90, 9},
		{"the median of four is the second smallest by nearest rank", []float64{4, 1, 3, 2}, 50, 2},
		{"one value is every percentile", []float64{7}, 50, 7},
		{"no values is zero", nil, 50, 0},
		{"a percentile above 100 is the largest", []float64{1, 2}, 150, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Percentile(tt.in, tt.p))
		})
	}
	t.Run("the values are sorted in place", func(t *testing.T) {
		v := []float64{3, 1, 2}
		Percentile(v, 50)
		assert.Equal(t, []float64{1, 2, 3}, v)
	})
}

func TestSet(t *testing.T) {
	sub := Loaded{Ref: "a.md#sub", Ancestors: []string{"a.md#parent", "a.md"}, Tokens: 100}
	other := Loaded{Ref: "b.md#other", Tokens: 50}
	tests := []struct {
		name   string
		loaded []Loaded
		rel    map[string]int
		strict bool
		want   SetScores
	}{
		{"a loaded subsection serves its labelled parent", []Loaded{sub}, rel("a.md#parent"), false, SetScores{1, 1, 1}},
		{"a loaded subsection serves a labelled whole file", []Loaded{sub}, rel("a.md"), false, SetScores{1, 1, 1}},
		{"strict mode does not let a subsection serve its parent", []Loaded{sub}, rel("a.md#parent"), true, SetScores{0, 0, 0}},
		{"strict mode still counts an exact match", []Loaded{sub}, rel("a.md#sub"), true, SetScores{1, 1, 1}},
		{"a node that serves two references counts once for precision",
			[]Loaded{sub, other}, rel("a.md#sub", "a.md#parent"), false, SetScores{0.5, 1, 2 * 0.5 * 1 / 1.5}},
		{"two nodes serving one reference both count as good, the reference once",
			[]Loaded{sub, {Ref: "a.md#sub-2", Ancestors: []string{"a.md#parent"}}}, rel("a.md#parent", "c.md"), false, SetScores{1, 0.5, 2 * 0.5 / 1.5}},
		{"an irrelevant node lowers precision, not recall", []Loaded{sub, other}, rel("a.md#sub"), false, SetScores{0.5, 1, 2 * 0.5 / 1.5}},
		{"a missed reference lowers recall, not precision", []Loaded{sub}, rel("a.md#sub", "c.md#x"), false, SetScores{1, 0.5, 2 * 0.5 / 1.5}},
		{"nothing loaded scores zero", nil, rel("a.md#sub"), false, SetScores{0, 0, 0}},
		{"a descendant of a loaded node does not serve it", []Loaded{{Ref: "a.md#parent"}}, rel("a.md#sub"), false, SetScores{0, 0, 0}},
		{"no relevant references score zero recall", []Loaded{sub}, map[string]int{}, false, SetScores{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Set(tt.loaded, tt.rel, tt.strict)
			assert.InDelta(t, tt.want.Precision, got.Precision, 1e-12, "precision")
			assert.InDelta(t, tt.want.Recall, got.Recall, 1e-12, "recall")
			assert.InDelta(t, tt.want.F1, got.F1, 1e-12, "F1")
		})
	}
}

func TestStopCeiling(t *testing.T) {
	a := Loaded{Ref: "a.md#a"}
	b := Loaded{Ref: "b.md#b"}
	sub := Loaded{Ref: "c.md#sub", Ancestors: []string{"c.md#parent"}}
	x, y := Loaded{Ref: "x.md"}, Loaded{Ref: "y.md"}
	tests := []struct {
		name   string
		ranked []Loaded
		rel    map[string]int
		k      int
		want   SetScores
	}{
		{"the shortest prefix that holds every label", []Loaded{a, x, b, y}, rel("a.md#a", "b.md#b"), 10, SetScores{2.0 / 3, 1, 0.8}},
		{"the first hit alone when the rest are not labelled", []Loaded{a, x, y}, rel("a.md#a"), 10, SetScores{1, 1, 1}},
		{"a label below depth k is out of reach", []Loaded{a, x, y, b}, rel("a.md#a", "b.md#b"), 3, SetScores{1, 0.5, 2 * 0.5 / 1.5}},
		{"a subsection serves its labelled section", []Loaded{x, sub}, rel("c.md#parent"), 10, SetScores{0.5, 1, 2 * 0.5 / 1.5}},
		{"no label ranked scores zero", []Loaded{x, y}, rel("a.md#a"), 10, SetScores{0, 0, 0}},
		{"nothing ranked scores zero", nil, rel("a.md#a"), 10, SetScores{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := StopCeiling(tt.ranked, tt.rel, tt.k)
			assert.InDelta(t, tt.want.Precision, got.Precision, 1e-12, "precision")
			assert.InDelta(t, tt.want.Recall, got.Recall, 1e-12, "recall")
			assert.InDelta(t, tt.want.F1, got.F1, 1e-12, "F1")
		})
	}
}

func TestMatches(t *testing.T) {
	l := Loaded{Ref: "a.md#sub", Ancestors: []string{"a.md#parent", "a.md"}}
	t.Run("a node serves its own reference and every labelled ancestor", func(t *testing.T) {
		assert.Equal(t, []string{"a.md#sub", "a.md#parent", "a.md"}, matches(l, rel("a.md#sub", "a.md#parent", "a.md"), false))
	})
	t.Run("strict matching serves its own reference only", func(t *testing.T) {
		assert.Equal(t, []string{"a.md#sub"}, matches(l, rel("a.md#sub", "a.md#parent", "a.md"), true))
	})
	t.Run("a reference of grade zero is not served", func(t *testing.T) {
		assert.Empty(t, matches(l, map[string]int{"a.md#sub": 0}, false))
	})
}

func writeLines(t *testing.T, path string, lines ...string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

func TestLoadQueries(t *testing.T) {
	t.Run("a good file reads every query in order", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "queries.jsonl")
		writeLines(t, path,
			`{"id": "s01", "query": "How are nodes ranked?", "relevant": ["loom-concept.md#5-ranking-signals", "context-query.md#context-utility-scoring"]}`,
			``,
			`   `,
			`{"query": "What is the budget split?", "relevant": ["loom-concept.md#61-budget"]}`,
		)
		qs, err := LoadQueries(path)
		require.NoError(t, err)
		require.Len(t, qs, 2)
		assert.Equal(t, Query{ID: "s01", Text: "How are nodes ranked?", Relevant: map[string]int{
			"loom-concept.md#5-ranking-signals": 1, "context-query.md#context-utility-scoring": 1}}, qs[0])
		assert.Equal(t, "4", qs[1].ID, "a query without an id is named by its line")
		assert.Equal(t, map[string]int{"loom-concept.md#61-budget": 1}, qs[1].Relevant)
	})
	t.Run("a very long line is read", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "queries.jsonl")
		long := strings.Repeat("word ", 40000)
		writeLines(t, path, `{"id": "long", "query": "`+long+`", "relevant": ["a.md"]}`)
		qs, err := LoadQueries(path)
		require.NoError(t, err)
		assert.Equal(t, long, qs[0].Text)
	})
	bad := []struct {
		name  string
		lines []string
		want  string
	}{
		{"a line that is not JSON is an error with file and line", []string{`{"query": "ok", "relevant": ["a"]}`, `{"query": "broken",`}, ":2: not a query object"},
		{"a query without relevant references is an error", []string{`{"id": "q", "query": "lonely"}`}, `:1: a query needs "query" and a non-empty "relevant" list`},
		{"a query with an empty relevant list is an error", []string{``, `{"query": "lonely", "relevant": []}`}, `:2: a query needs "query" and a non-empty "relevant" list`},
		{"a line without a query is an error", []string{`{"relevant": ["a.md"]}`}, `:1: a query needs "query"`},
		{"a file without queries is an error", []string{``, ``}, "holds no queries"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "queries.jsonl")
			writeLines(t, path, tt.lines...)
			_, err := LoadQueries(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	t.Run("a missing file is an error", func(t *testing.T) {
		_, err := LoadQueries(filepath.Join(t.TempDir(), "nope.jsonl"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "read queries")
		assert.ErrorIs(t, err, os.ErrNotExist)
	})
}

// beir makes a tiny BEIR folder and returns its path.
func beir(t *testing.T, qrels map[string][]string, queries ...string) string {
	t.Helper()
	dir := t.TempDir()
	writeLines(t, filepath.Join(dir, "corpus.jsonl"),
		`{"_id": "d1", "title": "One", "text": "first"}`,
		`{"_id": "d2", "title": "Two", "text": "second"}`,
		`{"_id": "d3", "title": "Three", "text": "third"}`)
	if queries == nil {
		queries = []string{
			`{"_id": "q1", "text": "first question", "metadata": {}}`,
			`{"_id": "q2", "text": "second question"}`,
			`{"_id": "q3", "text": "third question"}`,
			`{"_id": "q4", "text": "fourth question"}`,
		}
	}
	writeLines(t, filepath.Join(dir, "queries.jsonl"), queries...)
	for split, lines := range qrels {
		writeLines(t, filepath.Join(dir, "qrels", split+".tsv"), lines...)
	}
	return dir
}

func TestLoadBEIR(t *testing.T) {
	testQrels := []string{
		"query-id\tcorpus-id\tscore",
		"q3\td3\t1",
		"q1\td1\t1",
		"q1\td2\t2",
		"q2\td3\t0",
		"too\tshort",
	}
	t.Run("only judged queries are kept, in file order, with their grades", func(t *testing.T) {
		dir := beir(t, map[string][]string{"test": testQrels})
		b, err := LoadBEIR(dir, "test")
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(dir, "corpus.jsonl"), b.Corpus)
		require.Len(t, b.Queries, 2, "q2 has only a zero score and q4 no judgement")
		assert.Equal(t, Query{ID: "q1", Text: "first question", Relevant: map[string]int{"d1": 1, "d2": 2}}, b.Queries[0])
		assert.Equal(t, Query{ID: "q3", Text: "third question", Relevant: map[string]int{"d3": 1}}, b.Queries[1])
	})
	t.Run("an empty split is the test split", func(t *testing.T) {
		b, err := LoadBEIR(beir(t, map[string][]string{"test": testQrels}), "")
		require.NoError(t, err)
		assert.Len(t, b.Queries, 2)
	})
	t.Run("another split reads its own judgements", func(t *testing.T) {
		dir := beir(t, map[string][]string{"test": testQrels, "train": {"query-id\tcorpus-id\tscore", "q4\td1\t1"}})
		b, err := LoadBEIR(dir, "train")
		require.NoError(t, err)
		require.Len(t, b.Queries, 1)
		assert.Equal(t, "q4", b.Queries[0].ID)
	})
	t.Run("a file without a header line is read from its first line", func(t *testing.T) {
		b, err := LoadBEIR(beir(t, map[string][]string{"test": {"q2\td1\t1"}}), "test")
		require.NoError(t, err)
		require.Len(t, b.Queries, 1)
		assert.Equal(t, "q2", b.Queries[0].ID)
	})
	t.Run("Windows line endings are read", func(t *testing.T) {
		dir := beir(t, nil)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "qrels"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "qrels", "test.tsv"), []byte("query-id\tcorpus-id\tscore\r\nq1\td1\t2\r\n"), 0o644))
		b, err := LoadBEIR(dir, "test")
		require.NoError(t, err)
		require.Len(t, b.Queries, 1)
		assert.Equal(t, map[string]int{"d1": 2}, b.Queries[0].Relevant)
	})
	t.Run("a missing split is an error that names it", func(t *testing.T) {
		_, err := LoadBEIR(beir(t, map[string][]string{"test": testQrels}), "dev")
		require.Error(t, err)
		assert.Contains(t, err.Error(), `no judgements for split "dev"`)
		assert.ErrorIs(t, err, os.ErrNotExist)
	})
	t.Run("a folder without a corpus is not a BEIR folder", func(t *testing.T) {
		dir := t.TempDir()
		_, err := LoadBEIR(dir, "test")
		require.Error(t, err)
		assert.Contains(t, err.Error(), dir+" is not a BEIR folder")
	})
	t.Run("a score that is not a number is an error with file and line", func(t *testing.T) {
		dir := beir(t, map[string][]string{"test": {"query-id\tcorpus-id\tscore", "q1\td1\t1", "q1\td2\thigh"}})
		_, err := LoadBEIR(dir, "test")
		require.Error(t, err)
		assert.Contains(t, err.Error(), filepath.Join(dir, "qrels", "test.tsv")+`:3: score "high" is not a number`)
	})
	t.Run("judgements with only zero scores are an error", func(t *testing.T) {
		_, err := LoadBEIR(beir(t, map[string][]string{"test": {"query-id\tcorpus-id\tscore", "q1\td1\t0"}}), "test")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "holds no judgements")
	})
	t.Run("no judged query among the queries is an error", func(t *testing.T) {
		_, err := LoadBEIR(beir(t, map[string][]string{"test": {"q9\td1\t1"}}), "test")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "no query in queries.jsonl has judgements")
	})
	t.Run("a broken queries line is an error with its line", func(t *testing.T) {
		dir := beir(t, map[string][]string{"test": testQrels}, `{"_id": "q1", "text": "ok"}`, `{"_id": `)
		_, err := LoadBEIR(dir, "test")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "queries.jsonl:2:")
	})
	t.Run("a missing queries file is an error", func(t *testing.T) {
		dir := beir(t, map[string][]string{"test": testQrels})
		require.NoError(t, os.Remove(filepath.Join(dir, "queries.jsonl")))
		_, err := LoadBEIR(dir, "test")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "read BEIR queries")
	})
}
