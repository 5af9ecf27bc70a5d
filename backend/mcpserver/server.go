// Package mcpserver serves one Loom workspace to any MCP client (Claude
// Desktop, Claude Code, editors, agents) over the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): the context Loom assembles for
// a topic, the searches and reads chat models use (search_context,
// expand, get_window, catalog), the workspace's documents and nodes as
// resources, and — only when the person enables it — ingest.
//
//	s, err := mcpserver.New(wb, mcpserver.Options{})
//	err = s.MCP().Run(ctx, &mcp.StdioTransport{})
//	http.Handle("/mcp", s.HTTPHandler(token)) // or over Streamable HTTP
//
// Every call is bounded — max_tokens clamped to the budget Loom assembles
// without a model window, result sizes capped, a per-call timeout — and
// written to the workspace's audit log (audit.jsonl, source "mcp"). A
// failure is a tool error with a sentence a person can act on, never a
// crash of the server.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/tokens"
)

// Names of the tools.
const (
	ToolGetContext    = "get_context"
	ToolSearchContext = chat.ToolSearchContext
	ToolExpand        = chat.ToolExpand
	ToolGetWindow     = chat.ToolGetWindow
	ToolCatalog       = chat.ToolCatalog
	ToolIngest        = "ingest"
)

// AuditSource is the source audit records of MCP calls carry.
const AuditSource = "mcp"

// Bounds and defaults.
const (
	// DefaultMaxTokens is get_context's budget when the call gives none
	// (loom query's default).
	DefaultMaxTokens = 4000
	// DefaultTimeout bounds a call; DefaultIngestTimeout an ingest.
	DefaultTimeout       = 30 * time.Second
	DefaultIngestTimeout = 10 * time.Minute
	// DefaultResultTokens caps the text of a search, expand, window or
	// catalog result and of a resource (trimmed at a line, saying so).
	DefaultResultTokens = 16 << 10
	// MaxIngestPaths bounds the paths one ingest call may name.
	MaxIngestPaths = 64
	// DefaultSessionTimeout closes a Streamable HTTP session that has had
	// no request for this long (a client that comes back starts a new
	// one, as the protocol has it: it gets 404 for the old session).
	DefaultSessionTimeout = 30 * time.Minute
	// maxListed bounds the node and document lists in structured results.
	maxListed = 200
)

// Options configure a server.
type Options struct {
	// AllowIngest registers the ingest tool; without it no tool writes to
	// the workspace.
	AllowIngest bool
	// Roots are folders ingest may read besides the workspace's library
	// folders (the folders its documents were ingested from).
	Roots []string
	// Timeout bounds each call (0: DefaultTimeout); IngestTimeout an
	// ingest call (0: DefaultIngestTimeout).
	Timeout       time.Duration
	IngestTimeout time.Duration
	// ResultTokens caps a result's text (0: DefaultResultTokens; at most
	// the budget limit).
	ResultTokens int
	// SessionTimeout closes an HTTP session after this long without a
	// request from its client (0: DefaultSessionTimeout; negative: never).
	// Over stdio the session is the process's and ends with it.
	SessionTimeout time.Duration
	// AfterFunc makes the timers of idle HTTP sessions (nil:
	// time.AfterFunc); tests give a fake clock's.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Version is the version the server introduces itself with.
	Version string
	// Log is told what the server cannot keep in the workspace (the audit
	// records of a workspace open read-only, as JSON lines) and audit
	// failures (nil: discarded).
	Log io.Writer
	// Now is the clock of audit records (nil: time.Now).
	Now func() time.Time
}

// Server is one workspace served over MCP.
type Server struct {
	wb    *backend.Workbench
	opts  Options
	srv   *mcp.Server
	tools []string // the names registered
	// limit is the most context get_context assembles (the model-free
	// budget limit); roots the folders ingest may read.
	limit int
	roots []string
	logMu sync.Mutex
	// idle are the HTTP handlers' idle-session trackers; idleArmed, when
	// set (tests), is told each time an idle session's clock starts.
	idleMu    sync.Mutex
	idle      []*idleSessions
	idleArmed func(id string)
}

