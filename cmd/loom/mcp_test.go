package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
)

// buildLoom builds the CLI into a folder of t's.
func buildLoom(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "loom")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	return bin
}

// mcpCommand is `loom mcp` on ws with the offline embedder and no Ollama;
// its stderr goes to stderr.
func mcpCommand(bin, ws string, stderr io.Writer, more ...string) *exec.Cmd {
	cmd := exec.Command(bin, append([]string{"mcp", "--workspace", ws, "--embedder", "offline"}, more...)...)
	cmd.Env = append(os.Environ(), "LOOM_OLLAMA_URL=", "OLLAMA_HOST=")
	cmd.Stderr = stderr
	return cmd
}

func mcpConnect(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "loom-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	require.NoError(t, err)
	return cs
}

// mcpCall calls a tool and returns its result, its text and its
// structured output.
func mcpCall(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, name)
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	var out map[string]any
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &out))
	}
	return res, strings.Join(parts, "\n"), out
}

// The CLI serves a workspace over stdio to the SDK's own client: every
// tool answers with what the workspace holds, errors are tool errors, and
// every call lands in the workspace's audit log as MCP's. While another
// Loom process holds the workspace, it is served read-only.
func TestMCPStdio(t *testing.T) {
	ws := ingestFixture(t)
	bin := buildLoom(t)

	t.Run("tools", func(t *testing.T) {
		var stderr bytes.Buffer
		cs := mcpConnect(t, &mcp.CommandTransport{Command: mcpCommand(bin, ws, &stderr)})
		ctx := context.Background()
		tools, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		byName := map[string]*mcp.Tool{}
		for _, tl := range tools.Tools {
			byName[tl.Name] = tl
		}
		require.Len(t, byName, 5)
		for _, name := range []string{"get_context", "search_context", "expand", "get_window", "catalog"} {
			require.Contains(t, byName, name)
			assert.NotEmpty(t, byName[name].Description)
		}
		schema, err := json.Marshal(byName["get_context"].InputSchema)
		require.NoError(t, err)
		for _, want := range []string{`"topic"`, `"max_tokens"`, `"target_tokens"`, `"purpose"`, `"abstraction"`, `"required":["topic"]`, `"verify"`, `"essence"`} {
			assert.Contains(t, string(schema), want)
		}
		schema, _ = json.Marshal(byName["search_context"].InputSchema)
		assert.Contains(t, string(schema), `"regex"`)

		res, text, out := mcpCall(t, cs, "get_context", map[string]any{"topic": "How is the loadable budget calculated?", "max_tokens": 1500, "purpose": "verify"})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "[Context loaded: ")
		assert.Contains(t, text, "The loadable budget is the window minus the system prompt, the output reservation and the manifest.")
		assert.Contains(t, out["manifest"], "[Context loaded: ")
		assert.Equal(t, "verify", out["purpose"])
		assert.EqualValues(t, 1500, out["max_tokens"])
		loaded := out["loaded"].([]any)
		require.NotEmpty(t, loaded)
		budgetNode := ""
		for _, l := range loaded {
			if n := l.(map[string]any); strings.HasPrefix(n["cite"].(string), "budget.md") && budgetNode == "" {
				budgetNode = n["id"].(string)
			}
		}
		require.NotEmpty(t, budgetNode, "a budget.md section is loaded")

		res, text, out = mcpCall(t, cs, "get_context", map[string]any{"topic": "token budget", "max_tokens": 1 << 40})
		require.False(t, res.IsError, text)
		assert.Equal(t, true, out["clamped"])
		assert.EqualValues(t, backend.DefaultBudgetLimits(0).MaxBudget, out["max_tokens"])
		assert.Contains(t, text, "was clamped to")

		res, text, _ = mcpCall(t, cs, "search_context", map[string]any{"query": "staleness decay"})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "Access times decay exponentially.")
		res, text, _ = mcpCall(t, cs, "search_context", map[string]any{"query": "inside a fence", "mode": "regex", "limit": 3})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "graphs.md")
		assert.Contains(t, text, "# not a heading: inside a fence")
		res, text, _ = mcpCall(t, cs, "search_context", map[string]any{"query": "manifest", "mode": "keyword"})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "budget.md")

		res, text, out = mcpCall(t, cs, "expand", map[string]any{"node_id": budgetNode, "level": "detailed"})
		require.False(t, res.IsError, text)
		assert.Regexp(t, `^\[[a-z]{3,16}\] budget\.md › Token budget`, text, "the node's id as a prompt writes it, in letters")
		assert.Equal(t, []any{budgetNode}, out["node_ids"])
		res, text, _ = mcpCall(t, cs, "expand", map[string]any{"node_id": budgetNode, "level": "neighbours"})
		require.False(t, res.IsError, text)
		res, text, _ = mcpCall(t, cs, "get_window", map[string]any{"node_id": budgetNode, "radius": 3})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "budget.md")

		res, text, out = mcpCall(t, cs, "catalog", nil)
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "3 documents")
		var docURI string
		for _, d := range out["documents"].([]any) {
			if d := d.(map[string]any); d["path"] == "staleness.txt" {
				docURI = d["uri"].(string)
			}
		}
		require.NotEmpty(t, docURI)
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: docURI})
		require.NoError(t, err)
		assert.Contains(t, rr.Contents[0].Text, "Access times decay exponentially.")
		rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "loom://node/" + budgetNode})
		require.NoError(t, err)
		assert.Contains(t, rr.Contents[0].Text, "budget.md")

		// Errors are tool errors with a sentence, and the server goes on.
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "summon"})
		assert.ErrorContains(t, err, `unknown tool "summon"`)
		for _, tc := range []struct {
			tool string
			args map[string]any
			msg  string
		}{
			{"expand", map[string]any{"node_id": "n-0123456789abcdef"}, `no node "n-0123456789abcdef" in this workspace`},
			{"get_context", map[string]any{"topic": "budget", "abstraction": "everything"}, "bad arguments for get_context"},
			{"get_context", map[string]any{"topic": "budget", "max_tokens": -5}, "positive"},
			{"get_window", map[string]any{"node_id": budgetNode, "radius": "wide"}, "bad arguments for get_window"},
			{"ingest", map[string]any{"paths": []string{ws}}, "ingest is off"},
		} {
			res, text, _ := mcpCall(t, cs, tc.tool, tc.args)
			assert.True(t, res.IsError, "%s %v", tc.tool, tc.args)
			assert.Contains(t, text, tc.msg, "%s %v", tc.tool, tc.args)
		}
		res, text, _ = mcpCall(t, cs, "catalog", nil)
		require.False(t, res.IsError, "still serving after the errors: %s", text)
		require.NoError(t, cs.Close(), "the server exits when the client closes its stdin")

		assert.Contains(t, stderr.String(), `"command": "`+bin+`"`, "the client entry is printed")
		assert.Contains(t, stderr.String(), `"--workspace"`)
		f, err := os.Open(filepath.Join(ws, "audit.jsonl"))
		require.NoError(t, err)
		defer f.Close()
		var recs []backend.AuditRecord
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r backend.AuditRecord
			require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
			recs = append(recs, r)
		}
		require.Len(t, recs, 18, "every call, failed ones too")
		names := map[string]int{}
		for _, r := range recs {
			assert.Equal(t, "mcp", r.Source)
			assert.Equal(t, "loom-test 1", r.Client)
			names[r.Call.Name]++
		}
		assert.Equal(t, map[string]int{"get_context": 4, "search_context": 3, "expand": 3, "get_window": 2, "catalog": 2, "read_resource": 2, "summon": 1, "ingest": 1}, names)
		assert.Equal(t, "summon", recs[11].Call.Name)
		assert.Contains(t, recs[11].Call.Error, "unknown tool")
	})

	t.Run("held by another process", func(t *testing.T) {
		holder, err := backend.New(context.Background(), backend.Config{Dir: ws, Embedder: "offline"})
		require.NoError(t, err)
		defer holder.Close()
		require.Empty(t, holder.ReadOnlyReason(), "this process holds it for writing")

		var stderr bytes.Buffer
		cs := mcpConnect(t, &mcp.CommandTransport{Command: mcpCommand(bin, ws, &stderr, "--allow-ingest")})
		res, text, _ := mcpCall(t, cs, "search_context", map[string]any{"query": "concept nodes"})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "Concept nodes index topics")
		tools, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		assert.Len(t, tools.Tools, 5, "no ingest on a read-only workspace")
		require.NoError(t, cs.Close())
		assert.Contains(t, stderr.String(), "read-only: another Loom process is using it")
		assert.Contains(t, stderr.String(), "ingest is off: the workspace is open read-only")
		assert.Contains(t, stderr.String(), "the Loom desktop app holds this workspace, it can serve MCP itself", "says the desktop app can serve it")
		assert.Contains(t, stderr.String(), `loom mcp: audit: {`, "the calls are logged on stderr instead")
	})
}

