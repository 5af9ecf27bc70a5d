package abstract

import "errors"

// ErrFellBack marks a result that the fallback made because the model
// failed: a model-backed Summarizer (backend/ollama's) then returns the
// fallback's text together with a *FellBackError, which matches ErrFellBack
// with errors.Is.
var ErrFellBack = errors.New("summarised by the fallback")

// FellBackError comes with a text that the fallback summariser made because
// the model failed. The text is good to use; record By as its maker (MadeBy
// does this).
type FellBackError struct {
	// By is the ID of the summariser that made the text, e.g. "extractive/v5".
	By string
	// Cause is why the model was not used, such as an *ollama.Error.
	Cause error
}

// Error says what failed and who summarised instead.
func (e *FellBackError) Error() string {
	return e.Cause.Error() + " (summarised with " + e.By + " instead)"
}

// Unwrap matches ErrFellBack and the cause's own kinds.
func (e *FellBackError) Unwrap() []error { return []error{ErrFellBack, e.Cause} }
