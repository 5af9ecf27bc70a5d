package ollamatest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"
)

// Reply answers one /api/chat or /api/generate request by writing to the
// stream; returning ends the response (without a final chunk unless the
// reply wrote one).
type Reply func(s *Stream)

// Stream writes a reply as Ollama does: one NDJSON line per chunk, flushed
// as it goes. Its methods speak the protocol of the request's endpoint:
// message chunks for /api/chat, response chunks for /api/generate.
type Stream struct {
	// Chat is the /api/chat request being answered (nil for generate);
	// Generate the /api/generate one (nil for chat).
	Chat     *api.ChatRequest
	Generate *api.GenerateRequest

	w       http.ResponseWriter
	r       *http.Request
	model   string
	written bool
}

// ToolCall is one tool call a model makes.
type ToolCall struct {
	Name string
	Args map[string]any
}

// Answer streams pieces of content and a final chunk (done_reason "stop",
// prompt_eval_count promptEval, eval_count the number of pieces). To a
// request that says "stream": false it answers with one object holding the
// whole text, as Ollama does.
func Answer(promptEval int, pieces ...string) Reply {
	return func(s *Stream) {
		if !s.Streaming() {
			s.Whole(strings.Join(pieces, ""), promptEval, len(pieces))
			return
		}
		s.Content(pieces...)
		s.Done("stop", promptEval, len(pieces))
	}
}

// CallTools streams the tool calls and a final chunk, as Ollama does when
// a model calls tools. It reports no prompt_eval_count.
func CallTools(calls ...ToolCall) Reply {
	return func(s *Stream) {
		s.ToolCalls(calls...)
		s.Done("stop", 0, 20)
	}
}

// Context is the request's context: done when the client has gone.
func (s *Stream) Context() context.Context { return s.r.Context() }

// Streaming reports whether the request asked for a stream (Ollama's
// default) rather than one object.
func (s *Stream) Streaming() bool {
	switch {
	case s.Chat != nil && s.Chat.Stream != nil:
		return *s.Chat.Stream
	case s.Generate != nil && s.Generate.Stream != nil:
		return *s.Generate.Stream
	}
	return true
}

// Content streams one chunk per piece of the answer.
func (s *Stream) Content(pieces ...string) {
	for _, p := range pieces {
		s.chunk(map[string]any{"content": p})
	}
}

// Thinking streams one chunk per piece of the model's thinking.
func (s *Stream) Thinking(pieces ...string) {
	for _, p := range pieces {
		s.chunk(map[string]any{"thinking": p})
	}
}

// ToolCalls streams one chunk with the tool calls (chat only), each with
// an id and an index as Ollama sends them.
func (s *Stream) ToolCalls(calls ...ToolCall) {
	var tc []map[string]any
	for i, c := range calls {
		tc = append(tc, map[string]any{"id": fmt.Sprintf("call_%d%s", i, c.Name),
			"function": map[string]any{"index": i, "name": c.Name, "arguments": c.Args}})
	}
	s.chunk(map[string]any{"tool_calls": tc})
}

// Done streams the final chunk with Ollama's counters.
func (s *Stream) Done(reason string, promptEval, eval int) {
	final := s.base("2026-01-02T15:04:06.123456789Z", "")
	final["done"], final["done_reason"] = true, reason
	for k, v := range counters(promptEval, eval) {
		final[k] = v
	}
	s.Line(marshal(final))
}

// Whole answers with one JSON object holding the whole text and the
// counters, as Ollama answers a request that says "stream": false.
func (s *Stream) Whole(text string, promptEval, eval int) {
	whole := s.base("2026-01-02T15:04:06.123456789Z", text)
	whole["done"], whole["done_reason"] = true, "stop"
	for k, v := range counters(promptEval, eval) {
		whole[k] = v
	}
	s.w.Header().Set("Content-Type", "application/json; charset=utf-8")
	s.Line(marshal(whole))
}