// Mistakes on the command line are refused before anything is served.
func TestMCPRefusesBadStarts(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	_, _, err := runCLI(t, "mcp", "--workspace", missing)
	require.Error(t, err)
	assert.Equal(t, 2, exitCode(err))
	assert.Contains(t, err.Error(), "there is no workspace at "+missing)
	_, statErr := os.Stat(missing)
	assert.True(t, os.IsNotExist(statErr), "no workspace is made")

	empty := t.TempDir()
	_, _, err = runCLI(t, "mcp", "--workspace", empty)
	assert.ErrorContains(t, err, "is not a Loom workspace")

	ws := ingestFixture(t)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--http", "0.0.0.0:8765"}, "not a loopback address"},
		{[]string{"--http", ":8765"}, "not a loopback address"},
		{[]string{"--http", "192.168.1.10:80"}, "not a loopback address"},
		{[]string{"--allow-root", ws}, "add --allow-ingest"},
		{[]string{"stray"}, `unexpected "stray"`},
		{[]string{"--session-timeout", "-1m"}, "--session-timeout must not be negative"},
		{[]string{"--allow-ingest", "--allow-root", filepath.Join(ws, "nope")}, "is not a folder"},
	} {
		_, _, err := runCLI(t, append([]string{"mcp", "--workspace", ws, "--embedder", "offline"}, tc.args...)...)
		require.Error(t, err, tc.args)
		assert.Equal(t, 2, exitCode(err), tc.args)
		assert.Contains(t, err.Error(), tc.msg, tc.args)
	}
}

