package bind

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/watch"
)

// watchedApp is a real App on a fresh workspace whose watchers settle
// after a short quiet period and never rescan on their own.
func watchedApp(t *testing.T, dir string) (*App, *fakeShell) {
	t.Helper()
	app, shell := realAppIn(t, dir, "", nil)
	app.watches.opts = watch.Options{Quiet: 20 * time.Millisecond, Rescan: -1}
	return app, shell
}

// folderStates are the watch:state events sent for path.
func folderStates(events []event, path string) []WatchedFolder {
	var out []WatchedFolder
	for _, e := range events {
		if e.name != EventWatchState {
			continue
		}
		if f, ok := e.data.(WatchedFolder); ok && f.Path == path {
			out = append(out, f)
		}
	}
	return out
}

// lastState is the last watch:state event sent for path, and how many were sent.
func lastState(shell *fakeShell, path string) (WatchedFolder, int) {
	shell.mu.Lock()
	defer shell.mu.Unlock()
	states := folderStates(shell.events, path)
	if len(states) == 0 {
		return WatchedFolder{}, 0
	}
	return states[len(states)-1], len(states)
}

func countState(events []event, path string, state FolderState) int {
	n := 0
	for _, f := range folderStates(events, path) {
		if f.State == state {
			n++
		}
	}
	return n
}

// sources are the files the library's documents come from, by base name.
func sources(t *testing.T, app *App) []string {
	t.Helper()
	docs, err := app.Documents()
	require.NoError(t, err)
	var out []string
	for _, d := range docs {
		out = append(out, filepath.Base(d.Source))
	}
	slices.Sort(out)
	return out
}

// waitLibrary waits, sync by sync, until the library's documents come from
// the files named: each check follows a synced (or failed) state of the
// folder, never a sleep.
func waitLibrary(t *testing.T, app *App, shell *fakeShell, path string, want ...string) {
	t.Helper()
	slices.Sort(want)
	for {
		shell.mu.Lock()
		n := countState(shell.events, path, FolderSynced) + countState(shell.events, path, FolderError)
		shell.mu.Unlock()
		if slices.Equal(sources(t, app), want) {
			return
		}
		shell.waitFor(t, "a sync of "+path, func(events []event) bool {
			return countState(events, path, FolderSynced)+countState(events, path, FolderError) > n
		})
		if t.Failed() {
			t.Fatalf("the library holds %v, want %v", sources(t, app), want)
		}
	}
}

func writeNote(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

func TestWatchFolderKeepsTheLibraryInStepThroughAddRenameDeleteAndReopen(t *testing.T) {
	wsDir := t.TempDir()
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches and how to bound it.\n")
	app, shell := watchedApp(t, wsDir)

	list, err := app.WatchedFolders()
	require.NoError(t, err)
	assert.Empty(t, list)

	st, err := app.WatchFolder(notes)
	require.NoError(t, err)
	assert.Equal(t, notes, st.Path)
	// The first sync ingests what is there.
	waitLibrary(t, app, shell, notes, "alpha.md")

	// A new file.
	writeNote(t, filepath.Join(notes, "beta.md"), "# Beta\n\nRetrieval and reranking of passages.\n")
	waitLibrary(t, app, shell, notes, "alpha.md", "beta.md")
	last, _ := lastState(shell, notes)
	assert.Equal(t, FolderSynced, last.State)
	assert.NotNil(t, last.LastSync)
	assert.Empty(t, shell.wrongEvents)

	// A rename, then a delete.
	require.NoError(t, os.Rename(filepath.Join(notes, "beta.md"), filepath.Join(notes, "gamma.md")))
	waitLibrary(t, app, shell, notes, "alpha.md", "gamma.md")
	require.NoError(t, os.Remove(filepath.Join(notes, "alpha.md")))
	waitLibrary(t, app, shell, notes, "gamma.md")

	list, err = app.WatchedFolders()
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, notes, list[0].Path)

	// Sync now answers with a sync.
	shell.mu.Lock()
	before := countState(shell.events, notes, FolderSynced)
	shell.mu.Unlock()
	require.NoError(t, app.SyncFolder(notes))
	shell.waitFor(t, "the sync asked for", func(events []event) bool { return countState(events, notes, FolderSynced) > before })

	// The list survives reopening the workspace, and the watch goes on.
	_, err = app.Reopen()
	require.NoError(t, err)
	list, err = app.WatchedFolders()
	require.NoError(t, err)
	require.Len(t, list, 1)
	writeNote(t, filepath.Join(notes, "delta.md"), "# Delta\n\nEmbeddings drift when the model changes.\n")
	waitLibrary(t, app, shell, notes, "delta.md", "gamma.md")

	// Stop watching: a last state, stopped; the list is empty and stays
	// so; the documents stay; nothing more syncs.
	require.NoError(t, app.UnwatchFolder(notes))
	last, sent := lastState(shell, notes)
	assert.Equal(t, FolderStopped, last.State)
	list, err = app.WatchedFolders()
	require.NoError(t, err)
	assert.Empty(t, list)
	assert.Equal(t, CodeNotFound, pageCode(t, app.SyncFolder(notes)))
	writeNote(t, filepath.Join(notes, "epsilon.md"), "# Epsilon\n\nNot watched any more.\n")
	other := filepath.Join(t.TempDir(), "zeta.md")
	writeNote(t, other, "# Zeta\n\nIngested by hand.\n")
	_, err = app.IngestPaths([]string{other})
	require.NoError(t, err)
	assert.Equal(t, []string{"delta.md", "gamma.md", "zeta.md"}, sources(t, app))
	shell.mu.Lock()
	assert.Len(t, folderStates(shell.events, notes), sent, "no state after stopped")
	shell.mu.Unlock()
}

