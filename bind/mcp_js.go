//go:build js

package bind

// The web edition runs in a browser tab, which cannot listen on a socket:
// no MCP server there.

const mcpDesktopOnly = "Serving MCP is for the desktop app: a browser tab cannot listen for clients. Run `loom mcp --workspace DIR` on a workspace folder instead."

type mcpRun struct{}

// MCPStatus says the web edition cannot serve MCP.
func (a *App) MCPStatus() (*MCPStatus, error) {
	return &MCPStatus{Unavailable: mcpDesktopOnly}, nil
}

// SetMCP refuses: the web edition cannot serve MCP.
func (a *App) SetMCP(on bool) (*MCPStatus, error) {
	return nil, &Error{Code: CodeUnavailable, Message: mcpDesktopOnly}
}

func (a *App) mcpSetting() {}
func (a *App) mcpOpened()  {}
func (a *App) mcpClosing() {}
