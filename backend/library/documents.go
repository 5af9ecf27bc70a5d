package library

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
)

// What the workbench's library, graph view and details panel read: the
// documents with their sizes, the whole graph in a compact form, one node
// with its text and neighbours, hop distances from a query's concepts.
// Everything is read from the in-memory working index, never by walking
// Cayley per node.

// DocumentInfo is a document with what it became.
type DocumentInfo struct {
	model.Document
	// Source is where the file was read from (the document's key without
	// a corpus record suffix).
	Source string `json:"source"`
	Nodes  int    `json:"nodes"`
	Tokens int    `json:"tokens"`
	// Pinned: every searchable section of the document is pinned.
	Pinned bool `json:"pinned"`
}

// Documents lists the workspace's documents by collection, then path.
func (w *Library) Documents(ctx context.Context) ([]DocumentInfo, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]DocumentInfo, 0, len(ix.Docs))
	for id, d := range ix.Docs {
		info := DocumentInfo{Document: *d, Source: DocSource(d)}
		searchableNodes, pinned := 0, 0
		for _, nid := range ix.DocNodes[id] {
			n := ix.Nodes[nid]
			if n == nil || !index.Searchable(n) {
				continue
			}
			info.Nodes++
			info.Tokens += n.Tokens
			searchableNodes++
			if n.Pinned {
				pinned++
			}
		}
		info.Pinned = searchableNodes > 0 && pinned == searchableNodes
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Collection != out[j].Collection {
			return out[i].Collection < out[j].Collection
		}
		return out[i].Path < out[j].Path
	})
	return out, nil
}

func DocSource(d *model.Document) string {
	if recordFormat(d.Format) {
		if i := strings.LastIndexByte(d.Key, '#'); i >= 0 {
			return d.Key[:i]
		}
	}
	return d.Key
}

// RemoveDocuments deletes documents with their sections, edges, vectors
// and the concepts only they were about, in one transaction. Unknown ids
// are an error naming them, and then nothing is removed.
func (w *Library) RemoveDocuments(ctx context.Context, ids []string) error {
	if err := w.ws.Writable("remove"); err != nil {
		return err
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return err
	}
	var unknown []string
	for _, id := range ids {
		if _, ok := ix.Docs[id]; !ok {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return errs.E(errs.NotFound, "remove: no document %s in this workspace", strings.Join(unknown, ", "))
	}
	if _, err := w.ws.Search(ctx); err != nil {
		return err
	}
	b := newBatch()
	for _, id := range ids {
		w.removeDoc(ix, b, id)
	}
	if err := w.flush(context.WithoutCancel(ctx), ix, b); err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	w.ws.SaveCaches()
	return nil
}

// ReingestDocument reads a document's file again (a changed file replaces
// its old sections; an unchanged one is left alone).
func (w *Library) ReingestDocument(ctx context.Context, id string, opts IngestOptions) (*IngestReport, error) {
	w.ws.Lock()
	ix, err := w.ws.Index(ctx)
	var d *model.Document
	if err == nil {
		d = ix.Docs[id]
	}
	w.ws.Unlock()
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, errs.E(errs.NotFound, "re-ingest: no document %s in this workspace", id)
	}
	src := DocSource(d)
	info, err := os.Stat(src)
	if err != nil {
		return nil, fmt.Errorf("re-ingest %s: the file is no longer readable at %s (%w)", d.Path, src, err)
	}
	if d.Format == string(ingest.FormatBEIR) { // a corpus file holds many documents
		return w.Ingest(ctx, []string{src}, opts)
	}
	if err := w.ws.Writable("ingest"); err != nil {
		return nil, err
	}
	// Under the names it has: read on its own, a file of a folder (or an
	// upload with folders) would be named by its base name alone and
	// become a second document.
	file := ingest.File{Abs: src, Path: d.Path, Collection: d.Collection, Size: info.Size()}
	return w.ingestWalked(ctx, ingest.WalkResult{Files: []ingest.File{file}}, nil, opts)
}

// Upload is a file handed over by the page (a browser file input or drop),
// with the name it had, folders included ("notes/a.md"): its text, or, for
// a file that is not text (a PDF, a Word file), its bytes in Data (base64
// in JSON). Data is written as the file when it is set.
type Upload struct {
	Name string `json:"name"`
	Text string `json:"text"`
	Data []byte `json:"data,omitempty"`
}

// UploadsDir is where uploaded files are kept, under the workspace: an
// upload becomes a file there, so it can be re-ingested and its collection
// is its folder ("uploads" at the top).
func (w *Library) UploadsDir() string { return filepath.Join(w.ws.Dir(), "uploads") }

