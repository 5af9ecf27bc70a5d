// Command loom is Loom's headless CLI: ingest documents into a workspace and
// inspect or export its graph. It shares the engine (package backend) with
// the desktop app and never imports Wails.
//
//	loom ingest  [--workspace DIR] PATH...
//	loom watch   [--workspace DIR] [--rescan 5m] [--quiet 500ms] PATH...
//	loom graph   [--workspace DIR] stats|clusters [--format text|json] | export [--out FILE] [--content] | import FILE
//	loom mcp     [--workspace DIR] [--http 127.0.0.1:PORT] [--allow-ingest]
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// exitError carries an exit code: 1 when some input failed, 2 for usage
// errors and failures that stopped the command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func usageErr(format string, args ...any) error {
	return &exitError{2, fmt.Errorf(format, args...)}
}

const usage = `loom — a local-first knowledge workbench

Usage:
  loom ingest [--workspace DIR] [--prune] [--watch] [--embedder auto|offline|ollama|openai] PATH...
  loom watch  [--workspace DIR] [--rescan 5m] [--quiet 500ms] PATH...
                                                   ingest, then re-ingest what changes in the folders until interrupted
  loom graph  [--workspace DIR] stats [--format text|json]
  loom graph  [--workspace DIR] clusters [--format text|json]
                                                   the concept graph's clusters: id (for query --scope cluster:ID), name, sizes
  loom graph  [--workspace DIR] export [--out FILE] [--content]
  loom graph  [--workspace DIR] import FILE
  loom query  [--workspace DIR] [--budget N | --window N | --model M] [--purpose P] [--level L] [--scope S] [--format text|json] QUESTION
  loom pin    [--workspace DIR] [--off] ID...      always load these nodes (or documents) first
  loom chat   [--workspace DIR] [--model M] [--window N] [-m QUESTION] [--conversation ID] [--list] [--show-prompt]
  loom collection [--workspace DIR] list | add NAME DOC... | remove NAME DOC...
  loom models [--provider ollama|openai] [--ollama-url URL | --openai-url URL]
                                                   the model server's models: window, tools, embeddings
  loom reembed [--workspace DIR] [--embed-model M | --offline | --minilm]
                                                   embed the workspace again with another embedder
  loom eval   [--workspace DIR] (--queries FILE.jsonl | --beir DIR [--split test] | --corpus DIR ...) [--budget N] [--strategy S] [--compare S,S|none] [--format text|json]
  loom bench  [--nodes N[,N…]] [--dims offline|768|both] [--queries Q] [--format text|json]
  loom bench mcp   [--nodes N[,N…]] [--calls C] [--format text|json]
                                                   get_context over MCP (loom mcp over stdio and HTTP) beside the query in process
  loom bench watch [--notes N] [--saves S] [--quiet 500ms] [--format text|json]
                                                   a save in a watched folder until its sync is done
  loom mcp    [--workspace DIR] [--http 127.0.0.1:PORT [--session-timeout 30m]] [--allow-ingest [--allow-root DIR]...]
                                                   serve the workspace to MCP clients (stdio by default)
  loom doctor [--workspace DIR] [--format text|json]      check every part of a workspace; writes nothing
  loom repair [--workspace DIR] [--out DIR] [--replace]    mend what doctor found; salvage a damaged graph

The workspace defaults to $XDG_DATA_HOME/loom/default (~/.local/share/loom/default).
The model server is Ollama unless --provider openai (or $LOOM_PROVIDER) names an
OpenAI-compatible one: LM Studio, llama.cpp's llama-server, vLLM.
Run "loom COMMAND -h" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if path := os.Getenv("LOOM_CPUPROFILE"); path != "" { // for benchmarking
		if f, err := os.Create(path); err == nil {
			_ = pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		code := 2
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
		if err.Error() != "" {
			fmt.Fprintln(os.Stderr, "loom:", err)
		}
		pprof.StopCPUProfile()
		os.Exit(code)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	switch args[0] {
	case "ingest":
		return cmdIngest(ctx, args[1:], stdout, stderr)
	case "watch":
		return cmdWatch(ctx, args[1:], stdout, stderr)
	case "graph":
		return cmdGraph(ctx, args[1:], stdout, stderr)
	case "query":
		return cmdQuery(ctx, args[1:], stdout, stderr)
	case "eval":
		return cmdEval(ctx, args[1:], stdout, stderr)
	case "pin":
		return cmdPin(ctx, args[1:], stdout, stderr)
	case "chat":
		return cmdChat(ctx, args[1:], stdout, stderr)
	case "collection":
		return cmdCollection(ctx, args[1:], stdout, stderr)
	case "models":
		return cmdModels(ctx, args[1:], stdout, stderr)
	case "reembed":
		return cmdReembed(ctx, args[1:], stdout, stderr)
	case "bench":
		return cmdBench(ctx, args[1:], stdout, stderr)
	case "mcp":
		return cmdMCP(ctx, args[1:], stdout, stderr)
	case "doctor":
		return cmdDoctor(ctx, args[1:], stdout, stderr)
	case "repair":
		return cmdRepair(ctx, args[1:], stdout, stderr)
	}
	return usageErr("unknown command %q (see loom --help)", args[0])
}
