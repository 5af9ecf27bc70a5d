package chat

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

// Kinds of failure. Every error this package returns, other than the
// caller's own context being cancelled and invalid arguments, is an *Error
// whose Kind is one of these, so callers can branch with errors.Is.
var (
	// ErrUnreachable: nothing answered at the base URL (not running,
	// wrong address, or it did not answer in time).
	ErrUnreachable = errors.New("ollama not reachable")
	// ErrModelMissing: Ollama answered but does not have the model.
	ErrModelMissing = errors.New("ollama model not installed")
	// ErrServer: Ollama answered with an HTTP error, or sent an error in
	// the middle of a stream.
	ErrServer = errors.New("ollama server error")
	// ErrMalformed: Ollama's reply is not the NDJSON it should be.
	ErrMalformed = errors.New("ollama malformed reply")
	// ErrDropped: the stream ended before Ollama said it was done.
	ErrDropped = errors.New("ollama connection dropped")
	// ErrTimeout: Ollama sent nothing within the limit — a chat stream
	// for the idle timeout (before its first chunk, or stalled in the
	// middle), /api/tags or /api/show for the request timeout.
	ErrTimeout = errors.New("ollama timed out")
	// ErrTooLong: the prompt does not fit the window; nothing was sent.
	ErrTooLong = errors.New("prompt longer than the window")
)

var errorCodes = map[error]string{
	ErrUnreachable: "unreachable", ErrModelMissing: "model_missing", ErrServer: "server",
	ErrMalformed: "malformed", ErrDropped: "dropped", ErrTimeout: "timeout", ErrTooLong: "too_long",
}

// Error is a failure talking to Ollama, with a message a person can act on.
type Error struct {
	// Kind is one of the Err* values above.
	Kind error
	// URL is the Ollama base URL and Model the model involved (if any).
	URL, Model string
	// Msg says what happened and what to do about it.
	Msg string
	// Err is the underlying cause, if any.
	Err error
}

// Error returns the message followed by the cause.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + " (" + e.Err.Error() + ")"
	}
	return e.Msg
}

// ErrorCode is the engine's code for the Kind (backend/errs).
func (e *Error) ErrorCode() errs.Code {
	switch e.Kind {
	case ErrUnreachable:
		return errs.OllamaNotRunning
	case ErrModelMissing:
		return errs.OllamaModelMissing
	case ErrTooLong:
		return errs.OllamaContextTooLong
	case ErrTimeout:
		return errs.OllamaTimeout
	}
	return errs.OllamaBadStream
}

// Code is a short stable name of the Kind ("unreachable", "model_missing",
// "server", "malformed", "dropped", "timeout", "too_long") for a UI to
// branch on.
func (e *Error) Code() string { return errorCodes[e.Kind] }

// Unwrap exposes both the Kind and the cause to errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func (c *Client) newError(kind error, model string, cause error, format string, args ...any) *Error {
	return &Error{Kind: kind, URL: c.base.String(), Model: model, Err: cause, Msg: fmt.Sprintf(format, args...)}
}

func (c *Client) unreachable(model string, cause error) *Error {
	return c.newError(ErrUnreachable, model, cause, "Ollama is not reachable at %s: start it with `ollama serve`", c.base)
}

func (c *Client) modelMissing(model string, cause error) *Error {
	return c.newError(ErrModelMissing, model, cause,
		"model %s is not installed in Ollama at %s: run `ollama pull %s`", model, c.base, model)
}

// classify turns an error from a non-streaming api call (/api/tags,
// /api/show) into an *Error. ctx is the caller's context: when it is done,
// its error is returned as it is, since the caller stopped the request.
func (c *Client) classify(ctx context.Context, what, model string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var status api.StatusError
	var authErr api.AuthorizationError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var urlErr *url.Error
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusNotFound && model != "":
		return c.modelMissing(model, fmt.Errorf("HTTP 404: %s", status.ErrorMessage))
	case errors.As(err, &status):
		return c.httpError(what, model, status)
	case errors.As(err, &authErr):
		return c.newError(ErrServer, model, authErr, "Ollama at %s refused to %s: HTTP %d unauthorised", c.base, what, authErr.StatusCode)
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return c.newError(ErrMalformed, model, err, "Ollama sent a malformed reply to %s: not the JSON it should be", what)
	case errors.Is(err, context.DeadlineExceeded):
		e := c.gaveUp(what, model, c.timeout, 0)
		e.Err = err
		return e
	case errors.As(err, &urlErr):
		return c.unreachable(model, urlErr.Err)
	default:
		return c.unreachable(model, err)
	}
}