// Error fails the reply as Ollama does: before anything was sent, with
// HTTP 500 and {"error": message}; in the middle of a stream, with an
// error line (the status is already 200).
func (s *Stream) Error(message string) {
	if !s.written {
		s.Status(http.StatusInternalServerError, marshal(map[string]string{"error": message})+"\n")
		return
	}
	s.Line(marshal(map[string]string{"error": message}))
}

// Status answers with an HTTP status and a body as it is (JSON when it
// starts with "{"); only before anything else was sent.
func (s *Stream) Status(code int, body string) {
	s.written = true
	writeRaw(s.w, code, body)
}

// Line sends text and a newline as they are: a malformed chunk, an empty
// line.
func (s *Stream) Line(text string) { s.write(text + "\n") }

// Partial sends text without a newline: a line cut short.
func (s *Stream) Partial(text string) { s.write(text) }

// Drop closes the connection now, as a crashed server or a cut network
// does; nothing after it is sent.
func (s *Stream) Drop() {
	s.flush()
	panic(http.ErrAbortHandler)
}

// Stall sends what was written and then nothing more, as a stuck runner
// does, until the client gives up.
func (s *Stream) Stall() {
	s.flush()
	<-s.r.Context().Done()
}

func (s *Stream) chunk(fields map[string]any) {
	if s.Chat != nil {
		msg := map[string]any{"role": "assistant", "content": ""}
		for k, v := range fields {
			msg[k] = v
		}
		line := s.base("2026-01-02T15:04:05.123456789Z", "")
		line["message"], line["done"] = msg, false
		s.Line(marshal(line))
		return
	}
	line := s.base("2026-01-02T15:04:05.123456789Z", "")
	for k, v := range fields {
		if k == "content" {
			k = "response"
		}
		line[k] = v
	}
	line["done"] = false
	s.Line(marshal(line))
}

// base is the start of every object: the model and the time, with the
// text as the message (chat) or the response (generate).
func (s *Stream) base(created, text string) map[string]any {
	m := map[string]any{"model": s.model, "created_at": created}
	if s.Chat != nil {
		m["message"] = map[string]any{"role": "assistant", "content": text}
	} else {
		m["response"] = text
		m["context"] = []int{128006, 882, 128007}
	}
	return m
}

func counters(promptEval, eval int) map[string]any {
	return map[string]any{"total_duration": 4883583458, "load_duration": 1334875, "prompt_eval_count": promptEval,
		"prompt_eval_duration": 342546000, "eval_count": eval, "eval_duration": 4535599000}
}

func (s *Stream) write(text string) {
	if !s.written {
		s.written = true
		if s.w.Header().Get("Content-Type") == "" {
			s.w.Header().Set("Content-Type", "application/x-ndjson")
		}
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

// stream answers /api/chat and /api/generate with the next scripted reply,
// after the checks Ollama makes first: the model is installed, and can use
// tools when tools are sent.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, body []byte) {
	st := &Stream{w: w, r: r}
	if r.URL.Path == "/api/chat" {
		st.Chat = &api.ChatRequest{}
		if err := json.Unmarshal(body, st.Chat); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		st.model = st.Chat.Model
	} else {
		st.Generate = &api.GenerateRequest{}
		if err := json.Unmarshal(body, st.Generate); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		st.model = st.Generate.Model
	}
	m, ok := s.lookup(st.model)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", st.model))
		return
	}
	if st.Chat != nil && len(st.Chat.Tools) > 0 && !m.Has("tools") {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", st.model))
		return
	}
	s.mu.Lock()
	replies := s.replies[r.URL.Path]
	n := s.answered[r.URL.Path]
	s.answered[r.URL.Path]++
	s.mu.Unlock()
	if len(replies) == 0 {
		writeError(w, http.StatusInternalServerError, "ollamatest: no reply scripted for "+r.URL.Path)
		return
	}
	replies[min(n, len(replies)-1)](st)
}
