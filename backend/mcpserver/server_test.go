package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/mcpserver"
	"github.com/loomwork/loom/backend/watch"
)

// fixture copies testdata/fixture/notes into a library folder and ingests
// it into a new workspace with the offline embedder.
func fixture(t *testing.T) (wb *backend.Workbench, lib string) {
	t.Helper()
	lib = filepath.Join(t.TempDir(), "notes")
	require.NoError(t, os.CopyFS(lib, os.DirFS("../../testdata/fixture/notes")))
	wb, err := backend.New(context.Background(), backend.Config{Dir: filepath.Join(t.TempDir(), "ws"), Embedder: "offline"})
	require.NoError(t, err)
	t.Cleanup(func() { wb.Close() })
	rep, err := wb.Ingest(context.Background(), []string{lib}, backend.IngestOptions{})
	require.NoError(t, err)
	require.Equal(t, 3, rep.Added)
	return wb, lib
}

// connect runs s over in-memory transports and returns a client session.
func connect(t *testing.T, s *mcpserver.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1.0"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	var out map[string]any
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &out))
	}
	return res, out
}

func text(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestMCPToolsOverInMemoryTransport(t *testing.T) {
	wb, _ := fixture(t)
	var log bytes.Buffer
	s, err := mcpserver.New(wb, mcpserver.Options{Log: &log})
	require.NoError(t, err)
	cs := connect(t, s)
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		assert.NotEmpty(t, tl.Description, tl.Name)
		assert.NotNil(t, tl.InputSchema, tl.Name)
	}
	assert.ElementsMatch(t, []string{"get_context", "search_context", "expand", "get_window", "catalog"}, names, "no ingest unless enabled")

	res, out := call(t, cs, "get_context", map[string]any{"topic": "How is the loadable budget calculated?", "max_tokens": 1500})
	require.False(t, res.IsError, text(res))
	assert.Contains(t, out["context"], "[Context loaded: ")
	assert.Contains(t, out["context"], "The loadable budget is the window minus the system prompt")
	assert.Contains(t, text(res), "The loadable budget is the window minus the system prompt")
	assert.EqualValues(t, 1500, out["max_tokens"])
	assert.Equal(t, false, out["clamped"])
	for _, k := range []string{"manifest", "truncated", "coverage", "selection_reasoning", "expandable_ids", "loaded", "available", "tokens_used"} {
		assert.Contains(t, out, k)
	}
	out0Context := out["context"].(string)
	loaded := out["loaded"].([]any)
	require.NotEmpty(t, loaded)
	first := loaded[0].(map[string]any)
	id := first["id"].(string)
	assert.Regexp(t, `^n-[0-9a-f]+$`, id)
	assert.Equal(t, "loom://node/"+id, first["uri"])

	res, out = call(t, cs, "search_context", map[string]any{"query": "staleness decay", "mode": "keyword"})
	require.False(t, res.IsError, text(res))
	assert.Contains(t, out["text"], "staleness.txt")
	res, out = call(t, cs, "search_context", map[string]any{"query": `(?i)cosine\s+similarity`, "mode": "regex"})
	require.False(t, res.IsError, text(res))
	assert.Contains(t, out["text"], "graphs.md")
	assert.Contains(t, out["text"], "weighted by cosine similarity")

	// The context writes the id shortened and in letters (model.PromptID);
	// expand takes that, and the id in full.
	letters := regexp.MustCompile(`(?m)^\[([a-z]{3,16})\] `).FindStringSubmatch(out0Context)
	require.NotNil(t, letters, out0Context)
	for _, raw := range []string{"[" + id + "]", letters[1]} {
		res, out = call(t, cs, "expand", map[string]any{"node_id": raw})
		require.False(t, res.IsError, text(res))
		require.NotEmpty(t, out["node_ids"], raw)
		if raw == letters[1] {
			assert.Contains(t, out["text"], "["+raw+"] ", "expand writes the id as the context did")
		}
	}
	res, _ = call(t, cs, "get_window", map[string]any{"node_id": id, "radius": 5})
	require.False(t, res.IsError, text(res))
	assert.Contains(t, text(res), "Lines ")

	res, out = call(t, cs, "catalog", nil)
	require.False(t, res.IsError, text(res))
	assert.Contains(t, out["text"], "3 documents")
	docs := out["documents"].([]any)
	require.Len(t, docs, 3)

	// Resources by reference.
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	var uris []string
	for _, rt := range tmpl.ResourceTemplates {
		uris = append(uris, rt.URITemplate)
	}
	assert.ElementsMatch(t, []string{"loom://document/{id}", "loom://node/{id}"}, uris)
	doc := docs[0].(map[string]any)
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: doc["uri"].(string)})
	require.NoError(t, err)
	assert.Contains(t, rr.Contents[0].Text, doc["path"].(string))
	rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "loom://node/" + id})
	require.NoError(t, err)
	assert.Contains(t, rr.Contents[0].Text, "["+id+"]")
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "loom://node/n-0000000000000000"})
	assert.ErrorContains(t, err, "not found")

	// Every call is in the audit log, marked as MCP's.
	recs, err := wb.Audit()
	require.NoError(t, err)
	require.Len(t, recs, 10)
	for _, r := range recs {
		assert.Equal(t, "mcp", r.Source)
		assert.Equal(t, "test-client 1.0", r.Client)
	}
	assert.Equal(t, "get_context", recs[0].Call.Name)
	assert.Contains(t, recs[0].Call.NodeIDs, id)
	assert.Equal(t, "read_resource", recs[len(recs)-1].Call.Name)
	assert.Contains(t, recs[len(recs)-1].Call.Error, "not found")
	assert.Empty(t, log.String(), "nothing to say when the audit log can be written")
}

