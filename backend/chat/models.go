package chat

// ModelInfo is what Loom needs to know about an installed model: what a
// Describer returns, and what backend/ollama lists.
type ModelInfo struct {
	// Name as Ollama lists it, e.g. "llama3.2:latest".
	Name string `json:"name"`
	// ContextLength is the window the model was trained for, from
	// "<architecture>.context_length" in /api/show's model_info (0 when
	// the model does not say).
	ContextLength int `json:"context_length"`
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
	// Error is set in a model list when describing this model alone
	// failed.
	Error string `json:"error,omitempty"`
}
