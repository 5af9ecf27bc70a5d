package openai

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// The capabilities a model list may not report (chat.ModelInfo.Unknown).
const (
	capTools      = "tools"
	capEmbedding  = "embedding"
	capCompletion = "completion"
	capVision     = "vision"
	capContext    = "context_length"
)

// modelList is GET /v1/models. llama.cpp adds "meta" (the GGUF's numbers),
// vLLM "max_model_len"; owned_by says which server answers.
type modelList struct {
	Data []struct {
		ID      string `json:"id"`
		OwnedBy string `json:"owned_by"`
		Meta    *struct {
			NCtxTrain int   `json:"n_ctx_train"`
			Size      int64 `json:"size"`
		} `json:"meta"`
		MaxModelLen int `json:"max_model_len"`
	} `json:"data"`
}

// lmStudioV1 is LM Studio's GET /api/v1/models (LM Studio 0.4 and later).
type lmStudioV1 struct {
	Models []struct {
		Type         string `json:"type"` // "llm" or "embedding"
		Key          string `json:"key"`
		Architecture string `json:"architecture"`
		Quantization *struct {
			Name string `json:"name"`
		} `json:"quantization"`
		SizeBytes       int64  `json:"size_bytes"`
		ParamsString    string `json:"params_string"`
		LoadedInstances []struct {
			Config struct {
				ContextLength int `json:"context_length"`
			} `json:"config"`
		} `json:"loaded_instances"`
		MaxContextLength int `json:"max_context_length"`
		Capabilities     *struct {
			Vision            bool `json:"vision"`
			TrainedForToolUse bool `json:"trained_for_tool_use"`
			Reasoning         any  `json:"reasoning"`
		} `json:"capabilities"`
	} `json:"models"`
}

// lmStudioV0 is LM Studio's GET /api/v0/models (0.3.6 and later);
// capabilities (["tool_use"]) and loaded_context_length came later still.
type lmStudioV0 struct {
	Data []struct {
		ID                  string    `json:"id"`
		Type                string    `json:"type"` // "llm", "vlm" or "embeddings"
		Arch                string    `json:"arch"`
		Quantization        string    `json:"quantization"`
		MaxContextLength    int       `json:"max_context_length"`
		LoadedContextLength int       `json:"loaded_context_length"`
		Capabilities        *[]string `json:"capabilities"`
	} `json:"data"`
}

// llamaProps is llama.cpp's GET /props: the window each slot runs with,
// the chat template's capabilities (newer builds) and the modalities.
type llamaProps struct {
	DefaultGenerationSettings struct {
		NCtx int `json:"n_ctx"`
	} `json:"default_generation_settings"`
	ChatTemplateCaps map[string]any `json:"chat_template_caps"`
	Modalities       *struct {
		Vision bool `json:"vision"`
	} `json:"modalities"`
}

// Models lists the models the server serves (/v1/models) with what each
// can do, from what the server adds to the list (see the package doc);
// what nothing reports is in chat.ModelInfo.Unknown.
func (c *Client) Models(ctx context.Context) ([]chat.ModelInfo, error) {
	return c.list(ctx, nil, c.cfg.timeout)
}

// Model describes one model; a model the server does not list is an
// *Error with code errs.OllamaModelMissing that names the models it does.
func (c *Client) Model(ctx context.Context, name string) (chat.ModelInfo, error) {
	return c.Describe(ctx, name, nil)
}

