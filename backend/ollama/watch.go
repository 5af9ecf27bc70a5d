package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
)

// The Ollama api client reads a stream with a bufio.Scanner and never looks
// at scanner.Err(): a connection that drops mid-stream (or a cancelled
// context) ends the stream with a nil error, and a line that is not JSON
// comes back as errors.New(line), indistinguishable from an error Ollama
// sent on purpose. A watchingTransport wraps each streamed response body
// so that Stream can tell these apart: it records the HTTP status, the read
// error, and the first line the client will fail to parse.

type watchKey struct{}

// maxLine is the api client's scanner buffer: a longer line ends the
// client's stream silently.
const maxLine = 8 << 20

// streamWatch is what the transport saw of one response.
type streamWatch struct {
	mu      sync.Mutex
	status  int
	readErr error  // a read error other than io.EOF
	partial []byte // bytes after the last newline
	badSeen bool
	badLine string // the first line the api client cannot parse
}

func withWatch(ctx context.Context, w *streamWatch) context.Context {
	return context.WithValue(ctx, watchKey{}, w)
}

func (w *streamWatch) state() (readErr error, badLine string, badSeen bool, status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.readErr, w.badLine, w.badSeen, w.status
}

// consume splits p into lines as bufio.ScanLines does (dropping a final
// \r) and checks each complete line; atEnd checks the unterminated rest.
func (w *streamWatch) consume(p []byte, atEnd bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for !w.badSeen {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			break
		}
		w.check(append(w.partial, p[:i]...))
		w.partial, p = w.partial[:0], p[i+1:]
	}
	if w.badSeen {
		return
	}
	if len(w.partial)+len(p) > maxLine {
		w.badSeen, w.badLine, w.partial = true, "(a line longer than 8 MB)", nil
		return
	}
	w.partial = append(w.partial, p...)
	if atEnd && len(w.partial) > 0 {
		w.check(w.partial)
		w.partial = nil
	}
}

// check records line if the api client would fail to read it: the client
// first decodes every line into this struct and returns the raw line as
// the error when that fails.
func (w *streamWatch) check(line []byte) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	var probe struct {
		Error     string `json:"error,omitempty"`
		SigninURL string `json:"signin_url,omitempty"`
	}
	if json.Unmarshal(line, &probe) != nil {
		w.badSeen, w.badLine = true, string(line)
	}
}

// watchingTransport wraps the bodies of requests whose context carries a
// streamWatch.
type watchingTransport struct{ next http.RoundTripper }

func (t *watchingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if w, ok := r.Context().Value(watchKey{}).(*streamWatch); ok {
		w.mu.Lock()
		w.status = resp.StatusCode
		w.mu.Unlock()
		resp.Body = &watchedBody{ReadCloser: resp.Body, w: w}
	}
	return resp, nil
}

type watchedBody struct {
	io.ReadCloser
	w *streamWatch
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.w.consume(p[:n], err != nil)
	if err != nil && !errors.Is(err, io.EOF) {
		b.w.mu.Lock()
		if b.w.readErr == nil {
			b.w.readErr = err
		}
		b.w.mu.Unlock()
	}
	return n, err
}