// A watched folder's state says which files its last sync could not read
// and why, and what it read with a warning, each by its file: the page
// lists them under the folder (the count alone named none).
func TestAWatchedFolderSaysWhichFilesItCouldNotRead(t *testing.T) {
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches and how to bound it.\n")
	writeNote(t, filepath.Join(notes, "empty.md"), "")
	writeNote(t, filepath.Join(notes, "front.md"), "---\ntitle: [unclosed\n---\n# Front\n\nThe body of a note with broken front matter.\n")
	app, shell := watchedApp(t, t.TempDir())
	_, err := app.WatchFolder(notes)
	require.NoError(t, err)
	waitLibrary(t, app, shell, notes, "alpha.md", "front.md")
	last, _ := lastState(shell, notes)
	assert.Equal(t, FolderSynced, last.State)
	assert.Equal(t, 1, last.Errors)
	require.Len(t, last.Problems, 1, "%+v", last.Problems)
	assert.Equal(t, "empty.md", last.Problems[0].Path, "named within the folder")
	assert.Contains(t, last.Problems[0].Problem, "file is empty")
	require.Len(t, last.Warnings, 1, "%+v", last.Warnings)
	assert.Equal(t, "front.md", last.Warnings[0].Path)
	assert.Contains(t, last.Warnings[0].Problem, "front matter is not valid YAML")

	// Mended, the next sync says nothing more.
	writeNote(t, filepath.Join(notes, "empty.md"), "# Empty no more\n\nIt holds a sentence about retrieval now.\n")
	writeNote(t, filepath.Join(notes, "front.md"), "---\ntitle: Front\n---\n# Front\n\nThe body of a note with its front matter mended.\n")
	waitLibrary(t, app, shell, notes, "alpha.md", "empty.md", "front.md")
	for {
		var n int
		if last, n = lastState(shell, notes); last.State == FolderSynced && last.Errors == 0 && len(last.Warnings) == 0 {
			break
		}
		shell.waitFor(t, "a sync that reads the mended files", func(events []event) bool { return len(folderStates(events, notes)) > n })
		if t.Failed() {
			t.Fatalf("last state %+v", last)
		}
	}
	assert.Empty(t, last.Problems)
}

// A sync says how far it is while it runs: the files read of those to
// read and the one being read, named within the folder; the synced state
// carries none of it.
func TestAWatchedFoldersSyncShowsItsProgress(t *testing.T) {
	notes := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(notes, "sub"), 0o755))
	for _, n := range []string{"alpha", "beta", "gamma"} {
		writeNote(t, filepath.Join(notes, "sub", n+".md"), "# "+n+"\n\nA note about "+n+" and retrieval.\n")
	}
	app, shell := watchedApp(t, t.TempDir())
	_, err := app.WatchFolder(notes)
	require.NoError(t, err)
	waitLibrary(t, app, shell, notes, "alpha.md", "beta.md", "gamma.md")
	shell.mu.Lock()
	states := folderStates(shell.events, notes)
	shell.mu.Unlock()
	var progress []WatchedFolder
	synced := -1
	for i, f := range states {
		if f.FilesTotal > 0 {
			require.Equal(t, FolderSyncing, f.State, "progress is shown while syncing")
			progress = append(progress, f)
		}
		if f.State == FolderSynced && synced < 0 {
			synced = i
			assert.Zero(t, f.FilesTotal, "the synced state carries no progress")
			assert.Empty(t, f.Current)
		}
	}
	require.NotEmpty(t, progress, "%+v", states)
	require.Positive(t, synced)
	assert.Equal(t, 3, progress[0].FilesTotal)
	var current []string
	for _, f := range progress {
		assert.LessOrEqual(t, f.FilesDone, f.FilesTotal)
		if f.Current != "" {
			current = append(current, f.Current)
		}
	}
	require.NotEmpty(t, current)
	assert.Contains(t, []string{filepath.Join("sub", "alpha.md"), filepath.Join("sub", "beta.md"), filepath.Join("sub", "gamma.md")}, current[0], "named within the folder")
}

