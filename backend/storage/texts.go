// Package storage keeps a workspace's files: the stored texts (content/,
// one file per text named by its SHA-256; summaries.pack for the texts of
// summaries; texts staged while a background writer stores them; a cache
// of texts read lately), the durability of what was written before a graph
// commit names it, and opening the graph store (graph/ in bolt, or the
// snapshot file where bolt does not build). Everything a question or an
// ingest reads from disk goes through here, and every text read is
// checked against its hash.
//
//	texts := storage.NewTexts(dir, false)
//	made, err := texts.Write(hash, text)
//	text, err := texts.Read(hash)
package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/mapfile"
)

// PackFile is the file, in the workspace folder, that holds the texts of
// summaries and essences.
const PackFile = "summaries.pack"

// Texts are a workspace's stored texts. Its methods are safe for
// concurrent use.
type Texts struct {
	dir      string
	readOnly bool
	pack     pack
	stage    stage
	cache    textCache
}

// NewTexts returns the texts of the workspace in dir; read-only, nothing
// is ever written (Stage keeps texts in memory, Write fails).
func NewTexts(dir string, readOnly bool) *Texts {
	return &Texts{dir: dir, readOnly: readOnly, pack: pack{path: filepath.Join(dir, PackFile), readOnly: readOnly}}
}

// Hash is a text's name: its SHA-256 in hex.
func Hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// Path is where the text of hash is stored as a file of its own.
func (t *Texts) Path(hash string) string {
	return filepath.Join(t.dir, "content", hash[:2], hash)
}

// PackPath is the summaries' pack.
func (t *Texts) PackPath() string { return t.pack.path }

// Read returns the stored text of a hash. A text read from disk is checked
// against its hash (texts are named by it): a missing or changed text is a
// *TextError (code errs.Unavailable), which a question takes as "leave
// this node out" rather than failing.
func (t *Texts) Read(hash string) (string, error) {
	if len(hash) < 3 {
		return "", errs.E(errs.Invalid, "bad content hash %q", hash)
	}
	if text, ok := t.stage.text(hash); ok {
		return text, nil
	}
	if text, ok := t.cache.get(hash); ok {
		return text, nil
	}
	text, ok, perr := t.pack.read(hash)
	file := t.pack.path
	if !ok { // not in the pack, or the pack cannot be read: texts in files still can
		file = t.Path(hash)
		b, err := mapfile.ReadFile(file)
		if err != nil {
			problem := "cannot be read (" + err.Error() + ")"
			if errors.Is(err, os.ErrNotExist) {
				problem = "is missing"
			}
			if perr != nil {
				problem += " (and " + perr.Error() + ")"
			}
			return "", &TextError{Hash: hash, File: file, Problem: problem}
		}
		text = string(b)
	}
	if Hash(text) != hash {
		return "", &TextError{Hash: hash, File: file, Problem: "is damaged: its bytes no longer match its hash"}
	}
	t.cache.put(hash, text)
	return text, nil
}

// TextError is a stored text that is missing or damaged.
type TextError struct {
	Hash, File, Problem string
}

func (e *TextError) Error() string {
	return fmt.Sprintf("the stored text %s %s", e.File, e.Problem)
}

// ErrorCode: a text that cannot be had.
func (e *TextError) ErrorCode() errs.Code { return errs.Unavailable }

// Write stores text under its hash, atomically (temp file + rename), so a
// crash never leaves a truncated file under a valid name. It says whether
// it made the file (false: it was there).
func (t *Texts) Write(hash, text string) (bool, error) {
	if t.readOnly {
		return false, errs.E(errs.ReadOnly, "store a text in %s: the workspace is open read-only", t.dir)
	}
	p := t.Path(hash)
	if _, err := os.Stat(p); err == nil {
		return false, nil
	}
	return true, WriteFileAtomic(p, []byte(text))
}