// Describe is Model with the notices going to notify (nil: the client's
// notifier); it implements chat.Describer.
func (c *Client) Describe(ctx context.Context, name string, notify func(wait.Notice)) (chat.ModelInfo, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return chat.ModelInfo{}, c.modelMissing("", nil, nil)
	}
	models, err := c.list(ctx, notify, c.cfg.timeout)
	if err != nil {
		return chat.ModelInfo{}, err
	}
	var names []string
	for _, m := range models {
		if strings.EqualFold(m.Name, name) {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return chat.ModelInfo{}, c.modelMissing(name, names, nil)
}

// list lists the models, each request given up after limit.
func (c *Client) list(ctx context.Context, notify func(wait.Notice), limit time.Duration) ([]chat.ModelInfo, error) {
	var ml modelList
	if err := c.call(ctx, route{method: http.MethodGet, path: "/models", what: "list its models", limit: limit, notify: notify}, &ml); err != nil {
		return nil, err
	}
	f := generic
	if len(ml.Data) > 0 {
		f = flavorOf(ml.Data[0].OwnedBy)
	}
	c.setFlavor(f)
	out := make([]chat.ModelInfo, 0, len(ml.Data))
	for _, m := range ml.Data {
		info := chat.ModelInfo{Name: m.ID, Unknown: []string{capCompletion, capTools, capEmbedding, capVision, capContext}}
		switch {
		case m.Meta != nil && m.Meta.NCtxTrain > 0: // llama.cpp
			info.ContextLength, info.Size = m.Meta.NCtxTrain, m.Meta.Size
			info.Unknown = without(info.Unknown, capContext)
		case m.MaxModelLen > 0: // vLLM: the window it runs with
			info.ContextLength, info.ServerWindow = m.MaxModelLen, m.MaxModelLen
			info.Unknown = without(info.Unknown, capContext)
		}
		out = append(out, info)
	}
	switch f {
	case lmStudio:
		if err := c.addLMStudio(ctx, out, notify, limit); err != nil {
			return nil, err
		}
	case llamaCpp:
		if err := c.addLlamaCpp(ctx, out, notify, limit); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if c.cfg.context > 0 && out[i].ServerWindow == 0 {
			// The person's setting stands in for the window the server
			// does not report.
			out[i].ServerWindow = c.cfg.context
			if out[i].ContextLength == 0 {
				out[i].ContextLength = c.cfg.context
			}
			out[i].Unknown = without(out[i].Unknown, capContext)
		}
	}
	return out, nil
}

// extra reads one of the server's own routes into out. The server says
// it has it (its flavor), but an older version may not: a reply that is
// not there or not readable is no reply (false), while the caller's
// cancellation and a server that stops answering fail the list.
func (c *Client) extra(ctx context.Context, path string, notify func(wait.Notice), limit time.Duration, out any) (bool, error) {
	err := c.call(ctx, route{method: http.MethodGet, path: path, atRoot: true, what: "describe its models (" + path + ")", limit: limit, notify: notify}, out)
	if err == nil {
		return true, nil
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var e *Error
	if errors.As(err, &e) && e.Code != errs.OllamaNotRunning && e.Code != errs.OllamaTimeout {
		return false, nil
	}
	return false, err
}

// addLMStudio adds what LM Studio's own model list says: its v1 route,
// else its v0 route.
func (c *Client) addLMStudio(ctx context.Context, out []chat.ModelInfo, notify func(wait.Notice), limit time.Duration) error {
	var v1 lmStudioV1
	ok, err := c.extra(ctx, "/api/v1/models", notify, limit, &v1)
	if err != nil {
		return err
	}
	if ok && len(v1.Models) > 0 {
		for _, m := range v1.Models {
			info := find(out, m.Key)
			if info == nil {
				continue
			}
			info.Completion, info.Embedding = m.Type == "llm", m.Type == "embedding"
			info.ContextLength = m.MaxContextLength
			if len(m.LoadedInstances) > 0 {
				info.ServerWindow = m.LoadedInstances[0].Config.ContextLength
			}
			info.Family, info.Parameters, info.Size = m.Architecture, m.ParamsString, m.SizeBytes
			if m.Quantization != nil {
				info.Quantization = m.Quantization.Name
			}
			info.Unknown = without(info.Unknown, capCompletion, capEmbedding, capContext)
			if m.Capabilities != nil || info.Embedding {
				// Embedding models have no capabilities: no tools, no vision.
				if m.Capabilities != nil {
					info.Tools, info.Vision, info.Thinking = m.Capabilities.TrainedForToolUse, m.Capabilities.Vision, m.Capabilities.Reasoning != nil
				}
				info.Unknown = without(info.Unknown, capTools, capVision)
			}
		}
		return nil
	}
	var v0 lmStudioV0
	if ok, err = c.extra(ctx, "/api/v0/models", notify, limit, &v0); err != nil || !ok {
		return err
	}
	for _, m := range v0.Data {
		info := find(out, m.ID)
		if info == nil {
			continue
		}
		info.Completion, info.Embedding, info.Vision = m.Type == "llm" || m.Type == "vlm", m.Type == "embeddings", m.Type == "vlm"
		info.ContextLength, info.ServerWindow = m.MaxContextLength, m.LoadedContextLength
		info.Family, info.Quantization = m.Arch, m.Quantization
		info.Unknown = without(info.Unknown, capCompletion, capEmbedding, capVision, capContext)
		if m.Capabilities != nil || info.Embedding {
			info.Tools = m.Capabilities != nil && slices.Contains(*m.Capabilities, "tool_use")
			info.Unknown = without(info.Unknown, capTools)
		}
	}
	return nil
}

// addLlamaCpp adds what llama.cpp's /props says: the window its slots run
// with, and, in builds that report them, its chat template's tool support
// and its modalities. A router serving several models has no one window.
func (c *Client) addLlamaCpp(ctx context.Context, out []chat.ModelInfo, notify func(wait.Notice), limit time.Duration) error {
	if len(out) != 1 {
		return nil
	}
	var p llamaProps
	ok, err := c.extra(ctx, "/props", notify, limit, &p)
	if err != nil || !ok {
		return err
	}
	info := &out[0]
	if n := p.DefaultGenerationSettings.NCtx; n > 0 {
		info.ServerWindow = n
		if info.ContextLength == 0 {
			info.ContextLength = n
		}
		info.Unknown = without(info.Unknown, capContext)
	}
	for _, key := range []string{"supports_tool_calls", "supports_tools"} {
		if v, found := p.ChatTemplateCaps[key].(bool); found {
			info.Tools = v
			info.Unknown = without(info.Unknown, capTools)
			break
		}
	}
	if p.Modalities != nil {
		info.Vision = p.Modalities.Vision
		info.Unknown = without(info.Unknown, capVision)
	}
	return nil
}

// find is the listed model named name.
func find(models []chat.ModelInfo, name string) *chat.ModelInfo {
	for i := range models {
		if strings.EqualFold(models[i].Name, name) {
			return &models[i]
		}
	}
	return nil
}

// without is list without the names given.
func without(list []string, names ...string) []string {
	out := list[:0:0]
	for _, s := range list {
		if !slices.Contains(names, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
