//go:build js && wasm

package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/synthetic"
	"github.com/loomwork/loom/backend/sample"
	"github.com/loomwork/loom/bind"
)

// The page's calls reach the App through dispatch, as they reach it through
// Wails on the desktop: JSON arguments in, JSON results or an ErrorPayload out.
func TestDispatchCallsTheBindingLayer(t *testing.T) {
	a := bind.NewWebApp(webShell{}, bind.WebConfig{Dir: t.TempDir(), Offline: func() (embed.Embedder, error) { return synthetic.New(), nil }})
	a.Startup(context.Background())
	defer a.Shutdown(context.Background())

	uploads, _ := json.Marshal([]any{[]backend.Upload{{Name: "staleness.md", Text: "# Staleness\n\nStaleness decays exponentially with a half-life.\n"}}})
	out, err := dispatch(a, "IngestUploads", string(uploads))
	require.NoError(t, err)
	var rep struct {
		Added int `json:"added"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 1, rep.Added)

	out, err = dispatch(a, "Query", `[{"question":"How does staleness decay?","budget":300}]`)
	require.NoError(t, err)
	assert.Contains(t, out, `"manifest":"[Context loaded: `)

	out, err = dispatch(a, "Documents", `[]`)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "[{"), out)

	for _, tc := range []struct{ method, args, want string }{
		{"NoSuchThing", `[]`, "no operation NoSuchThing"},
		{"Query", `[]`, "takes 1 arguments"},
		{"Query", `["x"]`, "Argument 1 of Query"},
		{"Query", `not json`, "not a JSON array"},
		{"Query", `[{"question":"","budget":300}]`, "empty"},
	} {
		_, err := dispatch(a, tc.method, tc.args)
		p := bind.Payload(err)
		assert.Equal(t, bind.CodeInvalid, p.Code, "%s %s: %v", tc.method, tc.args, err)
		assert.Contains(t, p.Message, tc.want)
	}
}

// A PDF from the page comes as base64 bytes in the upload's data (as
// upload.ts writes it) and is stored as it was, in its folder.
func TestDispatchCarriesUploadedBytes(t *testing.T) {
	dir := t.TempDir()
	a := bind.NewWebApp(webShell{}, bind.WebConfig{Dir: dir, Offline: func() (embed.Embedder, error) { return synthetic.New(), nil }})
	a.Startup(context.Background())
	defer a.Shutdown(context.Background())

	paper := "%PDF-1.5\n%\xe2\xe3\xcf\xd3\n"
	args := `[[{"name":"papers/paper.pdf","text":"","data":"` + base64.StdEncoding.EncodeToString([]byte(paper)) + `"},` +
		`{"name":"notes/bytes.md","text":"","data":"` + base64.StdEncoding.EncodeToString([]byte("# Bytes\n\nA note sent as bytes.\n")) + `"}]]`
	out, err := dispatch(a, "IngestUploads", args)
	require.NoError(t, err)
	assert.Contains(t, out, `"added":1`)
	stored, err := os.ReadFile(filepath.Join(dir, "uploads", "papers", "paper.pdf"))
	require.NoError(t, err)
	assert.Equal(t, paper, string(stored))
}

// The web edition's "Try a sample library" reaches the engine like any call:
// the notes come back as documents of the sample collection.
func TestDispatchIngestsTheSampleLibrary(t *testing.T) {
	a := bind.NewWebApp(webShell{}, bind.WebConfig{Dir: t.TempDir(), Offline: func() (embed.Embedder, error) { return synthetic.New(), nil }})
	a.Startup(context.Background())
	defer a.Shutdown(context.Background())

	out, err := dispatch(a, "IngestSample", `[]`)
	require.NoError(t, err)
	var rep struct {
		Added  int   `json:"added"`
		Errors []any `json:"errors"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, len(sample.Files())+1+5, rep.Added, "the notes, the paper and the 5 entries of its bibliography")
	assert.Empty(t, rep.Errors)

	out, err = dispatch(a, "Collections", `[]`)
	require.NoError(t, err)
	assert.Contains(t, out, `"name":"sample"`)
}

// The web edition's damaged workspace: its graph snapshot fails to open
// as the engine's damaged error, which the page gets with the file; Check workspace and Repair work here as on the desktop (the
// repaired workspace takes the folder's place, the damaged one is kept
// beside it) and the workspace opens again.
func TestDispatchChecksAndRepairsADamagedWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "workspace")
	cfg := bind.WebConfig{Dir: dir, Offline: func() (embed.Embedder, error) { return synthetic.New(), nil }}
	a := bind.NewWebApp(webShell{}, cfg)
	a.Startup(context.Background())
	_, err := dispatch(a, "IngestSample", `[]`)
	require.NoError(t, err)
	a.Shutdown(context.Background())
	snapshot := filepath.Join(dir, backend.SnapshotFile)
	require.NoError(t, os.WriteFile(snapshot, []byte(`{"version":1,"documents":[{"id":`), 0o644))

	a = bind.NewWebApp(webShell{}, cfg)
	a.Startup(context.Background())
	defer a.Shutdown(context.Background())
	_, err = dispatch(a, "Workspace", `[]`)
	require.Error(t, err)
	payload, _ := json.Marshal(bind.Payload(err))
	assert.Contains(t, string(payload), `"code":"damaged"`)
	assert.Contains(t, string(payload), `"file":"`+snapshot+`"`)

	out, err := dispatch(a, "CheckWorkspace", `[]`)
	require.NoError(t, err)
	assert.Contains(t, out, `"store":"damaged"`)

	out, err = dispatch(a, "RepairWorkspace", `[]`)
	require.NoError(t, err)
	var rep backend.RepairReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.True(t, rep.Salvaged)
	assert.Equal(t, dir+".damaged-1", rep.DamagedCopy)

	out, err = dispatch(a, "Workspace", `[]`)
	require.NoError(t, err)
	var st bind.WorkspaceState
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.Equal(t, len(sample.Files())+1+5, st.Stats.Documents, "every document of the sample came through the repair")
}