// WriteAll writes texts (by hash) with a few goroutines (the cost is
// file-system latency, not CPU) and returns the paths of the files it made,
// those already there left out, so that a write that fails later can take
// them back (RemoveFiles).
func (t *Texts) WriteAll(texts map[string]string) ([]string, error) {
	jobs := make(chan [2]string)
	errc := make(chan error, 1)
	var (
		mu      sync.Mutex
		created []string
		wg      sync.WaitGroup
	)
	for range 8 {
		wg.Go(func() {
			for j := range jobs {
				made, err := t.Write(j[0], j[1])
				if made && err == nil {
					mu.Lock()
					created = append(created, t.Path(j[0]))
					mu.Unlock()
				}
				if err != nil {
					select {
					case errc <- err:
					default:
					}
				}
			}
		})
	}
	for h, text := range texts {
		jobs <- [2]string{h, text}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errc:
		return created, err
	default:
		return created, nil
	}
}

// RemoveFiles removes files a failed write made (best effort).
func RemoveFiles(paths []string) {
	for _, p := range paths {
		os.Remove(p)
	}
}

// Preload reads the pack's index now (errors surface at the first read
// or write).
func (t *Texts) Preload() { t.pack.preload() }

// Close waits for the staged texts' writer and releases the pack.
func (t *Texts) Close() error {
	t.stage.done.Wait()
	return t.pack.close()
}

// tmpSeq numbers temporary files; tmpTag marks this process's, so that
// SweepTemps can tell them from those a crashed process left behind.
var (
	tmpSeq atomic.Uint64
	tmpTag = "p" + strconv.FormatUint(uint64(os.Getpid()), 36) + "-" + strconv.FormatUint(uint64(time.Now().UnixNano()), 36)
)

// WriteFileAtomic writes data to path through a temporary file and a
// rename (making the folder if needed), so a crash never leaves a
// truncated file under the real name.
func WriteFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// A temporary name of its own: the stage's writer (stage.go) runs
	// beside the workspace's other writes and may store the same text.
	tmp := path + "." + tmpTag + "-" + strconv.FormatUint(tmpSeq.Add(1), 36) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	crash.At("file-before-rename")
	return os.Rename(tmp, path)
}

// SweepTemps removes the temporary files of stored texts that a process
// stopped in the middle of WriteFileAtomic left in content/: every "*.tmp"
// there not named with this process's tag. The workspace is this
// process's alone while it is open for writing (a second writer fails to
// open the graph store), so no other writer's file can be in flight. It
// returns how many files it removed.
func (t *Texts) SweepTemps() int {
	mine := "." + tmpTag + "-"
	removed := 0
	_ = t.eachStored(func(path string, e os.DirEntry) {
		if name := e.Name(); strings.HasSuffix(name, ".tmp") && !strings.Contains(name, mine) && os.Remove(path) == nil {
			removed++
		}
	})
	return removed
}

// eachStored calls f with every file in content/'s folders (texts and
// temporary files); a folder that cannot be listed is an error, after the
// others are done; no content/ is none.
func (t *Texts) eachStored(f func(path string, e os.DirEntry)) error {
	root := filepath.Join(t.dir, "content")
	dirs, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", root, err)
	}
	var failed error
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		sub := filepath.Join(root, d.Name())
		entries, err := os.ReadDir(sub)
		if err != nil {
			failed = fmt.Errorf("list %s: %w", sub, err)
			continue
		}
		for _, e := range entries {
			f(filepath.Join(sub, e.Name()), e)
		}
	}
	return failed
}

// Packed says whether the pack's index has been read (Preload, or a first
// read or write) and how many texts it holds.
func (t *Texts) Packed() (read bool, texts int) {
	t.pack.mu.Lock()
	defer t.pack.mu.Unlock()
	return t.pack.loaded, len(t.pack.at)
}

// ProcessTag marks this process's temporary files (SweepTemps keeps them).
func ProcessTag() string { return tmpTag }
