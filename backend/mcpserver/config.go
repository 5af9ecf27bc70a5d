package mcpserver

import "encoding/json"

// DefaultPort is the port the desktop app serves on when it is free
// (http://127.0.0.1:7337/mcp); taken, it falls back to a free one.
const DefaultPort = 7337

// StdioConfig is the mcpServers entry a client starts the server of the
// workspace in dir with: command is the loom program ("loom" when it is
// on the PATH, or its full path).
func StdioConfig(command, dir string) string {
	return indentJSON(map[string]any{"mcpServers": map[string]any{"loom": map[string]any{
		"command": command, "args": []string{"mcp", "--workspace", dir}}}})
}

// HTTPConfig is the mcpServers entry of a client that connects over
// Streamable HTTP to url with the workspace's bearer token.
func HTTPConfig(url, token string) string {
	return indentJSON(map[string]any{"mcpServers": map[string]any{"loom": map[string]any{
		"type": "http", "url": url, "headers": map[string]string{"Authorization": "Bearer " + token}}}})
}

func indentJSON(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
