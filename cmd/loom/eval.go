package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/eval"
)

// maxTop bounds --top far above any sensible cut: a larger number is a
// typo.
const maxTop = 100000

// defaultBaselines are what a text report sets Loom beside.
const defaultBaselines = "bm25,hybrid,whole-file"

// evalSet is one labelled corpus to evaluate: its queries, and the
// documents to ingest first ("" when the workspace already holds them).
type evalSet struct {
	name    string
	queries []eval.Query
	ingest  string
	// own: a --corpus, always evaluated in a temporary workspace of its own.
	own bool
	// code: a code corpus (reported with accuracy at 5); repo and corpus
	// say where its files come from, bugs are its bug-localisation cases.
	code   bool
	repo   string
	corpus eval.CodeCorpus
	bugs   []eval.BugCase
}

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	var ws workspaceFlags
	ws.register(fs)
	var qf queryFlags
	qf.register(fs, 2000)
	queries := fs.String("queries", "", "reference queries (JSONL: id, query, relevant) evaluated on the workspace as it is")
	beir := fs.String("beir", "", "a BEIR folder (corpus.jsonl, queries.jsonl, qrels/): its corpus is ingested first")
	var corpora stringList
	fs.Var(&corpora, "corpus", "a labelled corpus folder, ingested into a workspace of its own: queries.jsonl and docs/, or a BEIR folder (repeatable; one table each)")
	split := fs.String("split", "test", "BEIR judgements to use: qrels/<split>.tsv")
	top := fs.Int("top", 0, fmt.Sprintf("baselines: load at most this many nodes, up to %d (0: fill the budget)", maxTop))
	compare := fs.String("compare", "", "strategies to run beside --strategy on the same queries, with the paired difference (comma-separated, or none); text reports default to "+defaultBaselines)
	perQuery := fs.Bool("per-query", false, "json: include every query's outcome")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("eval: unexpected argument %q", pos[0])
	}
	if err := qf.check(fs); err != nil {
		return err
	}
	if given(fs, "window") {
		// eval.Run plans every query with a budget alone.
		return usageErr("eval: --window is not used by eval, which gives every query the same context budget: give --budget N instead")
	}
	if *top < 0 || *top > maxTop {
		return usageErr("eval: --top %d is out of range: give 1 to %d nodes, or 0 to fill the budget", *top, maxTop)
	}
	sources := 0
	for _, s := range []string{*queries, *beir} {
		if s != "" {
			sources++
		}
	}
	if sources+len(corpora) == 0 {
		return usageErr("eval: give --queries FILE.jsonl, --beir DIR or --corpus DIR")
	}
	if sources > 1 {
		return usageErr("eval: give --queries or --beir, not both (--corpus may be repeated beside either)")
	}
	strategies := []string{qf.strategy}
	cmp := *compare
	if !given(fs, "compare") && qf.format == "text" && qf.strategy == string(backend.StrategyLoom) {
		cmp = defaultBaselines
	}
	if cmp != "" && cmp != "none" {
		for _, s := range strings.Split(cmp, ",") {
			s = strings.TrimSpace(s)
			if !slices.Contains([]string{"loom", "whole-file", "bm25", "vector", "hybrid"}, s) {
				return usageErr("eval: --compare: unknown strategy %q: want loom, whole-file, bm25, vector or hybrid", s)
			}
			if !slices.Contains(strategies, s) {
				strategies = append(strategies, s)
			}
		}
	}

	var sets []evalSet
	if *queries != "" {
		qs, err := eval.LoadQueries(*queries)
		if err != nil {
			return usageErr("eval: %v", err)
		}
		sets = append(sets, evalSet{name: *queries, queries: qs})
	}
	if *beir != "" {
		b, err := eval.LoadBEIR(*beir, *split)
		if err != nil {
			return usageErr("eval: %v", err)
		}
		sets = append(sets, evalSet{name: *beir, queries: b.Queries, ingest: b.Corpus})
	}
	for _, dir := range corpora {
		set, err := loadCorpus(ctx, dir, *split)
		if err != nil {
			return usageErr("eval: %v", err)
		}
		sets = append(sets, set)
	}

	o := eval.Options{Budget: qf.budget, Purpose: qf.purpose, Level: qf.level, Top: *top}
	var out []*eval.Comparison
	for _, set := range sets {
		c, err := evalOne(ctx, ws, set, set.own || (set.ingest != "" && ws.dir == ""), o, strategies, stderr)
		if err != nil {
			return err
		}
		out = append(out, c)
	}
	if qf.format == "json" {
		if !*perQuery {
			for _, c := range out {
				for _, r := range c.Reports {
					r.PerQuery = nil
				}
			}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if len(out) == 1 && len(strategies) == 1 && len(corpora) == 0 {
			return enc.Encode(out[0].Reports[0]) // one report, as before comparisons
		}
		return enc.Encode(out)
	}
	for i, c := range out {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if len(c.Reports) == 1 {
			writeReport(stdout, c.Reports[0])
			continue
		}
		c.WriteTable(stdout)
	}
	return nil
}

// loadCorpus reads a --corpus folder: queries.jsonl with docs/ beside it,
// a BEIR folder, or a code corpus of a git repository (corpus.json with
// queries.jsonl, or with the bug cases of cases.jsonl).
func loadCorpus(ctx context.Context, dir, split string) (evalSet, error) {
	name := filepath.Base(filepath.Clean(dir))
	if _, err := os.Stat(filepath.Join(dir, "corpus.json")); err == nil {
		return loadCodeCorpus(ctx, dir, name)
	}
	if _, err := os.Stat(filepath.Join(dir, "corpus.jsonl")); err == nil {
		b, err := eval.LoadBEIR(dir, split)
		if err != nil {
			return evalSet{}, err
		}
		return evalSet{name: name, queries: b.Queries, ingest: b.Corpus, own: true}, nil
	}
	docs := filepath.Join(dir, "docs")
	if st, err := os.Stat(docs); err != nil || !st.IsDir() {
		return evalSet{}, fmt.Errorf("%s is not a labelled corpus: it needs queries.jsonl and a docs/ folder (or corpus.jsonl, for BEIR)", dir)
	}
	qs, err := eval.LoadQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return evalSet{}, err
	}
	return evalSet{name: name, queries: qs, ingest: docs, own: true}, nil
}

