package chat

import "slices"

// ModelInfo is what Loom needs to know about an installed model: what a
// Describer returns, and what a model server lists (backend/ollama,
// backend/openai).
type ModelInfo struct {
	// Name as the server lists it, e.g. "llama3.2:latest".
	Name string `json:"name"`
	// ContextLength is the window the model was trained for, from
	// "<architecture>.context_length" in Ollama's /api/show (an
	// OpenAI-compatible server: what it reports, or the configured
	// context length; 0 when nothing says).
	ContextLength int `json:"context_length"`
	// ServerWindow is the window the server runs the model with when a
	// request cannot change it (an OpenAI-compatible server: llama.cpp's
	// n_ctx, LM Studio's loaded context length); 0 when each request sets
	// it (Ollama's num_ctx). A chat's window defaults to it.
	ServerWindow int `json:"server_window,omitempty"`
	// DefaultNumCtx is a num_ctx fixed by the model's parameters (0: none).
	// Chat always sends num_ctx, so this is only informative.
	DefaultNumCtx int `json:"default_num_ctx,omitempty"`
	// Capabilities from /api/show: tool calling, embeddings, completion
	// (chat), thinking, image input.
	Tools      bool `json:"tools"`
	Embedding  bool `json:"embedding"`
	Completion bool `json:"completion"`
	Thinking   bool `json:"thinking"`
	Vision     bool `json:"vision"`
	// Size on disk in bytes (from a model list; 0 from Describe).
	Size int64 `json:"size,omitempty"`
	// Family ("llama"), Parameters ("3.2B") and Quantization ("Q4_K_M")
	// from the model's details.
	Family       string `json:"family,omitempty"`
	Parameters   string `json:"parameters,omitempty"`
	Quantization string `json:"quantization,omitempty"`
	// Unknown lists what the server does not report about this model
	// ("tools", "embedding", "vision", "context_length"): an
	// OpenAI-compatible server that lists only names. A chat offers tools
	// to a model whose tool support is unknown, and answers without them
	// if the server refuses (errs.ModelNoTools).
	Unknown []string `json:"unknown,omitempty"`
	// Error is set in a model list when describing this model alone
	// failed.
	Error string `json:"error,omitempty"`
}

// Knows reports whether the server reported the capability (one of the
// names Unknown holds).
func (m ModelInfo) Knows(capability string) bool { return !slices.Contains(m.Unknown, capability) }
