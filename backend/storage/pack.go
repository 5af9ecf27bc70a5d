package storage

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/errs"
)

// pack is an append-only file of texts under their hashes. Summaries and
// essences are made during questions, ten or so for each new question on
// a fresh workspace; creating a file for each cost ~0.2 ms of kernel time
// on the same cores the question runs on, so their texts go here, one
// write each. Ingested texts keep a file each (content/).
//
// A record is the text's length (uint32, little-endian), the CRC-32C of
// the hash's 32 bytes followed by the text, the hash (32 bytes of SHA-256)
// and the text. The index of where each text is, is read from the file the
// first time a text is looked up or stored. Reading stops at the first
// record that is torn (a crash in the middle of an append) or damaged; the
// file is cut back to the records before it when it is next appended to.
// A text lost that way is made again from its source when next needed:
// the summary node naming it finds no text and is remade (textAt).
type pack struct {
	path     string
	readOnly bool // opened for reading only; add fails

	mu     sync.Mutex
	loaded bool
	err    error // why the pack cannot be read (then texts go to files)
	f      *os.File
	at     map[string]packEntry
	size   int64 // end of the last good record
	end    int64 // end of the file when read (> size: a torn or bad tail)
	buf    []byte
	shut   bool // closed once: a late preload does not open the file again
}

type packEntry struct {
	off int64 // of the text
	n   int
}

const (
	packHeader = 4 + 4 + 32
	// packMaxText bounds a record's length when reading: a length above it
	// is damage, not a summary.
	packMaxText = 64 << 20
)

var packCRC = crc32.MakeTable(crc32.Castagnoli)

// load reads the index once. Callers hold p.mu.
func (p *pack) load() error {
	if p.loaded {
		return p.err
	}
	p.loaded = true
	p.at = map[string]packEntry{}
	flag := os.O_RDWR
	if p.readOnly {
		flag = os.O_RDONLY
	}
	f, err := os.OpenFile(p.path, flag, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // made by the first append
	}
	if err != nil {
		p.err = fmt.Errorf("open %s: %w", p.path, err)
		return p.err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		p.err = fmt.Errorf("read %s: %w", p.path, err)
		return p.err
	}
	p.f, p.end = f, st.Size()
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, p.end), 1<<20)
	var head [packHeader]byte
	var text []byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			break // the end, or a torn header
		}
		n := binary.LittleEndian.Uint32(head[0:4])
		if n > packMaxText || p.size+packHeader+int64(n) > p.end {
			break
		}
		if cap(text) < int(n) {
			text = make([]byte, n)
		}
		text = text[:n]
		if _, err := io.ReadFull(r, text); err != nil {
			break
		}
		crc := crc32.Update(crc32.Checksum(head[8:packHeader], packCRC), packCRC, text)
		if crc != binary.LittleEndian.Uint32(head[4:8]) {
			break
		}
		p.at[hex.EncodeToString(head[8:packHeader])] = packEntry{off: p.size + packHeader, n: int(n)}
		p.size += packHeader + int64(n)
	}
	return nil
}

// preload reads the index now (errors surface at the first read or add).
func (p *pack) preload() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.shut {
		_ = p.load()
	}
}

// read returns the text stored under hash, if the pack has it.
func (p *pack) read(hash string) (string, bool, error) {
	p.mu.Lock()
	if err := p.load(); err != nil {
		p.mu.Unlock()
		return "", false, err
	}
	e, ok := p.at[hash]
	f := p.f
	p.mu.Unlock()
	if !ok {
		return "", false, nil
	}
	b := make([]byte, e.n)
	if _, err := f.ReadAt(b, e.off); err != nil {
		return "", false, fmt.Errorf("read %s: %w", p.path, err)
	}
	return string(b), true, nil
}

// add stores text under hash (its SHA-256, in hex) unless the pack holds it
// already, in one write at the end of the file.
func (p *pack) add(hash, text string) error {
	sum, err := hex.DecodeString(hash)
	if err != nil || len(sum) != 32 {
		return fmt.Errorf("store a text in %s: %q is not a SHA-256 hash", p.path, hash)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.readOnly {
		return errs.E(errs.ReadOnly, "store a text in %s: the workspace is open read-only", p.path)
	}
	if err := p.load(); err != nil {
		return err
	}
	if _, ok := p.at[hash]; ok {
		return nil
	}
	if p.f == nil {
		f, err := os.OpenFile(p.path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("create %s: %w", p.path, err)
		}
		p.f = f
	}
	if p.end > p.size { // a torn or damaged tail: cut it off first
		if err := p.f.Truncate(p.size); err != nil {
			return fmt.Errorf("repair %s: %w", p.path, err)
		}
		p.end = p.size
	}
	rec := appendRecord(p.buf[:0], sum, text) // no allocation once buf has grown
	p.buf = rec
	crash.At("pack-append")
	if _, err := p.f.WriteAt(rec, p.size); err != nil {
		p.end = p.size + int64(len(rec)) // whatever was written is cut off next time
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	p.at[hash] = packEntry{off: p.size + packHeader, n: len(text)}
	p.size += int64(len(rec))
	p.end = p.size
	return nil
}

// appendRecord appends the record of text, stored under the 32 bytes of
// its SHA-256, to buf.
func appendRecord(buf, sum []byte, text string) []byte {
	at := len(buf)
	buf = append(buf, make([]byte, packHeader)...)
	rec := buf[at:]
	binary.LittleEndian.PutUint32(rec[0:4], uint32(len(text)))
	copy(rec[8:packHeader], sum)
	buf = append(buf, text...)
	binary.LittleEndian.PutUint32(buf[at+4:at+8], crc32.Checksum(buf[at+8:], packCRC))
	return buf
}

// close releases the file; a later read or add opens it again.
func (p *pack) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var err error
	if p.f != nil {
		err = p.f.Close()
	}
	p.f, p.loaded, p.err, p.at, p.buf, p.size, p.end = nil, false, nil, nil, nil, 0, 0
	p.shut = true
	return err
}
