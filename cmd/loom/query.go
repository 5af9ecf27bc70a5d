package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/assemble"
)

// Bounds of the token-count flags (--budget, --window), so that a typo is
// refused with a sentence instead of meaning something else.
const (
	// minBudget is the engine's smallest context: a manifest and one small
	// node.
	minBudget = assemble.MinContext
	// minWindow holds Loom's system prompt (99 tokens), a short question,
	// the output reservation (up to 37.5% of the window) and minBudget.
	minWindow = 256
	// maxTokens is 10 Mi tokens (10485760): Llama 4 Scout's window, the
	// largest of any model Ollama serves. Anything above is a typo, and
	// far above it the budget arithmetic would overflow.
	maxTokens = assemble.MaxTokens
)

// checkTokens refuses a token count given on the command line outside
// [least, maxTokens]; why says what the least is for.
func checkTokens(flag string, n, least int, why string) error {
	switch {
	case n < least:
		return usageErr("--%s %d is too small: it must be at least %d tokens, %s", flag, n, least, why)
	case n > maxTokens:
		return usageErr("--%s %d is too large: it must be at most %d tokens (10 Mi, beyond the largest window of any model Ollama serves)", flag, n, maxTokens)
	}
	return nil
}

// given reports whether the flag was set on the command line (a default
// is not checked: 0 there means "not given").
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

const (
	budgetWhy = "enough for the manifest and one small node"
	windowWhy = "enough for the system prompt, a short question, the output reservation and the manifest"
)

// queryFlags are the assembly knobs shared by query and eval.
type queryFlags struct {
	budget   int
	window   int
	model    string
	purpose  string
	level    string
	strategy string
	format   string
}

func (q *queryFlags) register(fs interface {
	IntVar(*int, string, int, string)
	StringVar(*string, string, string, string)
}, defBudget int) {
	budgetHelp := fmt.Sprintf("tokens for context (manifest + loaded nodes), %d to %d", minBudget, maxTokens)
	if defBudget == 0 {
		budgetHelp += fmt.Sprintf(" (default %d when neither --window nor --model is given)", defaultQueryBudget)
	}
	fs.IntVar(&q.budget, "budget", defBudget, budgetHelp)
	fs.IntVar(&q.window, "window", 0, fmt.Sprintf("the model's whole context window, %d to %d tokens; the budget is what is left after the system prompt, question and output reservation", minWindow, maxTokens))
	fs.StringVar(&q.purpose, "purpose", "answer", "weight preset: answer, verify, explore, decide or create")
	fs.StringVar(&q.level, "level", "adaptive", "abstraction level: detailed, summary, essence or adaptive; map: a map of the source code (files and signatures) instead of its text")
	fs.StringVar(&q.strategy, "strategy", "loom", "loom, or a baseline: whole-file, bm25, vector, hybrid")
	fs.StringVar(&q.format, "format", "text", "text or json")
}

func (q *queryFlags) check(fs *flag.FlagSet) error {
	if q.format != "text" && q.format != "json" {
		return usageErr("--format must be text or json, not %q", q.format)
	}
	if given(fs, "budget") {
		if err := checkTokens("budget", q.budget, minBudget, budgetWhy); err != nil {
			return err
		}
	}
	if given(fs, "window") {
		if err := checkTokens("window", q.window, minWindow, windowWhy); err != nil {
			return err
		}
	}
	if _, err := assemble.ParsePurpose(q.purpose); err != nil {
		return usageErr("--purpose: %v", err)
	}
	if _, err := assemble.ParseLevel(q.level); err != nil {
		return usageErr("--level: %v", err)
	}
	if _, err := backend.ParseStrategy(q.strategy); err != nil {
		return usageErr("--strategy: %v", err)
	}
	return nil
}

// defaultQueryBudget is query's context budget when neither --budget nor
// --window nor --model is given.
const defaultQueryBudget = 4000

