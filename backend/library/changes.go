package library

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
)

// Re-ingesting a folder reads only what changed (seed §13.3). In a git
// repository the last indexed commit is remembered: `git diff <last>
// HEAD` and the working tree's status name the files to read again, and a
// file git tracks but does not name is left unread when its size is the
// same. Elsewhere (outside git, or a file git does not track), a file of
// the same size and modification time as when it was ingested is left
// unread. Any other file is read and its hash decides, as always. Files
// git reports deleted or renamed away are dropped from the library.
//
// The commits are a cache (repos.json in the workspace): without it every
// file is read and hashed, which loses nothing.

// racyWindow is how recent a modification time may be and still not be
// trusted: file systems stamp times at a coarse tick, so a file written
// again within the tick of the write that was read looks the same. Like
// git's "racily clean" entries, a file modified this close to when it was
// read keeps no time, and is read again next time.
const racyWindow = 2 * time.Second

// trustedTime reports whether a file's modification time, seen now, may
// later tell that it has not changed.
func trustedTime(mod time.Time) bool {
	return !mod.IsZero() && time.Since(mod) > racyWindow
}

// repoState is what was indexed of one repository.
type repoState struct {
	Commit string `json:"commit"`
	// Dirty are the files (relative to the repository's root) that had
	// changes not committed when it was indexed: they are read again next
	// time even if git no longer names them (the change was undone).
	Dirty []string `json:"dirty,omitempty"`
}

// repoFile is the workspace file that holds the repositories' states.
const repoFile = "repos.json"

// changeSet is what a run learned of its files before reading any.
type changeSet struct {
	unchanged map[string]bool // absolute paths not to read
	gone      []string        // absolute paths git says were deleted or renamed away
	repos     map[string]repoState
	heads     map[string]repoState // the state to record once the run succeeds
}

// gitBin is the git program, or "" when there is none (the web edition,
// a machine without git): then sizes and times decide alone. It is looked
// for on the first ingest of a folder, not when Loom starts.
var gitBin = sync.OnceValue(func() string {
	p, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	return p
})

// changes decides which of the run's files need no reading.
func (w *Library) changes(ctx context.Context, ix *index.Graph, files []ingest.File, roots []string) *changeSet {
	cs := &changeSet{unchanged: map[string]bool{}, repos: w.readRepos(), heads: map[string]repoState{}}
	named := map[string]map[string]bool{}   // repository root → files to read (relative)
	tracked := map[string]map[string]bool{} // repository root → the files git tracks
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			continue
		}
		top := gitTop(ctx, abs)
		if top == "" {
			continue
		}
		head, dirty, ok := gitState(ctx, top)
		if !ok {
			continue
		}
		cs.heads[top] = repoState{Commit: head, Dirty: dirty}
		last, known := cs.repos[top]
		if !known || last.Commit == "" {
			continue
		}
		changed, gone, ok := gitChanged(ctx, top, last.Commit, head)
		if !ok {
			continue // the commit is gone (a rebase): read everything
		}
		set := map[string]bool{}
		for _, f := range append(append(changed, dirty...), last.Dirty...) {
			set[f] = true
		}
		named[top] = set
		tracked[top] = gitTracked(ctx, top)
		for _, g := range gone {
			abs := filepath.Join(top, filepath.FromSlash(g))
			if _, err := os.Lstat(abs); os.IsNotExist(err) {
				cs.gone = append(cs.gone, abs)
			}
		}
	}
	for _, f := range files {
		id, ok := ix.DocByKey[f.Abs]
		if !ok {
			continue
		}
		d := ix.Docs[id]
		if d == nil || int64(d.Bytes) != f.Size || readsDifferently(d) {
			continue
		}
		// The repository of a root the file is under (a file of a nested
		// repository is not tracked by the outer one: its time decides).
		top := ""
		for t := range named {
			if len(t) > len(top) && strings.HasPrefix(f.Abs, t+string(filepath.Separator)) {
				top = t
			}
		}
		if set, ok := named[top]; ok {
			rel, err := filepath.Rel(top, f.Abs)
			rel = filepath.ToSlash(rel)
			if err == nil && set[rel] {
				continue // git names it: read it
			}
			if err == nil && tracked[top][rel] {
				cs.unchanged[f.Abs] = true
				continue
			}
			// Untracked or ignored: git cannot tell; the file's time does.
		}
		if !d.Modified.IsZero() && f.ModTime.Equal(d.Modified) {
			cs.unchanged[f.Abs] = true
		}
	}
	return cs
}

