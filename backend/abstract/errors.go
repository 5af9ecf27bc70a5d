package abstract

import "errors"

// Kinds of Ollama failure. Every error Ollama.Summarize returns for a
// failure of Ollama itself is an *OllamaError whose Kind is one of these,
// so a caller can branch with errors.Is.
var (
	// ErrUnreachable: nothing answered (Ollama not running, wrong address,
	// no client configured) or it did not answer within Ollama.Timeout.
	ErrUnreachable = errors.New("ollama not reachable")
	// ErrModelMissing: Ollama answered but does not have the model.
	ErrModelMissing = errors.New("ollama model not installed")
	// ErrServer: Ollama answered with an HTTP error other than 404.
	ErrServer = errors.New("ollama server error")
	// ErrBadReply: Ollama answered 2xx with something that is not a usable
	// summary (not JSON, no text, cut off before "done").
	ErrBadReply = errors.New("ollama bad reply")
)

// ErrFellBack marks a result that the fallback made because Ollama failed:
// Ollama.Summarize then returns the fallback's text together with a
// *FellBackError, which matches ErrFellBack with errors.Is.
var ErrFellBack = errors.New("summarised by the fallback")

// OllamaError is a failure of Ollama, with a message a person can act on,
// such as `summarise with ollama/llama3.2: model not found — run "ollama
// pull llama3.2"`.
type OllamaError struct {
	// Kind is ErrUnreachable, ErrModelMissing, ErrServer or ErrBadReply.
	Kind error
	// Model is the model asked for.
	Model string
	// Msg says what happened and what to do about it.
	Msg string
	// Err is the underlying cause, if any.
	Err error
}

// Error names the summariser and says what went wrong.
func (e *OllamaError) Error() string {
	return "summarise with ollama/" + canonicalModel(e.Model) + ": " + e.Msg
}

// Unwrap exposes both the Kind and the cause to errors.Is and errors.As.
func (e *OllamaError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// FellBackError comes with a text that the fallback summariser made because
// Ollama failed. The text is good to use; record By as its maker (MadeBy
// does this).
type FellBackError struct {
	// By is the ID of the summariser that made the text, e.g. "extractive/v1".
	By string
	// Cause is why Ollama was not used, usually an *OllamaError.
	Cause error
}

// Error says what failed and who summarised instead.
func (e *FellBackError) Error() string {
	return e.Cause.Error() + " (summarised with " + e.By + " instead)"
}

// Unwrap matches ErrFellBack and the cause's own kinds.
func (e *FellBackError) Unwrap() []error { return []error{ErrFellBack, e.Cause} }
