package ollama

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Models lists the installed models (/api/tags) with the capabilities and
// context length of each (/api/show). A model that /api/show fails on is
// still listed, with Error set; failing to reach Ollama fails the call.
func (c *Client) Models(ctx context.Context) ([]chat.ModelInfo, error) {
	var list *api.ListResponse
	err := c.short(ctx, "list models", "", nil, func(ctx context.Context) (err error) {
		list, err = c.api.List(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]chat.ModelInfo, 0, len(list.Models))
	for _, m := range list.Models {
		info, err := c.Model(ctx, m.Name)
		if err != nil {
			var e *Error
			if ctx.Err() != nil || !errors.As(err, &e) || e.Code == errs.OllamaNotRunning || e.Code == errs.OllamaTimeout {
				return nil, err
			}
			info = chat.ModelInfo{Name: m.Name, Error: err.Error()}
			info.Family, info.Parameters, info.Quantization = m.Details.Family, m.Details.ParameterSize, m.Details.QuantizationLevel
		}
		info.Size = m.Size
		out = append(out, info)
	}
	return out, nil
}

// Model describes one model with a single /api/show request. A model that
// is not installed is an *Error with code errs.OllamaModelMissing whose
// message says to run `ollama pull <name>`.
func (c *Client) Model(ctx context.Context, name string) (chat.ModelInfo, error) {
	return c.Describe(ctx, name, nil)
}

// Describe is Model with the notices going to notify (nil: the client's
// notifier); it implements chat.Describer.
func (c *Client) Describe(ctx context.Context, name string, notify func(wait.Notice)) (chat.ModelInfo, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return chat.ModelInfo{}, c.fail(errs.OllamaModelMissing, "", nil, "no model given: pick one from `ollama list`, or run `ollama pull llama3.2`")
	}
	var resp *api.ShowResponse
	err := c.short(ctx, "describe model "+name, name, notify, func(ctx context.Context) (err error) {
		resp, err = c.api.Show(ctx, &api.ShowRequest{Model: name})
		return err
	})
	if err != nil {
		return chat.ModelInfo{}, err
	}
	return modelInfo(name, resp), nil
}

// short makes one request that is not streamed (/api/tags, /api/show)
// under a watch: notices while Ollama is silent, and a timeout error after
// the request timeout. what completes "failed to …" and "waiting for
// Ollama to …".
func (c *Client) short(ctx context.Context, what, model string, notify func(wait.Notice), do func(context.Context) error) error {
	reqCtx, w := c.watch(ctx, what, model, c.cfg.timeout, notify)
	err := do(reqCtx)
	w.Stop()
	switch {
	case err == nil:
		return nil
	case ctx.Err() == nil && w.GaveUp():
		return c.sentNothing(what, model, c.cfg.timeout, 0)
	}
	return c.classify(ctx, what, model, err, c.sentNothing(what, model, c.cfg.timeout, 0))
}

// modelInfo reads a /api/show response.
func modelInfo(name string, resp *api.ShowResponse) chat.ModelInfo {
	info := chat.ModelInfo{
		Name:          name,
		ContextLength: contextLength(resp.ModelInfo),
		DefaultNumCtx: paramNumCtx(resp.Parameters),
		Family:        resp.Details.Family,
		Parameters:    resp.Details.ParameterSize,
		Quantization:  resp.Details.QuantizationLevel,
	}
	caps := resp.Capabilities
	if len(caps) == 0 {
		// Ollama before capabilities were reported: infer from the
		// template, as Ollama itself did.
		if resp.Template != "" {
			caps = append(caps, model.CapabilityCompletion)
		}
		if strings.Contains(resp.Template, ".Tools") {
			caps = append(caps, model.CapabilityTools)
		}
	}
	info.Completion = slices.Contains(caps, model.CapabilityCompletion)
	info.Tools = slices.Contains(caps, model.CapabilityTools)
	info.Embedding = slices.Contains(caps, model.CapabilityEmbedding)
	info.Thinking = slices.Contains(caps, model.CapabilityThinking)
	info.Vision = slices.Contains(caps, model.CapabilityVision)
	return info
}

// contextLength reads "<general.architecture>.context_length", or failing
// that any "*.context_length" key.
func contextLength(mi map[string]any) int {
	asInt := func(v any) int {
		if f, ok := v.(float64); ok && f > 0 {
			return int(f)
		}
		return 0
	}
	if arch, ok := mi["general.architecture"].(string); ok {
		if n := asInt(mi[arch+".context_length"]); n > 0 {
			return n
		}
	}
	n := 0
	for k, v := range mi {
		if strings.HasSuffix(k, ".context_length") {
			n = max(n, asInt(v))
		}
	}
	return n
}

// paramNumCtx reads "num_ctx N" from /api/show's parameters text.
func paramNumCtx(params string) int {
	for line := range strings.SplitSeq(params, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "num_ctx" {
			if v, err := strconv.Atoi(f[1]); err == nil && v > 0 {
				return v
			}
		}
	}
	return 0
}
