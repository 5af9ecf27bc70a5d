// Package errs gives the engine's errors a code that the page and scripts
// branch on and a message a person can act on, after benbjohnson/wtf's
// error.go: the engine says what went wrong where it knows it — an
// *Error, or an error type of its own with an ErrorCode method — and
// CodeOf finds the code through any wrapping. An error without one is
// Internal: a failure nobody foresaw.
//
//	if q == "" {
//		return errs.E(errs.Invalid, "the question is empty")
//	}
//	…
//	switch errs.CodeOf(err) { case errs.ReadOnly: … }
package errs

import (
	"context"
	"errors"
	"fmt"
)

// Code is a stable name for a kind of failure.
type Code string

// The codes. The page's bridge and the CLI's exit codes rely on them:
// add freely, never rename.
const (
	// Invalid: a request the engine cannot take as it is (an empty
	// question, a budget out of range, an unknown purpose, a file that is
	// not a graph.json).
	Invalid Code = "invalid"
	// NotFound: an id or a path the workspace does not have.
	NotFound Code = "not_found"
	// Conflict: the workspace is not in the state the request needs (an
	// import into a workspace that is not empty).
	Conflict Code = "conflict"
	// InUse: another process holds the workspace for writing.
	InUse Code = "in_use"
	// ReadOnly: a write to a workspace open read-only.
	ReadOnly Code = "read_only"
	// Damaged: a workspace file cannot be read (loom doctor, loom repair).
	Damaged Code = "damaged"
	// Unavailable: a node's stored text is missing or damaged.
	Unavailable Code = "unavailable"
	// BadFile: a file that cannot be ingested (binary, too large,
	// unreadable, …).
	BadFile Code = "bad_file"
	// The model server's codes. They were named when Ollama was the only
	// one and keep their names (the page and scripts branch on them), but
	// they mean the model server Loom is configured with: Ollama, or an
	// OpenAI-compatible server (LM Studio, llama.cpp's server, vLLM).
	//
	// OllamaNotRunning: nothing answered at the model server's address.
	OllamaNotRunning Code = "ollama_not_running"
	// OllamaModelMissing: the model server does not have the model.
	OllamaModelMissing Code = "ollama_model_missing"
	// OllamaContextTooLong: the prompt does not fit the model's window.
	OllamaContextTooLong Code = "ollama_context_too_long"
	// OllamaBadStream: the model server answered with an error, a reply
	// that is not its protocol, or a stream that ended early.
	OllamaBadStream Code = "ollama_bad_stream"
	// OllamaTimeout: the model server sent nothing within the limit.
	OllamaTimeout Code = "ollama_timeout"
	// ModelNoTools: the model server refused a request because it offered
	// tools, which this model (or the server's set-up) cannot use.
	ModelNoTools Code = "model_no_tools"
	// Canceled: the caller stopped the work.
	Canceled Code = "canceled"
	// Internal: anything else.
	Internal Code = "internal"
)

// Error is an error with a code.
type Error struct {
	Code Code
	// Message says what happened and, where there is something to do,
	// what to do.
	Message string
	// Err is the cause, if any.
	Err error
}

// Error returns the message, followed by the cause when there is one.
func (e *Error) Error() string {
	if e.Err != nil && e.Message != "" {
		return e.Message + ": " + e.Err.Error()
	}
	if e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code (see Coded).
func (e *Error) ErrorCode() Code { return e.Code }

// Coded is what an error type of the engine's own implements to carry a
// code without being an *Error.
type Coded interface {
	ErrorCode() Code
}

// E makes an *Error from a code and a message.
func E(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap makes an *Error with a code, a message and its cause.
func Wrap(code Code, err error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// CodeOf returns the code of the first coded error in err's chain, Canceled
// for a context that ended, and Internal for anything else ("" for nil).
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var c Coded
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Canceled
	}
	return Internal
}