// IngestUploads writes uploaded files under UploadsDir and ingests them,
// named as a dropped folder's files are: the first folder of the name is
// the collection and the rest the path ("vault/daily/index.md" is
// daily/index.md in vault), so notes of the same name in different folders
// stay apart; a name without a folder is in the collection "uploads". A
// name that would leave that folder, text that is not UTF-8, or an upload
// with both text and bytes is reported for that file and the rest go on.
// Two uploads of one name in one drop (loose files dropped from two
// folders, whose names the page sends without their folders) are both
// kept: the later is stored as "name (2).ext", and a warning names it; the
// same bytes twice are added once, and the second copy is reported as
// skipped.
func (w *Library) IngestUploads(ctx context.Context, files []Upload, opts IngestOptions) (*IngestReport, error) {
	if err := w.ws.Writable("ingest"); err != nil {
		return nil, err
	}
	var walked ingest.WalkResult
	var bad []error
	var skipped []ingest.Skipped
	var warnings []string
	names := make([]string, len(files))
	taken := map[string]bool{} // every name of the drop, so that a new name is none of them
	for i, f := range files {
		names[i] = uploadName(f.Name)
		taken[names[i]] = true
	}
	stored := map[string]map[[sha256.Size]byte]bool{} // a name of the drop → the contents stored for it
	for i, f := range files {
		given := names[i] // the name in the drop; name is the one it is stored under
		name := given
		content, err := uploadContent(f, name)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		sum := sha256.Sum256(content)
		if stored[given][sum] {
			skipped = append(skipped, ingest.Skipped{Path: f.Name + " (a second copy)", Reason: "the same file is in this drop twice: it is added once"})
			continue
		}
		if len(stored[given]) > 0 {
			name = freeUploadName(name, taken)
			taken[name] = true
		}
		file, err := w.storeUpload(f.Name, name, content)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		if name != given {
			warnings = append(warnings, fmt.Sprintf("%s: another file of this drop is also named %s (the page sends names without their folders); this one is added as %s", file.Abs, path.Base(given), path.Base(name)))
		}
		if stored[given] == nil {
			stored[given] = map[[sha256.Size]byte]bool{}
		}
		stored[given][sum] = true
		walked.Files = append(walked.Files, file)
	}
	rep := &IngestReport{}
	if len(walked.Files) > 0 {
		var err error
		if rep, err = w.ingestWalked(ctx, walked, nil, opts); err != nil {
			return rep, err
		}
	}
	rep.Files += len(bad)
	rep.Errors = append(bad, rep.Errors...)
	rep.Skipped = append(skipped, rep.Skipped...)
	rep.Warnings = append(warnings, rep.Warnings...)
	return rep, nil
}

// uploadName is an upload's name as it is stored: slash-separated, clean,
// relative ("" when nothing is left).
func uploadName(name string) string {
	return path.Clean("/" + strings.ReplaceAll(name, `\`, "/"))[1:]
}

// freeUploadName is name with " (2)", " (3)" … before its extension, the
// first that is not taken.
func freeUploadName(name string, taken map[string]bool) string {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for k := 2; ; k++ {
		if n := fmt.Sprintf("%s (%d)%s", stem, k, ext); !taken[n] {
			return n
		}
	}
}

// uploadContent checks an upload stored as name and returns its bytes.
func uploadContent(f Upload, name string) ([]byte, error) {
	if name == "" || name == "." || strings.HasPrefix(f.Name, "..") || strings.Contains(f.Name, "/../") {
		return nil, &uploadError{name: f.Name, problem: "the name is not a file name inside the workspace"}
	}
	switch {
	case f.Data != nil && f.Text != "":
		return nil, &uploadError{name: f.Name, problem: "the upload carries both text and bytes, and Loom cannot tell which is the file (the page sends one)"}
	case f.Data != nil:
		return f.Data, nil
	case !utf8.ValidString(f.Text):
		return nil, &uploadError{name: f.Name, problem: "the file is not UTF-8 text: save it as UTF-8 and add it again"}
	}
	return []byte(f.Text), nil
}

// storeUpload writes content under UploadsDir as name (an upload called
// original) and names it for the ingest.
func (w *Library) storeUpload(original, name string, content []byte) (ingest.File, error) {
	p := filepath.Join(w.UploadsDir(), filepath.FromSlash(name))
	if err := storage.WriteFileAtomic(p, content); err != nil {
		return ingest.File{}, &uploadError{name: original, problem: "could not store it in the workspace: " + err.Error()}
	}
	collection, rel, found := strings.Cut(name, "/")
	if !found {
		collection, rel = filepath.Base(w.UploadsDir()), name
	}
	return ingest.File{Abs: p, Path: rel, Collection: collection, Size: int64(len(content))}, nil
}

type uploadError struct{ name, problem string }

func (e *uploadError) Error() string { return e.name + ": " + e.problem }

// FileProblem splits an ingest error into the file it names and the
// problem, for showing per file.
func FileProblem(err error) (file, problem string) {
	var ue *uploadError
	if errors.As(err, &ue) {
		return ue.name, ue.problem
	}
	var fe *ingest.FileError
	if errors.As(err, &fe) {
		return fe.Path, fe.Problem
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 {
		return msg[:i], msg[i+2:]
	}
	return "", msg
}
