package bind

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain keeps the tests away from the person's own settings (an MCP
// server turned on in their desktop app would start in every test).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "loom-bind-settings-")
	if err != nil {
		panic(err)
	}
	userSettingsPath = func() (string, error) { return filepath.Join(dir, "loom", SettingsFile), nil }
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
