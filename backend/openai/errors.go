package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Error is every failure of the server this package reports. Its Code is
// one of the model server's codes (backend/errs), which errs.CodeOf finds
// through any wrapping:
//
//   - errs.OllamaNotRunning: nothing answered at the address;
//   - errs.OllamaModelMissing: the server does not list the model (or none
//     was named);
//   - errs.ModelNoTools: the server refused a request because it offered
//     tools;
//   - errs.OllamaContextTooLong: the server refused a prompt longer than
//     the window it runs the model with;
//   - errs.OllamaBadStream: an HTTP error (an API key refused among them),
//     an error in the middle of a stream, a reply that is not the protocol,
//     or a stream that ended early;
//   - errs.OllamaTimeout: the server sent nothing within the limit.
//
// The caller's own cancelled context is never an *Error: it comes back as
// it is.
type Error struct {
	Code errs.Code
	// URL is the server's address and Model the model asked for ("" if
	// none).
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

// flavor is which server answers, as its model list says (owned_by).
type flavor int

const (
	generic flavor = iota
	lmStudio
	llamaCpp
	vllm
	ollamaV1
)

// flavorOf reads the owned_by of a /v1/models entry.
func flavorOf(ownedBy string) flavor {
	switch strings.ToLower(ownedBy) {
	case "organization_owner":
		return lmStudio
	case "llamacpp":
		return llamaCpp
	case "vllm":
		return vllm
	case "library", "ollama":
		return ollamaV1
	}
	return generic
}

func (f flavor) name() string {
	switch f {
	case lmStudio:
		return "LM Studio"
	case llamaCpp:
		return "llama.cpp's server"
	case vllm:
		return "vLLM"
	case ollamaV1:
		return "Ollama"
	}
	return "the OpenAI-compatible server"
}

// startHint says how to start the server.
func (f flavor) startHint() string {
	switch f {
	case lmStudio:
		return "start LM Studio's server (Developer tab, or `lms server start`)"
	case llamaCpp:
		return "start it with `llama-server -m MODEL.gguf --port PORT`"
	case vllm:
		return "start it with `vllm serve MODEL`"
	case ollamaV1:
		return "start it with `ollama serve`"
	}
	return "start your server there (LM Studio: `lms server start`; llama.cpp: `llama-server -m MODEL.gguf --port 8080`; vLLM: `vllm serve MODEL`) or change the address in Settings"
}

func (c *Client) fail(code errs.Code, model string, cause error, format string, args ...any) *Error {
	return &Error{Code: code, URL: c.base.String(), Model: model, Err: cause, Message: fmt.Sprintf(format, args...)}
}

// capitalised is the server's name at the start of a sentence.
func (c *Client) capitalised() string {
	n := c.Name()
	return strings.ToUpper(n[:1]) + n[1:]
}

func (c *Client) notRunning(model string, cause error) *Error {
	f := c.currentFlavor()
	if f == generic {
		return c.fail(errs.OllamaNotRunning, model, cause, "nothing answers at %s: %s", c.base, f.startHint())
	}
	return c.fail(errs.OllamaNotRunning, model, cause, "%s is not reachable at %s: %s", f.name(), c.base, f.startHint())
}

// modelMissing is the error for a model the server does not have; listed
// are the models it does list (nil: not known).
func (c *Client) modelMissing(model string, listed []string, cause error) *Error {
	if strings.TrimSpace(model) == "" {
		return c.fail(errs.OllamaModelMissing, "", cause, "no model given: pick one that %s at %s lists (Settings, or `loom models --provider openai`)", c.Name(), c.base)
	}
	served := ""
	if len(listed) > 0 {
		served = " (it lists " + strings.Join(quoteAll(listed, 5), ", ") + ")"
	}
	var fix string
	switch c.currentFlavor() {
	case lmStudio:
		fix = fmt.Sprintf("download it in LM Studio (`lms get %s`), or pick a model it lists", model)
	case llamaCpp:
		fix = "pick the model it serves, or start llama-server with that model's GGUF (`llama-server -m FILE.gguf`)"
	case vllm:
		fix = fmt.Sprintf("pick the model it serves, or start vLLM with it (`vllm serve %s`)", model)
	case ollamaV1:
		fix = fmt.Sprintf("run `ollama pull %s`", model)
	default:
		fix = "load the model in the server, or pick one it lists"
	}
	return c.fail(errs.OllamaModelMissing, model, cause, "model %s is not available from %s at %s%s: %s", model, c.Name(), c.base, served, fix)
}

func quoteAll(names []string, most int) []string {
	var out []string
	for i, n := range names {
		if i == most {
			out = append(out, fmt.Sprintf("and %d more", len(names)-most))
			break
		}
		out = append(out, n)
	}
	return out
}

func (c *Client) unusable(model string, cause error, format string, args ...any) *Error {
	return c.fail(errs.OllamaBadStream, model, cause, "%s at %s returned an unusable response: %s", c.capitalised(), c.base, fmt.Sprintf(format, args...))
}

// sentNothing is the error for a request that heard nothing for limit;
// chunks is how many chunks of a stream arrived before the silence.
func (c *Client) sentNothing(what, model string, limit time.Duration, chunks int) *Error {
	if chunks > 0 {
		return c.fail(errs.OllamaTimeout, model, nil,
			"%s at %s stalled in the middle of its reply: it sent nothing new for %s after %d chunks (asked to %s), so Loom gave up; the partial answer is kept: check that the server is still running, then ask again",
			c.capitalised(), c.base, wait.Human(limit), chunks, what)
	}
	loading := ""
	if model != "" {
		loading = fmt.Sprintf(", and is model %s still loading", model)
	}
	return c.fail(errs.OllamaTimeout, model, nil, "%s at %s sent nothing for %s when asked to %s, so Loom gave up: is it running%s?", c.capitalised(), c.base, wait.Human(limit), what, loading)
}

// errorBody is an error reply as these servers write it: OpenAI's
// {"error": {"message", "type", "code"}} (LM Studio, llama.cpp, Ollama),
// {"error": "text"}, or vLLM's and FastAPI's top-level "message" and
// "detail".
type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
	Detail  any             `json:"detail"`
	Type    string          `json:"type"`
}

