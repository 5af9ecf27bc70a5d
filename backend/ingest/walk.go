package ingest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// File is one file found for ingestion.
type File struct {
	// Abs is the absolute path (the document key).
	Abs string
	// Path is the reference path: relative to the root folder given, or the
	// base name for a file given directly. Always slash-separated.
	Path string
	// Collection is the name of the folder that was given (or that holds a
	// file given directly).
	Collection string
	Size       int64
}

// Walk expands roots (files or folders) into files to ingest, in a stable
// order. Folders are walked recursively, skipping hidden entries, .git and
// node_modules, and files whose extension Loom does not read. A file named
// directly is taken whatever its extension (it is read as text). Problems
// (missing or unreadable paths) come back as *FileError values beside the
// files that were found.
func Walk(roots []string) ([]File, []error) {
	var files []File
	var errs []error
	seen := map[string]bool{}
	for _, root := range roots {
		abs, err := filepath.Abs(root)
		if err != nil {
			errs = append(errs, &FileError{root, err.Error()})
			continue
		}
		info, err := os.Stat(abs)
		if err != nil {
			errs = append(errs, &FileError{root, describeOSError(err)})
			continue
		}
		if !info.IsDir() {
			if !info.Mode().IsRegular() {
				errs = append(errs, &FileError{root, "is not a regular file"})
				continue
			}
			if !seen[abs] {
				seen[abs] = true
				files = append(files, File{Abs: abs, Path: filepath.Base(abs), Collection: filepath.Base(filepath.Dir(abs)), Size: info.Size()})
			}
			continue
		}
		collection := filepath.Base(abs)
		var found []File
		walkErr := filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, &FileError{p, describeOSError(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			name := d.Name()
			if p != abs && (strings.HasPrefix(name, ".") || name == "node_modules") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			if _, ok := FormatOf(name); !ok || !d.Type().IsRegular() {
				return nil
			}
			rel, _ := filepath.Rel(abs, p)
			fi, err := d.Info()
			if err != nil {
				errs = append(errs, &FileError{p, describeOSError(err)})
				return nil
			}
			if !seen[p] {
				seen[p] = true
				found = append(found, File{Abs: p, Path: filepath.ToSlash(rel), Collection: collection, Size: fi.Size()})
			}
			return nil
		})
		if walkErr != nil {
			errs = append(errs, &FileError{root, describeOSError(walkErr)})
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
		files = append(files, found...)
	}
	return files, errs
}

// ReadFile reads one file for ingestion, with a clear error for the usual
// problems (missing, permission denied, a folder, too large).
func ReadFile(f File, opts Options) ([]byte, error) {
	opts.defaults()
	format, _ := FormatOf(f.Path)
	if format != FormatBEIR && f.Size > opts.MaxFileBytes {
		return nil, &FileError{f.Abs, "file is too large (" + humanBytes(f.Size) + "; the limit is " + humanBytes(opts.MaxFileBytes) + ")"}
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
