package bind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama/wait"
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

// serverAt is App.newServer for a fake server at url: the model server
// configured, but there, its waits counted on the clock given (if any).
func serverAt(url string, w ...wait.Options) func(modelserver.Config, modelserver.Options) (modelserver.Server, error) {
	return func(c modelserver.Config, o modelserver.Options) (modelserver.Server, error) {
		c.URL = url
		if len(w) > 0 {
			o.Wait = w[0]
		}
		return backend.NewModelServer(c, o)
	}
}
