package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

var _ chat.Server = (*Client)(nil)

// Stream sends one streamed /api/chat request and passes each chunk of the
// reply to onChunk, up to the final one (chat.Streamer). A watch tells
// notify (nil: the client's notifier) while Ollama is silent, never at the
// same time as onChunk, and gives the request up after the idle timeout
// without a chunk. It returns nil only once the final chunk has arrived;
// otherwise an *Error says why the stream ended early, or the caller's
// context error when the caller stopped it.
func (c *Client) Stream(ctx context.Context, req *api.ChatRequest, notify func(wait.Notice), onChunk func(api.ChatResponse)) error {
	if notify == nil {
		notify = c.cfg.notify
	}
	seen := &streamWatch{}
	// One lock around the callbacks, so a caller writing notices and
	// tokens to one place needs no lock of its own.
	var mu sync.Mutex
	serialised := func(n wait.Notice) {
		if notify != nil {
			mu.Lock()
			defer mu.Unlock()
			notify(n)
		}
	}
	what := "answer with model " + req.Model
	reqCtx, watch := c.watch(withWatch(ctx, seen), what, req.Model, c.cfg.idle, serialised)
	defer watch.Stop()

	chunks, done := 0, false
	err := c.api.Chat(reqCtx, req, func(resp api.ChatResponse) error {
		watch.Touch()
		mu.Lock()
		defer mu.Unlock()
		chunks++
		if done {
			return nil // nothing comes after the final chunk
		}
		done = resp.Done
		onChunk(resp)
		return nil
	})
	watch.Stop()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case watch.GaveUp():
		return c.sentNothing(what, req.Model, c.cfg.idle, chunks)
	case err == nil && done:
		return nil
	}
	return c.classifyStream(req.Model, err, seen, chunks)
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
	what := "chat with model " + model
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusNotFound:
		return c.modelMissing(model, fmt.Errorf("HTTP 404: %s", status.ErrorMessage))
	case errors.As(err, &status) && status.StatusCode == http.StatusBadRequest && strings.Contains(status.ErrorMessage, "does not support tools"):
		return c.fail(errs.ModelNoTools, model, nil, "Ollama at %s refused tools: model %s does not support tool calling (%s)", c.base, model, status.ErrorMessage)
	case errors.As(err, &status):
		return c.httpError(what, model, status)
	case err == nil && httpStatus >= http.StatusBadRequest:
		// The client returns nil for an error status with an empty body.
		return c.httpError(what, model, api.StatusError{StatusCode: httpStatus})
	case errors.As(err, &urlErr) && chunks == 0 && readErr == nil:
		return c.notRunning(model, urlErr.Err)
	case readErr != nil || (err == nil && chunks > 0):
		return c.fail(errs.OllamaBadStream, model, readErr,
			"the connection to Ollama at %s dropped in the middle of the reply (after %d chunks); the partial answer is kept: check that Ollama is still running and ask again", c.base, chunks)
	case err == nil:
		return c.fail(errs.OllamaBadStream, model, nil,
			"Ollama at %s closed the connection without answering: check that Ollama is still running (`ollama serve`) and ask again", c.base)
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return c.fail(errs.OllamaBadStream, model, err, "Ollama sent a malformed reply: a chunk that is not a chat response (after %d chunks)", chunks)
	case badSeen && err.Error() == badLine:
		// The client returns a line it cannot parse as the error text.
		return c.fail(errs.OllamaBadStream, model, nil, "Ollama sent a malformed reply: %s (after %d chunks)", describeLine(badLine), chunks)
	default:
		// A {"error": "..."} line in a 200 stream: Ollama failed mid-answer.
		return c.fail(errs.OllamaBadStream, model, nil, "Ollama at %s stopped with an error while answering: %s", c.base, err.Error())
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
