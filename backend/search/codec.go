package search

import (
	"cmp"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strings"
	"unsafe"
)

var (
	_ encoding.BinaryMarshaler   = (*Keyword)(nil)
	_ encoding.BinaryUnmarshaler = (*Keyword)(nil)
	_ encoding.BinaryMarshaler   = (*Vectors)(nil)
	_ encoding.BinaryUnmarshaler = (*Vectors)(nil)
)

// ErrBadIndex is wrapped by every UnmarshalBinary error: the data is not an
// index this package wrote (truncated, corrupt, or another format or
// version). A cache holding such data should be rebuilt from the nodes.
var ErrBadIndex = errors.New("search: malformed index data")

const (
	keywordMagic   = "LOOMBM25"
	vectorsMagic   = "LOOMVECS"
	keywordVersion = 4
	vectorsVersion = 1
	// maxDim bounds what a corrupt header can make UnmarshalBinary allocate;
	// embedding models stay far below it.
	maxDim = 1 << 16
)

func badIndex(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadIndex, fmt.Sprintf(format, args...))
}

// decoder reads the little-endian and varint fields of the encodings,
// remembering the first error so that callers check once per section.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = badIndex(format, args...)
	}
}

func (d *decoder) magic(want string, version uint64) {
	if len(d.b) < len(want) || string(d.b[:len(want)]) != want {
		d.fail("not a %s encoding", want)
		return
	}
	d.b = d.b[len(want):]
	if got := d.uvarint(); d.err == nil && got != version {
		d.fail("%s version %d, want %d", want, got, version)
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("truncated or overlong varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length that must be satisfiable by the remaining bytes at
// minBytes each, so corrupt data cannot ask for a huge allocation.
func (d *decoder) count(minBytes int) int {
	v := d.uvarint()
	if d.err == nil && v > uint64(len(d.b)/minBytes) {
		d.fail("count %d exceeds the %d bytes left", v, len(d.b))
		return 0
	}
	return int(v)
}

func (d *decoder) float64() float64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("truncated float")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.fail("truncated")
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) end() error {
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d trailing bytes", len(d.b))
	}
	return d.err
}

// MarshalBinary encodes the live documents for the on-disk index cache, in
// a flat layout that UnmarshalBinary reads without a per-term allocation
// or map insert. All fields are little-endian, offsets from the start:
//
//	0   "LOOMBM25", version (uint32), 0 (uint32), K1, B (float64)
//	32  slots, terms (uint32), postings, term bytes (uint64)
//	64  per slot: length+1 (uint32), or 0 if absent
//	    per term: end of its bytes in the term blob (uint32)
//	    per term: end of its postings in the posting array (uint32)
//	    the term blob: the terms in strictly increasing byte order
//	    zero padding to a multiple of 8
//	    the postings, term after term, each by increasing slot:
//	    slot (uint32), tf (uint16), 0 (uint16)
//	    CRC-32C (Castagnoli) of everything before it (uint32)
//
// Dead postings are left out, so the encoding depends only on the live
// documents, and UnmarshalBinary gives an index whose searches return
// identical results. The posting array starts 8-aligned, so a reader whose
// buffer is 8-aligned can use it in place (UnmarshalShared).
func (k *Keyword) MarshalBinary() ([]byte, error) {
	k.mu.RLock()
	defer k.mu.RUnlock()

	// The live terms in byte order: the base ids are sorted already, the
	// others are sorted apart and merged in.
	live := func(id int32) bool {
		for _, p := range k.postingsOf(id) {
			if k.docs[p.slot].gen == p.gen {
				return true
			}
		}
		return false
	}
	var baseIDs, restIDs []int32
	base := k.base
	if k.fz != nil {
		base = k.numTerms() // all of them, in order
	}
	for id := range int32(k.numTerms()) {
		if !live(id) {
			continue
		}
		if int(id) < base {
			baseIDs = append(baseIDs, id)
		} else {
			restIDs = append(restIDs, id)
		}
	}
	byTerm := func(x, y int32) int { return strings.Compare(k.termOf(x), k.termOf(y)) }
	slices.SortFunc(restIDs, byTerm)
	order := make([]int32, 0, len(baseIDs)+len(restIDs))
	for len(baseIDs) > 0 || len(restIDs) > 0 {
		if len(restIDs) == 0 || (len(baseIDs) > 0 && byTerm(baseIDs[0], restIDs[0]) < 0) {
			order, baseIDs = append(order, baseIDs[0]), baseIDs[1:]
		} else {
			order, restIDs = append(order, restIDs[0]), restIDs[1:]
		}
	}

	termBytes, postings := 0, 0
	for _, id := range order {
		termBytes += len(k.termOf(id))
		for _, p := range k.postingsOf(id) {
			if k.docs[p.slot].gen == p.gen {
				postings++
			}
		}
	}
	if uint64(len(k.docs)) > math.MaxUint32 || uint64(len(order)) > math.MaxUint32 || uint64(termBytes) > math.MaxUint32 || uint64(postings) > math.MaxUint32 {
		return nil, fmt.Errorf("search: keyword index too large to encode")
	}
	lay := keywordLayout(uint64(len(k.docs)), uint64(len(order)), uint64(postings), uint64(termBytes))
	b := make([]byte, lay.size)
	copy(b, keywordMagic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], keywordVersion)
	le.PutUint64(b[16:], math.Float64bits(k.params.K1))
	le.PutUint64(b[24:], math.Float64bits(k.params.B))
	le.PutUint32(b[32:], uint32(len(k.docs)))
	le.PutUint32(b[36:], uint32(len(order)))
	le.PutUint64(b[40:], uint64(postings))
	le.PutUint64(b[48:], uint64(termBytes))
	for slot, d := range k.docs {
		if d.live {
			le.PutUint32(b[lay.lengths+4*uint64(slot):], d.length+1)
		}
	}
	blob, out := lay.blob, lay.postings
	var buf []posting
	for i, id := range order {
		blob += uint64(copy(b[blob:], k.termOf(id)))
		le.PutUint32(b[lay.termEnds+4*uint64(i):], uint32(blob-lay.blob))
		buf = buf[:0]
		for _, p := range k.postingsOf(id) {
			if k.docs[p.slot].gen == p.gen {
				buf = append(buf, p)
			}
		}
		slices.SortFunc(buf, func(x, y posting) int { return cmp.Compare(x.slot, y.slot) })
		for _, p := range buf {
			le.PutUint32(b[out:], uint32(p.slot))
			le.PutUint16(b[out+4:], p.tf)
			out += 8
		}
		le.PutUint32(b[lay.postEnds+4*uint64(i):], uint32((out-lay.postings)/8))
	}
	le.PutUint32(b[lay.crc:], crc32.Checksum(b[:lay.crc], castagnoli))
	return b, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// keywordHeader is the fixed part of the keyword encoding.
const keywordHeader = 64

// layout is where each section of a keyword encoding starts.
type layout struct {
	lengths, termEnds, postEnds, blob, postings, crc, size uint64
}

// keywordLayout computes the sections' offsets; counts must be bounded by
// the caller (the decoder bounds them by the data's length first), so
// nothing overflows.
func keywordLayout(slots, terms, postings, termBytes uint64) layout {
	var l layout
	l.lengths = keywordHeader
	l.termEnds = l.lengths + 4*slots
	l.postEnds = l.termEnds + 4*terms
	l.blob = l.postEnds + 4*terms
	l.postings = (l.blob + termBytes + 7) &^ 7
	l.crc = l.postings + 8*postings
	l.size = l.crc + 4
	return l
}

// UnmarshalBinary replaces the index's contents, BM25 parameters included,
// with data from MarshalBinary. On error the index is left unchanged. The
// index keeps no reference to data.
func (k *Keyword) UnmarshalBinary(data []byte) error {
	return k.unmarshal(data, false)
}

// UnmarshalShared is UnmarshalBinary that may keep using data's posting
// array in place instead of copying it, when data is 8-aligned in memory
// and the machine little-endian. The caller must not modify data
// afterwards.
func (k *Keyword) UnmarshalShared(data []byte) error {
	return k.unmarshal(data, true)
}

func (k *Keyword) unmarshal(data []byte, shared bool) error {
	fresh, err := decodeKeyword(data, shared)
	if err != nil {
		return fmt.Errorf("unmarshal keyword index: %w", err)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.params, k.base = fresh.params, 0
	k.ids, k.terms, k.postings, k.df, k.freeIDs, k.fz = fresh.ids, nil, nil, fresh.df, nil, fresh.fz
	k.docs, k.docTerms, k.live, k.totalLength = fresh.docs, nil, fresh.live, fresh.totalLength
	k.totalPostings, k.deadPostings = fresh.totalPostings, 0
	return nil
}

func decodeKeyword(data []byte, shared bool) (*Keyword, error) {
	le := binary.LittleEndian
	n := uint64(len(data))
	if n < keywordHeader+4 || string(data[:8]) != keywordMagic {
		return nil, badIndex("not a %s encoding", keywordMagic)
	}
	if v := le.Uint32(data[8:]); v != keywordVersion || le.Uint32(data[12:]) != 0 {
		return nil, badIndex("%s version %d, want %d", keywordMagic, v, keywordVersion)
	}
	params := BM25{K1: math.Float64frombits(le.Uint64(data[16:])), B: math.Float64frombits(le.Uint64(data[24:]))}
	if err := params.validate(); err != nil {
		return nil, badIndex("%v", err)
	}
	slots, terms := uint64(le.Uint32(data[32:])), uint64(le.Uint32(data[36:]))
	postings, termBytes := le.Uint64(data[40:]), le.Uint64(data[48:])
	if postings > n/8 || termBytes > n {
		return nil, badIndex("%d postings, %d term bytes in %d bytes", postings, termBytes, n)
	}
	lay := keywordLayout(slots, terms, postings, termBytes)
	if lay.size != n {
		return nil, badIndex("%d bytes, the header implies %d", n, lay.size)
	}
	if got, want := crc32.Checksum(data[:lay.crc], castagnoli), le.Uint32(data[lay.crc:]); got != want {
		return nil, badIndex("checksum %08x, want %08x", got, want)
	}
	// The checksum catches damage; the checks below keep a file that some
	// other writer got wrong from breaking the index's invariants.
	for i := lay.blob + termBytes; i < lay.postings; i++ {
		if data[i] != 0 {
			return nil, badIndex("padding")
		}
	}

	if postings > math.MaxUint32 {
		return nil, badIndex("%d postings", postings)
	}
	fresh := &Keyword{params: params, ids: map[string]int32{}}
	fresh.docs = make([]docInfo, slots)
	for slot := range fresh.docs {
		v := le.Uint32(data[lay.lengths+4*uint64(slot):])
		if v == 0 {
			continue
		}
		fresh.docs[slot] = docInfo{length: v - 1, live: true}
		fresh.live++
		fresh.totalLength += int64(v - 1)
	}

	// In place when allowed: the offsets are little-endian uint32s at
	// 4-aligned offsets and the term blob is never written.
	inPlace := shared && littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(data)))%8 == 0
	f := &frozen{}
	if inPlace && terms > 0 {
		f.termEnds = unsafe.Slice((*uint32)(unsafe.Pointer(&data[lay.termEnds])), terms)
		f.postEnds = unsafe.Slice((*uint32)(unsafe.Pointer(&data[lay.postEnds])), terms)
	} else {
		f.termEnds, f.postEnds = make([]uint32, terms), make([]uint32, terms)
		for i := range f.termEnds {
			f.termEnds[i] = le.Uint32(data[lay.termEnds+4*uint64(i):])
			f.postEnds[i] = le.Uint32(data[lay.postEnds+4*uint64(i):])
		}
	}
	if inPlace && termBytes > 0 {
		f.blob = unsafe.String(&data[lay.blob], termBytes)
	} else {
		f.blob = string(data[lay.blob : lay.blob+termBytes])
	}
	start := uint32(0)
	for i, end := range f.termEnds {
		if end <= start || uint64(end) > termBytes {
			return nil, badIndex("term %d: bytes %d to %d", i, start, end)
		}
		if i > 0 && f.term(int32(i-1)) >= f.term(int32(i)) {
			return nil, badIndex("terms %q, %q out of order", f.term(int32(i-1)), f.term(int32(i)))
		}
		start = end
	}
	if uint64(start) != termBytes {
		return nil, badIndex("%d term bytes, %d used", termBytes, start)
	}

	raw := data[lay.postings:lay.crc]
	if inPlace && postings > 0 {
		f.arena = unsafe.Slice((*posting)(unsafe.Pointer(&raw[0])), postings)
	} else {
		f.arena = make([]posting, postings)
		for i := range f.arena {
			f.arena[i] = posting{slot: int32(le.Uint32(raw[8*i:])), tf: le.Uint16(raw[8*i+4:]), gen: le.Uint16(raw[8*i+6:])}
		}
	}
	fresh.df = make([]int32, terms)
	from := uint64(0)
	for i, end := range f.postEnds {
		to := uint64(end)
		if to <= from || to > postings {
			return nil, badIndex("term %q: postings %d to %d", f.term(int32(i)), from, to)
		}
		previous := int32(-1)
		for _, p := range f.arena[from:to] {
			if p.slot <= previous || uint64(p.slot) >= slots || p.tf == 0 || p.gen != 0 || !fresh.docs[p.slot].live {
				return nil, badIndex("term %q: bad posting (slot %d, tf %d)", f.term(int32(i)), p.slot, p.tf)
			}
			previous = p.slot
		}
		fresh.df[i] = int32(to - from)
		from = to
	}
	if from != postings {
		return nil, badIndex("%d postings, %d used", postings, from)
	}
	fresh.fz, fresh.totalPostings = f, int(postings)
	return fresh, nil
}

