package ollama

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

// TestOllamaClientStreamBehaviour pins down how api.Client.Chat (v0.17.4)
// reports a stream that goes wrong, which is why Stream watches the
// response body itself (watch.go). If an upgrade changes any of these,
// revisit classifyStream.
func TestOllamaClientStreamBehaviour(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reply   ollamatest.Reply
		wantErr string // "" means the client returns nil
		chunks  int
	}{
		{"connection dropped after two chunks: nil error", func(s *ollamatest.Stream) {
			s.Content("a", "b")
			s.Drop()
		}, "", 2},
		{"stream ends without done: nil error", func(s *ollamatest.Stream) {
			s.Content("a")
		}, "", 1},
		{"HTTP 500 with an empty body: nil error", func(s *ollamatest.Stream) {
			s.Status(http.StatusInternalServerError, "")
		}, "", 0},
		{"a line that is not JSON comes back as the error text", func(s *ollamatest.Stream) {
			s.Content("a")
			s.Line("garbage")
		}, "garbage", 1},
		{"an error line comes back as its message", func(s *ollamatest.Stream) {
			s.Content("a")
			s.Error("garbage")
		}, "garbage", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ollamatest.New(t, ollamatest.WithChat(tc.reply))
			u, _ := url.Parse(srv.URL)
			chunks := 0
			err := api.NewClient(u, http.DefaultClient).Chat(context.Background(), &api.ChatRequest{Model: "gemma:2b"}, func(api.ChatResponse) error {
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
