package search

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// The matrix layout (WriteRows, AdoptRows) is the rows exactly as Vectors
// keeps them in memory, so that a workspace reopens its vectors by mapping
// one file (package mapfile) instead of reading the vector log into the
// heap and normalising every row: at 50,000 rows of 768 that is ~300 ms of
// CPU on two cores, the largest part of opening.
//
//	header, 64 bytes: "LOOMMAT1", dim u32, slots u32, block u32 (bytes a
//	  checksum covers), blocks u32, then zeros
//	blocks × CRC-32C u32 of the body's blocks, padded to 64 bytes
//	body: the presence of each slot (one byte, 0 or 1), padded to 64 bytes,
//	  then slots×dim float32 little-endian, absent rows zero
//
// Every offset is a multiple of 64 from the start, so the rows of a mapped
// file (page-aligned) are aligned floats the kernels read in place.
const (
	matrixMagic  = "LOOMMAT1"
	matrixHeader = 64
	// matrixBlock is the span of one checksum: blocks are checked in
	// parallel (150 MB at ~6 GB/s a core is otherwise 25 ms).
	matrixBlock = 4 << 20
)

func pad64(n int) int { return (n + 63) &^ 63 }

func nonZero(b byte) bool { return b != 0 }

// WriteRows writes the rows for AdoptRows. The output is valid only for
// the same vectors in the same slots; the caller keys it to them.
func (v *Vectors) WriteRows(w io.Writer) error {
	v.mu.RLock()
	defer v.mu.RUnlock()
	slots := len(v.present)
	presence := make([]byte, pad64(slots))
	for slot, ok := range v.present {
		if ok {
			presence[slot] = 1
		}
	}
	rows := floatBytes(v.data[:slots*v.dim])
	body := [][]byte{presence, rows}
	size := len(presence) + len(rows)
	blocks := (size + matrixBlock - 1) / matrixBlock
	sums := make([]byte, pad64(4*blocks))
	for i := range blocks {
		binary.LittleEndian.PutUint32(sums[4*i:], blockSum(body, i*matrixBlock, min(size, (i+1)*matrixBlock)))
	}
	hdr := make([]byte, matrixHeader)
	copy(hdr, matrixMagic)
	for i, x := range []int{v.dim, slots, matrixBlock, blocks} {
		binary.LittleEndian.PutUint32(hdr[8+4*i:], uint32(x))
	}
	for _, b := range [][]byte{hdr, sums, presence, rows} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// floatBytes is the little-endian bytes of x (a copy on a big-endian
// machine).
func floatBytes(x []float32) []byte {
	if len(x) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x))
	}
	b := make([]byte, 0, 4*len(x))
	for _, f := range x {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// blockSum is the CRC-32C of bytes [from, to) of the concatenated parts.
func blockSum(parts [][]byte, from, to int) uint32 {
	var sum uint32
	for _, p := range parts {
		if from < len(p) && to > 0 {
			sum = crc32.Update(sum, castagnoli, p[max(from, 0):min(to, len(p))])
		}
		from, to = from-len(p), to-len(p)
	}
	return sum
}

// AdoptRows makes the rows in data (as WriteRows wrote them) the rows of
// an empty v, checking every block's checksum. When data's rows are
// aligned floats on a little-endian machine (a mapped file) v uses them in
// place, and writes into them on Set and Remove: data must then be
// writable (a private mapping) and stay valid as long as v is reachable,
// and so must what Row returned. release, if not nil, is called once v is
// unreachable. Otherwise the rows are copied and release is called before
// AdoptRows returns. On error (wrapping ErrBadIndex) v is unchanged and
// release is not called.
func (v *Vectors) AdoptRows(data []byte, release func()) error {
	if len(data) < matrixHeader || string(data[:8]) != matrixMagic {
		return fmt.Errorf("adopt rows: %w", badIndex("not a %s encoding", matrixMagic))
	}
	var f [4]int
	for i := range f {
		f[i] = int(binary.LittleEndian.Uint32(data[8+4*i:]))
	}
	dim, slots, block, blocks := f[0], f[1], f[2], f[3]
	sumsEnd := matrixHeader + pad64(4*blocks)
	presenceEnd := sumsEnd + pad64(slots)
	if dim != v.dim || block <= 0 || len(data) != presenceEnd+4*slots*dim ||
		blocks != (len(data)-sumsEnd+block-1)/block {
		return fmt.Errorf("adopt rows: %w", badIndex("%d bytes for %d rows of %d (here %d), %d blocks of %d", len(data), slots, dim, v.dim, blocks, block))
	}
	if slices.ContainsFunc(data[24:matrixHeader], nonZero) || slices.ContainsFunc(data[matrixHeader+4*blocks:sumsEnd], nonZero) {
		return fmt.Errorf("adopt rows: %w", badIndex("padding is not zero"))
	}
	body := data[sumsEnd:]
	bad := make([]bool, blocks)
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), maxWorkers, blocks)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < blocks; i += workers {
				want := binary.LittleEndian.Uint32(data[matrixHeader+4*i:])
				bad[i] = crc32.Checksum(body[i*block:min(len(body), (i+1)*block)], castagnoli) != want
			}
		})
	}
	wg.Wait()
	for i, b := range bad {
		if b {
			return fmt.Errorf("adopt rows: %w", badIndex("block %d of %d fails its checksum", i, blocks))
		}
	}
	present := make([]bool, slots)
	live := 0
	for slot := range present {
		switch data[sumsEnd+slot] {
		case 0:
		case 1:
			present[slot] = true
			live++
		default:
			return fmt.Errorf("adopt rows: %w", badIndex("slot %d: presence %d", slot, data[sumsEnd+slot]))
		}
	}
	raw := data[presenceEnd:]
	var rows []float32
	inPlace := littleEndian && slots > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(raw)))%4 == 0
	switch {
	case slots == 0:
	case inPlace:
		rows = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(raw))), slots*dim)
	default:
		rows = make([]float32, slots*dim)
		for i := range rows {
			rows[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	}

	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.present) != 0 {
		return fmt.Errorf("adopt rows: the vectors already hold %d slots", len(v.present))
	}
	v.data, v.present, v.live = rows, present, live
	v.sk, v.q = nil, nil
	v.due.Store(v.prepareDue())
	if release != nil {
		if inPlace {
			v.release = release
			v.cleanup = runtime.AddCleanup(v, func(f func()) { f() }, release)
		} else {
			release()
		}
	}
	return nil
}
