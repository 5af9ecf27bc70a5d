package bind

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/graphdb"
)

// holdWorkspace opens the workspace in dir for writing, as another Loom
// process would (a bolt store's lock is per open file, so a second open
// in this process finds it held); with docs, it ingests them first and
// opens again, so that the workspace has a saved index a reader can use.
func holdWorkspace(t *testing.T, dir string, docs ...string) *backend.Workbench {
	t.Helper()
	ctx := context.Background()
	w, err := backend.Open(ctx, dir, testOptions()...)
	require.NoError(t, err)
	if len(docs) > 0 {
		_, err = w.Ingest(ctx, docs, backend.IngestOptions{})
		require.NoError(t, err)
		require.NoError(t, w.Close())
		w, err = backend.Open(ctx, dir, testOptions()...)
		require.NoError(t, err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// pageCode is the code the page receives for err, which must be a failure
// with a message.
func pageCode(t *testing.T, err error) ErrorCode {
	t.Helper()
	require.Error(t, err)
	p := Payload(err)
	assert.NotEmpty(t, p.Message)
	return p.Code
}

// Beside another Loom process the app opens read-only: it says why, reads
// what that process saved, refuses every write with its own code (the page
// disables them; this is for one that gets through), and Reopen makes it
// writable once the other process has let go.
func TestTheAppOpensReadOnlyBesideAnotherLoomAndTryAgainMakesItWritable(t *testing.T) {
	dir := t.TempDir()
	holder := holdWorkspace(t, dir, "../testdata/fixture/notes")
	app, shell := realAppIn(t, dir, fakeOllama(t, ollamaHooks{}), nil)

	st, err := app.Workspace()
	require.NoError(t, err)
	assert.Equal(t, dir, st.Dir)
	require.NotNil(t, st.ReadOnly, "read-only beside a writer")
	assert.True(t, st.ReadOnly.InUse)
	assert.Contains(t, st.ReadOnly.Reason, "another Loom process")
	assert.Equal(t, "Read-only: another Loom process is using this workspace", st.ReadOnly.Title)
	assert.Contains(t, st.ReadOnly.Message, "questions work; nothing you add or change here is saved")
	assert.Contains(t, st.ReadOnly.Message, "Try again")
	assert.Equal(t, 3, st.Stats.Documents, "the documents the other process saved")
	assert.Contains(t, shell.infos[len(shell.infos)-1], "read-only")

	docs, err := app.Documents()
	require.NoError(t, err)
	require.Len(t, docs, 3)
	view, err := app.Query(backend.QueryRequest{Question: "How does staleness decay over time?", Budget: 600})
	require.NoError(t, err, "questions work read-only")
	assert.Positive(t, view.Loaded)

	writes := map[string]func() error{
		"ingest paths": func() error { _, err := app.IngestPaths([]string{"../testdata/fixture/notes"}); return err },
		"ingest uploads": func() error {
			_, err := app.IngestUploads([]backend.Upload{{Name: "a.md", Text: "# A\n\nText.\n"}})
			return err
		},
		"sample library": func() error { _, err := app.IngestSample(); return err },
		"re-ingest":      func() error { _, err := app.ReingestDocument(docs[0].ID); return err },
		"remove":         func() error { return app.RemoveDocument(docs[0].ID) },
		"pin":            func() error { return app.Pin([]string{docs[0].ID}, true) },
		"import":         func() error { _, err := app.ImportWorkspace(`{"version":1}`); return err },
		"chat": func() error {
			_, err := app.Chat(ChatArgs{Question: "How does staleness decay?", Model: "llama3.2", Window: 4096}, "ro")
			return err
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			err := write()
			assert.Equal(t, CodeReadOnly, pageCode(t, err), "%v", err)
			assert.ErrorIs(t, err, backend.ErrReadOnly)
		})
	}

	st, err = app.Reopen()
	require.NoError(t, err)
	require.NotNil(t, st.ReadOnly, "still read-only while the other process holds it")

	require.NoError(t, holder.Close())
	st, err = app.Reopen()
	require.NoError(t, err)
	assert.Nil(t, st.ReadOnly, "writable once the other process let go")
	require.NoError(t, app.Pin([]string{docs[0].ID}, true))
	_, err = app.IngestUploads([]backend.Upload{{Name: "a.md", Text: "# A\n\nStaleness is one signal.\n"}})
	require.NoError(t, err)
	st, err = app.Workspace()
	require.NoError(t, err)
	assert.Equal(t, 4, st.Stats.Documents)
}

// Another process on a workspace it never saved an index of: nothing can
// be read meanwhile, and the page is told so with its own code, until Try
// again finds the workspace free.
func TestAHeldWorkspaceWithNothingToReadIsBusyUntilTryAgain(t *testing.T) {
	dir := t.TempDir()
	holder := holdWorkspace(t, dir)
	app, _ := realAppIn(t, dir, "", nil)

	_, err := app.Workspace()
	assert.Equal(t, CodeInUse, pageCode(t, err))
	assert.ErrorIs(t, err, backend.ErrInUse)
	_, err = app.Documents()
	assert.Equal(t, CodeInUse, pageCode(t, err), "every call says so")

	require.NoError(t, holder.Close())
	st, err := app.Reopen()
	require.NoError(t, err)
	assert.Nil(t, st.ReadOnly)
	_, err = app.Documents()
	require.NoError(t, err)
}

// damageGraph ingests the fixture notes into a workspace in a new folder,
// closes it and overwrites its graph store with garbage.
func damageGraph(t *testing.T) (dir string, documents int) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "ws")
	w := holdWorkspace(t, dir, "../testdata/fixture/notes")
	st, err := w.Stats(context.Background())
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, backend.GraphDir, graphdb.BoltFile), []byte("not a database at all, sorry"), 0o644))
	return dir, st.Documents
}

