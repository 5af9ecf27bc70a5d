package chat_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/ollamatest"
)

// The turn tests run against the one fake Ollama (ollamatest) through the
// real adapter (backend/ollama), so what they check is what goes over the
// wire. They live in package chat_test because backend/ollama imports
// chat.

// newFake serves the standard models with the replies given and returns a
// chat client for it.
func newFake(t *testing.T, replies ...ollamatest.Reply) (*ollamatest.Server, *chat.Client) {
	t.Helper()
	srv := ollamatest.New(t, ollamatest.WithChat(replies...))
	_, c := clientFor(t, srv, nil)
	return srv, c
}

// clientFor returns an Ollama client for srv (with a short idle timeout
// unless opts set another) and a chat client over it.
func clientFor(t *testing.T, srv *ollamatest.Server, chatOpts []chat.Option, opts ...ollama.Option) (*ollama.Client, *chat.Client) {
	t.Helper()
	oc, err := ollama.New(srv.URL, append([]ollama.Option{ollama.WithIdleTimeout(5 * time.Second)}, opts...)...)
	require.NoError(t, err)
	return oc, chat.New(oc, chatOpts...)
}

// call is one tool call as the model makes it.
func call(name string, args map[string]any) ollamatest.ToolCall {
	return ollamatest.ToolCall{Name: name, Args: args}
}

// chatBodies are the /api/chat request bodies as sent, numbers as
// json.Number.
func chatBodies(srv *ollamatest.Server) []map[string]any {
	var out []map[string]any
	for _, r := range srv.Requests("/api/chat") {
		out = append(out, r.JSON())
	}
	return out
}

// fakeTools is a Tools whose answers are canned and whose calls are logged.
type fakeTools struct {
	mu      sync.Mutex
	calls   []string
	search  func(query, scope string, limit int) (chat.ToolResult, error)
	results map[string]chat.ToolResult // by tool name, when search is nil
}

func (f *fakeTools) log(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *fakeTools) logged() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeTools) SearchContext(_ context.Context, query, scope string, limit int) (chat.ToolResult, error) {
	f.log(fmt.Sprintf("search_context(%q, %q, %d)", query, scope, limit))
	if f.search != nil {
		return f.search(query, scope, limit)
	}
	return f.results[chat.ToolSearchContext], nil
}

func (f *fakeTools) Expand(_ context.Context, nodeID, level string) (chat.ToolResult, error) {
	f.log(fmt.Sprintf("expand(%q, %q)", nodeID, level))
	return f.results[chat.ToolExpand], nil
}

func (f *fakeTools) GetWindow(_ context.Context, nodeID string, center, radius int) (chat.ToolResult, error) {
	f.log(fmt.Sprintf("get_window(%q, %d, %d)", nodeID, center, radius))
	return f.results[chat.ToolGetWindow], nil
}

func (f *fakeTools) Catalog(context.Context) (chat.ToolResult, error) {
	f.log("catalog()")
	return f.results[chat.ToolCatalog], nil
}

var _ chat.Tools = (*fakeTools)(nil)

// words counts whitespace-separated words: a simple, exact counter.
func words(s string) int { return len(strings.Fields(s)) }
