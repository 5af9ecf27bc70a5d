package openaitest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Reply answers one chat request by writing to the stream; returning ends
// the response.
type Reply func(s *Stream)

// Stream writes a reply as these servers do: one "data: {chunk}" event per
// chunk, flushed as it goes, for a request that asked for a stream; the
// methods write one chat.completion object for a request that did not.
type Stream struct {
	// Request is the chat request being answered, decoded.
	Request map[string]any

	w       http.ResponseWriter
	r       *http.Request
	flavor  Flavor
	model   string
	written bool
	// whole gathers a reply that is not streamed.
	whole struct {
		content string
		calls   []any
	}
}

// ToolCall is one tool call a model makes; Args is its arguments as the
// JSON text the model wrote.
type ToolCall struct {
	ID, Name, Args string
}

// Answer streams pieces of content, then finishes with "stop", the usage
// (promptTokens, and the number of pieces as completion tokens) and
// [DONE].
func Answer(promptTokens int, pieces ...string) Reply {
	return func(s *Stream) {
		s.Content(pieces...)
		s.Finish("stop", promptTokens, len(pieces))
	}
}

// CallTools streams the tool calls, each one's arguments split across
// chunks, and finishes with "tool_calls".
func CallTools(calls ...ToolCall) Reply {
	return func(s *Stream) {
		s.ToolCalls(calls...)
		s.Finish("tool_calls", 0, 12)
	}
}

// Context is done when the client has gone.
func (s *Stream) Context() context.Context { return s.r.Context() }

// Streaming reports whether the request asked for a stream.
func (s *Stream) Streaming() bool { b, _ := s.Request["stream"].(bool); return b }

// Content streams one chunk per piece of the answer, the first with the
// role as OpenAI sends it.
func (s *Stream) Content(pieces ...string) {
	for _, p := range pieces {
		if !s.Streaming() {
			s.whole.content += p
			continue
		}
		d := map[string]any{"content": p}
		if !s.written {
			d["role"] = "assistant"
		}
		s.chunk(d, nil, nil)
	}
}

// Reasoning streams pieces of the model's thinking (reasoning_content).
func (s *Stream) Reasoning(pieces ...string) {
	for _, p := range pieces {
		s.chunk(map[string]any{"reasoning_content": p, "content": nil}, nil, nil)
	}
}

// ToolCalls streams each call as OpenAI does: a first delta with its index,
// id, type and name and empty arguments, then its arguments in pieces of
// at most 7 bytes, each under its index alone.
func (s *Stream) ToolCalls(calls ...ToolCall) {
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%c%d", 'a'+i, 1000+i)
		}
		if !s.Streaming() {
			s.whole.calls = append(s.whole.calls, map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Args}})
			continue
		}
		first := map[string]any{"index": i, "id": id, "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}
		d := map[string]any{"tool_calls": []any{first}}
		if !s.written {
			d["role"], d["content"] = "assistant", nil
		}
		s.chunk(d, nil, nil)
		for rest := c.Args; rest != ""; {
			n := min(7, len(rest))
			s.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": rest[:n]}}}}, nil, nil)
			rest = rest[n:]
		}
	}
}

