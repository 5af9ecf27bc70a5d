package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/eval"
)

// maxTop bounds --top far above any sensible cut (the relevant set holds
// 24 nodes by default): a larger number is a typo.
const maxTop = 100000

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	var ws workspaceFlags
	ws.register(fs)
	var qf queryFlags
	qf.register(fs, 2000)
	queries := fs.String("queries", "", "reference queries (JSONL: id, query, relevant) evaluated on the workspace as it is")
	beir := fs.String("beir", "", "a BEIR folder (corpus.jsonl, queries.jsonl, qrels/): its corpus is ingested first")
	split := fs.String("split", "test", "BEIR judgements to use: qrels/<split>.tsv")
	top := fs.Int("top", 0, fmt.Sprintf("baselines: load at most this many nodes, up to %d (0: fill the budget)", maxTop))
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
	if (*queries == "") == (*beir == "") {
		return usageErr("eval: give --queries FILE.jsonl or --beir DIR")
	}
	var qs []eval.Query
	var corpus string
	if *queries != "" {
		if qs, err = eval.LoadQueries(*queries); err != nil {
			return usageErr("eval: %v", err)
		}
	} else {
		b, err := eval.LoadBEIR(*beir, *split)
		if err != nil {
			return usageErr("eval: %v", err)
		}
		qs, corpus = b.Queries, b.Corpus
		if ws.dir == "" { // a temporary workspace unless one is given
			tmp, err := os.MkdirTemp("", "loom-eval-*")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			ws.dir = tmp
		}
	}
	var wb *backend.Workbench
	if corpus != "" { // --beir ingests its corpus
		wb, err = ws.open(ctx, stderr)
	} else {
		wb, err = ws.openToRead(ctx, stderr)
	}
	if err != nil {
		return err
	}
	defer wb.Close()
	if corpus != "" {
		fmt.Fprintf(stderr, "ingesting %s …\n", corpus)
		rep, err := wb.Ingest(ctx, []string{corpus}, backend.IngestOptions{})
		if err != nil {
			return err
		}
		if len(rep.Errors) > 0 {
			return fmt.Errorf("eval: ingesting the corpus failed: %v", rep.Errors[0])
		}
	}
	if st, err := wb.Stats(ctx); err == nil && st.ContentNodes == 0 {
		return usageErr("eval: the workspace %s is empty: ingest the documents the queries are about first", st.Workspace)
	}
	rep, err := eval.Run(ctx, wb, qs, eval.Options{Strategy: qf.strategy, Budget: qf.budget, Purpose: qf.purpose, Level: qf.level, Top: *top})
	if err != nil {
		return err
	}
	if qf.format == "json" {
		if !*perQuery {
			rep.PerQuery = nil
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Fprintf(stdout, "strategy %s · budget %d · %d queries\n", rep.Strategy, rep.Budget, rep.Queries)
	fmt.Fprintf(stdout, "precision   %.3f  (strict %.3f)\nrecall      %.3f  (strict %.3f)\nf1          %.3f\ntoken ratio %.3f  (%.0f tokens loaded per query)\nframe       %.0f tokens per query, %.1f%% of the budget (token ratio %.3f with it)\nnDCG@10     %.3f\nrecall@100  %.3f\nMRR@10      %.3f\nlatency     p50 %.2f ms · p99 %.2f ms\n",
		rep.Precision, rep.StrictPrecision, rep.Recall, rep.StrictRecall, rep.F1, rep.TokenRatio, rep.TokensLoaded, rep.FrameTokens, 100*rep.FrameShare, rep.TokenRatioFramed, rep.NDCG10, rep.Recall100, rep.MRR10, rep.P50, rep.P99)
	return nil
}
