package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ollama/ollama/envconfig"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/ollama"
)

// workspaceFlags are shared by every command that opens a workspace.
type workspaceFlags struct {
	dir       string
	embedder  string
	ollamaURL string
	model     string
	threshold float64
}

func (w *workspaceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&w.dir, "workspace", os.Getenv("LOOM_WORKSPACE"), "workspace folder (default ~/.local/share/loom/default)")
	fs.StringVar(&w.embedder, "embedder", "auto", "auto (Ollama when it answers and has the model, else offline), offline, or ollama")
	ollamaURLFlag(fs, &w.ollamaURL)
	fs.StringVar(&w.model, "embed-model", "nomic-embed-text", "Ollama embedding model")
	fs.Float64Var(&w.threshold, "concept-threshold", 0, "cosine at or above which content links to a concept (default: calibrated per embedder)")
}

func (w *workspaceFlags) open(ctx context.Context, stderr io.Writer) (*backend.Workbench, error) {
	c, err := w.config(stderr)
	if err != nil {
		return nil, err
	}
	return backend.New(ctx, c)
}

// config is the engine's wiring as the flags say: the same backend.Config
// the desktop app and the web edition open their workspaces with. The
// embedder is chosen on first need and said on stderr; Ollama's silences
// are said there too.
func (w *workspaceFlags) config(stderr io.Writer) (backend.Config, error) {
	if _, err := embed.ParseMode(w.embedder); err != nil {
		return backend.Config{}, usageErr("--embedder: %v", err)
	}
	notify := noticesTo(stderr)
	url := w.ollamaURL
	return backend.Config{Dir: w.dir, Embedder: embed.Mode(w.embedder), EmbedModel: w.model, ConceptThreshold: w.threshold,
		Ollama: func() (*ollama.Client, error) {
			return ollama.New(ollamaAddress(url), ollama.WithWait(waitOptions), ollama.WithNotify(notify))
		},
		OnEmbedder: func(reason string) { fmt.Fprintln(stderr, reason) },
	}, nil
}

// openToRead opens the workspace for a command that only reads it: for
// writing when it can (so summaries and access times are kept), else
// read-only beside the process that holds it, or on a folder that cannot
// be written, saying so on stderr. more adjusts the wiring (a summary
// model).
func (w *workspaceFlags) openToRead(ctx context.Context, stderr io.Writer, more ...func(*backend.Config)) (*backend.Workbench, error) {
	c, err := w.config(stderr)
	if err != nil {
		return nil, err
	}
	c.Access = backend.WriteWhenFree
	for _, f := range more {
		f(&c)
	}
	wb, err := backend.New(ctx, c)
	if err == nil && wb.ReadOnlyReason() != "" {
		fmt.Fprintf(stderr, "reading %s read-only: %s (what this command learns, such as summaries, is not kept)\n", wb.Dir(), wb.ReadOnlyReason())
	}
	return wb, err
}

// ollamaEnv names the variable with Ollama's address that the desktop app
// reads (bind.OllamaEnv); the CLI honours it too, so one setting serves
// both.
const ollamaEnv = "LOOM_OLLAMA_URL"

// ollamaAddress is Ollama's address: the --ollama-url flag (whose default
// is $LOOM_OLLAMA_URL), else $OLLAMA_HOST as the Ollama CLI reads it, else
// http://127.0.0.1:11434. The environment is read here, at the edge;
// ollama.ParseURL reads the result.
func ollamaAddress(flag string) string {
	return ollama.Address(flag, envconfig.Host().String())
}

// ollamaURLFlag registers --ollama-url. Precedence: the flag, then
// $LOOM_OLLAMA_URL, then $OLLAMA_HOST, then http://127.0.0.1:11434 (see
// ollamaAddress).
func ollamaURLFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "ollama-url", os.Getenv(ollamaEnv), "Ollama's address: this flag, else $"+ollamaEnv+", else $OLLAMA_HOST, else http://127.0.0.1:11434. "+
		"A request to Ollama that hears nothing for 10 s says so on stderr (stalled: 30 s), and gives up after "+ollamaTimeouts)
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("loom "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags, allowing them after positional arguments too.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, &exitError{0, fmt.Errorf("")}
			}
			return nil, &exitError{2, fmt.Errorf("")}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