// Over Streamable HTTP on 127.0.0.1:0: the address, the token and the
// client entry are printed; requests without the token (or with another)
// get 401, a web page of another origin 403; the SDK's client with the
// token works, and ingest stays inside the allowed folders.
func TestMCPHTTP(t *testing.T) {
	ws := ingestFixture(t)
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "herons.md"), []byte("# Herons\n\nHerons stand still in shallow water to fish.\n"), 0o644))
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "private.md"), []byte("# Private\n\nKeep out.\n"), 0o644))

	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"mcp", "--workspace", ws, "--embedder", "offline", "--http", "127.0.0.1:0", "--allow-ingest", "--allow-root", root}, io.Discard, pw)
		pw.Close()
	}()
	type started struct{ url, token, entry string }
	ready := make(chan started, 1)
	var logged bytes.Buffer
	drained := make(chan struct{})
	go func() { // read stderr to its end: the server must never block on it
		defer close(drained)
		var s started
		sent := false
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			logged.WriteString(line + "\n")
			if u, ok := strings.CutPrefix(line, "loom mcp: serving "); ok {
				s.url = u
			}
			if _, tok, ok := strings.Cut(line, "bearer token ("); ok {
				s.token = tok[strings.Index(tok, "): ")+3:]
			}
			if strings.HasPrefix(line, "}") && s.url != "" && s.token != "" && !sent {
				s.entry, sent = logged.String(), true
				ready <- s
			}
		}
	}()
	var s started
	select {
	case s = <-ready:
	case err := <-done:
		t.Fatalf("loom mcp --http stopped before serving: %v", err)
	}
	defer func() {
		cancel()
		assert.NoError(t, <-done)
		<-drained
	}()
	require.True(t, strings.HasPrefix(s.url, "http://127.0.0.1:"), s.url)
	assert.True(t, strings.HasSuffix(s.url, "/mcp"))
	assert.Contains(t, s.entry, `"url": "`+s.url+`"`)
	assert.Contains(t, s.entry, `"Authorization": "Bearer `+s.token+`"`)
	assert.Contains(t, s.entry, "loom mcp: a session without a request for 30m0s is closed; its client starts a new one (--session-timeout)")
	stored, err := os.ReadFile(filepath.Join(ws, "mcp-token"))
	require.NoError(t, err)
	assert.Equal(t, s.token, strings.TrimSpace(string(stored)))
	fi, err := os.Stat(filepath.Join(ws, "mcp-token"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	status := func(header map[string]string) int {
		req, err := http.NewRequest("POST", s.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"0"}}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusUnauthorized, status(nil))
	assert.Equal(t, http.StatusUnauthorized, status(map[string]string{"Authorization": "Bearer not-the-token"}))
	assert.Equal(t, http.StatusForbidden, status(map[string]string{"Authorization": "Bearer " + s.token, "Origin": "https://attacker.example"}))
	assert.Equal(t, http.StatusOK, status(map[string]string{"Authorization": "Bearer " + s.token}))

	cs := mcpConnect(t, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: &http.Client{Transport: withBearer{s.token}}, MaxRetries: -1})
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 6, "ingest is offered")
	res, text, _ := mcpCall(t, cs, "get_context", map[string]any{"topic": "How does staleness decay?", "max_tokens": 800})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, "Access times decay exponentially.")

	for _, p := range []string{filepath.Join(outside, "private.md"), outside, filepath.Join(root, "..", filepath.Base(outside), "private.md")} {
		res, text, _ := mcpCall(t, cs, "ingest", map[string]any{"paths": []string{p}})
		assert.True(t, res.IsError, p)
		assert.Contains(t, text, "outside the folders this server may ingest from", p)
	}
	res, text, out := mcpCall(t, cs, "ingest", map[string]any{"paths": []string{"herons.md"}})
	require.False(t, res.IsError, text)
	assert.EqualValues(t, 1, out["added"])
	res, text, _ = mcpCall(t, cs, "search_context", map[string]any{"query": "herons fish", "mode": "keyword"})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, "Herons stand still in shallow water")
}

type withBearer struct{ token string }

func (b withBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
