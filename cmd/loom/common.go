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
	return w.openWith(ctx, stderr)
}

func (w *workspaceFlags) openWith(ctx context.Context, stderr io.Writer, extra ...backend.Option) (*backend.Workbench, error) {
	dir, opts, err := w.options(stderr)
	if err != nil {
		return nil, err
	}
	return backend.Open(ctx, dir, append(opts, extra...)...)
}

// options are the workspace's folder and the options that open it as the
// flags say (the embedder, the concept threshold).
func (w *workspaceFlags) options(stderr io.Writer) (string, []backend.Option, error) {
	dir := w.dir
	if dir == "" {
		d, err := backend.DefaultWorkspaceDir("default")
		if err != nil {
			return "", nil, err
		}
		dir = d
	}
	mode, url, model := w.embedder, w.ollamaURL, w.model
	resolve := func(ctx context.Context) (embed.Embedder, string, error) {
		e, why, err := selectEmbedder(ctx, mode, url, model, stderr)
		if err == nil && why != "" {
			fmt.Fprintln(stderr, why)
		}
		return e, why, err
	}
	opts := []backend.Option{backend.WithEmbedderResolver(resolve)}
	if w.threshold > 0 {
		opts = append(opts, backend.WithConceptThreshold(w.threshold))
	}
	return dir, opts, nil
}

// openToRead opens the workspace for a command that only reads it: for
// writing when it can (so summaries and access times are kept), else
// read-only beside the process that holds it, or on a folder that cannot
// be written, saying so on stderr.
func (w *workspaceFlags) openToRead(ctx context.Context, stderr io.Writer, extra ...backend.Option) (*backend.Workbench, error) {
	wb, err := w.openWith(ctx, stderr, append(extra, backend.ReadOnlyWhenBusy())...)
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
