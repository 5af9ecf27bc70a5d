package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// File is one file found for ingestion.
type File struct {
	// Abs is the absolute path (the document key). For a file reached
	// through a symbolic link it is the link's path.
	Abs string
	// Path is the reference path: relative to the root folder given, or the
	// base name for a file given directly. Always slash-separated.
	Path string
	// Collection is the name of the folder that was given (or that holds a
	// file given directly).
	Collection string
	Size       int64
	// ModTime is when the file was last written, as the walk found it
	// (zero for files not found by a walk).
	ModTime time.Time
}

// Skipped is a file that Walk left out on purpose, and why. It is not a
// problem with the file: nothing needs fixing for the rest to go in.
type Skipped struct {
	// Path is the file as the person would write it: the folder they gave
	// joined with the path below it.
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

func (s Skipped) String() string { return s.Path + ": skipped: " + s.Reason }

// WalkResult is what Walk found under the roots.
type WalkResult struct {
	// Files are the files to ingest, in a stable order.
	Files []File
	// Skipped are files left out because Loom does not read their format,
	// or because they were already included (a second name for the same
	// file, a link back to a folder already read).
	Skipped []Skipped
	// Errors are the paths that cannot be read (missing, unreadable, not
	// a regular file, a broken link), as *FileError values.
	Errors []error
	// Hidden counts the entries left out silently by design: names that
	// start with a dot (.git among them) and node_modules folders. Their
	// contents are not looked at, nor counted.
	Hidden int
}

// Walk expands roots (files or folders) into files to ingest. Folders are
// walked recursively; a symbolic link is followed to the file or folder it
// names, and each folder is read once, so a link back to a folder above
// never loops. A file reached twice (directly and through a link, or named
// twice) is ingested once, under the name that is not a link. A file named
// directly is taken whatever its extension (it is read as text). Nothing
// is left out silently except what Hidden counts.
func Walk(roots []string) WalkResult {
	w := walker{visited: map[string]string{}, byReal: map[string]int{}}
	for _, root := range roots {
		w.root(root)
		w.roots++
	}
	return w.result()
}

type walker struct {
	res     WalkResult
	roots   int               // roots walked so far
	visited map[string]string // real path of a folder read → how it was shown
	found   []found
	byReal  map[string]int // real path of a file → index in found
}

// found is a file met during the walk; files of one root are sorted by
// Path, roots keep their order.
type found struct {
	File
	root    int
	shown   string // as Skipped would name it
	viaLink bool   // reached through a symbolic link
	dropped bool
}

func (w *walker) root(root string) {
	abs, err := filepath.Abs(root)
	if err != nil {
		w.fail(root, err.Error())
		return
	}
	info, err := os.Stat(abs)
	if err != nil {
		w.fail(root, describeStatError(abs, err))
		return
	}
	if info.IsDir() {
		w.dir(abs, "", filepath.Base(abs), root, false)
		return
	}
	if !info.Mode().IsRegular() {
		w.fail(root, describeIrregular(info.Mode()))
		return
	}
	link := isLink(abs)
	w.add(File{Abs: abs, Path: filepath.Base(abs), Collection: filepath.Base(filepath.Dir(abs)), Size: info.Size(), ModTime: info.ModTime()}, root, realPath(abs), link)
}

// dir reads folder abs (shown as shown), whose files have reference paths
// under rel in collection.
func (w *walker) dir(abs, rel, collection, shown string, viaLink bool) {
	realDir := realPath(abs)
	if first, ok := w.visited[realDir]; ok {
		reason := "the same folder as " + first + ", which is read once"
		if viaLink {
			reason = "a symbolic link to " + first + ", a folder already read (links are followed once, never in a loop)"
		}
		w.res.Skipped = append(w.res.Skipped, Skipped{shown, reason})
		return
	}
	w.visited[realDir] = shown
	entries, err := os.ReadDir(abs)
	if err != nil {
		w.fail(shown, describeOSError(err))
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			w.res.Hidden++
			continue
		}
		p := filepath.Join(abs, name)
		relPath := path.Join(rel, name)
		entryShown := filepath.Join(shown, name)
		mode := e.Type()
		link := mode&fs.ModeSymlink != 0
		if link {
			info, err := os.Stat(p)
			if err != nil {
				w.fail(entryShown, describeStatError(p, err))
				continue
			}
			mode = info.Mode().Type()
		}
		switch {
		case mode.IsDir() && thirdParty[name] && (name != "vendor" || vendored(p)):
			w.res.Skipped = append(w.res.Skipped, Skipped{entryShown, "third-party code (a " + name + " folder): not the project's own; ingest the folder itself to read it"})
		case mode.IsDir():
			w.dir(p, relPath, collection, entryShown, viaLink || link)
		case mode.IsRegular():
			if _, ok := FormatOf(name); !ok {
				w.res.Skipped = append(w.res.Skipped, Skipped{entryShown, unreadFormat(name)})
				continue
			}
			info, err := os.Stat(p)
			if err != nil {
				w.fail(entryShown, describeOSError(err))
				continue
			}
			real := filepath.Join(realDir, name)
			if link {
				real = realPath(p)
			}
			w.add(File{Abs: p, Path: relPath, Collection: collection, Size: info.Size(), ModTime: info.ModTime()}, entryShown, real, viaLink || link)
		default:
			w.fail(entryShown, describeIrregular(mode))
		}
	}
}