func TestWatchedFoldersSurviveANewApp(t *testing.T) {
	wsDir := t.TempDir()
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches.\n")
	app, shell := watchedApp(t, wsDir)
	_, err := app.WatchFolder(notes)
	require.NoError(t, err)
	waitLibrary(t, app, shell, notes, "alpha.md")
	app.Shutdown(context.Background())

	// A file written while Loom was closed comes in with the first sync.
	writeNote(t, filepath.Join(notes, "beta.md"), "# Beta\n\nWritten while Loom was closed.\n")
	again, shell2 := realAppIn(t, wsDir, "", nil)
	list, err := again.WatchedFolders()
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, notes, list[0].Path)
	waitLibrary(t, again, shell2, notes, "alpha.md", "beta.md")
}

func TestWatchFolderRefusesWhatItCannotWatch(t *testing.T) {
	app, _ := watchedApp(t, t.TempDir())
	_, err := app.WatchFolder(filepath.Join(t.TempDir(), "missing"))
	assert.Equal(t, CodeNotFound, pageCode(t, err))
	file := filepath.Join(t.TempDir(), "a.md")
	writeNote(t, file, "# A\n")
	_, err = app.WatchFolder(file)
	assert.Equal(t, CodeInvalid, pageCode(t, err))
	assert.Equal(t, CodeNotFound, pageCode(t, app.UnwatchFolder(t.TempDir())))

	web := NewWebApp(&fakeShell{}, WebConfig{})
	_, err = web.WatchFolder(t.TempDir())
	assert.Equal(t, CodeInvalid, pageCode(t, err))
	list, err := web.WatchedFolders()
	require.NoError(t, err)
	assert.Empty(t, list)
}

// Beside another Loom process the workspace is read-only: its watched
// folders are listed, in error, and not synced; no folder can be added.
func TestWatchedFoldersWaitWhileTheWorkspaceIsReadOnly(t *testing.T) {
	wsDir := t.TempDir()
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches.\n")
	holdWorkspace(t, wsDir, filepath.Join(notes, "alpha.md"))
	require.NoError(t, watch.WriteList(wsDir, []string{notes}))

	app, _ := watchedApp(t, wsDir)
	list, err := app.WatchedFolders()
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, FolderError, list[0].State)
	assert.Contains(t, list[0].Error, "read-only")
	assert.Equal(t, CodeReadOnly, pageCode(t, app.SyncFolder(notes)))
	_, err = app.WatchFolder(t.TempDir())
	assert.Equal(t, CodeReadOnly, pageCode(t, err))
}

// A folder watched through a symbolic link (~/notes → /data/notes): when
// the link goes, its documents go with the next sync, at once, not at the
// periodic rescan (which is off here); the link put back brings them back.
func TestAFolderWatchedThroughALinkIsPrunedWhenTheLinkGoes(t *testing.T) {
	base := t.TempDir()
	target, link := filepath.Join(base, "data", "notes"), filepath.Join(base, "notes")
	require.NoError(t, os.MkdirAll(target, 0o755))
	writeNote(t, filepath.Join(target, "alpha.md"), "# Alpha\n\nStaleness of caches and how to bound it.\n")
	require.NoError(t, os.Symlink(target, link))
	app, shell := watchedApp(t, t.TempDir())
	_, err := app.WatchFolder(link)
	require.NoError(t, err)
	waitLibrary(t, app, shell, link, "alpha.md")

	require.NoError(t, os.Remove(link))
	waitLibrary(t, app, shell, link)
	last, _ := lastState(shell, link)
	assert.Equal(t, 1, last.Removed, "%+v", last)

	require.NoError(t, os.Symlink(target, link))
	waitLibrary(t, app, shell, link, "alpha.md")
}

