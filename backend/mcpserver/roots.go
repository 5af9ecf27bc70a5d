package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loomwork/loom/backend"
)

// libraryRoots are the folders ingest may read: the extra roots given,
// and the workspace's library folders — each folder its documents were
// ingested from (a document's file path without its path in its
// collection). Folders inside the workspace (uploads) are not library
// folders. Each is absolute with its links resolved; a root that does not
// exist is an error, a library folder that no longer does is left out.
func libraryRoots(ctx context.Context, wb *backend.Workbench, extra []string) ([]string, error) {
	var roots []string
	add := func(dir string) {
		if !slices.Contains(roots, dir) {
			roots = append(roots, dir)
		}
	}
	for _, r := range extra {
		abs, err := resolve(r)
		if err != nil {
			return nil, fmt.Errorf("allowed folder %s: %w", r, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("allowed folder %s is not a folder", r)
		}
		add(abs)
	}
	ws, err := resolve(wb.Dir())
	if err != nil {
		return nil, err
	}
	docs, err := wb.Documents(ctx)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		src := d.Source
		if !filepath.IsAbs(src) {
			continue // an answer kept in the workspace
		}
		rel := filepath.FromSlash(strings.SplitN(d.Path, "#", 2)[0])
		dir, ok := strings.CutSuffix(filepath.Clean(src), string(filepath.Separator)+rel)
		if !ok || dir == "" {
			dir = filepath.Dir(src)
		}
		abs, err := resolve(dir)
		if err != nil || within(abs, ws) {
			continue
		}
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			add(abs)
		}
	}
	// A root inside another adds nothing.
	slices.Sort(roots)
	out := roots[:0]
	for _, r := range roots {
		if len(out) == 0 || !within(r, out[len(out)-1]) {
			out = append(out, r)
		}
	}
	return out, nil
}

// resolve is a path made absolute and clean, its links resolved.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	} else if !os.IsNotExist(err) {
		return "", err
	}
	return filepath.Clean(abs), nil
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	if path == root {
		return true
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// allowed checks a path an ingest call names: absolute, or relative to an
// allowed folder (the first that holds it); it must exist, and lie — its
// links resolved — inside an allowed folder. It returns the path to read.
func (s *Server) allowed(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", fmt.Errorf("an empty path: name a file or folder inside %s", strings.Join(s.roots, ", "))
	}
	var candidates []string
	if filepath.IsAbs(p) {
		candidates = []string{p}
	} else {
		for _, r := range s.roots {
			candidates = append(candidates, filepath.Join(r, p))
		}
	}
	var found string
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			found = c
			break
		}
	}
	if found == "" {
		return "", fmt.Errorf("%s does not exist (paths are absolute, or relative to an allowed folder: %s)", p, strings.Join(s.roots, ", "))
	}
	real, err := filepath.EvalSymlinks(found)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if ws, err := resolve(s.wb.Dir()); err == nil && within(real, ws) {
		return "", fmt.Errorf("%s holds the workspace's own files: ingest documents from your library folders instead", p)
	}
	for _, r := range s.roots {
		if within(real, r) {
			return filepath.Abs(found) // as named: documents keep the keys they were ingested under
		}
	}
	return "", fmt.Errorf("%s is outside the folders this server may ingest from (%s): start loom mcp with --allow-root for another folder", p, strings.Join(s.roots, ", "))
}
