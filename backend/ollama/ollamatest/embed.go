package ollamatest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strings"
)

// DefaultEmbedDim is the dimension of the default vectors, as
// nomic-embed-text's.
const DefaultEmbedDim = 768

// Embedder makes the vectors of one /api/embed request: one per input, in
// order (a test may return fewer, or vectors of other lengths, to play a
// broken server).
type Embedder func(model string, inputs []string) [][]float32

// Hashed embeds each text as Vector does, in dim dimensions.
func Hashed(dim int) Embedder {
	return func(_ string, inputs []string) [][]float32 {
		out := make([][]float32, len(inputs))
		for i, text := range inputs {
			out[i] = Vector(text, dim)
		}
		return out
	}
}

// Vector is a deterministic embedding of text: its lower-cased words
// counted into dim buckets by their FNV-1a hash and scaled to unit length,
// so texts that share words are close. A text without words is the first
// axis (Ollama never answers with a zero vector).
func Vector(text string, dim int) []float32 {
	v := make([]float32, dim)
	for _, word := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		_, _ = h.Write([]byte(word))
		v[h.Sum32()%uint32(dim)]++
	}
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		v[0] = 1
		return v
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(ss))
	}
	return v
}

// embedInput reads /api/embed's input: a string or a list of strings.
func embedInput(body []byte) []string {
	var req struct {
		Input any `json:"input"`
	}
	_ = json.Unmarshal(body, &req)
	switch in := req.Input.(type) {
	case string:
		if in != "" {
			return []string{in}
		}
	case []any:
		out := make([]string, 0, len(in))
		for _, v := range in {
			s, _ := v.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// embed answers POST /api/embed.
func (s *Server) embed(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
		Input any    `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	switch in := req.Input.(type) {
	case nil, string:
	case []any:
		for _, v := range in {
			if _, ok := v.(string); !ok {
				writeError(w, http.StatusBadRequest, "invalid input type")
				return
			}
		}
	default:
		writeError(w, http.StatusBadRequest, "invalid input type")
		return
	}
	if _, ok := s.lookup(req.Model); !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("model %q not found, try pulling it first", req.Model))
		return
	}
	inputs := embedInput(body)
	if len(inputs) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{"model": req.Model, "embeddings": [][]float32{}})
		return
	}
	s.mu.Lock()
	embedder := s.embedder
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"model": req.Model, "embeddings": embedder(req.Model, inputs),
		"total_duration": 14143917, "load_duration": 1019500, "prompt_eval_count": 8})
}
