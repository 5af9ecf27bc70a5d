package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Summarizer summarises with a model Ollama serves (abstract.Summarizer),
// through /api/generate without streaming, at temperature 0: it asks with
// abstract.Prompt, and the reply is cleaned of labels, quotes and thinking
// (abstract.CleanReply) and cut at a sentence (else a word) boundary if it
// counts more than maxTokens (abstract.FitText).
//
// When Ollama fails and Fallback is set, Summarize returns the fallback's
// text together with an *abstract.FellBackError (errors.Is(err,
// abstract.ErrFellBack)), so a caller that caches the text can record who
// made it (abstract.MadeBy); a caller that only needs text may treat
// ErrFellBack as success. Without Fallback a failure is an *Error whose
// message names the summariser and says what to do. Each request gives up
// after the client's model timeout (default 2 minutes); the client's
// notifier hears while it waits.
//
// The fields are read, never written, so one Summarizer may serve
// concurrent calls.
type Summarizer struct {
	// Client talks to Ollama.
	Client *Client
	// Model is the generating model, e.g. "llama3.2".
	Model string
	// Count measures maxTokens; required.
	Count abstract.Counter
	// Fallback summarises when Ollama fails; nil means report the failure.
	Fallback abstract.Summarizer
}

var _ abstract.Summarizer = (*Summarizer)(nil)

// ID returns "ollama/<model>", without an implied ":latest" tag.
func (s *Summarizer) ID() string { return "ollama/" + baseName(s.Model) }

// Summarize returns the summary or essence of text in at most maxTokens
// tokens as measured by s.Count. A Summary of a text that already fits is
// the text itself, without asking Ollama. If the caller's ctx ends, its
// error is returned and Fallback is not tried.
func (s *Summarizer) Summarize(ctx context.Context, text string, level abstract.Level, maxTokens int) (string, error) {
	return abstract.ByModel(ctx, s.ID(), s.Count, text, level, maxTokens,
		func() (string, error) { return s.generate(ctx, text, level, maxTokens) }, s.Fallback)
}

// generate asks Ollama once and checks and fits its reply.
func (s *Summarizer) generate(ctx context.Context, text string, level abstract.Level, maxTokens int) (string, error) {
	if s.Client == nil {
		return "", s.fail(errs.OllamaNotRunning, nil, "no Ollama client configured")
	}
	if strings.TrimSpace(s.Model) == "" {
		return "", s.fail(errs.OllamaModelMissing, nil, "no model named: set Summarizer.Model, e.g. llama3.2")
	}
	c := s.Client
	task := "summarise a section with model " + s.Model
	if level == abstract.Essence {
		task = "state the essence of a section with model " + s.Model
	}
	reqCtx, watch := c.watch(ctx, task, s.Model, c.cfg.model, nil)
	defer watch.Stop()
	req := &api.GenerateRequest{
		Model:  s.Model,
		Prompt: abstract.Prompt(text, level, maxTokens),
		Stream: new(bool),
		Options: map[string]any{
			"num_predict": maxTokens * 2, // room to finish a sentence; the cut below enforces the limit
			"temperature": 0,
		},
	}
	var reply strings.Builder
	var last api.GenerateResponse
	answered := false
	err := c.api.Generate(reqCtx, req, func(r api.GenerateResponse) error {
		reply.WriteString(r.Response)
		last, answered = r, true
		return nil
	})
	watch.Stop()
	if err != nil {
		if ctx.Err() == nil && watch.GaveUp() {
			return "", s.gaveUp()
		}
		return "", s.classify(ctx, err)
	}
	switch {
	case !answered:
		return "", s.fail(errs.OllamaBadStream, nil, "Ollama answered with an empty body")
	case !last.Done:
		return "", s.fail(errs.OllamaBadStream, nil, "the reply ended before Ollama said it was done")
	}
	out := abstract.CleanReply(reply.String(), level)
	if out == "" {
		return "", s.fail(errs.OllamaBadStream, nil, fmt.Sprintf("the model replied with no text (done_reason %q)", last.DoneReason))
	}
	if out = abstract.FitText(s.Count, out, maxTokens); out == "" {
		return "", s.fail(errs.OllamaBadStream, nil, fmt.Sprintf("not one word of the reply fits in %d tokens", maxTokens))
	}
	return out, nil
}

// fail is an *Error whose message names the summariser first: a summary
// failure reaches the person inside another sentence (a fallback's, a
// query's), where "summarise with ollama/llama3.2" says whose it was.
func (s *Summarizer) fail(code errs.Code, cause error, msg string) *Error {
	e := &Error{Code: code, Model: s.Model, Message: "summarise with " + s.ID() + ": " + msg, Err: cause}
	if s.Client != nil {
		e.URL = s.Client.URL()
	}
	return e
}

// classify turns an error of the api client into an *Error. When the
// caller's ctx is done, its error is returned instead: the caller stopped
// the request, not Ollama.
func (s *Summarizer) classify(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("summarise with %s: %w", s.ID(), ctxErr)
	}
	var status api.StatusError
	var auth api.AuthorizationError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var urlErr *url.Error
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusNotFound:
		if !strings.Contains(strings.ToLower(status.ErrorMessage), "model") {
			return s.fail(errs.OllamaBadStream, nil, fmt.Sprintf("HTTP 404 (%s): is this address an Ollama server?", brief(status.ErrorMessage)))
		}
		return s.fail(errs.OllamaModelMissing, nil, fmt.Sprintf("model not found — run \"ollama pull %s\"", s.Model))
	case errors.As(err, &status):
		msg := status.ErrorMessage
		if msg == "" {
			msg = http.StatusText(status.StatusCode)
		}
		return s.fail(errs.OllamaBadStream, nil, fmt.Sprintf("Ollama failed with HTTP %d: %s", status.StatusCode, brief(msg)))
	case errors.As(err, &auth):
		return s.fail(errs.OllamaBadStream, nil, fmt.Sprintf("Ollama refused the request: HTTP %d unauthorised", auth.StatusCode))
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return s.fail(errs.OllamaBadStream, err, "Ollama's reply is not a generate response")
	case errors.Is(err, context.DeadlineExceeded):
		return s.gaveUp()
	case errors.As(err, &urlErr):
		return s.fail(errs.OllamaNotRunning, urlErr.Err, fmt.Sprintf("Ollama is not reachable at %s: start it with `ollama serve`", s.Client.URL()))
	default:
		// The client reports a body line that is not JSON, and an
		// {"error": ...} line in a 2xx reply, as a bare error of that text.
		return s.fail(errs.OllamaBadStream, nil, fmt.Sprintf("Ollama sent an error or an unreadable reply: %s", brief(err.Error())))
	}
}

// gaveUp is the failure of a request that heard nothing for the timeout.
func (s *Summarizer) gaveUp() *Error {
	return s.fail(errs.OllamaTimeout, nil, fmt.Sprintf("Ollama at %s did not answer within %s, so Loom gave up: is it running (`ollama serve`), and is model %s still loading (`ollama ps`)?",
		s.Client.URL(), wait.Human(s.Client.cfg.model), s.Model))
}

// brief quotes at most 120 bytes of s for a message.
func brief(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		cut := 120
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return fmt.Sprintf("%q", s)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
