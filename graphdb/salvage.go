package graphdb

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"

	"github.com/cayleygraph/cayley/graph/proto"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/pquads"
)

// Salvage reads what can still be read of a damaged bolt store in dir,
// without bolt: it walks the file's pages itself from the newest meta page
// whose checksum holds, down the B+tree of Cayley's log bucket (where every
// value and quad is recorded), skipping any page that is not what its
// parent says it is, and rebuilds the graph from the quads whose values it
// found. Only pages reachable from the current root are read, so nothing
// deleted or overwritten comes back. It never writes the file.
//
// The report says what was left out; Lost counts quads whose values were
// on unreadable pages, and attributes that no longer parse.
func Salvage(dir string) (*Snapshot, SalvageReport, error) {
	path := filepath.Join(dir, BoltFile)
	var rep SalvageReport
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, rep, fmt.Errorf("salvage %s: %w", path, err)
	}
	f := &boltFile{data: data, seen: map[uint64]bool{}, rep: &rep}
	meta, err := f.meta()
	if err != nil {
		return nil, rep, &DamagedError{Path: path, Problem: err.Error()}
	}
	rep.TxID = meta.txid
	var logRoot uint64
	var logInline []byte
	f.walk(meta.root, nil, func(key, value []byte, bucket bool) {
		if bucket && string(key) == "log" && len(value) >= 16 {
			logRoot = binary.LittleEndian.Uint64(value)
			if logRoot == 0 {
				logInline = value[16:]
			}
		}
	})
	prims := map[uint64]*proto.Primitive{}
	collect := func(key, value []byte, bucket bool) {
		if bucket || len(key) != 8 {
			return
		}
		var p proto.Primitive
		if err := p.Unmarshal(value); err != nil {
			rep.Undecodable++
			return
		}
		prims[p.ID] = &p
	}
	switch {
	case logRoot != 0:
		f.walk(logRoot, nil, collect)
	case logInline != nil:
		f.walk(0, logInline, collect)
	default:
		rep.Problems = append(rep.Problems, "Cayley's log bucket is not in the root bucket")
	}

	values := map[uint64]quad.Value{}
	var links []*proto.Primitive
	for id, p := range prims {
		switch {
		case p.Subject != 0 || p.Predicate != 0 || p.Object != 0:
			if !p.Deleted {
				links = append(links, p)
			}
		case len(p.Value) > 0:
			v, err := pquads.UnmarshalValue(p.Value)
			if err != nil {
				rep.Undecodable++
				continue
			}
			values[id] = v
		}
	}
	sort.Slice(links, func(i, j int) bool { return links[i].ID < links[j].ID })
	snap := &Snapshot{DocNodes: map[string][]string{}}
	var lost Lost
	for _, p := range links {
		q := quad.Quad{Subject: values[p.Subject], Predicate: values[p.Predicate], Object: values[p.Object]}
		if p.Label != 0 {
			q.Label = values[p.Label]
		}
		if q.Subject == nil || q.Predicate == nil || q.Object == nil {
			lost.Quads++
			continue
		}
		rep.Quads++
		if q.Subject == iriWorkspace && q.Predicate == predMeta {
			var m metaAttrs
			if json.Unmarshal([]byte(literal(q.Object)), &m) == nil {
				snap.Meta = m.Meta
				rep.HasMeta = true
			}
			continue
		}
		snap.addQuad(q, &lost)
	}
	snap.finish()
	lost.Quads += len(lost.Attrs)
	rep.Lost = lost
	snap.Sort()
	return snap, rep, nil
}

// SalvageReport says what Salvage read and what it had to leave out.
type SalvageReport struct {
	// TxID is the transaction of the meta page it read from.
	TxID uint64
	// Quads were read whole; Lost left out.
	Quads int
	Lost  Lost
	// HasMeta: the workspace facts' quad was among them.
	HasMeta bool
	// Pages that could not be read (and whose subtrees were skipped).
	BadPages int
	// Undecodable records in the log.
	Undecodable int
	// Problems name the first few things that went wrong.
	Problems []string
}

// boltFile reads bolt's on-disk layout (bbolt's internal/common, format
// version 2): pages of pageSize bytes with a 16-byte header (id uint64,
// flags uint16, count uint16, overflow uint32), branch elements (pos,
// ksize uint32, child pgid uint64) and leaf elements (flags, pos, ksize,
// vsize uint32), each element's key at its own address plus pos.
type boltFile struct {
	data     []byte
	pageSize uint64
	seen     map[uint64]bool
	rep      *SalvageReport
}

const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	pageHeaderSize   = 16
	elementSize      = 16
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	bucketLeafFlag   = 0x01
	metaChecksumSpan = 56 // magic … txid: what the meta's checksum covers
	maxSalvageIssues = 8
)

type boltMeta struct {
	pageSize uint32
	root     uint64
	pgid     uint64
	txid     uint64
}