// readError returns the message, the type and the code of an error reply
// (the body itself, shortened, when it is not JSON).
func readError(body []byte) (message, kind string) {
	var eb errorBody
	if json.Unmarshal(body, &eb) != nil {
		return brief(string(body)), ""
	}
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	}
	var text string
	switch {
	case len(eb.Error) > 0 && json.Unmarshal(eb.Error, &obj) == nil && obj.Message != "":
		code := ""
		if s, ok := obj.Code.(string); ok {
			code = s
		}
		return obj.Message, strings.TrimSpace(obj.Type + " " + code)
	case len(eb.Error) > 0 && json.Unmarshal(eb.Error, &text) == nil && text != "":
		return text, ""
	case eb.Message != "":
		return eb.Message, eb.Type
	case eb.Detail != nil:
		return fmt.Sprint(eb.Detail), ""
	}
	return brief(string(body)), ""
}

var (
	missingModel = regexp.MustCompile(`(?i)model.*(not found|does not exist|not loaded|no such|unknown|invalid model)|(no|unknown) model|model_not_found`)
	toolsRefused = regexp.MustCompile(`(?i)tool`)
	tooLong      = regexp.MustCompile(`(?i)context (size|length|window)|exceed|too long|maximum context`)
)

// statusError explains an HTTP error reply to r.
func (c *Client) statusError(r route, status int, body []byte) *Error {
	msg, kind := readError(body)
	what := strings.TrimSpace(msg + " " + kind)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		if c.cfg.key == "" {
			return c.fail(errs.OllamaBadStream, r.model, nil, "%s at %s wants an API key (HTTP %d: %s): set it in Settings (Model server), or in $LOOM_OPENAI_API_KEY", c.capitalised(), c.base, status, msg)
		}
		return c.fail(errs.OllamaBadStream, r.model, nil, "%s at %s refused the API key (HTTP %d: %s): check the key in Settings (Model server), or in $LOOM_OPENAI_API_KEY", c.capitalised(), c.base, status, msg)
	case r.model != "" && missingModel.MatchString(what):
		return c.modelMissing(r.model, nil, fmt.Errorf("HTTP %d: %s", status, msg))
	case (status == http.StatusBadRequest || status >= http.StatusInternalServerError) && tooLong.MatchString(what):
		return c.fail(errs.OllamaContextTooLong, r.model, nil, "%s at %s refused a prompt longer than the window it runs model %s with (HTTP %d: %s): lower the context budget, or load the model with a larger context length", c.capitalised(), c.base, r.model, status, msg)
	case r.path == "/chat/completions" && (status == http.StatusBadRequest || status >= http.StatusInternalServerError) && toolsRefused.MatchString(what):
		return c.fail(errs.ModelNoTools, r.model, nil, "%s at %s refused tools for model %s (HTTP %d: %s)", c.capitalised(), c.base, r.model, status, msg)
	case status == http.StatusNotFound:
		return c.fail(errs.OllamaBadStream, r.model, nil, "%s at %s has no route %s (HTTP 404: %s): is the address an OpenAI-compatible server's, ending in /v1?", c.capitalised(), c.base, r.path, msg)
	}
	return c.fail(errs.OllamaBadStream, r.model, nil, "%s at %s failed to %s: HTTP %d: %s", c.capitalised(), c.base, r.what, status, msg)
}

// describe quotes the start of a body that is not what was expected.
func describe(body []byte) string {
	if len(strings.TrimSpace(string(body))) == 0 {
		return "an empty body"
	}
	return brief(string(body))
}

// brief quotes at most 120 bytes of s.
func brief(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		cut := 120
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return fmt.Sprintf("%q", s)
}
