package storage

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/loomwork/loom/graphdb"
)

// Unnamed counts the stored texts whose hashes named does not hold — the
// texts of documents removed or changed, of summaries replaced, of an
// ingest interrupted before its graph commit — and their bytes: files in
// content/ and records of the summaries' pack.
func (t *Texts) Unnamed(named map[string]bool) (texts int, bytes int64, err error) {
	files, n, b, err := t.unnamed(named)
	if err != nil {
		return 0, 0, err
	}
	for _, f := range files {
		b += f.size
	}
	return len(files) + n, b, nil
}

// ErrMoreUnnamed: Forget found more texts that nothing names than it was
// told to expect, and deleted none.
var ErrMoreUnnamed = errors.New("more stored texts are named by no node than expected")

// Forget deletes the stored texts Unnamed counts, when they are at most
// most (more is ErrMoreUnnamed, and nothing goes): their files, and their
// records (the pack written again without them, under a temporary name
// then renamed over it, so an interruption leaves the old pack or the new).
// The workspace must be this process's alone, with nothing staged: a text
// written for a graph commit still to come would go.
func (t *Texts) Forget(named map[string]bool, most int) (texts int, bytes int64, err error) {
	if t.readOnly {
		return 0, 0, fmt.Errorf("forget texts in %s: the workspace is open read-only", t.dir)
	}
	files, packed, _, err := t.unnamed(named)
	if err != nil {
		return 0, 0, err
	}
	if k := len(files) + packed; k > most {
		return 0, 0, fmt.Errorf("%d stored texts are named by no node, against %d expected: %w", k, most, ErrMoreUnnamed)
	}
	for _, f := range files {
		if err := os.Remove(f.path); err != nil && !os.IsNotExist(err) {
			return texts, bytes, fmt.Errorf("forget %s: %w", f.path, err)
		}
		texts++
		bytes += f.size
	}
	n, b, err := t.pack.forget(named)
	return texts + n, bytes + b, err
}

// unnamed lists content/'s texts that named does not hold, and counts the
// pack's records it does not hold and their bytes.
func (t *Texts) unnamed(named map[string]bool) (files []storedFile, packed int, packBytes int64, err error) {
	if files, err = t.unnamedFiles(named); err != nil {
		return nil, 0, 0, err
	}
	t.pack.mu.Lock()
	defer t.pack.mu.Unlock()
	if err := t.pack.load(); err != nil {
		return nil, 0, 0, err
	}
	_, packed, packBytes = t.pack.partition(named)
	return files, packed, packBytes, nil
}

type storedFile struct {
	path string
	size int64
}

// unnamedFiles lists content/'s texts (files named by a hash; temporary
// files are SweepTemps') whose hashes named does not hold.
func (t *Texts) unnamedFiles(named map[string]bool) ([]storedFile, error) {
	var out []storedFile
	err := t.eachStored(func(path string, e os.DirEntry) {
		if name := e.Name(); !graphdb.IsHash(name) || named[name] {
			return
		}
		if info, err := e.Info(); err == nil { // else gone meanwhile
			out = append(out, storedFile{path, info.Size()})
		}
	})
	return out, err
}

// partition splits the pack's records into the hashes named holds and
// the count and bytes of the others. Callers hold p.mu, the index loaded.
func (p *pack) partition(named map[string]bool) (keep []string, n int, bytes int64) {
	for h, e := range p.at {
		if named[h] {
			keep = append(keep, h)
		} else {
			n++
			bytes += packHeader + int64(e.n)
		}
	}
	return keep, n, bytes
}

// forget writes the pack again with the records named holds alone.
func (p *pack) forget(named map[string]bool) (int, int64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.load(); err != nil {
		return 0, 0, err
	}
	keep, n, bytes := p.partition(named)
	if n == 0 {
		return 0, 0, nil
	}
	slices.SortFunc(keep, func(a, b string) int { return int(p.at[a].off - p.at[b].off) })
	var data []byte
	for _, h := range keep {
		e := p.at[h]
		text := make([]byte, e.n)
		if _, err := p.f.ReadAt(text, e.off); err != nil {
			return 0, 0, fmt.Errorf("read %s: %w", p.path, err)
		}
		sum, _ := hex.DecodeString(h)
		data = appendRecord(data, sum, string(text))
	}
	if err := WriteFileAtomic(p.path, data); err != nil {
		return 0, 0, fmt.Errorf("write %s again: %w", p.path, err)
	}
	// Read the new file's index at the next use.
	if p.f != nil {
		p.f.Close()
	}
	p.f, p.loaded, p.err, p.at, p.size, p.end = nil, false, nil, nil, 0, 0
	return n, bytes, nil
}
