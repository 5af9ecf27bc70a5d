package ollamatest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
)

// Model is one installed model, as /api/tags lists it and /api/show
// describes it.
type Model struct {
	// Name as Ollama lists it, e.g. "llama3.2:latest".
	Name string
	// Family is the details' family, and the architecture when
	// Architecture is empty.
	Family       string
	Architecture string
	// ContextLength is "<architecture>.context_length" in model_info (0:
	// left out, as some models do).
	ContextLength int
	// Capabilities as /api/show reports them: "completion", "tools",
	// "embedding", "thinking", "vision". nil leaves the field out, as
	// Ollama did before it reported capabilities (clients then read the
	// template).
	Capabilities []string
	// Parameters is /api/show's parameters text, e.g. "num_ctx 4096".
	Parameters string
	Template   string
	// Size on disk in bytes; ParameterSize ("3.2B") and Quantization
	// ("Q4_K_M") are the details' parameter_size and quantization_level.
	Size          int64
	ParameterSize string
	Quantization  string
}

// Has reports whether the model has a capability.
func (m Model) Has(capability string) bool { return slices.Contains(m.Capabilities, capability) }

// Llama32 is llama3.2:latest: chat with tools, a 128k window.
func Llama32() Model {
	return Model{Name: "llama3.2:latest", Family: "llama", ContextLength: 131072, Capabilities: []string{"completion", "tools"},
		Parameters: `stop "<|eot_id|>"`, Template: "{{ if .Tools }}…{{ end }}{{ .Prompt }}",
		Size: 2019393189, ParameterSize: "3.2B", Quantization: "Q4_K_M"}
}

// Gemma2B is gemma:2b: chat without tools, an 8k window and num_ctx 4096
// in its parameters.
func Gemma2B() Model {
	return Model{Name: "gemma:2b", Family: "gemma", ContextLength: 8192, Capabilities: []string{"completion"},
		Parameters: "num_ctx 4096\nrepeat_penalty 1", Template: "{{ .Prompt }}",
		Size: 1678456656, ParameterSize: "3B", Quantization: "Q4_0"}
}

// NomicEmbedText is nomic-embed-text:latest: embeddings only.
func NomicEmbedText() Model {
	return Model{Name: "nomic-embed-text:latest", Family: "nomic-bert", ContextLength: 2048, Capabilities: []string{"embedding"},
		Parameters: "num_ctx 8192", Size: 274302450, ParameterSize: "137M", Quantization: "F16"}
}

// Qwen3 is qwen3:4b: chat with tools and thinking.
func Qwen3() Model {
	return Model{Name: "qwen3:4b", Family: "qwen3", ContextLength: 40960, Capabilities: []string{"completion", "tools", "thinking"},
		Size: 2497293918, ParameterSize: "4.0B", Quantization: "Q4_K_M"}
}

// Standard is a typical installation: a chat model with tools, one
// without, an embedding model and a thinking model.
func Standard() []Model { return []Model{Llama32(), Gemma2B(), NomicEmbedText(), Qwen3()} }

func (m Model) details() map[string]any {
	return map[string]any{"parent_model": "", "format": "gguf", "family": m.Family, "families": []string{m.Family},
		"parameter_size": m.ParameterSize, "quantization_level": m.Quantization}
}

// tags answers GET /api/tags.
func (s *Server) tags(w http.ResponseWriter) {
	s.mu.Lock()
	models := make([]map[string]any, 0, len(s.models))
	for _, m := range s.models {
		models = append(models, map[string]any{
			"name": m.Name, "model": m.Name, "modified_at": "2026-01-02T15:04:05.123456789Z", "size": m.Size,
			"digest": "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72", "details": m.details(),
		})
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"models": models})
}

// show answers POST /api/show; clients send the name as "model" (or, before
// Ollama 0.4, "name").
func (s *Server) show(w http.ResponseWriter, body []byte) {
	var req struct{ Model, Name string }
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	name := req.Model
	if name == "" {
		name = req.Name
	}
	m, ok := s.lookup(name)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", name))
		return
	}
	arch := m.Architecture
	if arch == "" {
		arch = m.Family
	}
	info := map[string]any{"general.architecture": arch, "general.parameter_count": 3212749888, "general.file_type": 15,
		arch + ".embedding_length": 3072, arch + ".block_count": 28}
	if m.ContextLength > 0 {
		info[arch+".context_length"] = m.ContextLength
	}
	resp := map[string]any{
		"license": "LICENSE AGREEMENT", "modelfile": "FROM /models/blobs/sha256-dde5",
		"parameters": m.Parameters, "template": m.Template, "details": m.details(),
		"model_info": info, "modified_at": "2026-01-02T15:04:05.123456789Z",
	}
	if m.Capabilities != nil {
		resp["capabilities"] = m.Capabilities
	}
	writeJSON(w, http.StatusOK, resp)
}