// loadCodeCorpus reads a code corpus folder of the repository it is in.
func loadCodeCorpus(ctx context.Context, dir, name string) (evalSet, error) {
	repo, err := eval.RepoRoot(ctx, dir)
	if err != nil {
		return evalSet{}, err
	}
	set := evalSet{name: name, own: true, code: true, repo: repo}
	if _, err := os.Stat(filepath.Join(dir, "cases.jsonl")); err == nil {
		if set.corpus, err = eval.LoadCodeCorpus(filepath.Join(dir, "corpus.json"), false); err != nil {
			return evalSet{}, err
		}
		set.bugs, err = eval.LoadBugCases(filepath.Join(dir, "cases.jsonl"))
		return set, err
	}
	if set.corpus, err = eval.LoadCodeCorpus(filepath.Join(dir, "corpus.json"), true); err != nil {
		return evalSet{}, err
	}
	set.queries, err = eval.LoadQueries(filepath.Join(dir, "queries.jsonl"))
	return set, err
}

// evalOne evaluates one set: in the workspace given, or (temporary) in a
// new one that its documents are ingested into.
func evalOne(ctx context.Context, ws workspaceFlags, set evalSet, temporary bool, o eval.Options, strategies []string, stderr io.Writer) (*eval.Comparison, error) {
	if temporary {
		tmp, err := os.MkdirTemp("", "loom-eval-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		ws.dir = tmp
	}
	if set.code {
		return evalCode(ctx, ws, set, o, strategies, stderr)
	}
	var wb *backend.Workbench
	var err error
	if set.ingest != "" {
		wb, err = ws.open(ctx, stderr)
	} else {
		wb, err = ws.openToRead(ctx, stderr)
	}
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	if set.ingest != "" {
		fmt.Fprintf(stderr, "ingesting %s …\n", set.ingest)
		rep, err := wb.Ingest(ctx, []string{set.ingest}, backend.IngestOptions{})
		if err != nil {
			return nil, err
		}
		if len(rep.Errors) > 0 {
			return nil, fmt.Errorf("eval: ingesting %s failed: %v", set.ingest, rep.Errors[0])
		}
	}
	if st, err := wb.Stats(ctx); err == nil && st.ContentNodes == 0 {
		return nil, usageErr("eval: the workspace %s is empty: ingest the documents the queries are about first", st.Workspace)
	}
	return eval.Compare(ctx, wb, set.name, set.queries, o, strategies)
}

// evalCode evaluates a code corpus in a new workspace: its tree taken out
// of git at the corpus's commit, or, for bug cases, at each case's parent
// in turn.
func evalCode(ctx context.Context, ws workspaceFlags, set evalSet, o eval.Options, strategies []string, stderr io.Writer) (*eval.Comparison, error) {
	trees, err := os.MkdirTemp("", "loom-eval-tree-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(trees)
	tree := filepath.Join(trees, "repo") // the collection's name
	wb, err := ws.open(ctx, stderr)
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	if set.bugs != nil {
		fmt.Fprintf(stderr, "bug localisation: %d cases of %s …\n", len(set.bugs), set.repo)
		return eval.RunBugs(ctx, wb, set.repo, tree, set.corpus, set.bugs, o, strategies, func(s string) { fmt.Fprintln(stderr, "  "+s) })
	}
	n, err := eval.Checkout(ctx, set.repo, set.corpus.Commit, set.corpus, tree)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "ingesting %d files of %s at %.12s …\n", n, set.repo, set.corpus.Commit)
	rep, err := wb.Ingest(ctx, []string{tree}, backend.IngestOptions{})
	if err != nil {
		return nil, err
	}
	if len(rep.Errors) > 0 {
		return nil, fmt.Errorf("eval: ingesting %s failed: %v", set.name, rep.Errors[0])
	}
	c, err := eval.Compare(ctx, wb, set.name, set.queries, o, strategies)
	if err != nil {
		return nil, err
	}
	c.MarkCode()
	return c, nil
}

func writeReport(w io.Writer, rep *eval.Report) {
	fmt.Fprintf(w, "strategy %s · budget %d · %d queries\n", rep.Strategy, rep.Budget, rep.Queries)
	fmt.Fprintf(w, "precision   %.3f  (strict %.3f)\nrecall      %.3f  (strict %.3f)\nf1          %.3f\ntoken ratio %.3f  (%.0f tokens loaded per query)\nframe       %.0f tokens per query, %.1f%% of the budget (token ratio %.3f with it)\nnDCG@10     %.3f\nrecall@100  %.3f\nMRR@10      %.3f\nceiling     precision %.3f · recall %.3f  (a perfect stop in the first %d ranked)\nlatency     p50 %.2f ms · p99 %.2f ms\n",
		rep.Precision, rep.StrictPrecision, rep.Recall, rep.StrictRecall, rep.F1, rep.TokenRatio, rep.TokensLoaded, rep.FrameTokens, 100*rep.FrameShare, rep.TokenRatioFramed, rep.NDCG10, rep.Recall100, rep.MRR10, rep.CeilingPrecision, rep.CeilingRecall, eval.CeilingDepth, rep.P50, rep.P99)
}
