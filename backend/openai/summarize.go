package openai

import (
	"context"
	"fmt"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/errs"
)

// Summarizer summarises with a model an OpenAI-compatible server serves
// (abstract.Summarizer): one chat completion, not streamed, at temperature
// 0 with max_tokens of twice the limit, asking with abstract.Prompt; the
// reply is cleaned of labels, quotes and thinking (abstract.CleanReply) and
// cut at a sentence (else a word) boundary if it counts more than
// maxTokens (abstract.FitText) — as ollama.Summarizer does with Ollama.
//
// When the server fails and Fallback is set, Summarize returns the
// fallback's text together with an *abstract.FellBackError, so a caller
// that caches the text can record who made it; without Fallback the
// failure is the client's *Error (it names the server and what to do),
// prefixed with the summariser's ID. The fields are read, never written:
// one Summarizer may serve concurrent calls.
type Summarizer struct {
	// Client talks to the server.
	Client *Client
	// Model is the generating model, e.g. "qwen/qwen3-4b".
	Model string
	// Count measures maxTokens; required.
	Count abstract.Counter
	// Fallback summarises when the server fails; nil means report the failure.
	Fallback abstract.Summarizer
}

var _ abstract.Summarizer = (*Summarizer)(nil)

// ID returns "openai/<model>".
func (s *Summarizer) ID() string { return "openai/" + s.Model }

// Summarize returns the summary or essence of text in at most maxTokens
// tokens as measured by s.Count. A Summary of a text that already fits is
// the text itself, without asking the server. If the caller's ctx ends,
// its error is returned and Fallback is not tried.
func (s *Summarizer) Summarize(ctx context.Context, text string, level abstract.Level, maxTokens int) (string, error) {
	return abstract.ByModel(ctx, s.ID(), s.Count, text, level, maxTokens,
		func() (string, error) { return s.generate(ctx, text, level, maxTokens) }, s.Fallback)
}

// generate asks the server once and checks and fits its reply.
func (s *Summarizer) generate(ctx context.Context, text string, level abstract.Level, maxTokens int) (string, error) {
	if s.Client == nil {
		return "", s.fail(errs.OllamaNotRunning, "no model server configured")
	}
	if strings.TrimSpace(s.Model) == "" {
		return "", s.fail(errs.OllamaModelMissing, "no model named: set Summarizer.Model")
	}
	stream := false
	req := &api.ChatRequest{
		Model:    s.Model,
		Stream:   &stream,
		Messages: []api.Message{{Role: "user", Content: abstract.Prompt(text, level, maxTokens)}},
		Options: map[string]any{
			"num_predict": maxTokens * 2, // max_tokens: room to finish a sentence; the cut below enforces the limit
			"temperature": 0,
		},
	}
	var reply strings.Builder
	var last api.ChatResponse
	answered := false
	err := s.Client.Stream(ctx, req, nil, func(r api.ChatResponse) {
		reply.WriteString(r.Message.Content)
		last, answered = r, true
	})
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return "", fmt.Errorf("summarise with %s: %w", s.ID(), ctxErr)
		}
		return "", fmt.Errorf("summarise with %s: %w", s.ID(), err)
	}
	if !answered || !last.Done {
		return "", s.fail(errs.OllamaBadStream, "the reply ended before the server said it was done")
	}
	out := abstract.CleanReply(reply.String(), level)
	if out == "" {
		return "", s.fail(errs.OllamaBadStream, fmt.Sprintf("the model replied with no text (finish_reason %q)", last.DoneReason))
	}
	if out = abstract.FitText(s.Count, out, maxTokens); out == "" {
		return "", s.fail(errs.OllamaBadStream, fmt.Sprintf("not one word of the reply fits in %d tokens", maxTokens))
	}
	return out, nil
}

// fail is an error whose message names the summariser first: a summary
// failure reaches the person inside another sentence (a fallback's, a
// query's), where "summarise with openai/qwen3" says whose it was.
func (s *Summarizer) fail(code errs.Code, msg string) error {
	return errs.E(code, "summarise with %s: %s", s.ID(), msg)
}
