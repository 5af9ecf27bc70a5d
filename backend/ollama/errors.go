package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Error is every failure of Ollama this package reports, whatever was
// asked (a chat, a model list or description, an embedding, a summary).
// Its Code is one of the engine's Ollama codes (backend/errs), which
// errs.CodeOf finds through any wrapping:
//
//   - errs.OllamaNotRunning: nothing answered at the address;
//   - errs.OllamaModelMissing: Ollama does not have the model (or none was named);
//   - errs.OllamaBadStream: Ollama answered with an HTTP error, an error in
//     the middle of a stream, a reply that is not its protocol, or a stream
//     that ended early;
//   - errs.OllamaTimeout: Ollama sent nothing within the limit;
//   - errs.ModelNoTools: Ollama refused tools for a model that does not
//     support them.
//
// (errs.OllamaContextTooLong is the chat's own: a prompt it would not send.)
// The caller's own cancelled context is never an *Error: it comes back as
// it is.
type Error struct {
	Code errs.Code
	// URL is Ollama's address and Model the model asked for ("" if none).
	URL, Model string
	// Message says what happened and what to do about it.
	Message string
	// Err is the cause, if any.
	Err error
}

// Error returns the message, with the cause in brackets.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + " (" + e.Err.Error() + ")"
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code (errs.Coded).
func (e *Error) ErrorCode() errs.Code { return e.Code }

var _ errs.Coded = (*Error)(nil)

func (c *Client) fail(code errs.Code, model string, cause error, format string, args ...any) *Error {
	return &Error{Code: code, URL: c.base.String(), Model: model, Err: cause, Message: fmt.Sprintf(format, args...)}
}

func (c *Client) notRunning(model string, cause error) *Error {
	return c.fail(errs.OllamaNotRunning, model, cause, "Ollama is not reachable at %s: start it with `ollama serve`", c.base)
}

func (c *Client) modelMissing(model string, cause error) *Error {
	return c.fail(errs.OllamaModelMissing, model, cause,
		"model %s is not installed in Ollama at %s: run `ollama pull %s`", model, c.base, model)
}

func (c *Client) httpError(what, model string, status api.StatusError) *Error {
	msg := status.ErrorMessage
	if msg == "" {
		msg = http.StatusText(status.StatusCode)
	}
	return c.fail(errs.OllamaBadStream, model, nil, "Ollama at %s failed to %s: HTTP %d: %s", c.base, what, status.StatusCode, msg)
}

func (c *Client) unusable(model string, cause error, format string, args ...any) *Error {
	return c.fail(errs.OllamaBadStream, model, cause, "Ollama at %s returned an unusable response: %s", c.base, fmt.Sprintf(format, args...))
}

// sentNothing is the error for a chat stream, a model list or a model
// description that heard nothing for limit. chunks is how many chunks of a
// stream arrived before the silence.
func (c *Client) sentNothing(what, model string, limit time.Duration, chunks int) *Error {
	if chunks > 0 {
		received := fmt.Sprintf("%d chunks", chunks)
		if chunks == 1 {
			received = "1 chunk"
		}
		return c.fail(errs.OllamaTimeout, model, nil,
			"Ollama at %s stalled in the middle of its reply: it sent nothing new for %s after %s (asked to %s), so Loom gave up; the partial answer is kept: check that Ollama is still running and not stuck (`ollama ps`), then ask again",
			c.base, wait.Human(limit), received, what)
	}
	loading := ""
	if model != "" {
		loading = fmt.Sprintf(", and is model %s still loading (`ollama ps`)", model)
	}
	return c.fail(errs.OllamaTimeout, model, nil,
		"Ollama at %s sent nothing for %s when asked to %s, so Loom gave up: is it running (`ollama serve`)%s?", c.base, wait.Human(limit), what, loading)
}

// noAnswer is the error for an embedding (or its model check) that heard
// nothing for limit: the model may be loading.
func (c *Client) noAnswer(what, model string, limit time.Duration) *Error {
	return c.fail(errs.OllamaTimeout, model, nil,
		"Ollama at %s did not answer within %s when asked to %s, so Loom gave up: is it running (`ollama serve`), and is model %s still loading (`ollama ps`)?",
		c.base, wait.Human(limit), what, model)
}

// classify turns an error of a request that is not streamed (/api/tags,
// /api/show, /api/embed) into an *Error; timedOut is the error for a
// request that ran out of time. ctx is the caller's: when it is done, its
// error is returned as it is, since the caller stopped the request.
func (c *Client) classify(ctx context.Context, what, model string, err error, timedOut *Error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var status api.StatusError
	var auth api.AuthorizationError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var urlErr *url.Error
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusNotFound && model != "":
		return c.modelMissing(model, fmt.Errorf("HTTP 404: %s", status.ErrorMessage))
	case errors.As(err, &status):
		return c.httpError(what, model, status)
	case errors.As(err, &auth):
		return c.fail(errs.OllamaBadStream, model, auth, "Ollama at %s refused to %s: HTTP %d unauthorised", c.base, what, auth.StatusCode)
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return c.unusable(model, err, "malformed JSON when asked to %s", what)
	case errors.Is(err, context.DeadlineExceeded):
		timedOut.Err = err
		return timedOut
	case errors.As(err, &urlErr):
		return c.notRunning(model, urlErr.Err)
	default:
		return c.notRunning(model, err)
	}
}
