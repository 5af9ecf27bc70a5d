package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// Turn is one question in a conversation and everything sent with it.
type Turn struct {
	// Model is the Ollama model name, e.g. "llama3.2".
	Model string
	// Window is the num_ctx sent to Ollama: the window the budget assumed.
	// Required.
	Window int
	// System is the system message: instructions, manifest and loaded
	// context, assembled by the caller. When tools are offered, Chat
	// appends ToolGuide to it.
	System string
	// History is the earlier turns, already trimmed by the caller.
	History []api.Message
	// Question is the user's message.
	Question string
	// Tools answers tool calls; nil offers no tools. Tools are offered only
	// when the server says the model supports them (looked up once per
	// model and client).
	Tools Tools
	// MaxToolRounds bounds the rounds of tool calls (default 2; negative:
	// offer no tools). After the last round the model is asked to answer
	// without tools.
	MaxToolRounds int
	// MaxToolTokens caps the tokens tool results add in this turn
	// (default: 25% of Window).
	MaxToolTokens int
	// Count counts tokens for budgeting (callers pass tokens.Default().Count;
	// nil: about four bytes a token). Chat scales its counts by the
	// client's Calibration for the model when checking the window.
	Count func(string) int
	// OnToken receives the answer's content as it streams (may be nil);
	// OnThinking the model's thinking, for models that think.
	OnToken    func(string)
	OnThinking func(string)
	// OnToolCall is told of each tool call once it is done (may be nil).
	OnToolCall func(ToolCall)
	// OnWait is told while the server is silent: after 10 s without a
	// chunk, as stalled after 30 s and every 30 s after, until the
	// server's idle timeout ends the turn with errs.OllamaTimeout (see
	// package wait). nil means the server's own notifier. It runs on
	// another goroutine than the caller's but never at the same time as
	// OnToken or OnThinking; the wait is over when the next token, tool
	// call or the result comes.
	OnWait func(wait.Notice)
}

// Result is one turn's answer and how it was reached. On error, Chat
// returns it too, with what was received before the failure.
type Result struct {
	// Answer is every piece of content streamed in this turn (what
	// OnToken saw); Thinking likewise.
	Answer   string `json:"answer"`
	Thinking string `json:"thinking,omitempty"`
	// ToolCalls records every tool call, in order.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// PromptEvalCount and EvalCount are Ollama's counts from the last
	// request's final chunk; EstimatedPromptTokens is Count's estimate of
	// that request (unscaled), the pair Calibration learns from.
	PromptEvalCount       int `json:"prompt_eval_count"`
	EvalCount             int `json:"eval_count"`
	EstimatedPromptTokens int `json:"estimated_prompt_tokens"`
	// Truncated says the reply was cut off (done_reason "length"): by the
	// window, or by the model's output limit (num_predict); Notes then says
	// which in a sentence.
	Truncated  bool   `json:"truncated,omitempty"`
	DoneReason string `json:"done_reason,omitempty"`
	// Rounds is the number of requests sent.
	Rounds int `json:"rounds"`
	// ToolsOffered says whether the first request offered tools.
	ToolsOffered bool `json:"tools_offered"`
	// Notes are sentences for the person: why tools were not offered or
	// stopped, that the answer was cut.
	Notes []string `json:"notes,omitempty"`
	// Messages are the messages this turn added after History: the
	// question, assistant messages with their tool calls, tool results, and
	// the final answer.
	Messages []api.Message `json:"messages,omitempty"`
	// Sent is every request sent, in order (tests and --show-prompt).
	Sent []api.ChatRequest `json:"-"`
}

// DefaultMaxToolRounds is MaxToolRounds when Turn leaves it 0.
const DefaultMaxToolRounds = 2

// answerNow is the user note that ends tool use.
const answerNow = "Answer now from the context you have; cite node ids."

// outputMargin is the share of the window kept free for the answer when
// tool results are added.
const outputMargin = 0.10