func TestMCPErrorsAreToolErrors(t *testing.T) {
	wb, _ := fixture(t)
	s, err := mcpserver.New(wb, mcpserver.Options{})
	require.NoError(t, err)
	cs := connect(t, s)

	res, out := call(t, cs, "get_context", map[string]any{"topic": "token budget", "max_tokens": 50_000_000})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, true, out["clamped"])
	assert.EqualValues(t, s.BudgetLimit(), out["max_tokens"])
	assert.EqualValues(t, 50_000_000, out["requested_max_tokens"])
	assert.Contains(t, text(res), "clamped")

	for _, tc := range []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"expand", map[string]any{"node_id": "n-nope"}, `no node "n-nope" in this workspace`},
		{"get_window", map[string]any{"node_id": "n-nope"}, `no node "n-nope"`},
		{"get_context", map[string]any{"topic": "budget", "purpose": "banana"}, "purpose"},
		{"get_context", map[string]any{"topic": "budget", "max_tokens": 10}, "too small"},
		{"get_context", map[string]any{"topic": "budget", "max_tokens": "lots"}, "max_tokens"},
		{"get_context", map[string]any{"topic": "?!"}, "no words"},
		{"get_context", map[string]any{}, "topic"},
		{"search_context", map[string]any{"query": "x", "mode": "regex", "limit": -1}, "limit"},
		{"search_context", map[string]any{"query": "a(b", "mode": "regex"}, "bad regular expression"},
		{"search_context", map[string]any{"query": "budget", "scope": "nowhere"}, `no collection "nowhere"`},
		{"search_context", map[string]any{"query": "budget", "scope": "cluster:c:c-nothere"}, `no cluster "c:c-nothere"`},
		{"get_context", map[string]any{"topic": "budget", "scope": "cluster:c:c-nothere"}, `no cluster "c:c-nothere"`},
		{"search_context", map[string]any{"query": "budget", "bogus": 1}, "bogus"},
		{"ingest", map[string]any{"paths": []string{"/tmp"}}, "ingest is off"},
	} {
		res, _ := call(t, cs, tc.tool, tc.args)
		assert.True(t, res.IsError, "%s %v: %s", tc.tool, tc.args, text(res))
		assert.Contains(t, text(res), tc.msg, "%s %v", tc.tool, tc.args)
	}
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "frobnicate"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown tool "frobnicate"`)
	assert.Contains(t, err.Error(), "get_context")
}

func TestMCPGetContextScopedToAClusterLoadsOnlyItsSections(t *testing.T) {
	wb, _ := fixture(t)
	ctx := context.Background()
	g, err := wb.Graph(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, g.Clusters)
	target := g.Clusters[0].ID
	clusterOf := map[string]string{}
	for _, n := range g.Nodes {
		clusterOf[n.ID] = n.Cluster
	}
	s, err := mcpserver.New(wb, mcpserver.Options{})
	require.NoError(t, err)
	cs := connect(t, s)
	res, out := call(t, cs, "get_context", map[string]any{"topic": "How is the loadable budget calculated?", "max_tokens": 1500, "scope": "cluster:" + target})
	require.False(t, res.IsError, text(res))
	loaded := out["loaded"].([]any)
	require.NotEmpty(t, loaded)
	for _, l := range loaded {
		id := l.(map[string]any)["id"].(string)
		assert.Equal(t, target, clusterOf[id], "%s is in the cluster", id)
	}
	res, out = call(t, cs, "catalog", nil)
	require.False(t, res.IsError, text(res))
	if len(g.Clusters) > 1 {
		assert.Contains(t, out["text"], "cluster:"+target)
	}
}

func TestMCPIngestStaysInsideAllowedFolders(t *testing.T) {
	wb, lib := fixture(t)
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.md"), []byte("# Secret\n\nNot for the workspace.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(lib, "new.md"), []byte("# Fresh note\n\nPelicans migrate along the coast.\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(lib, "link.md")))

	s, err := mcpserver.New(wb, mcpserver.Options{AllowIngest: true})
	require.NoError(t, err)
	real, _ := filepath.EvalSymlinks(lib)
	assert.Equal(t, []string{real}, s.Roots(), "the library folder the documents came from")
	cs := connect(t, s)

	for _, p := range []string{filepath.Join(outside, "secret.md"), outside, filepath.Join(lib, "..", filepath.Base(outside)), filepath.Join(lib, "link.md"), wb.Dir(), "../../etc/passwd"} {
		res, _ := call(t, cs, "ingest", map[string]any{"paths": []string{p}})
		assert.True(t, res.IsError, p)
		assert.Regexp(t, "outside the folders|does not exist|workspace's own files", text(res), p)
	}
	res, out := call(t, cs, "ingest", map[string]any{"paths": []string{"new.md"}})
	require.False(t, res.IsError, text(res))
	assert.EqualValues(t, 1, out["added"])
	res, out = call(t, cs, "search_context", map[string]any{"query": "pelicans", "mode": "keyword"})
	require.False(t, res.IsError, text(res))
	assert.Contains(t, out["text"], "Pelicans migrate")

	// No folder to read from: ingest cannot be enabled.
	empty, err := backend.New(context.Background(), backend.Config{Dir: t.TempDir(), Embedder: "offline"})
	require.NoError(t, err)
	defer empty.Close()
	_, err = mcpserver.New(empty, mcpserver.Options{AllowIngest: true})
	assert.ErrorContains(t, err, "--allow-root")
}

// The HTTP handler: a token is required, web pages of other origins are
// refused, and with both right the SDK's client works.
func TestMCPHTTPTokenAndOrigin(t *testing.T) {
	wb, _ := fixture(t)
	s, err := mcpserver.New(wb, mcpserver.Options{})
	require.NoError(t, err)
	token, kept, err := mcpserver.Token(wb.Dir())
	require.NoError(t, err)
	require.True(t, kept)
	fi, err := os.Stat(filepath.Join(wb.Dir(), mcpserver.TokenFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	again, _, err := mcpserver.Token(wb.Dir())
	require.NoError(t, err)
	assert.Equal(t, token, again, "made once")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: s.HTTPHandler(token)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String() + mcpserver.HTTPPath

	post := func(header map[string]string) *http.Response {
		req, err := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
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
		return resp
	}
	assert.Equal(t, http.StatusUnauthorized, post(nil).StatusCode)
	assert.Equal(t, http.StatusUnauthorized, post(map[string]string{"Authorization": "Bearer wrong"}).StatusCode)
	assert.Equal(t, http.StatusForbidden, post(map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}).StatusCode)
	assert.NotEqual(t, http.StatusForbidden, post(map[string]string{"Authorization": "Bearer " + token, "Origin": "http://localhost:5173"}).StatusCode)

	client := &http.Client{Transport: bearer{token}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-client", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, out := call(t, cs, "search_context", map[string]any{"query": "concept nodes"})
	require.False(t, res.IsError, text(res))
	assert.Contains(t, out["text"], "graphs.md")
}

// lines hands each line written to it to a channel.
type lines chan string

func (l lines) Write(p []byte) (int, error) {
	for line := range strings.Lines(string(p)) {
		l <- strings.TrimSpace(line)
	}
	return len(p), nil
}

func TestMCPSessionTimeoutDefaults(t *testing.T) {
	wb, _ := fixture(t)
	for given, want := range map[time.Duration]time.Duration{0: mcpserver.DefaultSessionTimeout, -1: 0, 5 * time.Minute: 5 * time.Minute} {
		s, err := mcpserver.New(wb, mcpserver.Options{SessionTimeout: given})
		require.NoError(t, err)
		assert.Equal(t, want, s.SessionTimeout(), "given %v", given)
	}
	assert.Equal(t, 30*time.Minute, mcpserver.DefaultSessionTimeout)
}

// An HTTP session that gets no request for the session timeout is closed
// and said so on the log; its client's next call fails (the server no
// longer knows the session: 404), and a new session works. A request
// starts the session's clock again. The clock is a fake one: the test
// waits for the server to start a session's clock (after each of its
// requests) and for the session's end, never on the wall clock.
func TestMCPHTTPSessionsCloseWhenIdle(t *testing.T) {
	wb, _ := fixture(t)
	log := make(lines, 64)
	clk := watch.NewFakeClock(time.Unix(1_700_000_000, 0))
	s, err := mcpserver.New(wb, mcpserver.Options{SessionTimeout: time.Minute, AfterFunc: clk.AfterFunc, Log: log})
	require.NoError(t, err)
	armed := make(chan string, 1)
	mcpserver.OnIdleArmed(s, func(string) {
		select {
		case armed <- "":
		default: // one pending wake-up is enough: the state is read after it
		}
	})
	token, _, err := mcpserver.Token(wb.Dir())
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: s.HTTPHandler(token)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String() + mcpserver.HTTPPath
	connect := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "idle-client", Version: "7"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}, nil)
		require.NoError(t, err)
		return cs
	}
	// waitArmed waits until the session's clock runs: none of its
	// requests is in flight, and the last one's end started it. Each start
	// is an event; the state is checked after each.
	waitArmed := func(id string) {
		t.Helper()
		for !mcpserver.IdleArmed(s, id) {
			select {
			case <-armed:
			case <-time.After(30 * time.Second): // a failure guard, not a timing
				t.Fatal("the session's clock did not start")
			}
		}
	}
	cs := connect()
	defer cs.Close()
	require.NotEmpty(t, cs.ID())
	waitArmed(cs.ID())

	clk.Advance(59 * time.Second)
	res, _ := call(t, cs, "catalog", nil)
	require.False(t, res.IsError, text(res))
	waitArmed(cs.ID())
	clk.Advance(59 * time.Second) // 118 s since connecting, 59 since the call
	res, _ = call(t, cs, "catalog", nil)
	require.False(t, res.IsError, "a request keeps the session: %s", text(res))
	waitArmed(cs.ID())
	select {
	case line := <-log:
		t.Fatalf("logged while in use: %s", line)
	default:
	}

	clk.Advance(time.Minute)
	ended := ""
	select {
	case ended = <-log:
	case <-time.After(30 * time.Second): // a failure guard, not a timing
		t.Fatal("the idle session was not closed")
	}
	assert.True(t, strings.HasPrefix(ended, "loom mcp: session ended: "+cs.ID()+" (idle-client 7) after "), ended)

	// The server has forgotten the session: a request naming it gets 404.
	req, err := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"ping"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", cs.ID())
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "catalog"})
	assert.Error(t, err, "the old session is gone")
	assert.Zero(t, clk.Pending(), "no clock left for it")

	// The client starts a new session, and it answers.
	cs2 := connect()
	defer cs2.Close()
	res, _ = call(t, cs2, "catalog", nil)
	assert.False(t, res.IsError, text(res))
}

// With the timeout off (negative), sessions have no clock at all.
func TestMCPHTTPSessionsWithoutTimeout(t *testing.T) {
	wb, _ := fixture(t)
	clk := watch.NewFakeClock(time.Unix(1_700_000_000, 0))
	s, err := mcpserver.New(wb, mcpserver.Options{SessionTimeout: -1, AfterFunc: clk.AfterFunc})
	require.NoError(t, err)
	token, _, err := mcpserver.Token(wb.Dir())
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: s.HTTPHandler(token)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + mcpserver.HTTPPath, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, _ := call(t, cs, "catalog", nil)
	require.False(t, res.IsError, text(res))
	assert.Zero(t, clk.Pending())
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestMCPCheckLoopback(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:0", "127.0.0.1:8765", "[::1]:9000", "localhost:1234"} {
		assert.NoError(t, mcpserver.CheckLoopback(ok), ok)
	}
	for _, bad := range []string{":8765", "0.0.0.0:8765", "192.168.1.4:80", "example.com:80", "[::]:80", "127.0.0.1"} {
		assert.Error(t, mcpserver.CheckLoopback(bad), bad)
	}
	assert.True(t, mcpserver.LocalOrigin("http://127.0.0.1:3000"))
	assert.False(t, mcpserver.LocalOrigin("null"))
	assert.False(t, mcpserver.LocalOrigin("http://localhost.evil.example"))
}

func TestMCPClientConfigs(t *testing.T) {
	var h map[string]map[string]map[string]any
	require.NoError(t, json.Unmarshal([]byte(mcpserver.HTTPConfig("http://127.0.0.1:7337/mcp", "loom_T")), &h))
	assert.Equal(t, map[string]any{"type": "http", "url": "http://127.0.0.1:7337/mcp",
		"headers": map[string]any{"Authorization": "Bearer loom_T"}}, h["mcpServers"]["loom"])
	var s map[string]map[string]map[string]any
	require.NoError(t, json.Unmarshal([]byte(mcpserver.StdioConfig("loom", "/ws")), &s))
	assert.Equal(t, map[string]any{"command": "loom", "args": []any{"mcp", "--workspace", "/ws"}}, s["mcpServers"]["loom"])
}

// TestReasoningNamesWhatIsNearTheTopic: the selection's reasoning says when
// a budget above the relevance budget brought sections near the topic that
// are not relevant by the cut, and says nothing of them otherwise.
func TestReasoningNamesWhatIsNearTheTopic(t *testing.T) {
	res := &backend.QueryResult{Branch: string(assemble.BranchAllFit), Relevant: 3, Loaded: 7, Near: 4, Purpose: "answer"}
	why := mcpserver.Reasoning(res, 16000, 0)
	assert.Contains(t, why, "All 3 relevant sections fit the 16000-token budget")
	assert.Contains(t, why, "4 more sections near the topic (not relevant by the cut) were loaded after them")
	res.Loaded, res.Near = 3, 0
	assert.NotContains(t, mcpserver.Reasoning(res, 4000, 0), "near the topic")
}
