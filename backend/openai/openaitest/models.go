package openaitest

import "net/http"

// listModels answers GET /v1/models as the flavor does.
func (s *Server) listModels(w http.ResponseWriter) {
	f, models := s.snapshot()
	data := make([]map[string]any, 0, len(models))
	for _, m := range models {
		entry := map[string]any{"id": m.ID, "object": "model", "created": 1735142223}
		switch f {
		case LMStudio, LMStudio03:
			entry["owned_by"] = "organization_owner"
		case LlamaCpp:
			entry["owned_by"] = "llamacpp"
			entry["meta"] = map[string]any{"vocab_type": 2, "n_vocab": 128256, "n_ctx_train": m.ContextLength,
				"n_embd": 4096, "n_params": 8030261312, "size": 4912898304}
		case VLLM:
			entry["owned_by"] = "vllm"
			entry["root"], entry["parent"] = m.ID, nil
			entry["max_model_len"] = m.ContextLength
		default:
			entry["owned_by"] = "organization"
		}
		data = append(data, entry)
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// lmStudioV1 answers LM Studio's GET /api/v1/models.
func (s *Server) lmStudioV1(w http.ResponseWriter) {
	_, models := s.snapshot()
	out := make([]map[string]any, 0, len(models))
	for _, m := range models {
		entry := map[string]any{"key": m.ID, "display_name": m.ID, "publisher": "lmstudio-community",
			"quantization": map[string]any{"name": "Q4_K_M", "bits_per_weight": 4}, "size_bytes": 2497293918,
			"max_context_length": m.ContextLength, "format": "gguf", "loaded_instances": []any{}}
		if m.Loaded > 0 {
			entry["loaded_instances"] = []any{map[string]any{"id": m.ID, "config": map[string]any{"context_length": m.Loaded}}}
		}
		if m.Embedding {
			entry["type"] = "embedding"
			entry["params_string"] = nil
		} else {
			entry["type"], entry["architecture"], entry["params_string"] = "llm", "qwen3", "4B"
			entry["capabilities"] = map[string]any{"vision": m.Vision, "trained_for_tool_use": m.Tools}
		}
		out = append(out, entry)
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": out})
}

// lmStudioV0 answers LM Studio's GET /api/v0/models; LMStudio03 plays a
// version from before capabilities and loaded_context_length.
func (s *Server) lmStudioV0(w http.ResponseWriter) {
	f, models := s.snapshot()
	data := make([]map[string]any, 0, len(models))
	for _, m := range models {
		entry := map[string]any{"id": m.ID, "object": "model", "publisher": "lmstudio-community", "arch": "qwen3",
			"compatibility_type": "gguf", "quantization": "Q4_K_M", "state": "not-loaded", "max_context_length": m.ContextLength}
		switch {
		case m.Embedding:
			entry["type"] = "embeddings"
		case m.Vision:
			entry["type"] = "vlm"
		default:
			entry["type"] = "llm"
		}
		if m.Loaded > 0 {
			entry["state"] = "loaded"
		}
		if f == LMStudio {
			if m.Loaded > 0 {
				entry["loaded_context_length"] = m.Loaded
			}
			caps := []string{}
			if m.Tools {
				caps = append(caps, "tool_use")
			}
			entry["capabilities"] = caps
		}
		data = append(data, entry)
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// props answers llama.cpp's GET /props for its (first) model.
func (s *Server) props(w http.ResponseWriter) {
	_, models := s.snapshot()
	if len(models) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{})
		return
	}
	m := models[0]
	writeJSON(w, http.StatusOK, map[string]any{
		"default_generation_settings": map[string]any{"id": 0, "id_task": -1, "n_ctx": m.Loaded, "speculative": false, "is_processing": false,
			"params": map[string]any{"n_predict": -1, "temperature": 0.8, "top_k": 40, "top_p": 0.95}},
		"total_slots": 1, "model_path": m.ID, "chat_template": "{{ messages }}",
		"chat_template_caps": map[string]any{"supports_tools": m.Tools, "supports_tool_calls": m.Tools, "supports_system_role": true},
		"modalities":         map[string]any{"vision": m.Vision, "audio": false},
		"build_info":         "b6000-a1b2c3d",
	})
}
