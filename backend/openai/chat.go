package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama/wait"
)

var _ chat.Server = (*Client)(nil)

// chatRequest is POST /v1/chat/completions as Loom sends it.
type chatRequest struct {
	Model         string         `json:"model"`
	Messages      []message      `json:"messages"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
	Tools         api.Tools      `json:"tools,omitempty"`
	MaxTokens     int            `json:"max_tokens,omitempty"`
	Temperature   *float64       `json:"temperature,omitempty"`
}

// streamOptions asks for the token counts in a last chunk.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

type toolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// chunk is one "data:" event of the stream, and also (Message instead of
// Delta) a whole chat.completion from a server that did not stream.
type chunk struct {
	Choices []struct {
		Index        int     `json:"index"`
		Delta        *delta  `json:"delta"`
		Message      *delta  `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	// Error is an error sent in place of a chunk (vLLM, LM Studio).
	Error json.RawMessage `json:"error"`
}

type delta struct {
	Content *string `json:"content"`
	// ReasoningContent is the thinking of llama.cpp, vLLM and LM Studio;
	// Reasoning Ollama's.
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is a piece of a tool call: the first names the call (id,
// name), the next ones carry pieces of its arguments, all under its index.
type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name string `json:"name"`
		// Arguments is a piece of a JSON string; a server that sends the
		// arguments as an object instead is read too.
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// piece is the text of a delta's arguments.
func (tc toolCallDelta) piece() string {
	raw := bytes.TrimSpace(tc.Function.Arguments)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// request turns Loom's chat request (Ollama's types, which package chat
// speaks) into the /v1 protocol's: a tool call's arguments become a JSON
// string, a tool result refers to its call by id, options become the
// fields these servers take. num_ctx has no equivalent: the server runs
// the model with the window it loaded it with (chat.ModelInfo.ServerWindow).
func request(req *api.ChatRequest) chatRequest {
	out := chatRequest{Model: req.Model, Stream: true, StreamOptions: &streamOptions{IncludeUsage: true}, Tools: req.Tools}
	if req.Stream != nil && !*req.Stream {
		out.Stream, out.StreamOptions = false, nil
	}
	if n, ok := number(req.Options["num_predict"]); ok && n > 0 {
		out.MaxTokens = int(n)
	}
	if t, ok := number(req.Options["temperature"]); ok {
		out.Temperature = &t
	}
	for _, m := range req.Messages {
		msg := message{Role: m.Role, Content: m.Content}
		for i, call := range m.ToolCalls {
			var tc toolCall
			tc.ID, tc.Type = callID(call.ID, i), "function"
			tc.Function.Name, tc.Function.Arguments = call.Function.Name, call.Function.Arguments.String()
			msg.ToolCalls = append(msg.ToolCalls, tc)
		}
		if m.Role == "tool" {
			msg.ToolCallID, msg.Name = m.ToolCallID, m.ToolName
		}
		out.Messages = append(out.Messages, msg)
	}
	return out
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// callID is a tool call's id, or one made from its index for a server
// that sent none: the tool's result must name the call it answers.
func callID(id string, index int) string {
	if id != "" {
		return id
	}
	return fmt.Sprintf("call_%d", index)
}

// Stream sends one streamed /v1/chat/completions request and passes the
// reply to onChunk as Ollama's chunks (chat.Streamer): one per piece of
// content or thinking as it arrives, then a final one (Done) with the tool
// calls put together from their deltas, the finish reason as done_reason
// ("tool_calls" is "stop", as Ollama says) and the usage as the token
// counts. A watch tells notify (nil: the client's notifier) while the
// server is silent, never at the same time as onChunk, and gives the
// request up after the idle timeout. It returns nil only once the reply
// has ended ("data: [DONE]", or a finish reason and the end of the body);
// otherwise an *Error says why, or the caller's context error when the
// caller stopped it.
func (c *Client) Stream(ctx context.Context, req *api.ChatRequest, notify func(wait.Notice), onChunk func(api.ChatResponse)) error {
	if notify == nil {
		notify = c.cfg.notify
	}
	var mu sync.Mutex
	serialised := func(n wait.Notice) {
		if notify != nil {
			mu.Lock()
			defer mu.Unlock()
			notify(n)
		}
	}
	emit := func(r api.ChatResponse) {
		mu.Lock()
		defer mu.Unlock()
		onChunk(r)
	}
	r := route{method: http.MethodPost, path: "/chat/completions", body: request(req),
		what: "answer with model " + req.Model, model: req.Model, limit: c.cfg.idle, notify: serialised}
	reqCtx, w := c.watch(ctx, r.what, r.model, r.limit, serialised)
	defer w.Stop()
	resp, err := c.send(ctx, reqCtx, w, r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	rd := &replyReader{c: c, model: req.Model, emit: emit, calls: map[int]*api.ToolCall{}}
	if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); ct == "application/json" {
		// The server answered with one object instead of a stream.
		err = rd.whole(resp.Body, w)
	} else {
		err = rd.events(resp.Body, w)
	}
	w.Stop()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case w.GaveUp():
		return c.sentNothing(r.what, r.model, r.limit, rd.chunks)
	}
	return err
}

// replyReader puts one reply together.
type replyReader struct {
	c      *Client
	model  string
	emit   func(api.ChatResponse)
	chunks int
	// calls are the tool calls so far, by index; finish the finish reason.
	calls        map[int]*api.ToolCall
	args         map[int]*strings.Builder
	finish       string
	promptTokens int
	outputTokens int
	done         bool
}

// events reads the server-sent events: each "data:" line is a chunk, the
// last one "[DONE]"; comments (": ping") and other fields are skipped.
func (rd *replyReader) events(body io.Reader, w *wait.Watch) error {
	br := bufio.NewReader(body)
	var data bytes.Buffer
	for {
		line, readErr := br.ReadBytes('\n')
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0 && data.Len() > 0:
			// A blank line ends an event.
			if err := rd.event(data.Bytes(), w); err != nil || rd.done {
				return err
			}
			data.Reset()
		case bytes.HasPrefix(line, []byte("data:")):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.Write(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" ")))
		}
		if readErr != nil {
			if data.Len() > 0 && errors.Is(readErr, io.EOF) {
				if err := rd.event(data.Bytes(), w); err != nil || rd.done {
					return err
				}
			}
			return rd.ended(readErr)
		}
	}
}

