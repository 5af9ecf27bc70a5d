//go:build !js

package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/watch"
	"github.com/loomwork/loom/graphdb"
)

// findings lists the doctor's findings of one part as "status: detail".
func findings(c *Checkup, part string) []string {
	var out []string
	for _, f := range c.Findings {
		if f.Part == part {
			out = append(out, f.Status+": "+f.Detail)
		}
	}
	return out
}

// The desktop app's list of watched folders (watched.json): the doctor
// reads it when there is one, names the file and its damage and counts
// what can still be read; folders that are gone are a note (a drive may
// come back). Repair writes the list again with what could be read.
func TestDoctorChecksTheWatchedFoldersAndRepairKeepsWhatCanBeRead(t *testing.T) {
	ctx := context.Background()
	dir, notes, _ := healthyWorkspace(t) // no list: no finding
	list := filepath.Join(dir, watch.ListFile)

	require.NoError(t, watch.WriteList(dir, []string{notes}))
	c, err := Doctor(ctx, dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"ok: watched.json names 1 folder, all there"}, findings(c, "watched folders"))

	gone := filepath.Join(t.TempDir(), "gone")
	file := filepath.Join(notes, "budget.md")
	require.NoError(t, os.WriteFile(list, []byte(`{"folders": ["`+notes+`", "`+gone+`", "`+file+`", "/home/ada/ha`), 0o644))
	c, err = Doctor(ctx, dir)
	require.NoError(t, err)
	got := findings(c, "watched folders")
	require.Len(t, got, 2, "%v", got)
	assert.True(t, strings.HasPrefix(got[0], "problem: "+list+" is cut short: it ends after "), got[0])
	assert.Contains(t, got[0], "; 3 folders can be read from it")
	assert.Equal(t, "note: 2 of the 3 watched folders cannot be watched: "+gone+" (no longer exists); "+file+
		" (a file, not a folder). The desktop app shows such a folder in error: Sync now watches it again once it is back, Stop watching drops it", got[1])
	for _, f := range c.Findings {
		if f.Part == "watched folders" && f.Status == StatusProblem {
			assert.Equal(t, "writes it again with the 3 folders that can be read (add any other again with Add folder…)", f.Repair)
		}
	}

	rep, err := Repair(ctx, dir, RepairOptions{})
	require.NoError(t, err)
	assert.False(t, rep.Salvaged)
	assert.Contains(t, strings.Join(rep.Actions, "\n"), "wrote watched.json again with the 3 folders that could be read from it ("+list+" is cut short")
	assert.Empty(t, problems(rep.After))
	assert.Len(t, findings(rep.After, "watched folders"), 1, "the gone folders are still said")
	folders, err := watch.ReadList(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{notes, gone, file}, folders)

	// A list that is no JSON at all: written again, empty.
	require.NoError(t, os.WriteFile(list, []byte("\x00\x00\x00"), 0o644))
	c, err = Doctor(ctx, dir)
	require.NoError(t, err)
	assert.Contains(t, findings(c, "watched folders")[0], "problem: "+list+" is damaged: invalid character")
	_, err = Repair(ctx, dir, RepairOptions{})
	require.NoError(t, err)
	folders, err = watch.ReadList(dir)
	require.NoError(t, err)
	assert.Empty(t, folders)

	if os.Geteuid() != 0 { // root reads anything
		require.NoError(t, os.Chmod(list, 0))
		c, err = Doctor(ctx, dir)
		require.NoError(t, err)
		assert.Contains(t, findings(c, "watched folders")[0], "problem: "+list+" cannot be read (")
		_, err = Repair(ctx, dir, RepairOptions{})
		require.NoError(t, err)
		_, err = watch.ReadList(dir)
		require.NoError(t, err)
	}
}

// A salvage keeps the list of watched folders (the same machine, the same
// folders), mended.
func TestASalvagedWorkspaceKeepsItsWatchedFolders(t *testing.T) {
	ctx := context.Background()
	dir, _ := largerWorkspace(t)
	folder := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, watch.ListFile), []byte(`{"folders": ["`+folder+`", "/half`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, GraphDir, graphdb.BoltFile), []byte("not a database"), 0o644))
	rep, err := Repair(ctx, dir, RepairOptions{Replace: true})
	require.NoError(t, err)
	require.True(t, rep.Salvaged)
	assert.Empty(t, problems(rep.After), "%v", rep.After.Findings)
	folders, err := watch.ReadList(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{folder}, folders)
}

// The workspace file (graph.json with the texts) carries the graph, not
// the list of watched folders: those are paths of the machine the
// workspace is on, and the file goes to other machines and to the web
// edition, which watches nothing. An import makes no list.
func TestTheWorkspaceFileLeavesTheWatchedFoldersOut(t *testing.T) {
	ctx := context.Background()
	dir, notes, st := healthyWorkspace(t)
	require.NoError(t, watch.WriteList(dir, []string{notes}))
	wb := openBolt(t, dir)
	g, err := wb.ExportGraph(ctx, true)
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	var b strings.Builder
	require.NoError(t, g.Encode(&b))
	assert.NotContains(t, b.String(), watch.ListFile)
	assert.NotContains(t, b.String(), `"folders"`)

	into := t.TempDir()
	wb = openBolt(t, into)
	require.NoError(t, wb.ImportGraph(ctx, g))
	got, err := wb.Stats(ctx)
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	assert.Equal(t, st.Documents, got.Documents)
	_, err = os.Stat(filepath.Join(into, watch.ListFile))
	assert.True(t, os.IsNotExist(err), "no list of watched folders comes with an import")
}
