// Package modelserver is what Loom asks of a local model server, whichever
// it is: Ollama (backend/ollama, on Ollama's own client) or an
// OpenAI-compatible server — LM Studio, llama.cpp's llama-server, vLLM —
// (backend/openai, on the /v1 wire protocol). Both adapters implement
// Server: chat streaming with tool calls (chat.Server), the model list
// with each model's capabilities, and embedding models (embed.Remote), and
// both report failures with the same codes (backend/errs) and sentences
// that name the server and say what to do.
//
// The edges (cmd/loom, bind) read the person's choice into a Config —
// flags, the desktop app's settings, the environment variables named here
// — and the engine's wiring (backend.NewModelServer) makes the Server:
//
//	srv, err := backend.NewModelServer(modelserver.Config{Provider: modelserver.OpenAI,
//		URL: "http://127.0.0.1:1234/v1"}, modelserver.Options{Notify: show})
//	models, err := srv.Models(ctx) // tools, embeddings, context length
//	turns := chat.New(srv)
//
// Only the configured address is contacted: Loom never looks for servers
// on other ports or hosts.
package modelserver

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Provider is the kind of model server.
type Provider string

// The providers.
const (
	// Ollama is a local Ollama (the default).
	Ollama Provider = "ollama"
	// OpenAI is a server that speaks OpenAI's /v1 protocol: LM Studio,
	// llama.cpp's llama-server, vLLM, and others.
	OpenAI Provider = "openai"
)

// The environment variables the edges read (after their own flags and
// settings): the provider, the OpenAI-compatible server's address and its
// API key. Ollama's address is LOOM_OLLAMA_URL, then OLLAMA_HOST.
const (
	EnvProvider  = "LOOM_PROVIDER"
	EnvOpenAIURL = "LOOM_OPENAI_URL"
	EnvAPIKey    = "LOOM_OPENAI_API_KEY"
	EnvOllamaURL = "LOOM_OLLAMA_URL"
)

// ParseProvider reads a provider as written on the command line or in
// settings; "" is Ollama.
func ParseProvider(s string) (Provider, error) {
	switch p := Provider(strings.ToLower(strings.TrimSpace(s))); p {
	case "":
		return Ollama, nil
	case Ollama, OpenAI:
		return p, nil
	}
	return "", fmt.Errorf("unknown model server %q: want ollama or openai (an OpenAI-compatible server: LM Studio, llama.cpp, vLLM)", s)
}

// EmbedMode is the embedder mode that names this provider's embedding
// model (embed.ModeOllama or embed.ModeOpenAI).
func (p Provider) EmbedMode() embed.Mode {
	if p == OpenAI {
		return embed.ModeOpenAI
	}
	return embed.ModeOllama
}

// Server is a model server Loom chats and embeds with.
type Server interface {
	// Stream and Describe run chat turns (backend/chat).
	chat.Server
	// Models lists the models with what each can do: tool calling,
	// embeddings, completion, vision, context length (chat.ModelInfo).
	Models(ctx context.Context) ([]chat.ModelInfo, error)
	// EmbedRemote names one of its embedding models ("": the adapter's
	// default); it makes no request.
	EmbedRemote(model string) embed.Remote
	// MissingModel is the error for a model the server does not have:
	// code errs.OllamaModelMissing, and a message saying how to get it
	// (`ollama pull NAME`; loading it in LM Studio; …).
	MissingModel(model string) error
	// Provider is the kind of server, Name what to call it for the person
	// ("Ollama", "LM Studio", "llama.cpp's server"; known once it has
	// answered) and URL its address.
	Provider() Provider
	Name() string
	URL() string
}

// Config is the person's choice of model server.
type Config struct {
	// Provider is ollama (the default) or openai.
	Provider Provider `json:"provider"`
	// URL is the server's address ("": the provider's default).
	URL string `json:"url,omitempty"`
	// APIKey is sent as a bearer token to an OpenAI-compatible server
	// ("": none). It is never logged, nor sent to the page.
	APIKey string `json:"-"`
	// ChatModel is the model chats use by default, EmbedModel the
	// embedding model ("": the workspace's, else one the server lists as
	// an embedding model).
	ChatModel  string `json:"chat_model,omitempty"`
	EmbedModel string `json:"embed_model,omitempty"`
	// ContextLength is the window to assume for a model of an
	// OpenAI-compatible server that does not report one (0: none).
	ContextLength int `json:"context_length,omitempty"`
}

// Options are how a Server's requests behave; the zero value is each
// adapter's defaults.
type Options struct {
	// Notify hears while the server is silent (package wait).
	Notify func(wait.Notice)
	// Wait sets when a waiting request speaks up (tests: a clock).
	Wait wait.Options
	// Timeout bounds the short requests: model lists and descriptions
	// (0: the adapter's default).
	Timeout time.Duration
	// HTTP is the HTTP client (nil: a new one).
	HTTP *http.Client
}

// DefaultEmbedModel is the embedding model preferred when none is
// configured and the workspace has none: nomic-embed-text, as Ollama names
// it (LM Studio's text-embedding-nomic-embed-text-v1.5 matches too).
const DefaultEmbedModel = "nomic-embed-text"

// ModelOf is the model of an embedder ID if the ID is this provider's
// ("ollama/nomic-embed-text" → "nomic-embed-text").
func ModelOf(embedderID string, p Provider) (string, bool) {
	m, ok := strings.CutPrefix(embedderID, string(p)+"/")
	return m, ok && m != ""
}

// PickEmbedModel picks the embedding model a new workspace uses from what
// the server lists: one whose name holds DefaultEmbedModel, else the first
// by name of those the server reports as embedding models; "" when it
// reports none. (A workspace that has an embedder keeps it: the caller
// asks for that model by name.)
func PickEmbedModel(models []chat.ModelInfo) string {
	var embedding []string
	for _, m := range models {
		if m.Embedding {
			embedding = append(embedding, m.Name)
		}
	}
	slices.Sort(embedding)
	for _, name := range embedding {
		if strings.Contains(strings.ToLower(name), DefaultEmbedModel) {
			return name
		}
	}
	if len(embedding) > 0 {
		return embedding[0]
	}
	return ""
}