// A damaged graph store: the page is told which file and what is wrong
// (workspace_damaged), the doctor says what can be read, and Repair
// salvages it into the same folder, keeps the damaged one beside it and
// opens the result.
func TestADamagedWorkspaceIsNamedCheckedAndRepaired(t *testing.T) {
	dir, documents := damageGraph(t)
	app, _ := realAppIn(t, dir, "", nil)
	graphFile := filepath.Join(dir, backend.GraphDir, graphdb.BoltFile)

	_, err := app.Workspace()
	assert.Equal(t, CodeDamaged, pageCode(t, err))
	damage := Payload(err).Damage
	require.NotNil(t, damage)
	assert.Contains(t, damage.File, filepath.Join(dir, backend.GraphDir))
	assert.NotEmpty(t, damage.Problem)
	payload, err := json.Marshal(FormatError(err))
	require.NoError(t, err)
	assert.Contains(t, string(payload), `"code":"damaged"`)
	assert.Contains(t, string(payload), `"damage":{"file":`)
	garbage, err := os.ReadFile(graphFile)
	require.NoError(t, err)

	c, err := app.CheckWorkspace()
	require.NoError(t, err)
	assert.Equal(t, "damaged", c.Store)
	assert.Positive(t, c.Problems())
	var store backend.Finding
	for _, f := range c.Findings {
		if f.Part == "graph store" {
			store = f
		}
	}
	assert.Equal(t, backend.StatusProblem, store.Status)
	assert.NotEmpty(t, store.Repair, "what repair would do")
	after, err := os.ReadFile(graphFile)
	require.NoError(t, err)
	assert.Equal(t, garbage, after, "the check wrote nothing")

	rep, err := app.RepairWorkspace()
	require.NoError(t, err)
	assert.True(t, rep.Salvaged)
	assert.Equal(t, dir, rep.Workspace, "the salvaged workspace took the folder's place")
	assert.Equal(t, dir+".damaged-1", rep.DamagedCopy)
	assert.FileExists(t, filepath.Join(rep.DamagedCopy, backend.GraphDir, graphdb.BoltFile), "the damaged one is kept")
	assert.NotEmpty(t, rep.Actions)
	require.NotNil(t, rep.After)
	assert.Zero(t, rep.After.Problems(), "%+v", rep.After.Findings)

	st, err := app.Workspace()
	require.NoError(t, err, "the repaired workspace is open")
	assert.Equal(t, documents, st.Stats.Documents)
	assert.Nil(t, st.ReadOnly)
	_, err = app.IngestUploads([]backend.Upload{{Name: "a.md", Text: "# A\n\nStaleness is one signal.\n"}})
	require.NoError(t, err, "and writable")
}

