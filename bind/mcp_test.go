//go:build !js

package bind

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/mcpserver"
)

// bearerTransport sends every request with a bearer token.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpClient connects to url with token, as any MCP client over HTTP.
func mcpClient(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	client := &http.Client{Transport: bearerTransport{token}}
	return mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1}, nil)
}

// storedSetting is the MCP setting as the settings file keeps it.
func storedSetting(t *testing.T) bool {
	t.Helper()
	path, err := userSettingsPath()
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	require.NoError(t, err)
	var s settings
	require.NoError(t, json.Unmarshal(b, &s))
	return s.MCP
}

// refused reports whether nothing listens at url's address any more.
func refused(t *testing.T, url string) bool {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), mcpserver.HTTPPath)
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

func TestMCPServesTheOpenWorkspace(t *testing.T) {
	app, _, _ := notesApp(t)
	app.mcpAddr = "127.0.0.1:0"
	t.Cleanup(func() { _, _ = app.SetMCP(false) }) // the settings file is the package's

	st, err := app.MCPStatus()
	require.NoError(t, err)
	assert.True(t, st.Available)
	assert.False(t, st.On, "off by default")
	assert.False(t, st.Serving)
	assert.Equal(t, "loom mcp --workspace "+shellQuote(app.dir), st.StdioCommand)
	assert.Contains(t, st.StdioConfig, `"--workspace"`)

	st, err = app.SetMCP(true)
	require.NoError(t, err)
	require.True(t, st.Serving, st.Problem)
	assert.True(t, st.On)
	assert.True(t, storedSetting(t), "remembered")
	assert.True(t, strings.HasPrefix(st.URL, "http://127.0.0.1:"), st.URL)
	assert.True(t, strings.HasSuffix(st.URL, mcpserver.HTTPPath), st.URL)
	assert.Empty(t, st.Note)
	token, kept, err := mcpserver.Token(app.dir)
	require.NoError(t, err)
	require.True(t, kept)
	assert.Equal(t, token, st.Token, "the workspace's token, as loom mcp's")
	assert.Equal(t, mcpserver.HTTPConfig(st.URL, token), st.HTTPConfig, "the entry loom mcp --http prints")
	assert.ElementsMatch(t, []string{"get_context", "search_context", "expand", "get_window", "catalog"}, st.Tools)

	// A client over HTTP reads the workspace the app has open.
	cs, err := mcpClient(t, st.URL, token)
	require.NoError(t, err)
	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	assert.Contains(t, names, "get_context")
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_context",
		Arguments: map[string]any{"topic": "How are concept nodes and content nodes linked?", "max_tokens": 1500}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	out, ok := res.StructuredContent.(map[string]any)
	require.True(t, ok, "%T", res.StructuredContent)
	assert.Contains(t, out["context"], "[Context loaded: ")
	assert.Contains(t, out["context"], "graphs.md", "from the notes the app ingested")
	require.NoError(t, cs.Close())

	// A wrong token is refused, by the handler and by a client.
	req, err := http.NewRequest("POST", st.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer loom_wrong")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	_, err = mcpClient(t, st.URL, "loom_wrong")
	assert.Error(t, err)

	// Turning it on again keeps the server that runs.
	again, err := app.SetMCP(true)
	require.NoError(t, err)
	assert.Equal(t, st.URL, again.URL)

	// The workspace opened again (Try again): the server follows it.
	_, err = app.Reopen()
	require.NoError(t, err)
	assert.True(t, refused(t, st.URL), "the old server stopped with its workspace")
	st, err = app.MCPStatus()
	require.NoError(t, err)
	require.True(t, st.Serving, st.Problem)
	cs, err = mcpClient(t, st.URL, token)
	require.NoError(t, err)
	_, err = cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	require.NoError(t, cs.Close())

	// Off: the listener is closed.
	st2, err := app.SetMCP(false)
	require.NoError(t, err)
	assert.False(t, st2.On)
	assert.False(t, st2.Serving)
	assert.Empty(t, st2.URL)
	assert.False(t, storedSetting(t))
	assert.True(t, refused(t, st.URL), "nothing listens once it is off")
}

func TestMCPStartsWithTheAppWhenOnAndStopsWhenItQuits(t *testing.T) {
	require.NoError(t, saveSettings(settings{MCP: true}))
	t.Cleanup(func() { require.NoError(t, saveSettings(settings{})) })
	// The default port is taken (by this listener): a free one is used.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	was := defaultMCPAddr
	defaultMCPAddr = taken.Addr().String()
	t.Cleanup(func() { defaultMCPAddr = was })

	t.Setenv(WorkspaceEnv, t.TempDir())
	shell := &fakeShell{}
	app := NewApp(shell)
	app.options = testOptions()
	app.Startup(t.Context())
	st, err := app.MCPStatus()
	require.NoError(t, err)
	require.True(t, st.Serving, st.Problem)
	assert.True(t, st.On)
	assert.NotEqual(t, "http://"+taken.Addr().String()+mcpserver.HTTPPath, st.URL)
	assert.Contains(t, st.Note, "is taken by another program")
	cs, err := mcpClient(t, st.URL, st.Token)
	require.NoError(t, err)
	_, err = cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	require.NoError(t, cs.Close())

	app.Shutdown(context.Background())
	assert.True(t, refused(t, st.URL), "the server stops when the app quits")
}

func TestMCPWhileTheWorkspaceIsNotOpenSaysWhy(t *testing.T) {
	app, _ := newTestApp(func() (string, error) { return t.TempDir(), nil }, func(context.Context, string) (workspace, error) {
		return nil, errors.New("it is damaged")
	})
	app.mcpAddr = "127.0.0.1:0"
	app.Startup(t.Context())
	t.Cleanup(func() { _, _ = app.SetMCP(false) })
	st, err := app.SetMCP(true)
	require.NoError(t, err)
	assert.True(t, st.On)
	assert.False(t, st.Serving)
	assert.Contains(t, st.Problem, "The workspace is not open")
}

func TestMCPSessionTimeoutSetting(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 0, "0": -1, "0s": -1, "45m": 45 * time.Minute, "2h": 2 * time.Hour} {
		d, bad := settings{MCPSessionTimeout: v}.sessionTimeout()
		assert.Equal(t, want, d, v)
		assert.Empty(t, bad, v)
	}
	for _, v := range []string{"soon", "-5m", "30"} {
		d, bad := settings{MCPSessionTimeout: v}.sessionTimeout()
		assert.Zero(t, d, "%s: the default", v)
		assert.Contains(t, bad, `mcp_session_timeout "`+v+`" in settings.json is not a duration`, v)
	}
}

