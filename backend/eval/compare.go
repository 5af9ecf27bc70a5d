package eval

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/loomwork/loom/backend"
)

// Comparison is one corpus evaluated with several strategies on the same
// queries, and the paired difference of the first strategy (Loom) against
// each of the others.
type Comparison struct {
	Corpus  string    `json:"corpus"`
	Budget  int       `json:"budget"`
	Queries int       `json:"queries"`
	Reports []*Report `json:"reports"`
	Paired  []Paired  `json:"paired,omitempty"`
	// Code: the corpus is source code, reported with file- and
	// definition-level accuracy at 5.
	Code bool `json:"code,omitempty"`
}

// Paired is the per-query difference A − B of one metric over the same
// queries: its mean and the standard error of that mean (sd/√n). A
// difference larger than two standard errors is unlikely to be chance.
type Paired struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Metric string  `json:"metric"`
	Mean   float64 `json:"mean"`
	SE     float64 `json:"se"`
}

// PairedMetrics are the metrics Compare pairs.
var PairedMetrics = []string{"precision", "recall", "f1", "token_ratio_framed", "ndcg@10"}

// metric reads one of PairedMetrics off a query's outcome.
func metric(q QueryReport, name string) float64 {
	switch name {
	case "precision":
		return q.Precision
	case "recall":
		return q.Recall
	case "f1":
		return q.F1
	case "token_ratio_framed":
		return q.TokenRatioFramed
	case "ndcg@10":
		return q.NDCG10
	case "file_acc@5":
		return q.FileAcc5
	case "def_acc@5":
		return q.DefAcc5
	}
	panic("eval: no metric " + name)
}

// Compare runs the queries with every strategy (the first is the one the
// others are compared with) and pairs them query by query.
func Compare(ctx context.Context, wb *backend.Workbench, corpus string, qs []Query, o Options, strategies []string) (*Comparison, error) {
	if len(strategies) == 0 {
		strategies = []string{string(backend.StrategyLoom)}
	}
	c := &Comparison{Corpus: corpus, Queries: len(qs)}
	for _, s := range strategies {
		so := o
		so.Strategy = s
		rep, err := Run(ctx, wb, qs, so)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		c.Budget = rep.Budget
		c.Reports = append(c.Reports, rep)
	}
	c.pairAll()
	return c, nil
}

// CodeMetrics are the metrics paired besides PairedMetrics on a code
// corpus.
var CodeMetrics = []string{"file_acc@5", "def_acc@5"}

// pairAll pairs the first report with each of the others.
func (c *Comparison) pairAll() {
	c.Paired = nil
	metrics := PairedMetrics
	if c.Code {
		metrics = append(append([]string(nil), PairedMetrics...), CodeMetrics...)
	}
	a := c.Reports[0]
	for _, b := range c.Reports[1:] {
		for _, m := range metrics {
			c.Paired = append(c.Paired, pair(a, b, m))
		}
	}
}

// MarkCode makes c a code corpus's comparison: accuracy at 5 is shown and
// paired.
func (c *Comparison) MarkCode() {
	c.Code = true
	if len(c.Reports) > 0 {
		c.pairAll()
	}
}

// pair is the paired difference a − b of metric m (queries matched by id).
func pair(a, b *Report, m string) Paired {
	byID := make(map[string]QueryReport, len(b.PerQuery))
	for _, q := range b.PerQuery {
		byID[q.ID] = q
	}
	var d []float64
	for _, q := range a.PerQuery {
		if other, ok := byID[q.ID]; ok {
			d = append(d, metric(q, m)-metric(other, m))
		}
	}
	mean, se := MeanSE(d)
	return Paired{A: a.Strategy, B: b.Strategy, Metric: m, Mean: mean, SE: se}
}

// MeanSE is the mean of xs and its standard error (sample sd / √n; 0 for
// fewer than two values).
func MeanSE(xs []float64) (mean, se float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

// WriteTable prints a comparison for a person: one row per strategy, then
// the paired differences, each marked when it is more than two standard
// errors from zero.
func (c *Comparison) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "%s · budget %d · %d queries\n", c.Corpus, c.Budget, c.Queries)
	if c.Code {
		fmt.Fprintf(w, "  %-11s %9s %7s %6s %12s %8s %8s %10s %11s %10s %10s %8s\n", "strategy", "precision", "recall", "f1", "token ratio", "framed", "frame %", "nDCG@10", "ceiling P/R", "file Acc@5", "def Acc@5", "p50 ms")
		for _, r := range c.Reports {
			fmt.Fprintf(w, "  %-11s %9.3f %7.3f %6.3f %12.3f %8.3f %7.1f%% %10.3f %5.3f/%5.3f %10.3f %10.3f %8.2f\n", r.Strategy, r.Precision, r.Recall, r.F1, r.TokenRatio, r.TokenRatioFramed, 100*r.FrameShare, r.NDCG10, r.CeilingPrecision, r.CeilingRecall, r.FileAcc5, r.DefAcc5, r.P50)
		}
	} else {
		fmt.Fprintf(w, "  %-11s %9s %7s %6s %12s %8s %8s %10s %11s %8s\n", "strategy", "precision", "recall", "f1", "token ratio", "framed", "frame %", "nDCG@10", "ceiling P/R", "p50 ms")
		for _, r := range c.Reports {
			fmt.Fprintf(w, "  %-11s %9.3f %7.3f %6.3f %12.3f %8.3f %7.1f%% %10.3f %5.3f/%5.3f %8.2f\n", r.Strategy, r.Precision, r.Recall, r.F1, r.TokenRatio, r.TokenRatioFramed, 100*r.FrameShare, r.NDCG10, r.CeilingPrecision, r.CeilingRecall, r.P50)
		}
	}
	fmt.Fprintf(w, "  (ceiling: what a perfect stop in the first %d ranked would load)\n", CeilingDepth)
	if len(c.Paired) == 0 {
		return
	}
	fmt.Fprintf(w, "  paired difference (mean ± standard error; * beyond two):\n")
	var row []string
	last := ""
	flush := func() {
		if len(row) > 0 {
			fmt.Fprintf(w, "    %s\n", strings.Join(row, "  "))
		}
		row = nil
	}
	for _, p := range c.Paired {
		head := p.A + " − " + p.B
		if head != last {
			flush()
			row = append(row, fmt.Sprintf("%-20s", head))
			last = head
		}
		mark := " "
		if p.SE > 0 && math.Abs(p.Mean) > 2*p.SE {
			mark = "*"
		}
		row = append(row, fmt.Sprintf("%s %+.3f ± %.3f%s", p.Metric, p.Mean, p.SE, mark))
	}
	flush()
}
