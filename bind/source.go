package bind

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/loomwork/loom/backend"
)

// The source viewer: a citation in an answer, a candidate or a node's
// details opens the document it names. OpenSource gives the page the
// document to show (both editions); OpenInSystemViewer hands the file to
// the system's viewer (the desktop app only).

// OpenSource returns the document a node comes from, its sections in order
// with their texts and the section to show first and highlight (for a
// summary, the section it condenses). An unknown id is not_found; a
// section whose stored text is missing is marked unavailable.
func (a *App) OpenSource(nodeID string) (*backend.SourceView, error) {
	var v *backend.SourceView
	err := a.use(func(ws workspace) (err error) {
		v, err = ws.Source(a.ctx, nodeID)
		return err
	})
	return v, err
}

// OpenInSystemViewer opens the file a node comes from in the system's
// viewer for it, a PDF at the node's first page (file://<path>#page=N).
// The web edition has no system viewer: the page shows the source itself.
func (a *App) OpenInSystemViewer(nodeID string) error {
	if a.web {
		return &Error{Code: CodeInvalid, Message: "The web edition opens sources in the page: it cannot reach the files on this computer."}
	}
	var loc *backend.Location
	if err := a.use(func(ws workspace) (err error) {
		loc, err = ws.Locate(a.ctx, nodeID)
		return err
	}); err != nil {
		return err
	}
	if !filepath.IsAbs(loc.Key) {
		return &Error{Code: CodeInvalid, Message: "This is kept inside the workspace (" + loc.Path + "): there is no file to open. Loom's viewer shows it."}
	}
	if _, err := os.Stat(loc.Key); err != nil {
		msg := loc.Key + " could not be read, so there is nothing to open."
		if errors.Is(err, os.ErrNotExist) {
			msg = loc.Key + " is no longer there: it was moved or deleted after it was ingested. Loom's viewer still shows what was ingested."
		}
		return &Error{Code: CodeNotFound, Message: msg, Err: err}
	}
	if err := a.shell.OpenURL(a.ctx, fileURL(loc)); err != nil {
		return &Error{Code: CodeShellFailed, Message: "The system could not open " + loc.Key + ".", Err: err}
	}
	return nil
}

// fileURL is the URL of a location's file, with the page a PDF viewer
// opens at (viewers that do not read the fragment open the first page).
func fileURL(loc *backend.Location) string {
	p := filepath.ToSlash(loc.Key)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/notes/a.md
	}
	u := url.URL{Scheme: "file", Path: p}
	if loc.Format == "pdf" && loc.PageStart > 0 {
		u.Fragment = "page=" + strconv.Itoa(loc.PageStart)
	}
	return u.String()
}
