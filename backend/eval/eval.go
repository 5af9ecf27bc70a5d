// Package eval measures context selection (seed §8, shared/eval/README.md):
// reference queries — did the budgeted context load the labelled sections
// and little else — and BEIR folders — does the ranking put the judged
// documents first. `loom eval` prints what Run returns.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Query is one labelled question. Relevant holds references (PATH#SLUG or
// a BEIR document id) with their grade (1 for reference queries).
type Query struct {
	ID       string         `json:"id"`
	Text     string         `json:"query"`
	Relevant map[string]int `json:"-"`
	// Files are the files that answer it, for file-level accuracy (the
	// files of Relevant when empty).
	Files []string `json:"-"`
}

// files are the files that answer q.
func (q Query) files() []string {
	if len(q.Files) > 0 {
		return q.Files
	}
	seen := map[string]bool{}
	var out []string
	for ref := range q.Relevant {
		if f := FileOf(ref); !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// LoadQueries reads reference queries, one JSON object a line:
// {"id", "query", "relevant": ["path#slug", …]}.
func LoadQueries(path string) ([]Query, error) {
	var out []Query
	err := readJSONLines(path, "read queries", func(line int, text []byte) error {
		var raw struct {
			ID       string   `json:"id"`
			Query    string   `json:"query"`
			Relevant []string `json:"relevant"`
		}
		if err := json.Unmarshal(text, &raw); err != nil {
			return fmt.Errorf("%s:%d: not a query object: %w", path, line, err)
		}
		if raw.Query == "" || len(raw.Relevant) == 0 {
			return fmt.Errorf("%s:%d: a query needs \"query\" and a non-empty \"relevant\" list", path, line)
		}
		if raw.ID == "" {
			raw.ID = strconv.Itoa(line)
		}
		q := Query{ID: raw.ID, Text: raw.Query, Relevant: map[string]int{}}
		for _, r := range raw.Relevant {
			q.Relevant[r] = 1
		}
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no queries", path)
	}
	return out, nil
}

// readJSONLines calls fn with each non-blank line of a JSON Lines file
// (lines up to 16 MB) and its number, from 1, stopping at fn's first
// error. what opens the message of a file that cannot be opened ("read
// queries: open …").
func readJSONLines(path, what string, fn func(line int, text []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if err := fn(line, text); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// BEIR is a BEIR folder: the corpus to ingest and the judged queries of one
// split.
type BEIR struct {
	Corpus  string
	Queries []Query
}

// LoadBEIR reads queries.jsonl and qrels/<split>.tsv of a BEIR folder;
// only queries with judgements in the split are kept, in file order.
func LoadBEIR(dir, split string) (*BEIR, error) {
	if split == "" {
		split = "test"
	}
	corpus := filepath.Join(dir, "corpus.jsonl")
	if _, err := os.Stat(corpus); err != nil {
		return nil, fmt.Errorf("%s is not a BEIR folder: %w", dir, err)
	}
	qrelsPath := filepath.Join(dir, "qrels", split+".tsv")
	qf, err := os.Open(qrelsPath)
	if err != nil {
		return nil, fmt.Errorf("no judgements for split %q: %w", split, err)
	}
	defer qf.Close()
	qrels, err := readQrels(qf, qrelsPath)
	if err != nil {
		return nil, err
	}
	b := &BEIR{Corpus: corpus}
	err = readJSONLines(filepath.Join(dir, "queries.jsonl"), "read BEIR queries", func(line int, text []byte) error {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(text, &q); err != nil {
			return fmt.Errorf("queries.jsonl:%d: %w", line, err)
		}
		if rel, ok := qrels[q.ID]; ok {
			b.Queries = append(b.Queries, Query{ID: q.ID, Text: q.Text, Relevant: rel})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(b.Queries) == 0 {
		return nil, fmt.Errorf("no query in queries.jsonl has judgements in %s", qrelsPath)
	}
	return b, nil
}

func readQrels(r io.Reader, name string) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		f := strings.Split(strings.TrimSpace(sc.Text()), "\t")
		if len(f) < 3 || (line == 1 && f[0] == "query-id") {
			continue
		}
		score, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: score %q is not a number", name, line, f[2])
		}
		if score <= 0 {
			continue
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]int{}
		}
		out[f[0]][f[1]] = score
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New(name + " holds no judgements")
	}
	return out, nil
}

// Loaded is one loaded node as the set metrics see it.
type Loaded struct {
	Ref       string
	Ancestors []string
	Tokens    int
}

// matches lists the relevant references a loaded node serves: its own,
// and (unless strict) those of the sections that enclose it — a labelled
// heading is served by its subsections, which is where its text lives.
func matches(l Loaded, relevant map[string]int, strict bool) []string {
	var out []string
	if relevant[l.Ref] > 0 {
		out = append(out, l.Ref)
	}
	if !strict {
		for _, a := range l.Ancestors {
			if relevant[a] > 0 {
				out = append(out, a)
			}
		}
	}
	return out
}

// SetScores are the budgeted-selection metrics of one query.
type SetScores struct {
	Precision, Recall, F1 float64
}

// Set computes precision (loaded nodes that serve a relevant reference /
// loaded nodes), recall (relevant references served / relevant references)
// and F1. Nothing loaded scores precision 0.
func Set(loaded []Loaded, relevant map[string]int, strict bool) SetScores {
	served := map[string]bool{}
	good := 0
	for _, l := range loaded {
		if rs := matches(l, relevant, strict); len(rs) > 0 {
			good++
			for _, r := range rs {
				served[r] = true
			}
		}
	}
	var s SetScores
	if len(loaded) > 0 {
		s.Precision = float64(good) / float64(len(loaded))
	}
	if len(relevant) > 0 {
		s.Recall = float64(len(served)) / float64(len(relevant))
	}
	if s.Precision+s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
	return s
}

// StopCeiling is the most a stopping rule could make of a ranking: over
// the first k prefixes of ranked (the candidates in rank order, as if each
// were loaded), the best recall and, among the prefixes that reach it, the
// best precision. Set beside what was loaded, it splits what a selection
// misses between the ranking (labels that are not among the first k) and
// where it stopped (labels ranked there but not loaded, or unlabelled
// nodes loaded before them). Nothing ranked scores 0 and 0.
func StopCeiling(ranked []Loaded, relevant map[string]int, k int) SetScores {
	var best SetScores
	for n := 1; n <= min(k, len(ranked)); n++ {
		s := Set(ranked[:n], relevant, false)
		if s.Recall > best.Recall || s.Recall == best.Recall && s.Precision > best.Precision {
			best = s
		}
	}
	return best
}

// CeilingDepth is how many of the first ranked candidates StopCeiling
// looks at: about the most a 4,000-token context holds of sections.
const CeilingDepth = 10

// NDCG is nDCG@k of a ranked list of distinct ids against graded judgements
// (gain = grade, log2 discount).
func NDCG(ranked []string, rel map[string]int, k int) float64 {
	dcg := 0.0
	for i, id := range ranked[:min(k, len(ranked))] {
		if g := rel[id]; g > 0 {
			dcg += float64(g) / math.Log2(float64(i+2))
		}
	}
	grades := make([]int, 0, len(rel))
	for _, g := range rel {
		if g > 0 {
			grades = append(grades, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(grades)))
	idcg := 0.0
	for i, g := range grades[:min(k, len(grades))] {
		idcg += float64(g) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// RecallAt is the share of relevant ids among the first k.
func RecallAt(ranked []string, rel map[string]int, k int) float64 {
	if len(rel) == 0 {
		return 0
	}
	hit := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(len(rel))
}

// MRR is 1/rank of the first relevant id within the first k (0 if none).
func MRR(ranked []string, rel map[string]int, k int) float64 {
	for i, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Percentile of sorted-in-place values (nearest rank).
func Percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	i := int(math.Ceil(p/100*float64(len(v)))) - 1
	return v[max(0, min(i, len(v)-1))]
}