func cmdQuery(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("query", stderr)
	var ws workspaceFlags
	ws.register(fs)
	var qf queryFlags
	qf.register(fs, 0)
	fs.StringVar(&qf.model, "model", "", "an Ollama model whose context window sets the budget (when neither --budget nor --window is given)")
	scope := fs.String("scope", "", "only this collection, or cluster:ID for only this cluster (loom graph clusters lists them)")
	var pins stringList
	fs.Var(&pins, "pin", "node or document id to load first (repeatable)")
	noTouch := fs.Bool("no-touch", false, "leave access times alone")
	summaryModel := fs.String("summary-model", "", "make summaries with this model of the model server (Ollama or the OpenAI-compatible one; the extractive method when it fails); default: extractive")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := qf.check(fs); err != nil {
		return err
	}
	question := strings.TrimSpace(strings.Join(pos, " "))
	if question == "" {
		return usageErr("query: give a question, e.g. loom query --budget 2000 \"how is the budget split?\"")
	}
	if qf.budget == 0 && qf.window == 0 && qf.model == "" {
		qf.budget = defaultQueryBudget
	}
	wb, err := ws.openToRead(ctx, stderr, func(c *backend.Config) { c.SummaryModel = *summaryModel })
	if err != nil {
		return err
	}
	defer wb.Close()
	res, err := wb.Query(ctx, backend.QueryRequest{Question: question, Budget: qf.budget, Window: qf.window, Model: qf.model,
		Purpose: qf.purpose, Level: qf.level, Strategy: qf.strategy, Scope: *scope, Pin: pins, NoTouch: *noTouch})
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintf(stderr, "warning: `loom doctor --workspace %s` checks every stored text; `loom repair` restores what the source files still hold\n", wb.Dir())
	}
	if qf.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintln(stdout, res.Prompt)
	b := res.Split
	near := ""
	if res.Near > 0 {
		near = fmt.Sprintf(" and %d near the question", res.Near)
	}
	fmt.Fprintf(stderr, "loaded %d of %d relevant nodes%s (%s) · context %d/%d tokens (manifest %d, catalog %d, nodes %d, free %d) · window %d (%s) · %.1f ms\n",
		res.Loaded-res.Near, res.Relevant, near, res.Branch, b.Context-b.Free, b.Context, b.Manifest, b.Catalog, b.Loaded, b.Free, b.Window, b.WindowSource,
		float64(res.Timing.Total)/1000)
	return nil
}

// summarizer is an Ollama model with the extractive method as fallback;
// a request that waits says so through notify, and gives up after
// ollama.DefaultModelTimeout.
// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func cmdPin(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pin", stderr)
	var ws workspaceFlags
	ws.register(fs)
	off := fs.Bool("off", false, "unpin instead")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("pin: give node or document ids (loom query --format json shows them)")
	}
	wb, err := ws.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer wb.Close()
	if err := wb.Pin(ctx, pos, !*off); err != nil {
		return err
	}
	verb := "pinned"
	if *off {
		verb = "unpinned"
	}
	fmt.Fprintf(stdout, "%s %s\n", verb, strings.Join(pos, ", "))
	return nil
}

func cmdCollection(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("collection", stderr)
	var ws workspaceFlags
	ws.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || (pos[0] != "list" && len(pos) < 3) {
		return usageErr("collection: list | add NAME DOC... | remove NAME DOC... (DOC: a path as ingested, or a document id)")
	}
	wb, err := ws.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer wb.Close()
	switch pos[0] {
	case "list":
		colls, err := wb.Collections(ctx)
		if err != nil {
			return err
		}
		for _, c := range colls {
			fmt.Fprintf(stdout, "%-24s %5d documents %6d sections\n", c.Name, c.Documents, c.Sections)
		}
		return nil
	case "add", "remove":
		if err := wb.Group(ctx, pos[1], pos[2:], pos[0] == "add"); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s %d documents %s %s\n", map[bool]string{true: "added", false: "removed"}[pos[0] == "add"], len(pos)-2,
			map[bool]string{true: "to", false: "from"}[pos[0] == "add"], pos[1])
		return nil
	}
	return usageErr("collection: unknown subcommand %q (list, add, remove)", pos[0])
}