// New makes the server of wb. It fails only when ingest is enabled on a
// workspace open read-only, or with no folder it may read.
func New(wb *backend.Workbench, opts Options) (*Server, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.IngestTimeout <= 0 {
		opts.IngestTimeout = DefaultIngestTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.SessionTimeout == 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.AfterFunc == nil {
		opts.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	limits, err := wb.BudgetLimits(0)
	if err != nil {
		return nil, err
	}
	if opts.ResultTokens <= 0 || opts.ResultTokens > limits.MaxBudget {
		opts.ResultTokens = min(DefaultResultTokens, limits.MaxBudget)
	}
	s := &Server{wb: wb, opts: opts, limit: limits.MaxBudget}
	if opts.AllowIngest {
		if why := wb.ReadOnlyReason(); why != "" {
			return nil, fmt.Errorf("ingest cannot be enabled: the workspace is open read-only (%s)", why)
		}
		if s.roots, err = libraryRoots(context.Background(), wb, opts.Roots); err != nil {
			return nil, err
		}
		if len(s.roots) == 0 {
			return nil, fmt.Errorf("ingest has no folder to read from: the workspace has no library folders yet, so name one the client may ingest from (--allow-root DIR)")
		}
	}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "loom", Title: "Loom", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Capabilities: &mcp.ServerCapabilities{}, // tools and resources are inferred; no logging
		InitializedHandler: func(_ context.Context, req *mcp.InitializedRequest) {
			if ss := req.Session; ss != nil {
				go s.sessionEnds(ss)
			}
		},
	})
	s.addTools()
	s.addResources()
	s.srv.AddReceivingMiddleware(s.bound)
	return s, nil
}

const instructions = `Loom serves one local knowledge workspace (notes, papers, documents).
Start with get_context for a topic: it returns the most useful sections within a token budget, with a manifest of what was left out and the ids you can expand.
Use search_context to find more passages (hybrid, keyword, semantic or regex), expand to read a node at another level of detail or its neighbours, get_window to read the lines around a node, and catalog to see what the workspace holds.
Every result names node ids like [hpih] with their sources (file, page, lines): cite them. Documents and nodes are also resources: loom://document/{id}, loom://node/{id}.`

// MCP is the SDK server, to run over a transport.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Tools are the names of the tools registered.
func (s *Server) Tools() []string { return slices.Clone(s.tools) }

// Roots are the folders ingest may read (nil when ingest is off).
func (s *Server) Roots() []string { return slices.Clone(s.roots) }

// SessionTimeout is how long an HTTP session may go without a request
// before it is closed (0: never).
func (s *Server) SessionTimeout() time.Duration { return max(s.opts.SessionTimeout, 0) }

// sessionEnds waits for a session to end and says so on Log: the client
// closed it, its process ended, or (over HTTP) it was idle for the
// session timeout (closeSession).
func (s *Server) sessionEnds(ss *mcp.ServerSession) {
	start := s.opts.Now()
	_ = ss.Wait()
	who := ""
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		who = " (" + strings.TrimSpace(p.ClientInfo.Name+" "+p.ClientInfo.Version) + ")"
	}
	id := ss.ID()
	s.idleMu.Lock()
	for _, t := range s.idle {
		t.forget(id)
	}
	s.idleMu.Unlock()
	if id == "" {
		id = "over stdio"
	}
	s.log("session ended", fmt.Sprintf("%s%s after %s", id, who, s.opts.Now().Sub(start).Round(time.Second)))
}

// closeSession closes the session with this id, if it is open.
func (s *Server) closeSession(id string) {
	for ss := range s.srv.Sessions() {
		if ss.ID() == id {
			ss.Close()
		}
	}
}

// BudgetLimit is the most context get_context assembles: max_tokens above
// it is clamped.
func (s *Server) BudgetLimit() int { return s.limit }

// callInfo is what a handler tells the audit record of its call.
type callInfo struct {
	nodeIDs []string
	cites   map[string]string
	tokens  int
	trimmed bool
}

type infoKey struct{}

// info is the record of the call ctx belongs to (a throwaway when none).
func info(ctx context.Context) *callInfo {
	if i, ok := ctx.Value(infoKey{}).(*callInfo); ok {
		return i
	}
	return &callInfo{}
}

const methodCallTool, methodReadResource = "tools/call", "resources/read"

