package search

import (
	"cmp"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
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
	keywordVersion = 1
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

// MarshalBinary encodes the live documents for the on-disk index cache:
//
//	"LOOMBM25" version K1 B (float64 LE)
//	slots, then per slot length+1 and distinct terms, or 0 if absent
//	terms, then per term: its bytes, its postings as (slot delta, tf), by slot
//
// with every integer a uvarint. Dead postings are left out, so the encoding
// depends only on the live documents, and UnmarshalBinary gives an index
// whose searches return identical results.
func (k *Keyword) MarshalBinary() ([]byte, error) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	b := make([]byte, 0, 64+len(k.docs)+8*(k.totalPostings-k.deadPostings))
	b = append(b, keywordMagic...)
	b = binary.AppendUvarint(b, keywordVersion)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(k.params.K1))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(k.params.B))
	b = binary.AppendUvarint(b, uint64(len(k.docs)))
	for slot, d := range k.docs {
		if d.live {
			b = binary.AppendUvarint(b, uint64(d.length)+1)
			b = binary.AppendUvarint(b, uint64(len(k.docTerms[slot])))
		} else {
			b = binary.AppendUvarint(b, 0)
		}
	}

	livePostings := func(list []posting, into []posting) []posting {
		into = into[:0]
		for _, p := range list {
			if k.docs[p.slot].gen == p.gen {
				into = append(into, p)
			}
		}
		return into
	}
	var buf []posting
	terms := 0
	for _, list := range k.postings {
		if buf = livePostings(list, buf); len(buf) > 0 {
			terms++
		}
	}
	b = binary.AppendUvarint(b, uint64(terms))
	for id, list := range k.postings {
		if buf = livePostings(list, buf); len(buf) == 0 {
			continue
		}
		slices.SortFunc(buf, func(x, y posting) int { return cmp.Compare(x.slot, y.slot) })
		b = binary.AppendUvarint(b, uint64(len(k.terms[id])))
		b = append(b, k.terms[id]...)
		b = binary.AppendUvarint(b, uint64(len(buf)))
		previous := int32(0)
		for _, p := range buf {
			b = binary.AppendUvarint(b, uint64(p.slot-previous))
			b = binary.AppendUvarint(b, uint64(p.tf))
			previous = p.slot
		}
	}
	return b, nil
}

// UnmarshalBinary replaces the index's contents, BM25 parameters included,
// with data from MarshalBinary. On error the index is left unchanged.
func (k *Keyword) UnmarshalBinary(data []byte) error {
	d := decoder{b: data}
	d.magic(keywordMagic, keywordVersion)
	params := BM25{K1: d.float64(), B: d.float64()}
	if err := params.validate(); d.err == nil && err != nil {
		d.fail("%v", err)
	}

	fresh := &Keyword{params: params, ids: map[string]int32{}}
	fresh.docs = make([]docInfo, d.count(1))
	fresh.docTerms = make([][]int32, len(fresh.docs))
	distinct := make([]int, len(fresh.docs))
	total := 0
	for i := range fresh.docs {
		v := d.uvarint()
		if v == 0 {
			continue
		}
		distinct[i] = d.count(2) // each of its postings takes two bytes or more
		if v-1 > math.MaxUint32 || uint64(distinct[i]) > v-1 {
			d.fail("slot %d: length %d, %d distinct terms", i, v-1, distinct[i])
			break
		}
		total += distinct[i]
		fresh.docs[i] = docInfo{length: uint32(v - 1), live: true}
		fresh.live++
		fresh.totalLength += int64(v - 1)
	}
	if d.err == nil && total > len(d.b)/2 {
		d.fail("%d postings declared but %d bytes left", total, len(d.b))
	}
	if d.err == nil {
		// One allocation for every document's term ids; each slot's share is
		// capped so that a later Set appending past it reallocates.
		arena := make([]int32, total)
		for i, n := range distinct {
			fresh.docTerms[i], arena = arena[:0:n], arena[n:]
		}
	}

	terms := d.count(3) // a term takes at least a length, a byte and a count
	fresh.terms = make([]string, 0, terms)
	fresh.postings = make([][]posting, 0, terms)
	fresh.ids = make(map[string]int32, terms)
	// Every posting list is cut from one allocation (there are as many
	// postings as distinct terms per document); each is capped, so a later
	// Set appending to one reallocates it instead of writing over the next.
	var postingArena []posting
	if d.err == nil {
		postingArena = make([]posting, total)
	}
	for i := 0; i < terms && d.err == nil; i++ {
		term := string(d.bytes(d.count(1)))
		if _, dup := fresh.ids[term]; d.err == nil && (term == "" || dup) {
			d.fail("empty or repeated term %q", term)
		}
		n := d.count(2)
		if n > len(postingArena) {
			d.fail("term %q: %d postings, more than declared", term, n)
			break
		}
		list := postingArena[:n:n]
		postingArena = postingArena[n:]
		slot := uint64(0)
		for j := range list {
			delta, tf := d.uvarint(), d.uvarint()
			slot += delta
			if d.err != nil {
				break
			}
			if (j > 0 && delta == 0) || slot >= uint64(len(fresh.docs)) || tf == 0 || tf > math.MaxUint16 ||
				len(fresh.docTerms[slot]) == cap(fresh.docTerms[slot]) {
				d.fail("term %q: bad posting (slot %d, tf %d)", term, slot, tf)
				break
			}
			list[j] = posting{slot: int32(slot), tf: uint16(tf)}
			fresh.docTerms[slot] = append(fresh.docTerms[slot], int32(len(fresh.terms)))
		}
		fresh.ids[term] = int32(len(fresh.terms))
		fresh.terms = append(fresh.terms, term)
		fresh.postings = append(fresh.postings, list)
		fresh.df = append(fresh.df, int32(len(list)))
		fresh.totalPostings += len(list)
	}
	for slot, ids := range fresh.docTerms {
		if d.err == nil && len(ids) != distinct[slot] {
			d.fail("slot %d: %d distinct terms declared, %d found", slot, distinct[slot], len(ids))
		}
	}
	if err := d.end(); err != nil {
		return fmt.Errorf("unmarshal keyword index: %w", err)
	}

	k.mu.Lock()
	defer k.mu.Unlock()
	k.params = fresh.params
	k.ids, k.terms, k.postings, k.df, k.freeIDs = fresh.ids, fresh.terms, fresh.postings, fresh.df, nil
	k.docs, k.docTerms, k.live, k.totalLength = fresh.docs, fresh.docTerms, fresh.live, fresh.totalLength
	k.totalPostings, k.deadPostings = fresh.totalPostings, 0
	return nil
}

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
	v.sk = nil // rebuilt from the new rows on first need
	v.due.Store(v.sketchDue())
	return nil
}
