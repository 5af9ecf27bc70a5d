package offline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"unsafe"
)

// The table file is little-endian throughout:
//
//	magic      [8]byte  "LOOMWV\x00\x00"
//	version    uint32   tableVersion
//	dim        uint32   vector length (100 for GloVe 6B 100d)
//	count      uint32   number of words
//	sifA       float32  the SIF smoothing constant a
//	sourceLen  uint16, source [sourceLen]byte   provenance, free text
//	common     [dim]float32   the common component u (unit length) removed from every sentence
//	words      count × (uint8 length, bytes)   lower-case, most frequent first
//	prob       [count]float32 estimated unigram probability p(w), used for SIF weights
//	scale      [count]float32 per-vector dequantisation scale: v[d] = scale × q[d]
//	vectors    [count×dim]int8 quantised vectors, row-major
//	crc        uint32   CRC-32 (IEEE) of every byte before it
//
// The vectors come last and are used in place: parsing copies none of their
// 10 MB, and takes about 20 ms (mostly building the word index).
const (
	tableMagic   = "LOOMWV\x00\x00"
	tableVersion = 1
	maxWordLen   = 255
)

// table is a parsed table. Its vectors alias the bytes it was parsed from.
type table struct {
	dim    int
	sifA   float32
	source string
	common []float32
	words  []string
	prob   []float32
	scale  []float32
	q      []int8 // count × dim
}

// tableError reports a table that cannot be parsed.
func tableError(format string, args ...any) error {
	return fmt.Errorf("offline embedding table: "+format, args...)
}

// parseTable checks and decodes b. The returned table keeps references into b.
func parseTable(b []byte) (*table, error) {
	if len(b) < len(tableMagic)+4 {
		return nil, tableError("too short (%d bytes)", len(b))
	}
	if string(b[:len(tableMagic)]) != tableMagic {
		return nil, tableError("bad magic %q: not a Loom word-vector table", b[:len(tableMagic)])
	}
	body, trailer := b[:len(b)-4], b[len(b)-4:]
	if got, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(trailer); got != want {
		return nil, tableError("checksum mismatch (file is corrupt or truncated): rebuild it with `bash scripts/embeddings.sh`")
	}
	r := reader{b: body, off: len(tableMagic)}
	version := r.u32()
	if r.err == nil && version != tableVersion {
		return nil, tableError("version %d, this build reads version %d: rebuild it with `bash scripts/embeddings.sh`", version, tableVersion)
	}
	t := &table{}
	t.dim = int(r.u32())
	count := int(r.u32())
	t.sifA = r.f32()
	if r.err == nil && (t.dim <= 0 || t.dim > 4096 || count <= 0 || count > 1<<24) {
		return nil, tableError("implausible header: dim %d, count %d", t.dim, count)
	}
	if r.err == nil && !(t.sifA > 0 && t.sifA < 1) {
		return nil, tableError("SIF constant a = %v out of range (0,1)", t.sifA)
	}
	t.source = string(r.bytes(int(r.u16())))
	t.common = r.f32s(t.dim)
	t.words = make([]string, 0, count)
	if r.err == nil {
		// One string for all words, sliced, so loading makes two allocations
		// rather than one per word.
		start := r.off
		for i := 0; i < count && r.err == nil; i++ {
			r.bytes(int(r.u8()))
		}
		if r.err == nil {
			all := string(body[start:r.off])
			for off := 0; off < len(all); {
				n := int(all[off])
				t.words = append(t.words, all[off+1:off+1+n])
				off += 1 + n
			}
		}
	}
	t.prob = r.f32s(count)
	t.scale = r.f32s(count)
	raw := r.bytes(count * t.dim)
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(body) {
		return nil, tableError("%d unexpected trailing bytes", len(body)-r.off)
	}
	t.q = unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw))
	for i, p := range t.prob {
		if !(p > 0 && p <= 1) {
			return nil, tableError("word %q has probability %v outside (0,1]", t.words[i], p)
		}
		if s := t.scale[i]; !(s >= 0) || math.IsInf(float64(s), 0) {
			return nil, tableError("word %q has scale %v", t.words[i], s)
		}
	}
	for _, c := range t.common {
		if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
			return nil, tableError("common component is not finite")
		}
	}
	return t, nil
}

// reader decodes little-endian fields and remembers the first error.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.off < n {
		r.err = tableError("truncated at byte %d", r.off)
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u8() uint8 {
	if s := r.bytes(1); s != nil {
		return s[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if s := r.bytes(2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if s := r.bytes(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (r *reader) f32() float32 { return math.Float32frombits(r.u32()) }

func (r *reader) f32s(n int) []float32 {
	s := r.bytes(4 * n)
	if s == nil {
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(s[4*i:]))
	}
	return out
}

// encodeTable writes t in the format above.
func encodeTable(t *table) ([]byte, error) {
	count := len(t.words)
	if len(t.prob) != count || len(t.scale) != count || len(t.q) != count*t.dim || len(t.common) != t.dim {
		return nil, errors.New("encode table: inconsistent lengths")
	}
	if len(t.source) > math.MaxUint16 {
		return nil, errors.New("encode table: source description too long")
	}
	var buf bytes.Buffer
	buf.Grow(64 + len(t.source) + 4*t.dim + 10*count + count*t.dim)
	le := binary.LittleEndian
	buf.WriteString(tableMagic)
	buf.Write(le.AppendUint32(nil, tableVersion))
	buf.Write(le.AppendUint32(nil, uint32(t.dim)))
	buf.Write(le.AppendUint32(nil, uint32(count)))
	buf.Write(le.AppendUint32(nil, math.Float32bits(t.sifA)))
	buf.Write(le.AppendUint16(nil, uint16(len(t.source))))
	buf.WriteString(t.source)
	writeF32s := func(xs []float32) {
		for _, x := range xs {
			buf.Write(le.AppendUint32(nil, math.Float32bits(x)))
		}
	}
	writeF32s(t.common)
	for _, w := range t.words {
		if len(w) == 0 || len(w) > maxWordLen {
			return nil, fmt.Errorf("encode table: word %q has length %d, want 1..%d bytes", w, len(w), maxWordLen)
		}
		buf.WriteByte(byte(len(w)))
		buf.WriteString(w)
	}
	writeF32s(t.prob)
	writeF32s(t.scale)
	buf.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.q))), len(t.q)))
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	return buf.Bytes(), nil
}
