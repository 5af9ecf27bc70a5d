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
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/openai"
)

// workspaceFlags are shared by every command that opens a workspace.
type workspaceFlags struct {
	dir       string
	embedder  string
	server    serverFlags
	model     string
	threshold float64
}

func (w *workspaceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&w.dir, "workspace", os.Getenv("LOOM_WORKSPACE"), "workspace folder (default ~/.local/share/loom/default)")
	fs.StringVar(&w.embedder, "embedder", "auto", "auto (the workspace's own; for a new workspace the model server's embedding model when it has one, else minilm when its weights are installed, else offline), offline (the table distilled from MiniLM: instant), minilm (the full MiniLM encoder: better ranking, about 30 ms a section to ingest and 7 ms a question on two cores; its weights come from bash scripts/minilm.sh), or the server's own: ollama or openai")
	w.server.register(fs)
	fs.StringVar(&w.model, "embed-model", "", "the model server's embedding model (default: the workspace's, else one the server lists as an embedding model, nomic-embed-text first)")
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
	msc, err := w.server.config()
	if err != nil {
		return backend.Config{}, err
	}
	return backend.Config{Dir: w.dir, Embedder: embed.Mode(w.embedder), EmbedModel: w.model, ConceptThreshold: w.threshold,
		Server: func() (modelserver.Server, error) {
			return backend.NewModelServer(msc, modelserver.Options{Wait: waitOptions, Notify: notify})
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

// ollamaAddress is Ollama's address: the --ollama-url flag (whose default
// is $LOOM_OLLAMA_URL), else $OLLAMA_HOST as the Ollama CLI reads it, else
// http://127.0.0.1:11434. The environment is read here, at the edge;
// ollama.ParseURL reads the result.
func ollamaAddress(flag string) string {
	return ollama.Address(flag, envconfig.Host().String())
}

// serverFlags choose the model server: --provider, --ollama-url,
// --openai-url and --context-length, with the environment as their
// defaults ($LOOM_PROVIDER, $LOOM_OLLAMA_URL then $OLLAMA_HOST,
// $LOOM_OPENAI_URL); the API key of an OpenAI-compatible server is read
// from $LOOM_OPENAI_API_KEY only, so that it never shows in a process
// list.
type serverFlags struct {
	fs            *flag.FlagSet
	provider      string
	ollamaURL     string
	openaiURL     string
	contextLength int
}

func (s *serverFlags) register(fs *flag.FlagSet) {
	s.fs = fs
	fs.StringVar(&s.provider, "provider", os.Getenv(modelserver.EnvProvider), "model server: ollama (the default) or openai, an OpenAI-compatible server (LM Studio, llama.cpp's llama-server, vLLM); default $"+modelserver.EnvProvider+", or openai when --openai-url is given")
	fs.StringVar(&s.ollamaURL, "ollama-url", os.Getenv(modelserver.EnvOllamaURL), "Ollama's address: this flag, else $"+modelserver.EnvOllamaURL+", else $OLLAMA_HOST, else http://127.0.0.1:11434. "+
		"A request to the model server that hears nothing for 10 s says so on stderr (stalled: 30 s), and gives up after "+ollamaTimeouts)
	fs.StringVar(&s.openaiURL, "openai-url", os.Getenv(modelserver.EnvOpenAIURL), "the OpenAI-compatible server's address (default $"+modelserver.EnvOpenAIURL+", else "+openai.DefaultURL+
		", LM Studio's; llama-server: http://127.0.0.1:8080/v1, vLLM: http://127.0.0.1:8000/v1). Its API key, if it wants one, is read from $"+modelserver.EnvAPIKey)
	fs.IntVar(&s.contextLength, "context-length", 0, "the window of a model whose OpenAI-compatible server does not report one (LM Studio and llama.cpp's server do)")
}

// config is the model server the flags say.
func (s *serverFlags) config() (modelserver.Config, error) {
	name := s.provider
	if s.fs != nil && !given(s.fs, "provider") && given(s.fs, "openai-url") {
		name = string(modelserver.OpenAI)
	}
	p, err := modelserver.ParseProvider(name)
	if err != nil {
		return modelserver.Config{}, usageErr("--provider: %v", err)
	}
	if s.contextLength < 0 {
		return modelserver.Config{}, usageErr("--context-length: %d, want a number of tokens", s.contextLength)
	}
	c := modelserver.Config{Provider: p, ContextLength: s.contextLength}
	if p == modelserver.OpenAI {
		c.URL, c.APIKey = s.openaiURL, os.Getenv(modelserver.EnvAPIKey)
	} else {
		c.URL = ollamaAddress(s.ollamaURL)
	}
	return c, nil
}

// client is the model server the flags say, its notices on stderr.
func (s *serverFlags) client(stderr io.Writer) (modelserver.Server, error) {
	c, err := s.config()
	if err != nil {
		return nil, err
	}
	srv, err := backend.NewModelServer(c, modelserver.Options{Wait: waitOptions, Notify: noticesTo(stderr)})
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return srv, nil
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
