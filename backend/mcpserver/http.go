package mcpserver

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TokenFile is the file in the workspace folder that keeps the bearer
// token HTTP clients present (0600: the owner's alone).
const TokenFile = "mcp-token"

// HTTPPath is where the HTTP handler is served.
const HTTPPath = "/mcp"

// HTTPHandler serves the server over Streamable HTTP to clients that
// present token as "Authorization: Bearer <token>" (401 otherwise). A
// request from a web page of another origin is refused (403): only
// requests without an Origin header (programs) or from a localhost page
// pass, so a site the person visits cannot drive the server. The SDK's
// own check refuses a loopback request naming another host (DNS
// rebinding). A session idle for Options.SessionTimeout is closed
// (idleSessions); its client's next request gets 404, upon which a client
// starts a new session (the protocol's rule).
func (s *Server) HTTPHandler(token string) http.Handler {
	if token == "" {
		panic("mcpserver: HTTPHandler needs a token")
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, nil)
	h := http.Handler(sdk)
	if d := s.SessionTimeout(); d > 0 {
		idle := &idleSessions{timeout: d, afterFunc: s.opts.AfterFunc, close: s.closeSession, armed: s.idleArmed, sessions: map[string]*idleSession{}}
		s.idleMu.Lock()
		s.idle = append(s.idle, idle)
		s.idleMu.Unlock()
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				sdk.ServeHTTP(w, r) // an event stream, or the client's DELETE
				return
			}
			if id := r.Header.Get(sessionHeader); id != "" {
				if idle.begin(id) {
					defer idle.end(id)
				}
				sdk.ServeHTTP(w, r)
				return
			}
			sw := &sessionStart{ResponseWriter: w, idle: idle} // initialize: the answer names the new session
			sdk.ServeHTTP(sw, r)
			if sw.id != "" {
				idle.end(sw.id)
			}
		})
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !LocalOrigin(origin) {
			http.Error(w, fmt.Sprintf("Forbidden: requests from web pages of origin %q are refused; only programs and localhost pages may use this server", origin), http.StatusForbidden)
			return
		}
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="loom"`)
			msg := "Unauthorized: send the workspace's token as \"Authorization: Bearer <token>\" (loom mcp prints it at start; it is kept in the workspace's " + TokenFile + " file)"
			if len(got) > 0 {
				msg = "Unauthorized: the bearer token is not this workspace's (loom mcp prints it at start; it is kept in the workspace's " + TokenFile + " file)"
			}
			http.Error(w, msg, http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// LocalOrigin reports whether a browser Origin is a page on this machine
// (localhost, 127.0.0.0/8 or ::1, any port).
func LocalOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return LoopbackHost(u.Hostname())
}

// LoopbackHost reports whether host (no port) names this machine's
// loopback interface.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// CheckLoopback refuses an address to listen on that is not a loopback
// one ("127.0.0.1:8765", "[::1]:0", "localhost:8765"): a server on every
// interface would let the network read the workspace.
func CheckLoopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not an address to listen on (give host:port, e.g. 127.0.0.1:8765): %v", addr, err)
	}
	if host == "" || !LoopbackHost(host) {
		return fmt.Errorf("%q is not a loopback address: loom mcp listens on this machine only (127.0.0.1, [::1] or localhost)", addr)
	}
	if port == "" {
		return fmt.Errorf("%q has no port (give one, or 0 for any free port)", addr)
	}
	return nil
}

// Token is the workspace's bearer token, made once and kept in
// dir/TokenFile (0600). When the folder cannot be written (a read-only
// file system) a token for this run alone is made, and kept reports
// false.
func Token(dir string) (token string, kept bool, err error) {
	path := filepath.Join(dir, TokenFile)
	if b, err := os.ReadFile(path); err == nil {
		if t := strings.TrimSpace(string(b)); len(t) >= 32 {
			if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
				_ = os.Chmod(path, 0o600) // others could read it: no longer
			}
			return t, true, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", false, fmt.Errorf("read the MCP token: %w", err)
	}
	t := "loom_" + rand.Text() + rand.Text()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return t, false, nil
	}
	if _, err := f.WriteString(t + "\n"); err != nil {
		f.Close()
		return t, false, nil
	}
	if err := f.Close(); err != nil {
		return t, false, nil
	}
	return t, true, nil
}
