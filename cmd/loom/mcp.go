package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/mcpserver"
)

// cmdMCP serves a workspace to MCP clients: over stdio (the default: the
// client starts loom mcp itself) or Streamable HTTP on a loopback address
// with the workspace's bearer token. Everything it says goes to stderr;
// over stdio, stdout is the protocol's.
func cmdMCP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("mcp", stderr)
	var ws workspaceFlags
	ws.register(fs)
	httpAddr := fs.String("http", "", "serve Streamable HTTP on this loopback address (e.g. 127.0.0.1:8765; port 0 picks a free one) instead of stdio")
	allowIngest := fs.Bool("allow-ingest", false, "offer the ingest tool (reads files into the workspace; only inside its library folders and --allow-root folders). Off by default: no tool writes")
	var roots stringList
	fs.Var(&roots, "allow-root", "a folder ingest may read besides the workspace's library folders (repeatable; needs --allow-ingest)")
	timeout := fs.Duration("timeout", mcpserver.DefaultTimeout, "the longest one call may take (an ingest: "+mcpserver.DefaultIngestTimeout.String()+")")
	sessionTimeout := fs.Duration("session-timeout", mcpserver.DefaultSessionTimeout, "with --http: close a client's session after this long without a request (0: never); the client starts a new one when it comes back")
	summaryModel := fs.String("summary-model", "", "make summaries with this model of the model server (Ollama or the OpenAI-compatible one; the extractive method when it fails); default: extractive")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("mcp: unexpected %q (the workspace is given with --workspace)", pos[0])
	}
	if len(roots) > 0 && !*allowIngest {
		return usageErr("mcp: --allow-root is for ingest: add --allow-ingest to offer it")
	}
	if *timeout <= 0 {
		return usageErr("mcp: --timeout must be positive, e.g. 30s")
	}
	if *sessionTimeout < 0 {
		return usageErr("mcp: --session-timeout must not be negative (0: sessions never time out)")
	}
	if *sessionTimeout == 0 {
		*sessionTimeout = -1 // the server's "never"
	}
	if *httpAddr != "" {
		if err := mcpserver.CheckLoopback(*httpAddr); err != nil {
			return usageErr("mcp: --http %v", err)
		}
	}
	cfg, err := ws.config(stderr)
	if err != nil {
		return err
	}
	dir, err := cfg.Folder()
	if err != nil {
		return err
	}
	if err := existingWorkspace(dir); err != nil {
		return &exitError{2, err}
	}
	wb, err := ws.openToRead(ctx, stderr, func(c *backend.Config) { c.Dir, c.SummaryModel = dir, *summaryModel })
	if err != nil {
		return err
	}
	defer wb.Close()
	if *allowIngest && wb.ReadOnlyReason() != "" {
		fmt.Fprintf(stderr, "loom mcp: ingest is off: the workspace is open read-only (%s)\n", wb.ReadOnlyReason())
		*allowIngest = false
	}
	if wb.ReadOnlyReason() != "" {
		fmt.Fprintln(stderr, "loom mcp: serving read-only; if the Loom desktop app holds this workspace, it can serve MCP itself while it is open (Settings → MCP: \"Serve this workspace to MCP clients\")")
		fmt.Fprintln(stderr, "loom mcp: the audit log cannot be written while the workspace is read-only: calls are logged here instead")
	}
	s, err := mcpserver.New(wb, mcpserver.Options{AllowIngest: *allowIngest, Roots: roots, Timeout: *timeout, SessionTimeout: *sessionTimeout, Version: version(), Log: stderr})
	if err != nil {
		return &exitError{2, err}
	}
	fmt.Fprintf(stderr, "loom mcp: workspace %s · tools: %s\n", wb.Dir(), strings.Join(s.Tools(), ", "))
	if r := s.Roots(); len(r) > 0 {
		fmt.Fprintf(stderr, "loom mcp: ingest may read: %s\n", strings.Join(r, ", "))
	}
	if *httpAddr == "" {
		fmt.Fprintf(stderr, "loom mcp: serving over stdio. A client starts it with this entry (Claude Desktop: claude_desktop_config.json):\n%s\n", stdioConfig(wb.Dir()))
		err := s.MCP().Run(ctx, &mcp.StdioTransport{})
		if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
			return nil // the client closed the connection, or we were stopped
		}
		return err
	}
	return serveHTTP(ctx, s, wb.Dir(), *httpAddr, stderr)
}

// serveHTTP serves s on addr until ctx ends.
func serveHTTP(ctx context.Context, s *mcpserver.Server, dir, addr string, stderr io.Writer) error {
	token, kept, err := mcpserver.Token(dir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &exitError{2, fmt.Errorf("mcp: listen on %s: %w", addr, err)}
	}
	url := "http://" + ln.Addr().String() + mcpserver.HTTPPath
	mux := http.NewServeMux()
	mux.Handle(mcpserver.HTTPPath, s.HTTPHandler(token))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	where := "kept in " + filepath.Join(dir, mcpserver.TokenFile) + " (0600)"
	if !kept {
		where = "for this run only: the workspace folder cannot be written"
	}
	idle := "sessions never time out (--session-timeout 0)"
	if d := s.SessionTimeout(); d > 0 {
		idle = "a session without a request for " + d.String() + " is closed; its client starts a new one (--session-timeout)"
	}
	fmt.Fprintf(stderr, "loom mcp: serving %s\nloom mcp: bearer token (%s): %s\nloom mcp: %s\nloom mcp: client entry (Claude Code, VS Code, Cursor…):\n%s\n", url, where, token, idle, mcpserver.HTTPConfig(url, token))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close() // a client holding a stream open
	}
	return nil
}

// existingWorkspace refuses to serve a folder that holds no workspace:
// serving would make an empty one, which no client wants.
func existingWorkspace(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("mcp: there is no workspace at %s: make one with `loom ingest --workspace %s FILE_OR_FOLDER...`, or give --workspace", dir, dir)
	}
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("mcp: %s is a file, not a workspace folder", dir)
	}
	for _, name := range []string{backend.ConfigFile, backend.GraphDir, backend.SnapshotFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return nil
		}
	}
	return fmt.Errorf("mcp: %s is not a Loom workspace (it has no %s or graph store): make one with `loom ingest --workspace %s FILE_OR_FOLDER...`", dir, backend.ConfigFile, dir)
}

// stdioConfig is the mcpServers entry a client starts this workspace's
// server with: this very program.
func stdioConfig(dir string) string {
	exe, err := os.Executable()
	if err != nil {
		exe = "loom"
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return mcpserver.StdioConfig(exe, dir)
}

// version is the module version the binary was built from ("dev" from a
// work tree).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