// ended explains a body that ended (or failed) before "[DONE]".
func (rd *replyReader) ended(readErr error) error {
	c := rd.c
	switch {
	case errors.Is(readErr, io.EOF) && rd.finish != "":
		// A finish reason came and then the end: a server that does not
		// send [DONE]. Nothing is missing.
		rd.final()
		return nil
	case rd.chunks > 0:
		return c.fail(errs.OllamaBadStream, rd.model, readErr,
			"the connection to %s at %s dropped in the middle of the reply (after %d chunks); the partial answer is kept: check that the server is still running and ask again", c.Name(), c.base, rd.chunks)
	}
	return c.fail(errs.OllamaBadStream, rd.model, readErr,
		"%s at %s closed the connection without answering: check that it is still running and ask again", c.capitalised(), c.base)
}

// event handles one event's data.
func (rd *replyReader) event(data []byte, w *wait.Watch) error {
	w.Touch()
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		if rd.finish == "" && rd.chunks == 0 {
			return rd.c.fail(errs.OllamaBadStream, rd.model, nil, "%s at %s ended the reply before answering", rd.c.capitalised(), rd.c.base)
		}
		rd.final()
		return nil
	}
	rd.chunks++
	var ch chunk
	if err := json.Unmarshal(data, &ch); err != nil {
		return rd.c.fail(errs.OllamaBadStream, rd.model, nil, "%s sent a malformed reply: a chunk that is not JSON: %s (after %d chunks)", rd.c.capitalised(), describe(data), rd.chunks-1)
	}
	if len(ch.Error) > 0 && string(ch.Error) != "null" {
		msg, kind := readError(append(append([]byte(`{"error":`), ch.Error...), '}'))
		return rd.c.fail(errs.OllamaBadStream, rd.model, nil, "%s at %s stopped with an error while answering: %s", rd.c.capitalised(), rd.c.base, strings.TrimSpace(msg+" "+kind))
	}
	rd.take(ch, false)
	return nil
}

