package chat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOllamaClientStreamBehaviour pins down how api.Client.Chat (v0.17.4)
// reports a stream that goes wrong, which is why Chat watches the response
// body itself (watch.go). If an upgrade changes any of these, revisit
// classifyStream.
func TestOllamaClientStreamBehaviour(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler func(w http.ResponseWriter)
		wantErr string // "" means the client returns nil
		chunks  int
	}{
		{"connection dropped after two chunks: nil error", func(w http.ResponseWriter) {
			s := &ndjson{w: w, model: "m"}
			s.content("a", "b")
			panic(http.ErrAbortHandler)
		}, "", 2},
		{"stream ends without done: nil error", func(w http.ResponseWriter) {
			(&ndjson{w: w, model: "m"}).content("a")
		}, "", 1},
		{"HTTP 500 with an empty body: nil error", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusInternalServerError)
		}, "", 0},
		{"a line that is not JSON comes back as the error text", func(w http.ResponseWriter) {
			s := &ndjson{w: w, model: "m"}
			s.content("a")
			s.raw("garbage\n")
		}, "garbage", 1},
		{"an error line comes back as its message", func(w http.ResponseWriter) {
			s := &ndjson{w: w, model: "m"}
			s.line(map[string]any{"error": "garbage"})
		}, "garbage", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { tc.handler(w) }))
			defer srv.Close()
			u, _ := url.Parse(srv.URL)
			chunks := 0
			err := api.NewClient(u, srv.Client()).Chat(context.Background(), &api.ChatRequest{Model: "m"}, func(api.ChatResponse) error {
				chunks++
				return nil
			})
			if tc.wantErr == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, tc.wantErr)
			}
			assert.Equal(t, tc.chunks, chunks)
		})
	}
}