// The app's server closes idle sessions after the settings' timeout
// (backend/mcpserver tests the closing on a fake clock); a timeout that
// cannot be read is logged and the default holds.
func TestMCPTakesTheSessionTimeoutFromTheSettings(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, saveSettings(settings{})) })
	for written, want := range map[string]time.Duration{"45m": 45 * time.Minute, "0": 0, "": mcpserver.DefaultSessionTimeout, "soon": mcpserver.DefaultSessionTimeout} {
		require.NoError(t, saveSettings(settings{MCP: true, MCPSessionTimeout: written}))
		t.Setenv(WorkspaceEnv, t.TempDir())
		shell := &fakeShell{}
		app := NewApp(shell)
		app.options = testOptions()
		app.mcpAddr = "127.0.0.1:0"
		app.Startup(t.Context())
		st, err := app.MCPStatus()
		require.NoError(t, err)
		require.True(t, st.Serving, st.Problem)
		app.mcpMu.Lock()
		got := app.mcpRun.server.SessionTimeout()
		app.mcpMu.Unlock()
		assert.Equal(t, want, got, "%q", written)
		shell.mu.Lock()
		logged := strings.Join(shell.errors, "\n")
		shell.mu.Unlock()
		if written == "soon" {
			assert.Contains(t, logged, `mcp: mcp_session_timeout "soon" in settings.json is not a duration`)
		} else {
			assert.NotContains(t, logged, "mcp_session_timeout")
		}

		// Turning serving off keeps the timeout the person wrote.
		_, err = app.SetMCP(false)
		require.NoError(t, err)
		path, err := userSettingsPath()
		require.NoError(t, err)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		var s settings
		require.NoError(t, json.Unmarshal(b, &s))
		assert.Equal(t, settings{MCPSessionTimeout: written}, s)
		app.Shutdown(context.Background())
	}
}
