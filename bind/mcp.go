package bind

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/mcpserver"
)

// The desktop app serves its open workspace to MCP clients (Claude Code,
// editors, agents) while it is open, when the person turns it on: the
// same server as `loom mcp --http` (backend/mcpserver), on a loopback
// address, sharing this process's workbench — no second process to fight
// over the workspace's lock. The setting is the person's (settings.json
// in their config folder), not the workspace's; the server follows the
// workspace: it stops when the workspace closes (Try again, a check, a
// repair, quitting) and starts again on the one opened. The web edition
// cannot listen on a socket: MCPStatus says so and SetMCP refuses
// (mcp_js.go).

// MCPStatus is the MCP server as the settings panel shows it.
type MCPStatus struct {
	// Available is false in the web edition (Unavailable says why).
	Available   bool   `json:"available"`
	Unavailable string `json:"unavailable,omitempty"`
	// On is the person's setting; Serving whether the server listens now.
	On      bool `json:"on"`
	Serving bool `json:"serving"`
	// Problem says why it does not serve while on (the workspace did not
	// open, the address could not be listened on).
	Problem string `json:"problem,omitempty"`
	// URL is where clients connect (Streamable HTTP); Note says when it
	// is not the default address (the default port was taken).
	URL  string `json:"url,omitempty"`
	Note string `json:"note,omitempty"`
	// Token is the bearer token clients send; TokenFile where it is kept
	// ("" when the folder cannot be written: it lasts this run only).
	Token     string `json:"token,omitempty"`
	TokenFile string `json:"token_file,omitempty"`
	// ReadOnly: the workspace is open read-only, so is the server.
	ReadOnly bool `json:"read_only"`
	// Tools are the tools served.
	Tools []string `json:"tools,omitempty"`
	// HTTPConfig is the client entry to paste for this server (URL and
	// token); StdioCommand and StdioConfig the alternative, a client that
	// starts `loom mcp` itself (then the app must be closed, or that
	// server is read-only).
	HTTPConfig   string `json:"http_config,omitempty"`
	StdioCommand string `json:"stdio_command,omitempty"`
	StdioConfig  string `json:"stdio_config,omitempty"`
}

// settings are the person's settings of the desktop app, kept in
// settingsFile.
type settings struct {
	// MCP: serve the open workspace to MCP clients.
	MCP bool `json:"mcp"`
	// ModelServer is the model server the person chose (models.go; nil:
	// the environment's, else Ollama's defaults).
	ModelServer *modelServerSettings `json:"model_server,omitempty"`
	// MCPSessionTimeout closes a client's MCP session after this long
	// without a request, as a Go duration ("30m", "2h"; "0": never; empty:
	// mcpserver.DefaultSessionTimeout). Set by hand in the file.
	MCPSessionTimeout string `json:"mcp_session_timeout,omitempty"`
}

// sessionTimeout is the setting as mcpserver.Options takes it (0: the
// default, negative: never), and a sentence when the setting cannot be
// read (then the default holds).
func (s settings) sessionTimeout() (time.Duration, string) {
	v := strings.TrimSpace(s.MCPSessionTimeout)
	if v == "" {
		return 0, ""
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil || d < 0:
		return 0, fmt.Sprintf("mcp_session_timeout %q in %s is not a duration such as \"30m\" or \"2h\" (\"0\": never); sessions close after %s without a request", v, SettingsFile, mcpserver.DefaultSessionTimeout)
	case d == 0:
		return -1, ""
	}
	return d, ""
}

// SettingsFile is the file, in the person's config folder (os.UserConfigDir
// + "/loom"), that keeps the desktop app's settings.
const SettingsFile = "settings.json"

// userSettingsPath is where the settings are kept; bind's tests point it
// at a temporary folder.
var userSettingsPath = func() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "loom", SettingsFile), nil
}

// loadSettings reads the settings; a missing or unreadable file is the
// defaults (everything off), the latter logged.
func (a *App) loadSettings() settings {
	var s settings
	path, err := userSettingsPath()
	if err != nil {
		return s
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			a.shell.LogError(a.ctx, fmt.Sprintf("read the settings: %v", err))
		}
		return s
	}
	if err := json.Unmarshal(b, &s); err != nil {
		a.shell.LogError(a.ctx, fmt.Sprintf("read the settings %s: %v (using the defaults)", path, err))
		return settings{}
	}
	return s
}

// saveSettings writes the settings (through a temporary file, so a crash
// never leaves half of one).
func saveSettings(s settings) error {
	path, err := userSettingsPath()
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o700)
	}
	if err != nil {
		return &Error{Code: CodeUnavailable, Message: "Loom could not find a folder to keep its settings in.", Err: err}
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	tmp := path + ".tmp"
	if err = os.WriteFile(tmp, append(b, '\n'), 0o600); err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return &Error{Code: CodeUnavailable, Message: "Loom could not save the setting in " + path + ".", Err: err}
	}
	return nil
}
