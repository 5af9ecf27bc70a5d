package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// Kinds of failure. Every error this package returns (other than the
// caller's own context being cancelled) is an *Error whose Kind is one of
// these, so callers can branch with errors.Is.
var (
	// ErrUnreachable: nothing answered at the base URL (not running, wrong
	// address, or it did not answer within the request timeout).
	ErrUnreachable = errors.New("ollama not reachable")
	// ErrModelMissing: Ollama answered but does not have the model.
	ErrModelMissing = errors.New("ollama model not installed")
	// ErrServer: Ollama answered with an HTTP error status.
	ErrServer = errors.New("ollama server error")
	// ErrBadResponse: Ollama answered 2xx with something that is not a
	// usable embedding response.
	ErrBadResponse = errors.New("ollama bad response")
)

// Error is a failure talking to Ollama, with a message a person can act on.
type Error struct {
	// Kind is ErrUnreachable, ErrModelMissing, ErrServer or ErrBadResponse.
	Kind error
	// URL is the Ollama base URL and Model the model involved.
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

// Unwrap exposes both the Kind and the cause to errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func (c *config) unreachable(cause error) *Error {
	return &Error{Kind: ErrUnreachable, URL: c.base.String(), Model: c.model, Err: cause,
		Msg: fmt.Sprintf("Ollama is not reachable at %s: start it with `ollama serve`", c.base)}
}

func (c *config) modelMissing(cause error) *Error {
	return &Error{Kind: ErrModelMissing, URL: c.base.String(), Model: c.model, Err: cause,
		Msg: fmt.Sprintf("model %s is not installed in Ollama at %s: run `ollama pull %s`", c.model, c.base, c.model)}
}

// gaveUp is the error for a request that heard nothing for c.timeout.
func (c *config) gaveUp(what string, cause error) *Error {
	return &Error{Kind: ErrUnreachable, URL: c.base.String(), Model: c.model, Err: cause,
		Msg: fmt.Sprintf("Ollama at %s did not answer within %s when asked to %s, so Loom gave up: is it running (`ollama serve`), and is model %s still loading (`ollama ps`)?",
			c.base, wait.Human(c.timeout), what, c.model)}
}

func (c *config) badResponse(cause error, format string, args ...any) *Error {
	return &Error{Kind: ErrBadResponse, URL: c.base.String(), Model: c.model, Err: cause,
		Msg: fmt.Sprintf("Ollama at %s returned an unusable response: ", c.base) + fmt.Sprintf(format, args...)}
}

// classify turns an error from the api client into an *Error. ctx is the
// caller's context: when it is done, its error is returned as it is, since
// the caller stopped the request, not Ollama.
func (c *config) classify(ctx context.Context, what string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var status api.StatusError
	var authErr api.AuthorizationError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var urlErr *url.Error
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusNotFound:
		return c.modelMissing(fmt.Errorf("HTTP 404: %s", status.ErrorMessage))
	case errors.As(err, &status):
		msg := status.ErrorMessage
		if msg == "" {
			msg = http.StatusText(status.StatusCode)
		}
		return &Error{Kind: ErrServer, URL: c.base.String(), Model: c.model,
			Msg: fmt.Sprintf("Ollama at %s failed to %s: HTTP %d: %s", c.base, what, status.StatusCode, msg)}
	case errors.As(err, &authErr):
		return &Error{Kind: ErrServer, URL: c.base.String(), Model: c.model, Err: authErr,
			Msg: fmt.Sprintf("Ollama at %s refused to %s: HTTP %d unauthorised", c.base, what, authErr.StatusCode)}
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return c.badResponse(err, "malformed JSON")
	case errors.Is(err, context.DeadlineExceeded):
		return c.gaveUp(what, err)
	case errors.As(err, &urlErr):
		return c.unreachable(urlErr.Err)
	default:
		return c.unreachable(err)
	}
}