// Chat runs one turn: it streams the model's reply and, when the model
// calls tools, runs them and sends their results back, at most
// MaxToolRounds times, keeping every request inside the window. On error
// the partial *Result is returned with it (never nil).
func (c *Client) Chat(ctx context.Context, t Turn) (*Result, error) {
	res := &Result{}
	if strings.TrimSpace(t.Model) == "" {
		return res, fmt.Errorf("chat: no model given")
	}
	if t.Window <= 0 {
		return res, fmt.Errorf("chat: Turn.Window must be the model's num_ctx, got %d", t.Window)
	}
	if strings.TrimSpace(t.Question) == "" {
		return res, fmt.Errorf("chat: empty question")
	}
	r := &runner{c: c, t: t, res: res, seen: map[string]bool{}}
	r.defaults()
	if err := r.prepare(ctx); err != nil {
		return res, err
	}
	return res, r.run(ctx)
}

// runner is the state of one turn.
type runner struct {
	c   *Client
	t   Turn
	res *Result

	tr        transcript
	system    api.Message // the system message without the tool guide
	guided    bool        // the transcript's system message carries the tool guide
	tools     api.Tools   // offered while toolsOn
	toolsOn   bool
	toolsCost int // tokens of the definitions
	rounds    int // tool rounds done
	retrieved int // tokens of tool results sent
	seen      map[string]bool
	// newContent and newThinking are set after tool calls, until the
	// next round's first piece, which is then set apart from the last.
	newContent, newThinking bool
}

func (r *runner) defaults() {
	if r.t.Count == nil {
		r.t.Count = estimateLen
	}
	if r.t.MaxToolRounds == 0 {
		r.t.MaxToolRounds = DefaultMaxToolRounds
	}
	if r.t.MaxToolTokens <= 0 {
		r.t.MaxToolTokens = r.t.Window / 4
	}
	r.tr.count = r.t.Count
}

// scaled is what Ollama will likely count for n estimated tokens.
func (r *runner) scaled(n int) int { return r.c.calib.Scale(r.t.Model, n) }

// prepare decides on tools and builds the first request's messages.
func (r *runner) prepare(ctx context.Context) error {
	if r.t.Tools != nil && r.t.MaxToolRounds > 0 {
		info, err := r.c.cachedModel(ctx, r.t.Model, r.t.OnWait)
		switch {
		case err != nil && errs.CodeOf(err) == errs.OllamaBadStream:
			// Describing this model is broken (an HTTP error, a reply that
			// is not the protocol); chat may still work.
			r.note("Ollama could not say whether %s supports tool calling (%s), so no tools were offered.", r.t.Model, err)
		case err != nil:
			return err
		case info.Tools || !info.Knows("tools"):
			// A server that does not say (an OpenAI-compatible one) is
			// offered tools; run drops them if it refuses.
			r.toolsOn = true
			r.tools = Definitions()
			r.toolsCost = toolsTokens(r.tools, r.t.Count)
		default:
			r.note("Model %s does not support tool calling, so it answers from the assembled context alone.", r.t.Model)
		}
	}
	system := api.Message{Role: "system", Content: r.t.System}
	r.system = system
	if r.toolsOn {
		withGuide := system
		withGuide.Content = strings.TrimRight(withGuide.Content, "\n")
		if withGuide.Content != "" {
			withGuide.Content += "\n\n"
		}
		withGuide.Content += ToolGuide(r.t.MaxToolRounds)
		// The tools ride along only if the prompt with them leaves the
		// output margin free.
		rest := messageTokens(api.Message{Role: "user", Content: r.t.Question}, r.t.Count)
		for _, m := range r.t.History {
			rest += messageTokens(m, r.t.Count)
		}
		if r.scaled(messageTokens(withGuide, r.t.Count)+rest+r.toolsCost) > r.t.Window-r.margin() {
			r.toolsOn = false
			r.note("Tools were not offered: the context already fills the window.")
		} else {
			system = withGuide
			r.guided = true
		}
	}
	if system.Content != "" {
		r.tr.add(system)
	}
	for _, m := range r.t.History {
		r.tr.add(m)
	}
	r.add(api.Message{Role: "user", Content: r.t.Question})
	if prompt := r.scaled(r.tr.total()); prompt > r.t.Window {
		return errs.E(errs.OllamaContextTooLong,
			"the prompt is about %d tokens but the window is %d (%s): lower the context budget or shorten the history", prompt, r.t.Window, r.terms().window)
	}
	r.res.ToolsOffered = r.toolsOn
	return nil
}

