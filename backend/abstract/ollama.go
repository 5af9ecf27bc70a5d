package abstract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// Ollama summarises with a model served by a local Ollama, through its
// /api/generate endpoint without streaming, at temperature 0. The reply is
// cleaned of labels, quotes and thinking, and cut at a sentence (else a
// word) boundary if it counts more than maxTokens.
//
// When Ollama fails and Fallback is set, Summarize returns the fallback's
// text together with a *FellBackError (errors.Is(err, ErrFellBack)), so a
// caller that caches the text can record who made it (see MadeBy); a caller
// that only needs text may treat ErrFellBack as success. Without Fallback a
// failure is an *OllamaError naming the model and what to do.
//
// No wait is silent and none is endless: each request runs under a
// wait.Watch, which tells Notify after 10 s without an answer, says
// "stalled" at 30 s and every 30 s after, and gives the request up after
// Timeout (default 2 minutes), a failure of kind ErrUnreachable.
//
// The fields are read, never written, so one Ollama may serve concurrent
// calls.
type Ollama struct {
	// Client talks to Ollama, e.g. api.NewClient(base, http.DefaultClient).
	Client *api.Client
	// Model is the generating model, e.g. "llama3.2".
	Model string
	// Count measures maxTokens; required.
	Count Counter
	// Fallback summarises when Ollama fails; nil means report the failure.
	Fallback Summarizer
	// Timeout gives up a request to Ollama that has heard nothing for this
	// long; Ollama has then failed (and Fallback runs with the caller's
	// context). 0 means DefaultTimeout.
	Timeout time.Duration
	// URL is Ollama's address as the person knows it, for notices and
	// messages (optional: Client does not say).
	URL string
	// Wait sets when a waiting request speaks up (zero: after 10 s, and
	// stalled at 30 s) and its clock; tests pass a waittest.Clock.
	Wait wait.Options
	// Notify receives those notices (nil: none). It is called from
	// another goroutine and should not block.
	Notify func(wait.Notice)
}

// DefaultTimeout is Ollama.Timeout when it is 0: generous, since the first
// request may wait for the model to load.
const DefaultTimeout = 2 * time.Minute

func (o *Ollama) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

var _ Summarizer = (*Ollama)(nil)

// ID returns "ollama/<model>", without an implied ":latest" tag.
func (o *Ollama) ID() string { return "ollama/" + canonicalModel(o.Model) }

func canonicalModel(name string) string {
	return strings.TrimSuffix(strings.TrimSpace(name), ":latest")
}

// Summarize returns the summary or essence of text in at most maxTokens
// tokens as measured by o.Count. A Summary of a text that already fits is
// the text itself, without asking Ollama. If the caller's ctx ends, its
// error is returned and Fallback is not tried.
func (o *Ollama) Summarize(ctx context.Context, text string, level Level, maxTokens int) (string, error) {
	answer, done, err := checkRequest(o.Count, text, level, maxTokens, 0)
	if err != nil {
		return "", fmt.Errorf("summarise with %s: %w", o.ID(), err)
	}
	if done {
		return answer, nil
	}
	out, err := o.generate(ctx, text, level, maxTokens)
	if err == nil {
		return out, nil
	}
	if o.Fallback == nil || ctx.Err() != nil {
		return "", err
	}
	out, fallbackErr := o.Fallback.Summarize(ctx, text, level, maxTokens)
	if fallbackErr != nil {
		return "", fmt.Errorf("%w; the fallback failed too: %w", err, fallbackErr)
	}
	return out, &FellBackError{By: o.Fallback.ID(), Cause: err}
}

// WordLimit is the number of words the prompt asks for when the answer
// must fit in maxTokens: two words for three tokens, since English prose
// runs about 1.3 tokens a word and markdown more.
func WordLimit(maxTokens int) int { return max(1, maxTokens*2/3) }

// prompt asks for a summary or essence of text in at most words words.
func prompt(text string, level Level, words int) string {
	task := fmt.Sprintf("Summarise the following section in at most %d words. "+
		"Keep its main claims, names and numbers, and add nothing that is not in it. "+
		"Output only the summary.", words)
	if level == Essence {
		task = fmt.Sprintf("State the gist of the following section in one sentence of at most %d words. "+
			"Add nothing that is not in it. Output only the sentence.", words)
	}
	return task + "\n\nSection:\n\"\"\"\n" + strings.TrimSpace(text) + "\n\"\"\""
}

// generate asks Ollama once and checks and fits its reply.
func (o *Ollama) generate(ctx context.Context, text string, level Level, maxTokens int) (string, error) {
	if o.Client == nil {
		return "", o.fail(ErrUnreachable, nil, "no Ollama client configured")
	}
	if strings.TrimSpace(o.Model) == "" {
		return "", o.fail(ErrModelMissing, nil, "no model named: set Ollama.Model, e.g. llama3.2")
	}
	task := "summarise a section with model " + o.Model
	if level == Essence {
		task = "state the essence of a section with model " + o.Model
	}
	reqCtx, watch := wait.Start(ctx, o.Wait, wait.Request{URL: o.URL, Model: o.Model, Task: task, Limit: o.timeout(), Notify: o.Notify})
	defer watch.Stop()
	req := &api.GenerateRequest{
		Model:  o.Model,
		Prompt: prompt(text, level, WordLimit(maxTokens)),
		Stream: new(bool),
		Options: map[string]any{
			"num_predict": maxTokens * 2, // room to finish a sentence; the cut below enforces the limit
			"temperature": 0,
		},
	}
	var reply strings.Builder
	var last api.GenerateResponse
	answered := false
	err := o.Client.Generate(reqCtx, req, func(r api.GenerateResponse) error {
		reply.WriteString(r.Response)
		last, answered = r, true
		return nil
	})
	watch.Stop()
	if err != nil {
		if ctx.Err() == nil && watch.GaveUp() {
			return "", o.gaveUp(nil)
		}
		return "", o.classify(ctx, err)
	}
	switch {
	case !answered:
		return "", o.fail(ErrBadReply, nil, "Ollama answered with an empty body")
	case !last.Done:
		return "", o.fail(ErrBadReply, nil, "the reply ended before Ollama said it was done")
	}
	out := cleanReply(reply.String(), level)
	if out == "" {
		return "", o.fail(ErrBadReply, nil, fmt.Sprintf("the model replied with no text (done_reason %q)", last.DoneReason))
	}
	if out = fitText(o.Count, out, maxTokens); out == "" {
		return "", o.fail(ErrBadReply, nil, fmt.Sprintf("not one word of the reply fits in %d tokens", maxTokens))
	}
	return out, nil
}