// Check workspace on a workspace the app has open for writing checks the
// store itself (not "in use by another process": that process would be
// this one) and leaves the app as it was. A text gone missing shows in a
// question's warnings and its candidate's reason, in the checkup's lost
// texts, and Repair reads it back from its file.
func TestCheckAndRepairAnOpenWorkspaceWithALostText(t *testing.T) {
	app, _ := realApp(t, "")
	_, err := app.IngestPaths([]string{"../testdata/fixture/notes"})
	require.NoError(t, err)

	c, err := app.CheckWorkspace()
	require.NoError(t, err)
	assert.Equal(t, "ok", c.Store, "%+v", c.Findings)
	assert.Zero(t, c.Problems(), "%+v", c.Findings)
	st, err := app.Workspace()
	require.NoError(t, err, "open again after the check")
	assert.Nil(t, st.ReadOnly)

	// Every stored text goes: whatever the question loads is missing.
	content := filepath.Join(st.Stats.Workspace, "content")
	require.NoError(t, os.RemoveAll(content))
	require.NoError(t, os.Mkdir(content, 0o755))
	q := backend.QueryRequest{Question: "How does staleness decay over time?", Budget: 2000, NoTouch: true}
	view, err := app.Query(q)
	require.NoError(t, err, "the question is answered without them")
	require.NotEmpty(t, view.Warnings)
	unavailable := 0
	for _, cand := range view.Candidates {
		if cand.Unavailable != "" {
			unavailable++
			assert.Contains(t, cand.Reason, "not loaded")
			assert.False(t, cand.Loaded)
		}
	}
	assert.Equal(t, len(view.Warnings), unavailable, "a warning per node left out")
	wire, err := json.Marshal(view)
	require.NoError(t, err)
	assert.Contains(t, string(wire), `"warnings":[`)
	assert.Contains(t, string(wire), `"unavailable":"`)

	c, err = app.CheckWorkspace()
	require.NoError(t, err)
	assert.NotEmpty(t, c.LostTexts)
	for _, lt := range c.LostTexts {
		assert.NotEmpty(t, lt.Source, "the fixture files still hold the texts: %+v", lt)
	}

	rep, err := app.RepairWorkspace()
	require.NoError(t, err)
	assert.False(t, rep.Salvaged, "mended in place")
	assert.Empty(t, rep.DamagedCopy)
	assert.Empty(t, rep.Lost)
	view, err = app.Query(q)
	require.NoError(t, err)
	assert.Empty(t, view.Warnings, "the texts are back")
	assert.Positive(t, view.Loaded)
}

// A repair cannot write a workspace another process holds: it says so
// instead of failing somewhere inside.
func TestRepairRefusesAWorkspaceAnotherLoomHolds(t *testing.T) {
	dir := t.TempDir()
	holdWorkspace(t, dir, "../testdata/fixture/notes")
	app, _ := realAppIn(t, dir, "", nil)
	_, err := app.RepairWorkspace()
	assert.Equal(t, CodeInUse, pageCode(t, err))
	st, err := app.Workspace()
	require.NoError(t, err, "still open read-only")
	assert.NotNil(t, st.ReadOnly)
}

// Closing the workspace under an ingest or an answer being written would
// wait for it — minutes, for an answer waiting on Ollama — with every other
// call waiting behind: Try again, Check workspace and Repair refuse instead.
func TestWorkspaceChangesWaitForNoRunningJob(t *testing.T) {
	app, _ := realApp(t, "")
	for name, set := range map[string]func(on bool){
		"an ingest": func(on bool) {
			app.jobs.mu.Lock()
			defer app.jobs.mu.Unlock()
			app.jobs.ingest = nil
			if on {
				app.jobs.ingest = func() {}
			}
		},
		"an answer": func(on bool) {
			app.jobs.mu.Lock()
			defer app.jobs.mu.Unlock()
			app.jobs.chats = map[string]context.CancelFunc{}
			if on {
				app.jobs.chats["s"] = func() {}
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			set(true)
			_, err := app.CheckWorkspace()
			assert.Equal(t, CodeBusy, pageCode(t, err))
			assert.Contains(t, err.Error(), "finish")
			_, err = app.RepairWorkspace()
			assert.Equal(t, CodeBusy, pageCode(t, err))
			_, err = app.Reopen()
			assert.Equal(t, CodeBusy, pageCode(t, err))
			set(false)
			_, err = app.CheckWorkspace()
			require.NoError(t, err)
		})
	}
}