// thirdParty are the folders a walk leaves out as code that others wrote
// and a package manager put there (named directly, they are read).
var thirdParty = map[string]bool{"vendor": true, "site-packages": true, "__pycache__": true, "bower_components": true}

// vendored reports whether a folder named vendor holds dependencies put
// there by Go modules or Composer (a notes folder may be named vendor too).
func vendored(dir string) bool {
	for _, marker := range []string{"modules.txt", "autoload.php"} {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			return true
		}
	}
	return false
}

// add keeps a file unless the same file was found before; of two names for
// one file, the one that is not a link wins, else the first.
func (w *walker) add(f File, shown, real string, viaLink bool) {
	nf := found{File: f, root: w.roots, shown: shown, viaLink: viaLink}
	i, seen := w.byReal[real]
	if !seen {
		w.byReal[real] = len(w.found)
		w.found = append(w.found, nf)
		return
	}
	kept := &w.found[i]
	if kept.viaLink && !viaLink {
		w.res.Skipped = append(w.res.Skipped, Skipped{kept.shown, "the same file as " + shown + ", which is ingested under that name"})
		kept.dropped = true
		w.byReal[real] = len(w.found)
		w.found = append(w.found, nf)
		return
	}
	w.res.Skipped = append(w.res.Skipped, Skipped{shown, "the same file as " + kept.shown + ", which is ingested under that name"})
}

func (w *walker) fail(shown, problem string) {
	w.res.Errors = append(w.res.Errors, &FileError{shown, problem})
}

// result lists the files: roots in the order given, the files of each
// sorted by reference path.
func (w *walker) result() WalkResult {
	var files []File
	for start := 0; start < len(w.found); {
		end := start + 1
		for end < len(w.found) && w.found[end].root == w.found[start].root {
			end++
		}
		group := w.found[start:end]
		sort.SliceStable(group, func(a, b int) bool { return group[a].Path < group[b].Path })
		for _, f := range group {
			if !f.dropped {
				files = append(files, f.File)
			}
		}
		start = end
	}
	w.res.Files = files
	return w.res
}

// unreadFormat says why a file of a folder is left out.
func unreadFormat(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == "" || ext == name {
		return "it has no file extension; " + ReadsAs + " (name the file to read it as text)"
	}
	return ReadsAs + ", not " + ext + " files"
}

func isLink(p string) bool {
	info, err := os.Lstat(p)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// realPath is p with every symbolic link resolved (p itself when that
// fails: the error shows up when the file is read).
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// describeStatError explains why p cannot be looked at, naming a broken
// symbolic link as such.
func describeStatError(p string, err error) string {
	if errors.Is(err, fs.ErrNotExist) && isLink(p) {
		target, _ := os.Readlink(p)
		return fmt.Sprintf("is a broken symbolic link: it points to %s, which does not exist", target)
	}
	return describeOSError(err)
}

// describeIrregular names what a path that is neither a file nor a folder
// is; reading one could block forever (a pipe) or never end (a device).
func describeIrregular(mode fs.FileMode) string {
	const tail = ", not a regular file: Loom reads regular files only"
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO)" + tail
	case mode&fs.ModeSocket != 0:
		return "is a socket" + tail
	case mode&fs.ModeCharDevice != 0:
		return "is a character device" + tail
	case mode&fs.ModeDevice != 0:
		return "is a device" + tail
	}
	return "is not a regular file: Loom reads regular files only"
}

// ReadFile reads one file for ingestion, with a clear error for the usual
// problems (missing, permission denied, a folder, too large).
func ReadFile(f File, opts Options) ([]byte, error) {
	opts.defaults()
	format, _ := FormatOf(f.Path)
	if limit := opts.limit(format); format != FormatBEIR && f.Size > limit {
		return nil, &FileError{f.Abs, tooLarge(format, f.Size, limit)}
	}
	data, err := os.ReadFile(f.Abs)
	if err != nil {
		return nil, &FileError{f.Abs, describeOSError(err)}
	}
	return data, nil
}

func describeOSError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or folder"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied (cannot read it)"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