// littleEndian: the posting array's bytes are the in-memory postings.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// The encoding's posting records are the in-memory posting struct.
var _ [8]byte = [unsafe.Sizeof(posting{})]byte{}
var _ [4]byte = [unsafe.Offsetof(posting{}.tf)]byte{}
var _ [6]byte = [unsafe.Offsetof(posting{}.gen)]byte{}

// MarshalBinary encodes the vectors for the on-disk index cache:
//
//	"LOOMVECS" version dim slots (uvarints)
//	a bitmap of present slots, ⌈slots/8⌉ bytes, low bit first
//	the present rows in slot order, float32 little-endian
//
// Rows are stored as normalised, so UnmarshalBinary restores them bit for
// bit.
func (v *Vectors) MarshalBinary() ([]byte, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	b := make([]byte, 0, 32+(len(v.present)+7)/8+4*v.live*v.dim)
	b = append(b, vectorsMagic...)
	b = binary.AppendUvarint(b, vectorsVersion)
	b = binary.AppendUvarint(b, uint64(v.dim))
	b = binary.AppendUvarint(b, uint64(len(v.present)))
	bitmap := make([]byte, (len(v.present)+7)/8)
	for slot, ok := range v.present {
		if ok {
			bitmap[slot/8] |= 1 << (slot % 8)
		}
	}
	b = append(b, bitmap...)
	for slot, ok := range v.present {
		if !ok {
			continue
		}
		for _, x := range v.data[slot*v.dim : (slot+1)*v.dim] {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return b, nil
}

// UnmarshalBinary replaces the vectors, dimension included, with data from
// MarshalBinary. On error v is left unchanged.
func (v *Vectors) UnmarshalBinary(data []byte) error {
	d := decoder{b: data}
	d.magic(vectorsMagic, vectorsVersion)
	dim := d.uvarint()
	if d.err == nil && (dim == 0 || dim > maxDim) {
		d.fail("dimension %d", dim)
	}
	slots := d.uvarint()
	if d.err == nil && slots > 8*uint64(len(d.b)) {
		d.fail("%d slots but %d bytes left", slots, len(d.b))
	}
	bitmap := d.bytes(int((slots + 7) / 8))
	if d.err != nil {
		return fmt.Errorf("unmarshal vectors: %w", d.err)
	}

	present := make([]bool, slots)
	live := 0
	for slot := range present {
		if bitmap[slot/8]&(1<<(slot%8)) != 0 {
			present[slot] = true
			live++
		}
	}
	if slots%8 != 0 && bitmap[len(bitmap)-1]>>(slots%8) != 0 {
		return fmt.Errorf("unmarshal vectors: %w", badIndex("bits set past slot %d", slots))
	}
	if uint64(len(d.b))/4/dim != uint64(live) || uint64(len(d.b)) != 4*dim*uint64(live) {
		return fmt.Errorf("unmarshal vectors: %w", badIndex("%d bytes for %d rows of %d", len(d.b), live, dim))
	}
	n := int(dim)
	matrix := make([]float32, int(slots)*n)
	for slot, ok := range present {
		if !ok {
			continue
		}
		row := matrix[slot*n : (slot+1)*n]
		for i := range row {
			row[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.b))
			d.b = d.b[4:]
		}
	}

	v.mu.Lock()
	defer v.mu.Unlock()
	v.dim, v.data, v.present, v.live = n, matrix, present, live
	v.sk, v.q = nil, nil // rebuilt from the new rows on first need
	v.due.Store(v.prepareDue())
	return nil
}
