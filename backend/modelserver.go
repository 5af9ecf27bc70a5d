package backend

import (
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/openai"
)

// NewModelServer makes the client of the model server c names — Ollama
// (backend/ollama) or an OpenAI-compatible server (backend/openai) — at
// c.URL ("": the provider's default), with o's notices and limits. It
// makes no request. The edges resolve c.URL first (flags, settings, the
// environment).
func NewModelServer(c modelserver.Config, o modelserver.Options) (modelserver.Server, error) {
	p, err := modelserver.ParseProvider(string(c.Provider))
	if err != nil {
		return nil, err
	}
	if p == modelserver.OpenAI {
		opts := []openai.Option{openai.WithAPIKey(c.APIKey), openai.WithContextLength(c.ContextLength), openai.WithWait(o.Wait), openai.WithNotify(o.Notify)}
		if o.Timeout > 0 {
			opts = append(opts, openai.WithTimeout(o.Timeout))
		}
		if o.HTTP != nil {
			opts = append(opts, openai.WithHTTPClient(o.HTTP))
		}
		oc, err := openai.New(c.URL, opts...)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return oc, nil
	}
	opts := []ollama.Option{ollama.WithWait(o.Wait), ollama.WithNotify(o.Notify)}
	if o.Timeout > 0 {
		opts = append(opts, ollama.WithTimeout(o.Timeout))
	}
	if o.HTTP != nil {
		opts = append(opts, ollama.WithHTTPClient(o.HTTP))
	}
	oc, err := ollama.New(c.URL, opts...)
	if err != nil {
		return nil, err
	}
	return oc, nil
}