func (o *Ollama) fail(kind, cause error, msg string) *OllamaError {
	return &OllamaError{Kind: kind, Model: o.Model, Msg: msg, Err: cause}
}

// classify turns an error of the api client into an *OllamaError. When the
// caller's ctx is done, its error is returned instead: the caller stopped
// the request, not Ollama.
func (o *Ollama) classify(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("summarise with %s: %w", o.ID(), ctxErr)
	}
	var status api.StatusError
	var auth api.AuthorizationError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var urlErr *url.Error
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusNotFound:
		if !strings.Contains(strings.ToLower(status.ErrorMessage), "model") {
			return o.fail(ErrServer, err, fmt.Sprintf("HTTP 404 (%s): is this address an Ollama server?", brief(status.ErrorMessage)))
		}
		return o.fail(ErrModelMissing, err, fmt.Sprintf("model not found — run \"ollama pull %s\"", o.Model))
	case errors.As(err, &status):
		msg := status.ErrorMessage
		if msg == "" {
			msg = http.StatusText(status.StatusCode)
		}
		return o.fail(ErrServer, err, fmt.Sprintf("Ollama failed with HTTP %d: %s", status.StatusCode, brief(msg)))
	case errors.As(err, &auth):
		return o.fail(ErrServer, err, fmt.Sprintf("Ollama refused the request: HTTP %d unauthorised", auth.StatusCode))
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return o.fail(ErrBadReply, err, fmt.Sprintf("Ollama's reply is not a generate response: %v", err))
	case errors.Is(err, context.DeadlineExceeded):
		return o.gaveUp(err)
	case errors.As(err, &urlErr):
		return o.fail(ErrUnreachable, err, fmt.Sprintf("Ollama is not reachable (%v): start it with `ollama serve`", urlErr.Err))
	default:
		// The client reports a body line that is not JSON, and an
		// {"error": ...} line in a 2xx reply, as a bare error of that text.
		return o.fail(ErrBadReply, err, fmt.Sprintf("Ollama sent an error or an unreadable reply: %s", brief(err.Error())))
	}
}

// gaveUp is the failure of a request that heard nothing for the timeout.
func (o *Ollama) gaveUp(cause error) *OllamaError {
	server := "Ollama"
	if o.URL != "" {
		server = "Ollama at " + o.URL
	}
	return o.fail(ErrUnreachable, cause, fmt.Sprintf("%s did not answer within %s, so Loom gave up: is it running (`ollama serve`), and is model %s still loading (`ollama ps`)?",
		server, wait.Human(o.timeout()), o.Model))
}

// brief quotes at most 120 bytes of s for a message.
func brief(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		cut := 120
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + ellipsis
	}
	return fmt.Sprintf("%q", s)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

var (
	thinking = regexp.MustCompile(`(?s)<think>.*?</think>`)
	// preamble is a model's "Here is a summary of the section:" line.
	preamble = regexp.MustCompile(`(?i)^(here is|here's|sure)[^:\n]*:\s*`)
	// label is a "Summary:" or "**Essence:**" before the answer.
	label = regexp.MustCompile(`(?i)^[*_]*(summary|essence|gist|one-sentence summary|tl;dr)[*_]*\s*:[*_]*\s*`)
)

// quotePairs are the quotes a model may put around its whole answer.
var quotePairs = [][2]string{{`"`, `"`}, {"'", "'"}, {"“", "”"}, {"«", "»"}, {"`", "`"}}

// cleanReply strips what models add around an answer: thinking, a
// preamble, a label, a code fence, surrounding quotes. An essence is made
// one line.
func cleanReply(s string, level Level) string {
	s = strings.TrimSpace(thinking.ReplaceAllString(s, ""))
	for prev := ""; s != prev; {
		prev = s
		s = strings.TrimSpace(preamble.ReplaceAllString(s, ""))
		s = strings.TrimSpace(label.ReplaceAllString(s, ""))
		if strings.HasPrefix(s, "```") && strings.HasSuffix(s, "```") && len(s) >= 6 {
			s = strings.TrimSuffix(s, "```")
			if nl := strings.IndexByte(s, '\n'); nl >= 0 {
				s = strings.TrimSpace(s[nl+1:])
			} else {
				s = strings.TrimSpace(strings.TrimPrefix(s, "```"))
			}
		}
		for _, q := range quotePairs {
			inner, ok := strings.CutPrefix(s, q[0])
			if !ok {
				continue
			}
			if inner, ok = strings.CutSuffix(inner, q[1]); ok && !strings.Contains(inner, q[0]) && !strings.Contains(inner, q[1]) {
				s = strings.TrimSpace(inner)
			}
		}
	}
	if level == Essence {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}