// limitTerms are what a model server calls the window and the output
// limit, for notes and errors the person acts on.
type limitTerms struct {
	server, window, output, raise string
}

// terms names the limits as the turn's server does: Ollama's num_ctx and
// num_predict, else the server's context length and its output limit
// (LM Studio, llama.cpp's server and vLLM set it per model or at launch).
func (r *runner) terms() limitTerms {
	name := "Ollama"
	if n, ok := r.c.server.(interface{ Name() string }); ok && n.Name() != "" {
		name = n.Name()
	}
	if name == "Ollama" {
		return limitTerms{server: name, window: "num_ctx", output: "num_predict, set in its Modelfile or options", raise: "raise num_predict"}
	}
	return limitTerms{server: name, window: "the context length " + name + " loaded it with", output: "the most tokens " + name + " lets it write", raise: "raise that limit in " + name}
}

func (r *runner) margin() int { return int(float64(r.t.Window) * outputMargin) }

func (r *runner) note(format string, args ...any) {
	r.res.Notes = append(r.res.Notes, fmt.Sprintf(format, args...))
}

// add appends a message of this turn to the transcript and the result.
func (r *runner) add(m api.Message) {
	r.tr.add(m)
	r.res.Messages = append(r.res.Messages, m)
}

// run sends requests until the model answers without calling tools.
func (r *runner) run(ctx context.Context) error {
	for {
		req := r.request()
		r.res.Sent = append(r.res.Sent, req)
		r.res.Rounds++
		estimate := r.tr.total() + toolsTokens(req.Tools, r.t.Count)
		rep, err := r.c.stream(ctx, &req, r.onContent, r.onThinking, r.t.OnWait)
		if err != nil && r.refusedTools(req, rep, err) {
			continue
		}
		r.finishRound(rep)
		if err != nil {
			return err
		}
		r.res.PromptEvalCount, r.res.EvalCount = rep.metrics.PromptEvalCount, rep.metrics.EvalCount
		r.res.EstimatedPromptTokens = estimate
		r.res.DoneReason = rep.doneReason
		// A count near num_ctx means Ollama cut the prompt to fit: it says
		// nothing about the tokenizer, and the person should know.
		switch counted := rep.metrics.PromptEvalCount; {
		case counted > 0 && counted < r.t.Window-r.t.Window/20:
			r.c.calib.Observe(r.t.Model, estimate, counted)
		case counted > 0:
			r.note("%s counted %d prompt tokens against a window of %d: it may have dropped the oldest messages to make room.", r.terms().server, rep.metrics.PromptEvalCount, r.t.Window)
		}
		if rep.doneReason == "length" {
			r.res.Truncated = true
			// Ollama says "length" for both limits: the window filled
			// (prompt and answer reach num_ctx), or the model's output limit
			// (num_predict, from its Modelfile or options) stopped it first.
			used := rep.metrics.PromptEvalCount + rep.metrics.EvalCount
			if r.t.Window <= 0 || used == 0 || used >= r.t.Window-r.t.Window/50 {
				r.note("The answer was cut off: it reached the end of the model's window (%d tokens, %s). Ask for the rest, or give less context to leave more room for the answer.", r.t.Window, r.terms().window)
				r.ignoreCalls(rep.toolCalls, "not run: the reply was cut by the window")
			} else {
				lt := r.terms()
				r.note("The answer was cut off after %d tokens by the model's output limit (%s), not by its window (%d of %d tokens used). Ask for the rest, or %s.", rep.metrics.EvalCount, lt.output, used, r.t.Window, lt.raise)
				r.ignoreCalls(rep.toolCalls, "not run: the reply was cut by the model's output limit")
			}
			return nil
		}
		if len(rep.toolCalls) == 0 {
			return nil
		}
		if len(req.Tools) == 0 {
			r.ignoreCalls(rep.toolCalls, "not run: tools were not offered in this request")
			if r.res.Answer == "" {
				r.note("The model asked for more tools instead of answering; ask again or rephrase the question.")
			}
			return nil
		}
		if err := r.runCalls(ctx, rep.toolCalls); err != nil {
			return err
		}
	}
}

