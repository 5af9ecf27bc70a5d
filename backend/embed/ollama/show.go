package ollama

import (
	"context"
	"strconv"
	"strings"

	"github.com/ollama/ollama/api"
)

// ContextLength reads a model's context window from Ollama's /api/show:
// the "<architecture>.context_length" of its model info, lowered by a
// num_ctx the model's parameters fix. Errors are *Error values that say
// what to do (start Ollama, pull the model).
func ContextLength(ctx context.Context, model string, opts ...Option) (int, error) {
	c, err := newConfig(append(opts, WithModel(model)))
	if err != nil {
		return 0, err
	}
	reqCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.client().Show(reqCtx, &api.ShowRequest{Model: c.model})
	if err != nil {
		return 0, c.classify(ctx, "show model "+c.model, err)
	}
	n := 0
	for k, v := range resp.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if f, ok := v.(float64); ok && f > 0 {
				n = int(f)
			}
		}
	}
	for _, line := range strings.Split(resp.Parameters, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if v, err := strconv.Atoi(f[1]); err == nil && v > 0 && (n == 0 || v < n) {
				n = v
			}
		}
	}
	if n == 0 {
		return 0, c.badResponse(nil, "model %s reports no context length; give --window", c.model)
	}
	return n, nil
}