// whole reads a reply that came as one chat.completion object.
func (rd *replyReader) whole(body io.Reader, w *wait.Watch) error {
	b, err := io.ReadAll(body)
	if err != nil {
		return rd.ended(err)
	}
	w.Touch()
	var ch chunk
	if err := json.Unmarshal(b, &ch); err != nil || len(ch.Choices) == 0 {
		return rd.c.unusable(rd.model, err, "a reply that is not a chat completion: %s", describe(b))
	}
	rd.chunks++
	rd.take(ch, true)
	rd.final()
	return nil
}

// take passes a chunk's content and thinking on and keeps its tool calls,
// finish reason and usage for the final chunk.
func (rd *replyReader) take(ch chunk, whole bool) {
	if ch.Usage != nil {
		rd.promptTokens, rd.outputTokens = ch.Usage.PromptTokens, ch.Usage.CompletionTokens
	}
	for _, choice := range ch.Choices {
		if choice.Index != 0 {
			continue // Loom asks for one choice
		}
		d := choice.Delta
		if whole || d == nil {
			d = choice.Message
		}
		if d != nil {
			thinking := d.ReasoningContent + d.Reasoning
			content := ""
			if d.Content != nil {
				content = *d.Content
			}
			if thinking != "" || content != "" {
				rd.emit(api.ChatResponse{Model: rd.model, Message: api.Message{Role: "assistant", Content: content, Thinking: thinking}})
			}
			for i, tc := range d.ToolCalls {
				rd.addCall(tc, i)
			}
		}
		if choice.FinishReason != nil && *choice.FinishReason != "" {
			rd.finish = *choice.FinishReason
		}
	}
}

// addCall adds a piece of a tool call; pos is its place in its chunk, the
// index when the server sent none (a whole reply's calls).
func (rd *replyReader) addCall(tc toolCallDelta, pos int) {
	i := pos
	if tc.Index != nil {
		i = *tc.Index
	}
	call := rd.calls[i]
	if call == nil {
		call = &api.ToolCall{}
		call.Function.Index = i
		rd.calls[i] = call
		if rd.args == nil {
			rd.args = map[int]*strings.Builder{}
		}
		rd.args[i] = &strings.Builder{}
	}
	if tc.ID != "" {
		call.ID = tc.ID
	}
	if tc.Function.Name != "" {
		call.Function.Name = tc.Function.Name
	}
	rd.args[i].WriteString(tc.piece())
}

// final sends the final chunk, once.
func (rd *replyReader) final() {
	if rd.done {
		return
	}
	rd.done = true
	var calls []api.ToolCall
	var order []int
	for i := range rd.calls {
		order = append(order, i)
	}
	sort.Ints(order)
	for _, i := range order {
		call := *rd.calls[i]
		call.ID = callID(call.ID, i)
		call.Function.Arguments = arguments(rd.args[i].String())
		calls = append(calls, call)
	}
	reason := rd.finish
	switch reason {
	case "tool_calls", "function_call", "":
		reason = "stop"
	}
	rd.emit(api.ChatResponse{Model: rd.model, Done: true, DoneReason: reason,
		Message: api.Message{Role: "assistant", ToolCalls: calls},
		Metrics: api.Metrics{PromptEvalCount: rd.promptTokens, EvalCount: rd.outputTokens}})
}

// arguments reads a tool call's arguments, a JSON object sent as a
// string. Arguments that are not one (a small model's broken JSON) are
// none: the tool then says which it lacks, and the model may try again.
func arguments(s string) api.ToolCallFunctionArguments {
	args := api.NewToolCallFunctionArguments()
	if strings.TrimSpace(s) != "" {
		if err := json.Unmarshal([]byte(s), &args); err != nil {
			return api.NewToolCallFunctionArguments()
		}
	}
	return args
}