// meta reads the newer of the two meta pages whose checksum holds.
func (f *boltFile) meta() (boltMeta, error) {
	var best boltMeta
	found := false
	for _, ps := range []uint64{4096, 8192, 16384, 65536, 2048, 1024} {
		for i := uint64(0); i < 2; i++ {
			off := i * ps
			if off+pageHeaderSize+metaChecksumSpan+8 > uint64(len(f.data)) {
				continue
			}
			b := f.data[off+pageHeaderSize:]
			le := binary.LittleEndian
			if le.Uint32(b) != boltMagic || le.Uint32(b[4:]) != boltVersion {
				continue
			}
			h := fnv.New64a()
			h.Write(b[:metaChecksumSpan])
			if h.Sum64() != le.Uint64(b[metaChecksumSpan:]) {
				continue
			}
			m := boltMeta{pageSize: le.Uint32(b[8:]), root: le.Uint64(b[16:]), pgid: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}
			if uint64(m.pageSize) != ps {
				continue
			}
			if !found || m.txid > best.txid {
				best, found = m, true
			}
		}
		if found {
			f.pageSize = uint64(best.pageSize)
			return best, nil
		}
	}
	return best, errors.New("neither of its meta pages is readable, so where its data starts is unknown")
}

func (f *boltFile) problem(format string, args ...any) {
	f.rep.BadPages++
	if len(f.rep.Problems) < maxSalvageIssues {
		f.rep.Problems = append(f.rep.Problems, fmt.Sprintf(format, args...))
	}
}

// walk visits every leaf element under page id (or the inline page given),
// skipping pages that cannot be read.
func (f *boltFile) walk(id uint64, inline []byte, visit func(key, value []byte, bucket bool)) {
	var page []byte
	if inline != nil {
		page = inline
	} else {
		if f.seen[id] {
			f.problem("page %d is reached twice", id)
			return
		}
		f.seen[id] = true
		start := id * f.pageSize
		if id < 2 || start+pageHeaderSize > uint64(len(f.data)) {
			f.problem("page %d is beyond the end of the file", id)
			return
		}
		head := f.data[start:]
		if got := binary.LittleEndian.Uint64(head); got != id {
			f.problem("page %d calls itself page %d", id, got)
			return
		}
		end := start + (uint64(binary.LittleEndian.Uint32(head[12:]))+1)*f.pageSize
		if end > uint64(len(f.data)) {
			f.problem("page %d runs past the end of the file", id)
			return
		}
		page = f.data[start:end]
	}
	if len(page) < pageHeaderSize {
		f.problem("an inline page is cut short")
		return
	}
	flags := binary.LittleEndian.Uint16(page[8:])
	count := uint64(binary.LittleEndian.Uint16(page[10:]))
	if pageHeaderSize+count*elementSize > uint64(len(page)) {
		f.problem("page %d says it holds %d elements, more than fit", id, count)
		return
	}
	le := binary.LittleEndian
	for i := uint64(0); i < count; i++ {
		el := pageHeaderSize + i*elementSize
		switch flags {
		case branchPageFlag:
			pos, ksize, child := uint64(le.Uint32(page[el:])), uint64(le.Uint32(page[el+4:])), le.Uint64(page[el+8:])
			if el+pos+ksize > uint64(len(page)) {
				f.problem("page %d: element %d's key runs past the page", id, i)
				continue
			}
			f.walk(child, nil, visit)
		case leafPageFlag:
			eflags, pos := le.Uint32(page[el:]), uint64(le.Uint32(page[el+4:]))
			ksize, vsize := uint64(le.Uint32(page[el+8:])), uint64(le.Uint32(page[el+12:]))
			kstart := el + pos
			if kstart+ksize+vsize > uint64(len(page)) {
				f.problem("page %d: element %d runs past the page", id, i)
				continue
			}
			visit(page[kstart:kstart+ksize], page[kstart+ksize:kstart+ksize+vsize], eflags&bucketLeafFlag != 0)
		default:
			f.problem("page %d is neither a branch nor a leaf (flags %#x)", id, flags)
			return
		}
	}
}

var jsonMarshal = json.Marshal

// CheckPages walks every page of the bolt file in dir that the current
// root reaches, through every bucket, without bolt (whose own check runs
// on a goroutine of its own and panics on the damage it finds), and says
// how many pages it read and what was wrong with the others.
func CheckPages(dir string) (pages int, rep SalvageReport, err error) {
	path := filepath.Join(dir, BoltFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, rep, err
	}
	f := &boltFile{data: data, seen: map[uint64]bool{}, rep: &rep}
	meta, err := f.meta()
	if err != nil {
		return 0, rep, &DamagedError{Path: path, Problem: err.Error()}
	}
	rep.TxID = meta.txid
	var visit func(key, value []byte, bucket bool)
	visit = func(key, value []byte, bucket bool) {
		if !bucket {
			return
		}
		if len(value) < 16 {
			f.problem("bucket %q has a header cut short", key)
			return
		}
		if root := binary.LittleEndian.Uint64(value); root != 0 {
			f.walk(root, nil, visit)
		} else {
			f.walk(0, value[16:], visit)
		}
	}
	f.walk(meta.root, nil, visit)
	return len(f.seen), rep, nil
}