func (c *Client) httpError(what, model string, status api.StatusError) *Error {
	msg := status.ErrorMessage
	if msg == "" {
		msg = http.StatusText(status.StatusCode)
	}
	return c.newError(ErrServer, model, nil, "Ollama at %s failed to %s: HTTP %d: %s", c.base, what, status.StatusCode, msg)
}

// gaveUp is the error for a request its watch cancelled because nothing
// came for limit (c.idle for a chat stream, c.timeout otherwise). chunks
// is how many chunks of a stream arrived before the silence.
func (c *Client) gaveUp(what, model string, limit time.Duration, chunks int) *Error {
	loading := ""
	if model != "" {
		loading = fmt.Sprintf(", and is model %s still loading (`ollama ps`)", model)
	}
	if chunks > 0 {
		received := fmt.Sprintf("%d chunks", chunks)
		if chunks == 1 {
			received = "1 chunk"
		}
		return c.newError(ErrTimeout, model, nil,
			"Ollama at %s stalled in the middle of its reply: it sent nothing new for %s after %s (asked to %s), so Loom gave up; the partial answer is kept: check that Ollama is still running and not stuck (`ollama ps`), then ask again",
			c.base, wait.Human(limit), received, what)
	}
	return c.newError(ErrTimeout, model, nil,
		"Ollama at %s sent nothing for %s when asked to %s, so Loom gave up: is it running (`ollama serve`)%s?", c.base, wait.Human(limit), what, loading)
}

// classifyStream explains why a streamed /api/chat request ended without
// Ollama's final chunk. err is what api.Client.Chat returned (possibly
// nil: the client ignores read errors and reports a cut stream as a clean
// end), w what the transport saw, chunks how many chunks arrived.
func (c *Client) classifyStream(model string, err error, w *streamWatch, chunks int) error {
	var status api.StatusError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var urlErr *url.Error
	readErr, badLine, badSeen, httpStatus := w.state()
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusNotFound:
		return c.modelMissing(model, fmt.Errorf("HTTP 404: %s", status.ErrorMessage))
	case errors.As(err, &status):
		return c.httpError("chat with model "+model, model, status)
	case err == nil && httpStatus >= http.StatusBadRequest:
		// The client returns nil for an error status with an empty body.
		return c.httpError("chat with model "+model, model, api.StatusError{StatusCode: httpStatus})
	case errors.As(err, &urlErr) && chunks == 0 && readErr == nil:
		return c.unreachable(model, urlErr.Err)
	case readErr != nil || (err == nil && chunks > 0):
		return c.newError(ErrDropped, model, readErr,
			"the connection to Ollama at %s dropped in the middle of the reply (after %d chunks); the partial answer is kept: check that Ollama is still running and ask again", c.base, chunks)
	case err == nil:
		return c.newError(ErrDropped, model, nil,
			"Ollama at %s closed the connection without answering: check that Ollama is still running (`ollama serve`) and ask again", c.base)
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return c.newError(ErrMalformed, model, err, "Ollama sent a malformed reply: a chunk that is not a chat response (after %d chunks)", chunks)
	case badSeen && err.Error() == badLine:
		// The client returns a line it cannot parse as the error text.
		return c.newError(ErrMalformed, model, nil, "Ollama sent a malformed reply: %s (after %d chunks)", describeLine(badLine), chunks)
	default:
		// A {"error": "..."} line in a 200 stream: Ollama failed mid-answer.
		return c.newError(ErrServer, model, nil, "Ollama at %s stopped with an error while answering: %s", c.base, err.Error())
	}
}

// describeLine quotes the start of a line that is not JSON.
func describeLine(line string) string {
	if line == "" {
		return "an empty line where a JSON chunk should be"
	}
	const max = 80
	if len(line) > max {
		return fmt.Sprintf("a chunk that is not JSON: %q… (%d bytes)", line[:max], len(line))
	}
	return fmt.Sprintf("a chunk that is not JSON: %q", line)
}
