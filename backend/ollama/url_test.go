package ollama

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/errs"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "", want: "http://127.0.0.1:11434"},
		{in: "http://127.0.0.1:11434", want: "http://127.0.0.1:11434"},
		{in: "http://127.0.0.1:11434/", want: "http://127.0.0.1:11434"},
		{in: "127.0.0.1:9999", want: "http://127.0.0.1:9999"},
		{in: "localhost", want: "http://localhost:11434"},
		{in: "[::1]", want: "http://[::1]:11434"},
		{in: "[::1]:8080", want: "http://[::1]:8080"},
		{in: "https://ollama.example/base/", want: "https://ollama.example/base"},
		{in: "ftp://x", err: "want http://host:port"},
		{in: "http://", err: "want http://host:port"},
		{in: ":8080", err: "want http://host:port"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			c, err := New(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				assert.Equal(t, errs.Invalid, errs.CodeOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.URL())
		})
	}
}

// The engine reads no environment: the edges pass the flag, then
// LOOM_OLLAMA_URL, then OLLAMA_HOST, and the first that is set wins.
func TestAddressTakesTheFirstThatIsSet(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "127.0.0.1:5555")
	for _, tc := range []struct {
		name  string
		addrs []string
		want  string
	}{
		{"the flag", []string{"http://127.0.0.1:7777", "http://127.0.0.1:8888", "127.0.0.1:5555"}, "http://127.0.0.1:7777"},
		{"LOOM_OLLAMA_URL", []string{"", "http://127.0.0.1:8888", "127.0.0.1:5555"}, "http://127.0.0.1:8888"},
		{"OLLAMA_HOST", []string{" ", "", "127.0.0.1:5555"}, "127.0.0.1:5555"},
		{"none: the default, whatever the environment says", []string{"", ""}, DefaultURL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Address(tc.addrs...))
		})
	}
	c, err := New("")
	require.NoError(t, err)
	assert.Equal(t, DefaultURL, c.URL(), "no OLLAMA_HOST read here")
}

func TestBadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Option
		want string
	}{
		{"zero request timeout", WithTimeout(0), "request timeout 0s"},
		{"zero idle timeout", WithIdleTimeout(0), "idle timeout 0s"},
		{"zero model timeout", WithModelTimeout(0), "model timeout 0s"},
		{"zero batch", WithBatchSize(0), "batch size 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New("", tc.opt)
			require.ErrorContains(t, err, tc.want)
			assert.Equal(t, errs.Invalid, errs.CodeOf(err))
		})
	}
}