// Finish ends the reply: a chunk with the finish reason, the usage (in
// that chunk, as llama.cpp sends it, else in a chunk of its own with no
// choices when the request asked for it, as OpenAI and LM Studio do), and
// "data: [DONE]". A reply not streamed is written whole.
func (s *Stream) Finish(reason string, promptTokens, completionTokens int) {
	usage := map[string]any{"prompt_tokens": promptTokens, "completion_tokens": completionTokens, "total_tokens": promptTokens + completionTokens}
	if !s.Streaming() {
		msg := map[string]any{"role": "assistant", "content": s.whole.content}
		if len(s.whole.calls) > 0 {
			msg["tool_calls"] = s.whole.calls
		}
		writeJSON(s.w, http.StatusOK, map[string]any{"id": "chatcmpl-loomtest", "object": "chat.completion", "created": 1735142223, "model": s.model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": reason}}, "usage": usage})
		s.written = true
		return
	}
	if s.flavor == LlamaCpp {
		s.chunk(map[string]any{}, &reason, usage)
	} else {
		s.chunk(map[string]any{}, &reason, nil)
		if opts, _ := s.Request["stream_options"].(map[string]any); opts["include_usage"] == true {
			s.Event(marshal(map[string]any{"id": "chatcmpl-loomtest", "object": "chat.completion.chunk", "created": 1735142223,
				"model": s.model, "choices": []any{}, "usage": usage}))
		}
	}
	s.Done()
}

// Done sends "data: [DONE]".
func (s *Stream) Done() { s.Event("[DONE]") }

// ErrorEvent sends an error in place of a chunk, as vLLM and LM Studio do
// when a model fails in the middle of a reply.
func (s *Stream) ErrorEvent(message string) {
	s.Event(marshal(map[string]any{"error": map[string]any{"message": message, "type": "server_error", "code": 500}}))
}

// Status answers with an HTTP status and a body as it is; only before
// anything else was sent.
func (s *Stream) Status(code int, body string) {
	s.written = true
	writeRaw(s.w, code, body)
}

// Event sends one event whose data is text as it is.
func (s *Stream) Event(text string) { s.write("data: " + text + "\n\n") }

// Raw sends text as it is: a comment (": ping\n\n"), a line cut short.
func (s *Stream) Raw(text string) { s.write(text) }

// Drop closes the connection now, as a crashed server does.
func (s *Stream) Drop() {
	s.flush()
	panic(http.ErrAbortHandler)
}

// Stall sends what was written and then nothing more until the client
// gives up.
func (s *Stream) Stall() {
	s.flush()
	<-s.r.Context().Done()
}

func (s *Stream) chunk(d map[string]any, finish *string, usage map[string]any) {
	choice := map[string]any{"index": 0, "delta": d, "logprobs": nil, "finish_reason": nil}
	if finish != nil {
		choice["finish_reason"] = *finish
	}
	c := map[string]any{"id": "chatcmpl-loomtest", "object": "chat.completion.chunk", "created": 1735142223,
		"model": s.model, "system_fingerprint": "fp_loomtest", "choices": []any{choice}}
	if usage != nil {
		c["usage"] = usage
	}
	s.Event(marshal(c))
}

func (s *Stream) write(text string) {
	if !s.written {
		s.written = true
		s.w.Header().Set("Content-Type", "text/event-stream")
		s.w.Header().Set("Cache-Control", "no-cache")
	}
	_, _ = io.WriteString(s.w, text)
	s.flush()
}

func (s *Stream) flush() {
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func marshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// chat answers POST /v1/chat/completions with the next scripted reply,
// after the checks the servers make first: the model is served, and can
// take tools when tools are sent.
func (s *Server) chat(w http.ResponseWriter, r *http.Request, body []byte) {
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error(), "invalid_request_error", nil)
		return
	}
	model, _ := req["model"].(string)
	m, ok := s.lookup(model)
	if !ok {
		s.missing(w, model)
		return
	}
	f, _ := s.snapshot()
	if tools, _ := req["tools"].([]any); len(tools) > 0 && !m.Tools {
		switch f {
		case LlamaCpp:
			writeError(w, http.StatusInternalServerError, "tools param requires --jinja flag", "server_error", nil)
			return
		case VLLM:
			writeJSON(w, http.StatusBadRequest, map[string]any{"object": "error",
				"message": "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set", "type": "BadRequestError", "param": nil, "code": 400})
			return
		}
	}
	if m.Embedding {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Model '%s' is not a llm.", model), "invalid_request_error", nil)
		return
	}
	s.mu.Lock()
	replies, n := s.replies, s.answered
	s.answered++
	s.mu.Unlock()
	if len(replies) == 0 {
		writeError(w, http.StatusInternalServerError, "openaitest: no reply scripted", "server_error", nil)
		return
	}
	st := &Stream{Request: req, w: w, r: r, flavor: f, model: strings.TrimSpace(model)}
	replies[min(n, len(replies)-1)](st)
}
