package eval

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loomwork/loom/backend"
)

// Bug localisation (seed §13.5): for each case the library is the
// repository at the commit before the fix, the question is the fix's
// commit message, and the answer is the definitions the fix touched.
// Cases are taken in the order of their commits and the same folder is
// moved from one parent to the next, so each case after the first is an
// incremental re-ingest (what changed, what was deleted), as a researcher
// following a repository would see it.

// RunBugs evaluates the cases with every strategy: for each case it checks
// the corpus's files of the case's parent out into tree, re-ingests tree
// into wb (pruning what the commit lacks) and asks the report.
func RunBugs(ctx context.Context, wb *backend.Workbench, repo, tree string, corpus CodeCorpus, cases []BugCase, o Options, strategies []string, progress func(string)) (*Comparison, error) {
	order, err := commitOrder(ctx, repo, cases)
	if err != nil {
		return nil, err
	}
	cases = slices.Clone(cases)
	slices.SortStableFunc(cases, func(a, b BugCase) int { return order[a.Parent] - order[b.Parent] })
	per := make([][]QueryReport, len(strategies))
	c := &Comparison{Corpus: "bug localisation", Queries: len(cases)}
	for _, bc := range cases {
		n, err := Checkout(ctx, repo, bc.Parent, corpus, tree)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", bc.ID, err)
		}
		if progress != nil {
			progress(fmt.Sprintf("%s: %d files at %s", bc.ID, n, short(bc.Parent)))
		}
		rep, err := wb.Ingest(ctx, []string{tree}, backend.IngestOptions{Prune: true})
		if err != nil {
			return nil, fmt.Errorf("%s: ingest the tree at %s: %w", bc.ID, short(bc.Parent), err)
		}
		if len(rep.Errors) > 0 {
			return nil, fmt.Errorf("%s: ingest the tree at %s: %v", bc.ID, short(bc.Parent), rep.Errors[0])
		}
		q := bc.AsQuery()
		q.Files = bc.Files
		for i, s := range strategies {
			so := o
			so.Strategy = s
			r, err := Run(ctx, wb, []Query{q}, so)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s, err)
			}
			c.Budget = r.Budget
			per[i] = append(per[i], r.PerQuery...)
		}
	}
	for i, s := range strategies {
		c.Reports = append(c.Reports, aggregate(s, c.Budget, per[i]))
	}
	c.MarkCode()
	return c, nil
}

// commitOrder numbers the cases' parents by their depth in the history
// (older first).
func commitOrder(ctx context.Context, repo string, cases []BugCase) (map[string]int, error) {
	out := map[string]int{}
	for _, bc := range cases {
		if _, ok := out[bc.Parent]; ok {
			continue
		}
		b, err := gitOut(ctx, repo, "rev-list", "--count", bc.Parent)
		if err != nil {
			return nil, fmt.Errorf("%s: commit %s is not in %s (a shallow clone lacks the history: git fetch --unshallow): %w", bc.ID, short(bc.Parent), repo, err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, fmt.Errorf("%s: count the history of %s: %w", bc.ID, short(bc.Parent), err)
		}
		out[bc.Parent] = n
	}
	return out, nil
}