// refusedTools handles a server that refused the first request because it
// offered tools (errs.ModelNoTools: a model without tool support on a
// server that does not report it, or a server not set up for tools):
// the turn goes on without tools, the guide taken out of the system
// message, and a note says why. It reports whether it did.
func (r *runner) refusedTools(req api.ChatRequest, rep reply, err error) bool {
	if errs.CodeOf(err) != errs.ModelNoTools || len(req.Tools) == 0 || r.rounds > 0 ||
		rep.content != "" || rep.thinking != "" || len(rep.toolCalls) > 0 {
		return false
	}
	r.toolsOn, r.toolsCost = false, 0
	r.res.ToolsOffered = false
	switch {
	case r.guided && r.system.Content == "":
		r.tr.msgs, r.tr.tokens = r.tr.msgs[1:], r.tr.tokens[1:]
	case r.guided:
		r.tr.msgs[0] = r.system
		r.tr.tokens[0] = messageTokens(r.system, r.t.Count)
	}
	r.guided = false
	r.note("The server refused tools for model %s (%s), so it answers from the assembled context alone.", r.t.Model, err)
	return true
}

// request builds the next request from the transcript.
func (r *runner) request() api.ChatRequest {
	stream := true
	req := api.ChatRequest{
		Model:    r.t.Model,
		Messages: append([]api.Message(nil), r.tr.msgs...),
		Stream:   &stream,
		Options:  map[string]any{"num_ctx": r.t.Window},
	}
	if r.toolsOn {
		req.Tools = r.tools
	}
	return req
}

// finishRound adds the round's assistant message to the transcript.
func (r *runner) finishRound(rep reply) {
	if rep.content == "" && rep.thinking == "" && len(rep.toolCalls) == 0 {
		return
	}
	r.add(api.Message{Role: "assistant", Content: rep.content, Thinking: rep.thinking, ToolCalls: rep.toolCalls})
}

func (r *runner) onContent(s string) {
	s = apart(r.res.Answer, s, &r.newContent)
	r.res.Answer += s
	if r.t.OnToken != nil {
		r.t.OnToken(s)
	}
}

func (r *runner) onThinking(s string) {
	s = apart(r.res.Thinking, s, &r.newThinking)
	r.res.Thinking += s
	if r.t.OnThinking != nil {
		r.t.OnThinking(s)
	}
}

// apart puts a blank line before the first piece of a new round, so that
// text from before a tool call and after it do not run together.
func apart(sofar, piece string, newRound *bool) string {
	if *newRound && sofar != "" && !strings.HasSuffix(sofar, "\n\n") {
		piece = "\n\n" + strings.TrimLeft(piece, "\n")
	}
	*newRound = false
	return piece
}

// ignoreCalls records tool calls that were not run, and why.
func (r *runner) ignoreCalls(calls []api.ToolCall, why string) {
	for _, call := range calls {
		r.record(ToolCall{Round: r.res.Rounds, Name: call.Function.Name, Args: call.Function.Arguments.ToMap(), Error: why})
	}
}

func (r *runner) record(tc ToolCall) {
	r.res.ToolCalls = append(r.res.ToolCalls, tc)
	if r.t.OnToolCall != nil {
		r.t.OnToolCall(tc)
	}
}

