package mcpserver

import (
	"net/http"
	"sync"
	"time"
)

// sessionHeader names a Streamable HTTP session in requests and in the
// response to initialize.
const sessionHeader = "Mcp-Session-Id"

// idleSessions closes the HTTP sessions that have had no request for the
// timeout. A session's clock starts when its initialize has been
// answered, stops while one of its POSTs (a call, a notification) is
// being answered, and starts again from the end of the last one; a
// standalone event stream (GET) held open does not keep it alive, as with
// the SDK's own SessionTimeout — a client that wants its session kept
// pings. The timers come from afterFunc, so tests drive a fake clock.
type idleSessions struct {
	timeout   time.Duration
	afterFunc func(time.Duration, func()) func() bool
	// close closes the session with this id (the server's).
	close func(id string)
	// armed, when set (tests), is told each time a session's clock starts.
	armed func(id string)

	mu       sync.Mutex
	sessions map[string]*idleSession
}

type idleSession struct {
	busy int // POSTs being answered
	gen  int // which timer is the live one
	stop func() bool
}

// opened: a session was made, by the initialize being answered (end
// follows when that answer is sent).
func (t *idleSessions) opened(id string) {
	t.mu.Lock()
	if _, ok := t.sessions[id]; !ok {
		t.sessions[id] = &idleSession{}
	}
	t.mu.Unlock()
	t.begin(id)
}

// begin: a POST of session id is being answered. It reports whether the
// session is one this tracker knows (then end must follow).
func (t *idleSessions) begin(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.sessions[id]
	if s == nil {
		return false
	}
	s.busy++
	s.gen++ // a timer firing now is stale
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
	return true
}

// end: a POST of session id was answered.
func (t *idleSessions) end(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.sessions[id]
	if s == nil {
		return
	}
	if s.busy--; s.busy == 0 {
		t.armLocked(id, s)
	}
}

// forget: the session ended (closed by its client, or here).
func (t *idleSessions) forget(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.sessions[id]; s != nil {
		s.gen++
		if s.stop != nil {
			s.stop()
		}
		delete(t.sessions, id)
	}
}

func (t *idleSessions) armLocked(id string, s *idleSession) {
	s.gen++
	gen := s.gen
	s.stop = t.afterFunc(t.timeout, func() {
		t.mu.Lock()
		cur := t.sessions[id]
		if cur == nil || cur.gen != gen || cur.busy > 0 {
			t.mu.Unlock()
			return
		}
		delete(t.sessions, id)
		t.mu.Unlock()
		t.close(id)
	})
	if t.armed != nil {
		t.armed(id)
	}
}

// sessionStart watches the answer to an initialize for the session it
// makes: the session is known from the moment its header is written, so
// a request the client sends as soon as it reads the answer finds it.
type sessionStart struct {
	http.ResponseWriter
	idle *idleSessions
	id   string
}

func (w *sessionStart) note() {
	if w.id == "" {
		if id := w.Header().Get(sessionHeader); id != "" {
			w.id = id
			w.idle.opened(id)
		}
	}
}

func (w *sessionStart) WriteHeader(code int) {
	w.note()
	w.ResponseWriter.WriteHeader(code)
}

func (w *sessionStart) Write(b []byte) (int, error) {
	w.note()
	return w.ResponseWriter.Write(b)
}

func (w *sessionStart) Flush() {
	w.note()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *sessionStart) Unwrap() http.ResponseWriter { return w.ResponseWriter }