// record keeps the repositories' heads for the next run.
func (w *Library) recordRepos(cs *changeSet) {
	if cs == nil || len(cs.heads) == 0 || !w.ws.KeepsFiles() {
		return
	}
	for top, st := range cs.heads {
		cs.repos[top] = st
	}
	b, err := json.MarshalIndent(cs.repos, "", "  ")
	if err != nil {
		return
	}
	_ = storage.WriteFileAtomic(filepath.Join(w.ws.Dir(), repoFile), b) // a cache: losing it costs a full read
}

func (w *Library) readRepos() map[string]repoState {
	out := map[string]repoState{}
	if !w.ws.KeepsFiles() {
		return out
	}
	b, err := os.ReadFile(filepath.Join(w.ws.Dir(), repoFile))
	if err == nil {
		_ = json.Unmarshal(b, &out) // damaged: read everything
	}
	return out
}

// gitTop is the root of the git repository holding dir, or "".
func gitTop(ctx context.Context, dir string) string {
	out, ok := git(ctx, dir, "rev-parse", "--show-toplevel")
	if !ok {
		return ""
	}
	return filepath.Clean(strings.TrimSpace(out))
}

// gitState is a repository's HEAD and the files with changes not
// committed (untracked ones too).
func gitState(ctx context.Context, top string) (head string, dirty []string, ok bool) {
	out, ok := git(ctx, top, "rev-parse", "HEAD")
	if !ok {
		return "", nil, false
	}
	head = strings.TrimSpace(out)
	status, ok := git(ctx, top, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if !ok {
		return "", nil, false
	}
	entries := strings.Split(status, "\x00")
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		if len(e) < 4 {
			continue
		}
		dirty = append(dirty, e[3:])
		if e[0] == 'R' || e[0] == 'C' { // "R  new\x00old": the old name follows
			i++
			if i < len(entries) {
				dirty = append(dirty, entries[i])
			}
		}
	}
	return head, dirty, true
}

// gitTracked is the set of files git tracks in a repository (relative,
// slash-separated).
func gitTracked(ctx context.Context, top string) map[string]bool {
	out, ok := git(ctx, top, "ls-files", "-z")
	set := map[string]bool{}
	if !ok {
		return set
	}
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			set[f] = true
		}
	}
	return set
}

// gitChanged lists the files changed between two commits, and those
// deleted or renamed away.
func gitChanged(ctx context.Context, top, from, to string) (changed, gone []string, ok bool) {
	if from == to {
		return nil, nil, true
	}
	out, ok := git(ctx, top, "diff", "--name-status", "-z", "--no-renames", from, to)
	if !ok {
		return nil, nil, false
	}
	f := strings.Split(out, "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		status, name := f[i], f[i+1]
		changed = append(changed, name)
		if strings.HasPrefix(status, "D") {
			gone = append(gone, name)
		}
	}
	return changed, gone, true
}

// git runs one git command in dir; ok is false when git is missing or the
// command fails (not a repository, an unknown commit).
func git(ctx context.Context, dir string, args ...string) (string, bool) {
	if gitBin() == "" {
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, gitBin(), append([]string{"-C", dir}, args...)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	if err := cmd.Run(); err != nil {
		return "", false
	}
	return out.String(), true
}

// readsDifferently reports whether this Loom would read a document's file
// differently than the one that ingested it — its format's reader is newer
// (ingest.ReaderVersion), or it is source code indexed as text before Loom
// parsed its language —, so it is read again even when unchanged.
func readsDifferently(d *model.Document) bool {
	return ingest.ReadByOlderReader(d) ||
		d.Format == string(ingest.FormatCode) && d.Meta.Language == "" && ingest.ParsesAsCode(d.Path)
}