// bound is the middleware every tool call and resource read goes
// through: it refuses unknown tools with the list of known ones, bounds
// the call with a timeout, turns a panic into an error, and writes the
// call to the audit log.
func (s *Server) bound(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		if method != methodCallTool && method != methodReadResource {
			return next(ctx, method, req)
		}
		start := s.opts.Now()
		call := chat.ToolCall{}
		timeout := s.opts.Timeout
		switch r := req.(type) {
		case *mcp.CallToolRequest:
			call.Name, call.Args = r.Params.Name, decodeArgs(r.Params.Arguments)
			if call.Name == ToolIngest {
				timeout = s.opts.IngestTimeout
			}
			if !slices.Contains(s.tools, call.Name) {
				res, err = s.unknownTool(call.Name)
				s.record(req, call, res, err, start)
				return res, err
			}
		case *mcp.ReadResourceRequest:
			call.Name, call.Args = "read_resource", map[string]any{"uri": r.Params.URI}
		}
		inf := &callInfo{}
		ctx, cancel := context.WithTimeout(context.WithValue(ctx, infoKey{}, inf), timeout)
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				perr := fmt.Errorf("%s failed on an internal error (%v); the server goes on — please report it", call.Name, p)
				if method == methodCallTool {
					res, err = errorResult(perr), nil
				} else {
					res, err = nil, perr
				}
			}
			if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
				plainArgumentError(r, call.Name)
			}
			call.NodeIDs, call.Cites, call.Tokens, call.Trimmed = inf.nodeIDs, inf.cites, inf.tokens, inf.trimmed
			s.record(req, call, res, err, start)
		}()
		return next(ctx, method, req)
	}
}

// unknownTool answers a call of a tool this server does not have: ingest
// when it is off says how to turn it on.
func (s *Server) unknownTool(name string) (mcp.Result, error) {
	if name == ToolIngest {
		return errorResult(errors.New("ingest is off: this server was started without --allow-ingest, so no tool may write to the workspace")), nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("unknown tool %q: this server has %s", name, strings.Join(s.tools, ", "))}
}

// record writes a call to the audit log (to Log when the workspace is
// read-only).
func (s *Server) record(req mcp.Request, call chat.ToolCall, res mcp.Result, err error, start time.Time) {
	call.Duration = s.opts.Now().Sub(start)
	switch r := res.(type) {
	case *mcp.CallToolResult:
		if r != nil && r.IsError {
			call.Error = resultText(r)
		}
	}
	if err != nil {
		call.Error = err.Error()
	}
	rec := backend.AuditRecord{Time: start, Call: call, Source: AuditSource}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		rec.Session = ss.ID()
		if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
			rec.Client = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
		}
	}
	if s.wb.ReadOnlyReason() != "" {
		s.log("audit", rec)
		return
	}
	if err := s.wb.RecordToolCalls(rec); err != nil {
		s.log("audit log", err.Error())
	}
}

// log writes one line to Log: a record as JSON, or a sentence.
func (s *Server) log(what string, v any) {
	if s.opts.Log == nil {
		return
	}
	line := fmt.Sprint(v)
	if _, ok := v.(string); !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		line = string(b)
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opts.Log, "loom mcp: %s: %s\n", what, line)
}

// decodeArgs reads a call's arguments for the audit log (nil when they
// are not an object).
func decodeArgs(raw json.RawMessage) map[string]any {
	var m map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

func errorResult(err error) *mcp.CallToolResult {
	r := &mcp.CallToolResult{}
	r.SetError(err)
	return r
}

// plainArgumentError rewords the SDK's schema validation failure
// ("validating \"arguments\": validating root: …") as bad arguments of
// the tool.
func plainArgumentError(r *mcp.CallToolResult, tool string) {
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if rest, ok := strings.CutPrefix(t.Text, `validating "arguments": `); ok {
				rest = strings.TrimPrefix(rest, "validating root: ")
				t.Text = fmt.Sprintf("bad arguments for %s: %s (see the tool's input schema)", tool, rest)
			}
		}
	}
}

// resultText is the text of a result's content.
func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// failed is a tool's error as the client is told it: a call that ran out
// of time says so and how long it had.
func (s *Server) failed(ctx context.Context, tool string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t := s.opts.Timeout
		if tool == ToolIngest {
			t = s.opts.IngestTimeout
		}
		return fmt.Errorf("%s took longer than the %s a call may take (%v); ask for less, e.g. a smaller limit or a narrower scope", tool, t, err)
	}
	return err
}

// trim cuts text to at most max tokens at a line boundary; it reports the
// tokens kept and whether it cut.
func trim(text string, max int) (string, int, bool) {
	count := tokens.Default().Count
	n := count(text)
	if n <= max {
		return text, n, false
	}
	var b strings.Builder
	used := 0
	for line := range strings.Lines(text) {
		c := count(line)
		if used+c > max {
			break
		}
		b.WriteString(line)
		used += c
	}
	if used == 0 { // one line longer than max: cut it
		r := []rune(text)
		cut := string(r[:min(len(r), max*2)])
		for len(cut) > 0 && count(cut) > max {
			cut = string([]rune(cut)[:len([]rune(cut))*3/4])
		}
		return cut, count(cut), true
	}
	return strings.TrimRight(b.String(), "\n"), used, true
}

func countTokens(s string) int { return tokens.Default().Count(s) }
