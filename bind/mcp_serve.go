//go:build !js

package bind

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/mcpserver"
)

// defaultMCPAddr is where the desktop app serves MCP: a fixed port, so a
// client's configuration keeps working from one run to the next. When
// another program has it, a free port is used (MCPStatus.Note says so).
var defaultMCPAddr = "127.0.0.1:" + strconv.Itoa(mcpserver.DefaultPort)

// mcpRun is the MCP server while it listens.
type mcpRun struct {
	server *mcpserver.Server
	srv    *http.Server
	ln     net.Listener
	done   chan struct{} // closed when Serve has returned
	calls  sync.WaitGroup
	// status is what MCPStatus reports of it.
	status MCPStatus
}

// MCPStatus says whether the workspace is served to MCP clients, where and
// with which token, and what a client's configuration is.
func (a *App) MCPStatus() (*MCPStatus, error) {
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	if a.web {
		return &MCPStatus{Unavailable: "Serving MCP is for the desktop app: a browser tab cannot listen for clients."}, nil
	}
	a.benchMu.RLock()
	defer a.benchMu.RUnlock()
	a.mcpMu.Lock()
	defer a.mcpMu.Unlock()
	return a.mcpStatusLocked(), nil
}

// SetMCP turns serving MCP on or off, and remembers it for the next
// start. Turned on, the server starts at once on the open workspace (a
// failure to listen is the status's Problem, not an error).
func (a *App) SetMCP(on bool) (*MCPStatus, error) {
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	if a.web {
		return nil, &Error{Code: CodeUnavailable, Message: "Serving MCP is for the desktop app: a browser tab cannot listen for clients."}
	}
	a.benchMu.RLock()
	defer a.benchMu.RUnlock()
	select {
	case <-a.stopping:
		return nil, closedError()
	default:
	}
	a.mcpMu.Lock()
	defer a.mcpMu.Unlock()
	a.settingsMu.Lock()
	s := a.loadSettings()
	s.MCP = on
	err := saveSettings(s)
	a.settingsMu.Unlock()
	if err != nil {
		return nil, err
	}
	a.mcpOn = on
	if on {
		a.mcpStartLocked()
	} else {
		a.mcpStopLocked()
	}
	return a.mcpStatusLocked(), nil
}

// mcpSetting reads the remembered setting (Startup).
func (a *App) mcpSetting() {
	a.mcpMu.Lock()
	defer a.mcpMu.Unlock()
	a.mcpOn = a.loadSettings().MCP
}

// mcpOpened starts the server on the workspace just opened when the
// setting is on. Callers hold benchMu's write lock.
func (a *App) mcpOpened() {
	a.mcpMu.Lock()
	defer a.mcpMu.Unlock()
	if a.mcpOn {
		a.mcpStartLocked()
	}
}

// mcpClosing stops the server before its workspace closes. Callers hold
// benchMu's write lock.
func (a *App) mcpClosing() {
	a.mcpMu.Lock()
	defer a.mcpMu.Unlock()
	a.mcpStopLocked()
}

// mcpStatusLocked is the status now. Callers hold benchMu and mcpMu.
func (a *App) mcpStatusLocked() *MCPStatus {
	st := &MCPStatus{Available: true, On: a.mcpOn}
	if a.mcpRun != nil {
		*st = a.mcpRun.status
		st.On, st.Serving = a.mcpOn, true
	} else if a.mcpOn {
		st.Problem = a.mcpProblem
	}
	if a.dir != "" {
		dir := a.dir
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		st.StdioCommand = "loom mcp --workspace " + shellQuote(dir)
		st.StdioConfig = mcpserver.StdioConfig("loom", dir)
	}
	return st
}

// mcpStartLocked starts serving the open workspace, unless it serves
// already; what fails is kept as the status's Problem. Callers hold
// benchMu (read or write) and mcpMu.
func (a *App) mcpStartLocked() {
	if a.mcpRun != nil {
		return
	}
	a.mcpProblem = ""
	fail := func(format string, args ...any) {
		a.mcpProblem = fmt.Sprintf(format, args...)
		a.shell.LogError(a.ctx, "mcp: "+a.mcpProblem)
	}
	if a.bench == nil {
		fail("The workspace is not open, so there is nothing to serve: MCP starts when it opens.")
		return
	}
	wb, ok := a.bench.(*backend.Workbench)
	if !ok {
		fail("This workspace cannot be served over MCP.")
		return
	}
	idle, bad := a.loadSettings().sessionTimeout()
	if bad != "" {
		a.shell.LogError(a.ctx, "mcp: "+bad)
	}
	s, err := mcpserver.New(wb, mcpserver.Options{Version: "desktop", Log: shellLog{a}, SessionTimeout: idle})
	if err != nil {
		fail("%v", err)
		return
	}
	token, kept, err := mcpserver.Token(a.dir)
	if err != nil {
		fail("Loom could not read the workspace's MCP token: %v", err)
		return
	}
	addr, note := a.mcpAddr, ""
	if addr == "" {
		addr = defaultMCPAddr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && addr == defaultMCPAddr {
		// Another program (a `loom mcp --http`, another window) has the
		// default port: any free one will do; the page shows the URL.
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		note = "Port " + strconv.Itoa(mcpserver.DefaultPort) + " is taken by another program, so Loom serves on a free port this time: paste the configuration below again after a restart."
	}
	if err != nil {
		fail("Loom could not listen on %s: %v", addr, err)
		return
	}
	run := &mcpRun{server: s, ln: ln, done: make(chan struct{})}
	h := s.HTTPHandler(token)
	mux := http.NewServeMux()
	mux.Handle(mcpserver.HTTPPath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		run.calls.Add(1)
		defer run.calls.Done()
		h.ServeHTTP(w, r)
	}))
	run.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + ln.Addr().String() + mcpserver.HTTPPath
	run.status = MCPStatus{Available: true, URL: url, Note: note, Token: token,
		ReadOnly: wb.ReadOnlyReason() != "", Tools: s.Tools(), HTTPConfig: mcpserver.HTTPConfig(url, token)}
	if kept {
		run.status.TokenFile = filepath.Join(a.dir, mcpserver.TokenFile)
	}
	go func() {
		defer close(run.done)
		if err := run.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.shell.LogError(a.ctx, "mcp: "+err.Error())
		}
	}()
	a.mcpRun = run
	a.shell.LogInfo(a.ctx, "mcp: serving "+a.dir+" at "+url)
}

// mcpStopLocked stops the server, if it runs: the listener and every
// connection close, and the calls being answered are waited for (a
// little: a call's own timeout bounds it) so none uses the workspace
// after it closes. Callers hold mcpMu.
func (a *App) mcpStopLocked() {
	run := a.mcpRun
	if run == nil {
		return
	}
	a.mcpRun = nil
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := run.srv.Shutdown(ctx); err != nil {
		run.srv.Close() // a client holding a stream open
	}
	<-run.done
	waited := make(chan struct{})
	go func() { run.calls.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		a.shell.LogError(a.ctx, "mcp: a call was still running when the server stopped")
	}
	a.shell.LogInfo(a.ctx, "mcp: stopped serving "+a.dir)
}

// shellLog passes what the MCP server cannot keep in the workspace (the
// audit records of a read-only one) to the app's log.
type shellLog struct{ a *App }

func (l shellLog) Write(p []byte) (int, error) {
	for line := range strings.Lines(string(p)) {
		if line = strings.TrimSpace(line); line != "" {
			l.a.shell.LogInfo(l.a.ctx, "mcp: "+line)
		}
	}
	return len(p), nil
}

// shellQuote quotes a path for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
