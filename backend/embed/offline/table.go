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
//	magic        [8]byte  "LOOMST\x00\x00"
//	version      uint32   tableVersion
//	dim          uint32   vector length
//	count        uint32   vocabulary size: one row per token id
//	maxWordChars uint32   WordPiece: a longer word is [UNK]
//	id           uint8 length, bytes   the embedder's ID (embed.Embedder.ID)
//	unk, prefix  2 × (uint8 length, bytes)   the unknown token and the continuation prefix ("##")
//	sourceLen    uint16, source [sourceLen]byte   provenance, free text
//	tokens       count × (uint8 length, bytes)    the WordPiece vocabulary in id order
//	weight       [count]float32  each token's weight in a text's sum (0: never counted)
//	scale        [count]float32  per-row dequantisation scale: v[d] = scale × q[d]
//	vectors      [count×dim]int8 quantised rows, row-major
//	crc          uint32   CRC-32 (IEEE) of every byte before it
//
// The vectors come last and are used in place: parsing copies none of them.
// A token's vector in a text is weight × scale × q; rows of tokens that
// were not distilled ([PAD], [unusedN], …) are zero with weight 0.
const (
	tableMagic   = "LOOMST\x00\x00"
	tableVersion = 1
	maxTokenLen  = 255
)

// table is a parsed table. Its vectors alias the bytes it was parsed from.
type table struct {
	dim          int
	maxWordChars int
	id           string
	unk, prefix  string
	source       string
	tokens       []string
	weight       []float32
	scale        []float32
	q            []int8 // count × dim
}

// TableError is a table that cannot be read. Its message names the file
// (FromFile sets File) and says how to rebuild it.
type TableError struct {
	File   string // empty for bytes that did not come from a file
	Reason string
}

func (e *TableError) Error() string {
	where := "offline embedding table"
	if e.File != "" {
		where += " " + e.File
	}
	return fmt.Sprintf("%s: %s: rebuild it with `bash scripts/embeddings.sh`", where, e.Reason)
}

func tableError(format string, args ...any) error {
	return &TableError{Reason: fmt.Sprintf(format, args...)}
}

// parseTable checks and decodes b. The returned table keeps references into b.
func parseTable(b []byte) (*table, error) {
	if len(b) < len(tableMagic)+8 {
		return nil, tableError("too short (%d bytes)", len(b))
	}
	if string(b[:len(tableMagic)]) != tableMagic {
		return nil, tableError("bad magic %q: not a Loom static embedding table", b[:len(tableMagic)])
	}
	body, trailer := b[:len(b)-4], b[len(b)-4:]
	if got, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(trailer); got != want {
		return nil, tableError("checksum mismatch (the file is corrupt or truncated)")
	}
	r := reader{b: body, off: len(tableMagic)}
	if version := r.u32(); r.err == nil && version != tableVersion {
		return nil, tableError("version %d, this build reads version %d", version, tableVersion)
	}
	t := &table{}
	t.dim = int(r.u32())
	count := int(r.u32())
	t.maxWordChars = int(r.u32())
	if r.err == nil && (t.dim <= 0 || t.dim > 4096 || count <= 0 || count > 1<<22 || t.maxWordChars <= 0) {
		return nil, tableError("implausible header: dim %d, count %d, max word chars %d", t.dim, count, t.maxWordChars)
	}
	t.id = string(r.bytes(int(r.u8())))
	t.unk = string(r.bytes(int(r.u8())))
	t.prefix = string(r.bytes(int(r.u8())))
	t.source = string(r.bytes(int(r.u16())))
	if r.err == nil {
		// One string for all tokens, sliced: two allocations, not one per token.
		start := r.off
		for i := 0; i < count && r.err == nil; i++ {
			r.bytes(int(r.u8()))
		}
		if r.err == nil {
			all := string(body[start:r.off])
			t.tokens = make([]string, 0, count)
			for off := 0; off < len(all); {
				n := int(all[off])
				t.tokens = append(t.tokens, all[off+1:off+1+n])
				off += 1 + n
			}
		}
	}
	t.weight = r.f32s(count)
	t.scale = r.f32s(count)
	raw := r.bytes(count * t.dim)
	if r.err != nil {
		return nil, r.err
	}
	if t.id == "" || t.unk == "" {
		return nil, tableError("no embedder ID or no unknown token")
	}
	if r.off != len(body) {
		return nil, tableError("%d unexpected trailing bytes", len(body)-r.off)
	}
	t.q = unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw))
	for i := range count {
		w, s := t.weight[i], t.scale[i]
		if !(w >= 0) || math.IsInf(float64(w), 0) || !(s >= 0) || math.IsInf(float64(s), 0) {
			return nil, tableError("token %q has weight %v and scale %v", t.tokens[i], w, s)
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
	count := len(t.tokens)
	switch {
	case len(t.weight) != count || len(t.scale) != count || len(t.q) != count*t.dim:
		return nil, errors.New("encode table: inconsistent lengths")
	case len(t.source) > math.MaxUint16:
		return nil, errors.New("encode table: source description too long")
	case t.id == "" || len(t.id) > maxTokenLen:
		return nil, fmt.Errorf("encode table: embedder ID %q", t.id)
	case len(t.unk) == 0 || len(t.unk) > maxTokenLen || len(t.prefix) > maxTokenLen:
		return nil, fmt.Errorf("encode table: unknown token %q or prefix %q", t.unk, t.prefix)
	}
	var buf bytes.Buffer
	buf.Grow(64 + len(t.source) + 16*count + count*t.dim)
	le := binary.LittleEndian
	buf.WriteString(tableMagic)
	buf.Write(le.AppendUint32(nil, tableVersion))
	buf.Write(le.AppendUint32(nil, uint32(t.dim)))
	buf.Write(le.AppendUint32(nil, uint32(count)))
	buf.Write(le.AppendUint32(nil, uint32(t.maxWordChars)))
	buf.WriteByte(byte(len(t.id)))
	buf.WriteString(t.id)
	buf.WriteByte(byte(len(t.unk)))
	buf.WriteString(t.unk)
	buf.WriteByte(byte(len(t.prefix)))
	buf.WriteString(t.prefix)
	buf.Write(le.AppendUint16(nil, uint16(len(t.source))))
	buf.WriteString(t.source)
	for id, tok := range t.tokens {
		if len(tok) > maxTokenLen {
			return nil, fmt.Errorf("encode table: token %d is %d bytes long, more than %d", id, len(tok), maxTokenLen)
		}
		buf.WriteByte(byte(len(tok)))
		buf.WriteString(tok)
	}
	for _, xs := range [][]float32{t.weight, t.scale} {
		for _, x := range xs {
			buf.Write(le.AppendUint32(nil, math.Float32bits(x)))
		}
	}
	buf.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.q))), len(t.q)))
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	return buf.Bytes(), nil
}