// runCalls runs one round of tool calls and decides whether the next
// request still offers tools.
func (r *runner) runCalls(ctx context.Context, calls []api.ToolCall) error {
	r.rounds++
	stop := ""
	for _, call := range calls {
		if err := ctx.Err(); err != nil {
			return err
		}
		tc, msg := r.runCall(ctx, call)
		switch {
		case strings.HasPrefix(tc.Error, "repeated call"):
			stop = "The model repeated a tool call, so it was asked to answer without more tools."
		case tc.Error == budgetExhausted && stop == "":
			stop = "The tool budget for this turn ran out, so the model was asked to answer with what it had."
		}
		r.add(msg)
		r.record(tc)
	}
	if stop == "" && r.rounds >= r.t.MaxToolRounds {
		stop = fmt.Sprintf("The model used its %d rounds of tool calls and was asked to answer.", r.t.MaxToolRounds)
	}
	if stop != "" {
		r.toolsOn = false
		r.note("%s", stop)
		r.add(api.Message{Role: "user", Content: answerNow})
	}
	r.newContent, r.newThinking = true, true
	return nil
}

// runCall runs one tool call and returns its record and tool message.
func (r *runner) runCall(ctx context.Context, call api.ToolCall) (ToolCall, api.Message) {
	name := call.Function.Name
	args := call.Function.Arguments.ToMap()
	tc := ToolCall{Round: r.res.Rounds, Name: name, Args: args}
	msg := api.Message{Role: "tool", ToolName: name, ToolCallID: call.ID}
	fail := func(reason string) (ToolCall, api.Message) {
		tc.Error = reason
		msg.Content = "error: " + reason
		if reason == budgetExhausted {
			msg.Content = budgetExhausted
		}
		tc.Tokens = r.t.Count(msg.Content)
		return tc, msg
	}
	key := callKey(name, args)
	if r.seen[key] {
		return fail("repeated call: this exact call was already made in this turn and its result is above; it was not run again")
	}
	r.seen[key] = true

	start := time.Now()
	result, err := runTool(ctx, r.t.Tools, name, args)
	tc.Duration = time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return fail("cancelled")
		}
		return fail(err.Error())
	}
	if strings.TrimSpace(result.Text) == "" {
		result.Text = "no results"
	}
	allowed := r.allowance(msg)
	text, trimmed, ok := fitText(result.Text, allowed, r.t.Count)
	if !ok {
		return fail(budgetExhausted)
	}
	msg.Content = text
	tc.Trimmed = trimmed
	tc.Tokens = r.t.Count(text)
	tc.NodeIDs = idsShown(result.NodeIDs, result.Text, text)
	for _, id := range tc.NodeIDs {
		if c, ok := result.Cites[id]; ok {
			if tc.Cites == nil {
				tc.Cites = map[string]string{}
			}
			tc.Cites[id] = c
		}
	}
	r.retrieved += tc.Tokens
	return tc, msg
}

// allowance is how many (unscaled) tokens of tool text may be added now:
// within the turn's tool cap, and leaving the whole next request (with the
// tool definitions and a closing note) plus the output margin inside the
// window.
func (r *runner) allowance(msg api.Message) int {
	capLeft := r.t.MaxToolTokens - r.retrieved
	next := r.tr.total() + r.toolsCost + messageTokens(msg, r.t.Count) +
		messageTokens(api.Message{Role: "user", Content: answerNow}, r.t.Count)
	roomLeft := r.t.Window - r.margin() - r.scaled(next)
	roomLeft = int(float64(roomLeft) / r.c.calib.Factor(r.t.Model))
	return max(0, min(capLeft, roomLeft))
}

// callKey identifies a call for loop detection: the name and the
// arguments as canonical JSON (encoding/json sorts map keys).
func callKey(name string, args map[string]any) string {
	b, err := json.Marshal(args)
	if err != nil {
		return name + "\x00" + fmt.Sprint(args)
	}
	return name + "\x00" + string(b)
}
