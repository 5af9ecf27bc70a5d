//go:build unix

package ingest

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libraryFolder builds a folder with everything a real one can hold:
//
//	notes/a.md, notes/sub/b.txt, notes/corpus.jsonl   read
//	notes/photo.png, notes/README                     skipped: format
//	notes/.hidden.md, notes/.git/, notes/node_modules/ left out (3)
//	notes/pipe.md (FIFO), notes/sock.md (socket)      errors
//	notes/broken.md → missing.md                      error
//	notes/alias.md → a.md                             skipped: same file
//	notes/linked → ../elsewhere                       read (through the link)
//	notes/outside.md → ../elsewhere/out.md            skipped: same file as linked/out.md
//	notes/sub/loop → ..                               skipped: folder read already
func libraryFolder(t *testing.T) (root string) {
	base := t.TempDir()
	root = filepath.Join(base, "notes")
	write := func(rel, text string) {
		p := filepath.Join(base, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	link := func(target, rel string) {
		require.NoError(t, os.Symlink(target, filepath.Join(base, filepath.FromSlash(rel))))
	}
	write("notes/a.md", "# A\n\ntext\n")
	write("notes/sub/b.txt", "plain text\n")
	write("notes/corpus.jsonl", `{"_id":"1","text":"x"}`+"\n")
	write("notes/photo.png", "\x89PNG\r\n")
	write("notes/README", "no extension\n")
	write("notes/.hidden.md", "# hidden\n")
	write("notes/.git/config", "[core]\n")
	write("notes/node_modules/pkg/readme.md", "# pkg\n")
	write("elsewhere/out.md", "# Out\n\ntext\n")
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644))
	sock, err := net.Listen("unix", filepath.Join(root, "sock.md"))
	require.NoError(t, err)
	t.Cleanup(func() { sock.Close() })
	link("missing.md", "notes/broken.md")
	link("a.md", "notes/alias.md")
	link("../elsewhere/out.md", "notes/outside.md")
	link("..", "notes/sub/loop")
	link("../elsewhere", "notes/linked")
	return root
}

func TestWalkReportsEverythingItLeavesOut(t *testing.T) {
	root := libraryFolder(t)
	res := Walk([]string{root})

	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
		assert.Equal(t, "notes", f.Collection)
	}
	assert.Equal(t, []string{"a.md", "corpus.jsonl", "linked/out.md", "sub/b.txt"}, paths,
		"regular files and links to them, each file once, sorted")

	skipped := map[string]string{}
	for _, s := range res.Skipped {
		rel, err := filepath.Rel(root, s.Path)
		require.NoError(t, err)
		skipped[filepath.ToSlash(rel)] = s.Reason
	}
	assert.Equal(t, map[string]string{
		"photo.png":  ReadsAs + ", not .png files",
		"README":     "it has no file extension; " + ReadsAs + " (name the file to read it as text)",
		"alias.md":   "the same file as " + filepath.Join(root, "a.md") + ", which is ingested under that name",
		"outside.md": "the same file as " + filepath.Join(root, "linked", "out.md") + ", which is ingested under that name",
		"sub/loop":   "a symbolic link to " + root + ", a folder already read (links are followed once, never in a loop)",
	}, skipped)

	problems := map[string]string{}
	for _, e := range res.Errors {
		var fe *FileError
		require.ErrorAs(t, e, &fe)
		problems[filepath.Base(fe.Path)] = fe.Problem
	}
	assert.Equal(t, map[string]string{
		"pipe.md":   "is a named pipe (FIFO), not a regular file: Loom reads regular files only",
		"sock.md":   "is a socket, not a regular file: Loom reads regular files only",
		"broken.md": "is a broken symbolic link: it points to missing.md, which does not exist",
	}, problems)

	assert.Equal(t, 3, res.Hidden, ".hidden.md, .git and node_modules")
}

func TestWalkTakesFilesNamedDirectly(t *testing.T) {
	root := libraryFolder(t)
	plain := filepath.Join(t.TempDir(), "plain")
	require.NoError(t, os.MkdirAll(plain, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(plain, "x.md"), []byte("# X\n"), 0o644))
	tests := []struct {
		name     string
		roots    []string
		files    []string
		problems []string
		skipped  int
	}{
		{"any extension when named", []string{filepath.Join(root, "photo.png")}, []string{"photo.png"}, nil, 0},
		{"a link to a file", []string{filepath.Join(root, "outside.md")}, []string{"outside.md"}, nil, 0},
		{"a pipe is refused, not opened", []string{filepath.Join(root, "pipe.md")}, nil, []string{"not a regular file"}, 0},
		{"a broken link", []string{filepath.Join(root, "broken.md")}, nil, []string{"broken symbolic link"}, 0},
		{"a missing path", []string{filepath.Join(root, "nope.md")}, nil, []string{"no such file or folder"}, 0},
		{"a folder given twice", []string{plain, plain}, []string{"x.md"}, nil, 1},
		{"a file inside a folder given too", []string{plain, filepath.Join(plain, "x.md")}, []string{"x.md"}, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Walk(tt.roots)
			var files []string
			for _, f := range res.Files {
				files = append(files, f.Path)
			}
			assert.Equal(t, tt.files, files)
			require.Len(t, res.Errors, len(tt.problems))
			for i, p := range tt.problems {
				assert.ErrorContains(t, res.Errors[i], p)
				assert.ErrorContains(t, res.Errors[i], tt.roots[0], "the message names the path")
			}
			assert.Len(t, res.Skipped, tt.skipped)
		})
	}
}

// A link to a folder above is followed once: what it leads to that was not
// read yet is read, and the way back is not taken again.
func TestWalkFollowsALinkUpOnce(t *testing.T) {
	root := libraryFolder(t)
	res := Walk([]string{filepath.Join(root, "sub")})
	var files []string
	for _, f := range res.Files {
		files = append(files, f.Path)
	}
	assert.Equal(t, []string{"b.txt", "loop/a.md", "loop/corpus.jsonl", "loop/linked/out.md"}, files)
	var loops int
	for _, s := range res.Skipped {
		if filepath.Base(s.Path) == "sub" {
			loops++
			assert.Contains(t, s.Reason, "already read")
		}
	}
	assert.Equal(t, 1, loops, "loop/sub leads back to the root: skipped once")
}

func TestWalkShowsPathsAsTheyWereGiven(t *testing.T) {
	root := libraryFolder(t)
	t.Chdir(filepath.Dir(root))
	res := Walk([]string{"notes"})
	var png Skipped
	for _, s := range res.Skipped {
		if filepath.Ext(s.Path) == ".png" {
			png = s
		}
	}
	assert.Equal(t, "notes/photo.png: skipped: "+ReadsAs+", not .png files", png.String())
	require.NotEmpty(t, res.Files)
	assert.True(t, filepath.IsAbs(res.Files[0].Abs), "files keep their absolute path as the document key")
}

func TestWalkReportsAFolderItCannotRead(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	root := t.TempDir()
	locked := filepath.Join(root, "locked")
	require.NoError(t, os.Mkdir(locked, 0o000))
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	res := Walk([]string{root})
	require.Len(t, res.Errors, 1)
	assert.ErrorContains(t, res.Errors[0], "locked: permission denied")
}
