package bind

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/errs"
)

// How a failed call reaches the page. The engine says what went wrong where
// it knows it, with a code (backend/errs); bind passes that code and the
// engine's message on unchanged — Payload is the one place that turns an
// error into what the page receives — and has codes of its own only for
// failures that are its own: a dialog or the clipboard, shutting down, a
// change refused while an ingest or an answer runs. The page switches on
// the code and words some of them itself (the read-only banner, the
// damaged-workspace panel, the Ollama note).

// ErrorCode is a stable name for a kind of failure; the page branches on
// it. Its values are ErrorCodes: the engine's codes and bind's own.
type ErrorCode string

// The engine's codes, passed on as they are (backend/errs says what each
// means). bind also uses Invalid and InUse for refusals of its own that
// mean the same: a call without what it needs, a repair while another Loom
// process holds the workspace.
const (
	CodeInvalid              = ErrorCode(errs.Invalid)
	CodeNotFound             = ErrorCode(errs.NotFound)
	CodeConflict             = ErrorCode(errs.Conflict)
	CodeInUse                = ErrorCode(errs.InUse)
	CodeReadOnly             = ErrorCode(errs.ReadOnly)
	CodeDamaged              = ErrorCode(errs.Damaged)
	CodeUnavailable          = ErrorCode(errs.Unavailable)
	CodeBadFile              = ErrorCode(errs.BadFile)
	CodeOllamaNotRunning     = ErrorCode(errs.OllamaNotRunning)
	CodeOllamaModelMissing   = ErrorCode(errs.OllamaModelMissing)
	CodeOllamaContextTooLong = ErrorCode(errs.OllamaContextTooLong)
	CodeOllamaBadStream      = ErrorCode(errs.OllamaBadStream)
	CodeOllamaTimeout        = ErrorCode(errs.OllamaTimeout)
	CodeModelNoTools         = ErrorCode(errs.ModelNoTools)
	CodeCanceled             = ErrorCode(errs.Canceled)
	CodeInternal             = ErrorCode(errs.Internal)
)

// bind's own codes: failures of the binding layer, not of the engine.
const (
	// CodeClosed: Loom is shutting down, so the workspace is closed.
	CodeClosed ErrorCode = "closed"
	// CodeBusy: an ingest or an answer being written holds the workspace,
	// and the call would have to wait for it (a second ingest; Try again,
	// Check workspace or Repair, which close the workspace for a moment).
	CodeBusy ErrorCode = "busy"
	// CodeWorkspaceUnavailable: there is no workspace to call: Loom found
	// no folder for it (desktop), or the engine is still starting (web).
	CodeWorkspaceUnavailable ErrorCode = "workspace_unavailable"
	// CodeShellFailed: the window system failed — a file dialog, the
	// clipboard — or writing the file the person chose in one.
	CodeShellFailed ErrorCode = "shell_failed"
)

// ErrorCodes is every code a call can reject with: the page's type of a
// code is made from this list (tools/wiretypes), and bind's tests check
// that it holds every engine code.
var ErrorCodes = []ErrorCode{
	CodeInvalid, CodeNotFound, CodeConflict, CodeInUse, CodeReadOnly, CodeDamaged, CodeUnavailable, CodeBadFile,
	CodeOllamaNotRunning, CodeOllamaModelMissing, CodeOllamaContextTooLong, CodeOllamaBadStream, CodeOllamaTimeout, CodeModelNoTools,
	CodeCanceled, CodeInternal,
	CodeClosed, CodeBusy, CodeWorkspaceUnavailable, CodeShellFailed,
}

// Error is a failure of bind's own: Message says what happened and what to
// do, Err is the cause for the details line. Engine errors are not turned
// into an Error: they reach Payload as they are.
type Error struct {
	Code    ErrorCode
	Message string
	Err     error
}

// Error returns the message, followed by the cause when there is one.
func (e *Error) Error() string {
	if e.Err == nil {
		return e.Message
	}
	return e.Message + " (" + e.Err.Error() + ")"
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode makes bind's own errors coded errors like the engine's, so
// that errs.CodeOf finds either.
func (e *Error) ErrorCode() errs.Code { return errs.Code(e.Code) }

var _ errs.Coded = (*Error)(nil)

// Damage is the workspace file that is damaged and what is wrong with it.
type Damage struct {
	File    string `json:"file"`
	Problem string `json:"problem"`
}

// ErrorPayload is what a rejected call carries in the page.
type ErrorPayload struct {
	Code ErrorCode `json:"code"`
	// Message says what happened, for the person: bind's own sentence, or
	// the engine's message as a sentence.
	Message string `json:"message"`
	// Detail is the cause, where it is not in Message already.
	Detail string `json:"detail,omitempty"`
	// Damage names the damaged file (code damaged).
	Damage *Damage `json:"damage,omitempty"`
}

// internalMessage is the message of a failure nobody foresaw (code
// internal): the engine's text goes to Detail, since it was not written
// for a person.
const internalMessage = "Something went wrong inside Loom."

// Payload is what the page receives for err: bind's own code and message
// for a failure of its own, else the engine's code (errs.CodeOf, through
// any wrapping) and message, unchanged.
func Payload(err error) ErrorPayload {
	if err == nil {
		return ErrorPayload{}
	}
	var own *Error
	if errors.As(err, &own) {
		p := ErrorPayload{Code: own.Code, Message: own.Message}
		if own.Err != nil {
			p.Detail = own.Err.Error()
		}
		return p
	}
	p := ErrorPayload{Code: ErrorCode(errs.CodeOf(err)), Message: sentence(err.Error())}
	if p.Code == CodeInternal {
		p.Message, p.Detail = internalMessage, err.Error()
	}
	var damaged *backend.DamagedError
	if errors.As(err, &damaged) {
		p.Damage = &Damage{File: damaged.File, Problem: damaged.Problem}
	}
	return p
}

// FormatError is the Wails ErrorFormatter: every error a bound method
// returns reaches the page as its Payload, so the page never parses text.
func FormatError(err error) any { return Payload(err) }

// sentence makes an engine message (Go style: lower case, no full stop)
// read as a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return internalMessage
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// closedError: Loom is shutting down.
func closedError() *Error {
	return &Error{Code: CodeClosed, Message: "The workspace is closed because Loom is shutting down."}
}