// A damaged list of watched folders: the app watches the folders it can
// still read from it and logs the damage; Check workspace names it and
// Repair writes it again whole.
func TestADamagedListOfWatchedFoldersKeepsWhatCanBeRead(t *testing.T) {
	wsDir := t.TempDir()
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches.\n")
	require.NoError(t, os.WriteFile(filepath.Join(wsDir, watch.ListFile), []byte(`{"folders": ["`+notes+`", "/home/ada/pap`), 0o644))
	app, shell := watchedApp(t, wsDir)
	list, err := app.WatchedFolders()
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, notes, list[0].Path)
	waitLibrary(t, app, shell, notes, "alpha.md")
	shell.mu.Lock()
	logged := strings.Join(shell.errors, "\n")
	shell.mu.Unlock()
	assert.Contains(t, logged, "watched folders: "+filepath.Join(wsDir, watch.ListFile)+" is cut short")

	c, err := app.CheckWorkspace()
	require.NoError(t, err)
	var parts []string
	for _, f := range c.Findings {
		if f.Part == "watched folders" {
			parts = append(parts, f.Status)
		}
	}
	assert.Equal(t, []string{"problem"}, parts)
	_, err = app.RepairWorkspace()
	require.NoError(t, err)
	folders, err := watch.ReadList(wsDir)
	require.NoError(t, err)
	assert.Equal(t, []string{notes}, folders)
}

// The workspace file carries the graph, not the watched folders (paths of
// this machine): an import into another workspace watches nothing.
func TestExportAndImportLeaveTheWatchedFoldersBehind(t *testing.T) {
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches.\n")
	app, shell := watchedApp(t, t.TempDir())
	_, err := app.WatchFolder(notes)
	require.NoError(t, err)
	waitLibrary(t, app, shell, notes, "alpha.md")
	text, err := app.ExportWorkspace()
	require.NoError(t, err)
	assert.NotContains(t, text, watch.ListFile)

	into := t.TempDir()
	other, _ := watchedApp(t, into)
	st, err := other.ImportWorkspace(text)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Documents)
	list, err := other.WatchedFolders()
	require.NoError(t, err)
	assert.Empty(t, list)
	_, err = os.Stat(filepath.Join(into, watch.ListFile))
	assert.True(t, os.IsNotExist(err))
}

// A folder dropped on the window (or picked) is ingested like any path,
// and the result offers to watch it: Watchable names the folders among the
// paths that are not watched yet. Watching it is then WatchFolder, as Add
// folder… does; once watched it is offered no more.
func TestDroppedFoldersAreOfferedForWatching(t *testing.T) {
	notes, papers := t.TempDir(), t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches.\n")
	writeNote(t, filepath.Join(papers, "beta.md"), "# Beta\n\nRetrieval of passages.\n")
	loose := filepath.Join(t.TempDir(), "gamma.md")
	writeNote(t, loose, "# Gamma\n\nA file dropped on its own.\n")
	app, shell := watchedApp(t, t.TempDir())

	res, err := app.IngestPaths([]string{notes, loose, papers, notes})
	require.NoError(t, err)
	assert.Equal(t, 3, res.Added)
	assert.Equal(t, []string{notes, papers}, res.Watchable, "the folders, once each; not the file")

	_, err = app.WatchFolder(res.Watchable[0])
	require.NoError(t, err)
	waitLibrary(t, app, shell, notes, "alpha.md", "beta.md", "gamma.md")
	res, err = app.IngestPaths([]string{notes, papers})
	require.NoError(t, err)
	assert.Equal(t, []string{papers}, res.Watchable, "a watched folder is offered no more")

	uploaded, err := app.IngestUploads([]backend.Upload{{Name: "notes/delta.md", Text: "# Delta\n\nUploaded.\n"}})
	require.NoError(t, err)
	assert.Empty(t, uploaded.Watchable, "uploads have no folder on this machine")
	b, err := json.Marshal(uploaded)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"watchable"`)
}

// Beside another Loom process the workspace is read-only: nothing is
// ingested, and no folder offered.
func TestNoFolderIsOfferedForWatchingOnAReadOnlyWorkspace(t *testing.T) {
	wsDir := t.TempDir()
	notes := t.TempDir()
	writeNote(t, filepath.Join(notes, "alpha.md"), "# Alpha\n\nStaleness of caches.\n")
	holdWorkspace(t, wsDir, filepath.Join(notes, "alpha.md"))
	app, _ := watchedApp(t, wsDir)
	assert.Empty(t, app.watchable([]string{notes}))
	web := NewWebApp(&fakeShell{}, WebConfig{})
	assert.Empty(t, web.watchable([]string{notes}))
}
