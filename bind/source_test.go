package bind

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
)

// notesApp is a real App whose workspace ingested a copy of the fixture
// notes by path, and that folder.
func notesApp(t *testing.T) (*App, *fakeShell, string) {
	t.Helper()
	notes := filepath.Join(t.TempDir(), "my notes")
	require.NoError(t, os.CopyFS(notes, os.DirFS("../testdata/fixture/notes")))
	app, shell := realApp(t, "")
	_, err := app.IngestPaths([]string{notes})
	require.NoError(t, err)
	return app, shell, notes
}

func TestOpenSourceShowsTheCitedPassage(t *testing.T) {
	app, _, notes := notesApp(t)
	res, err := app.Query(backend.QueryRequest{Question: "How are concept nodes and content nodes linked?", Budget: 4096})
	require.NoError(t, err)
	loaded := res.LoadedCandidates()
	require.NotEmpty(t, loaded)
	c := loaded[0]
	require.NotEmpty(t, c.Cite)

	v, err := app.OpenSource(c.ID)
	require.NoError(t, err)
	assert.Equal(t, c.ID, v.Focus)
	assert.Equal(t, c.Cite, v.Cite, "the viewer names the passage as the citation did")
	assert.Equal(t, filepath.Join(notes, c.Document), v.Document.Key)
	var focus *backend.SourceSection
	for i := range v.Sections {
		if v.Sections[i].ID == c.ID {
			focus = &v.Sections[i]
		}
	}
	require.NotNil(t, focus, "the cited section is among the document's")
	assert.NotEmpty(t, focus.Text)
	assert.Equal(t, c.Cite, focus.Cite)

	_, err = app.OpenSource("n-0000000000000000")
	require.Error(t, err)
	assert.Equal(t, CodeNotFound, Payload(err).Code)
}

func TestOpenInSystemViewerHandsTheFileToTheSystem(t *testing.T) {
	app, shell, notes := notesApp(t)
	g, err := app.Graph()
	require.NoError(t, err)
	var id string
	for _, n := range g.Nodes {
		if n.Kind == "content" {
			if d, err := app.Node(n.ID); err == nil && d.Location != nil && d.Location.Path == "graphs.md" {
				id = n.ID
				break
			}
		}
	}
	require.NotEmpty(t, id)

	require.NoError(t, app.OpenInSystemViewer(id))
	require.Len(t, shell.opened, 1)
	u, err := url.Parse(shell.opened[0])
	require.NoError(t, err)
	assert.Equal(t, "file", u.Scheme)
	assert.Equal(t, filepath.Join(notes, "graphs.md"), filepath.FromSlash(u.Path), "the file, its folder's space escaped: %s", shell.opened[0])

	shell.failDialogs = errors.New("xdg-open: no method available for opening")
	err = app.OpenInSystemViewer(id)
	assert.Equal(t, CodeShellFailed, Payload(err).Code)
	shell.failDialogs = nil

	require.NoError(t, os.Remove(filepath.Join(notes, "graphs.md")))
	err = app.OpenInSystemViewer(id)
	assert.Equal(t, CodeNotFound, Payload(err).Code)
	assert.Contains(t, Payload(err).Message, "moved or deleted")

	err = app.OpenInSystemViewer("n-0000000000000000")
	assert.Equal(t, CodeNotFound, Payload(err).Code)

	app.web = true
	err = app.OpenInSystemViewer(id)
	assert.Equal(t, CodeInvalid, Payload(err).Code, "the web edition has no system viewer")
	assert.Len(t, shell.opened, 1, "nothing more was opened")
}

func TestFileURLs(t *testing.T) {
	tests := []struct {
		name string
		loc  backend.Location
		want string
	}{
		{"a note", backend.Location{Key: "/home/ada/notes/a.md", Format: "markdown", LineStart: 12}, "file:///home/ada/notes/a.md"},
		{"a PDF at its page", backend.Location{Key: "/home/ada/papers/flash.pdf", Format: "pdf", PageStart: 4, PageEnd: 5}, "file:///home/ada/papers/flash.pdf#page=4"},
		{"a PDF with no page known", backend.Location{Key: "/p.pdf", Format: "pdf"}, "file:///p.pdf"},
		{"spaces and a hash are escaped", backend.Location{Key: "/home/ada/my notes/#1.md", Format: "markdown"}, "file:///home/ada/my%20notes/%231.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, fileURL(&tt.loc))
		})
	}
}
