package index

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/search"
)

// search.cache holds the slot table and the keyword and phrase postings of
// one generation (vectors live in the vector log), laid out so that one
// read into an 8-aligned buffer gives postings usable in place:
//
//	0   "LOOMSRC5", generation (uint64 LE)
//	16  lengths of the three sections (uint64 LE each)
//	40  CRC-32C of bytes 0–40 (uint32 LE), 0 (uint32)
//	48  the slot table: slots (uint32), per slot the end of its id in the
//	    id blob (uint32), the id blob, its CRC-32C (uint32)
//	    then the keyword index, then the phrase index (search.Keyword
//	    encodings, which check themselves), each section padded with zeros
//	    to a multiple of 8 bytes.
//
// Anything that does not add up (magic, generation, lengths, checksums, a
// slot naming a node the index lacks) makes the cache be rebuilt.
const searchCacheMagic = "LOOMSRC5"

const searchCacheHeader = 48

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// readSearchCacheHeader reads the magic and the generation.
func readSearchCacheHeader(br *bufio.Reader) (int64, bool) {
	var hdr [16]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil || string(hdr[:8]) != searchCacheMagic {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(hdr[8:])), true
}

func pad8(b []byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	return b
}

// SaveCache writes the slot table and keyword postings (vectors live in
// the vector log) for one generation, atomically.
func (r *Search) SaveCache(path string, generation int64) error {
	kw, err := r.Keyword.MarshalBinary()
	if err != nil {
		return err
	}
	phr, err := r.Phrases.MarshalBinary()
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	blob := 0
	for _, id := range r.IDs {
		blob += len(id)
	}
	if uint64(len(r.IDs)) > math.MaxUint32 || uint64(blob) > math.MaxUint32 {
		return errors.New("save search cache: slot table too large")
	}
	ids := make([]byte, 0, 8+4*len(r.IDs)+blob)
	ids = le.AppendUint32(ids, uint32(len(r.IDs)))
	end := 0
	for _, id := range r.IDs {
		end += len(id)
		ids = le.AppendUint32(ids, uint32(end))
	}
	for _, id := range r.IDs {
		ids = append(ids, id...)
	}
	ids = pad8(le.AppendUint32(ids, crc32.Checksum(ids, castagnoli)))

	hdr := make([]byte, 0, searchCacheHeader)
	hdr = append(hdr, searchCacheMagic...)
	hdr = le.AppendUint64(hdr, uint64(generation))
	hdr = le.AppendUint64(hdr, uint64(len(ids)))
	hdr = le.AppendUint64(hdr, uint64(len(kw)))
	hdr = le.AppendUint64(hdr, uint64(len(phr)))
	hdr = le.AppendUint32(hdr, crc32.Checksum(hdr, castagnoli))
	hdr = le.AppendUint32(hdr, 0)

	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	bw.Write(hdr)
	bw.Write(ids)
	var zeros [8]byte
	bw.Write(kw)
	bw.Write(zeros[:(8-len(kw)%8)%8])
	bw.Write(phr)
	bw.Write(zeros[:(8-len(phr)%8)%8])
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	crash.At("search-cache-before-rename")
	return os.Rename(tmp, path)
}

// readAligned reads the whole file into a buffer that starts 8-aligned in
// memory (so the postings in it can be used in place).
func readAligned(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size < 0 || size > 1<<36 {
		return nil, fmt.Errorf("%s: size %d", path, size)
	}
	words := make([]uint64, (size+7)/8)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)[:size]
	// Large files are read in parallel parts: copying out of the page
	// cache into fresh memory is bound by page faults, which the cores
	// share.
	parts := max(1, min(runtime.GOMAXPROCS(0), 4, len(buf)/(16<<20)))
	per := (len(buf) + parts - 1) / parts
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			from, to := p*per, min((p+1)*per, len(buf))
			if from < to {
				_, errs[p] = f.ReadAt(buf[from:to], int64(from))
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return buf, nil
}

// SearchCache is what search.cache holds.
type SearchCache struct {
	ids     []string
	slot    map[string]int32
	free    []int32
	kw, phr *search.Keyword
}

// LoadCache fills slots and keyword postings from the cache when it was
// made at this generation and names only nodes the index has.
func (r *Search) LoadCache(path string, generation int64, ix *Graph) bool {
	sc, err := ReadSearchCache(path, generation)
	return err == nil && r.AdoptCache(sc, ix)
}

// AdoptCache takes the cache's slots and postings when its slots name
// exactly the searchable nodes of ix.
func (r *Search) AdoptCache(sc *SearchCache, ix *Graph) bool {
	for _, id := range sc.ids {
		if id == "" {
			continue
		}
		if _, ok := ix.Nodes[id]; !ok {
			return false
		}
	}
	want := 0
	for _, nd := range ix.Nodes {
		if Searchable(nd) {
			want++
		}
	}
	if want != len(sc.slot) {
		return false
	}
	r.IDs, r.Slot, r.Free, r.Keyword, r.Phrases = sc.ids, sc.slot, sc.free, sc.kw, sc.phr
	r.forgetIDs()
	return true
}

var errStaleCache = errors.New("search cache: stale or malformed")

// ReadSearchCache decodes search.cache, the two keyword indexes in
// parallel (each is a few tens of milliseconds at 50,000 nodes).
func ReadSearchCache(path string, generation int64) (*SearchCache, error) {
	b, err := readAligned(path)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	if len(b) < searchCacheHeader || string(b[:8]) != searchCacheMagic || int64(le.Uint64(b[8:])) != generation ||
		crc32.Checksum(b[:40], castagnoli) != le.Uint32(b[40:]) {
		return nil, errStaleCache
	}
	var lens [3]uint64
	total := uint64(searchCacheHeader)
	for i := range lens {
		lens[i] = le.Uint64(b[16+8*i:])
		if lens[i] > uint64(len(b)) {
			return nil, errStaleCache
		}
		total += (lens[i] + 7) &^ 7
	}
	if total != uint64(len(b)) || lens[0]%8 != 0 {
		return nil, errStaleCache
	}
	sections := make([][]byte, 3)
	at := uint64(searchCacheHeader)
	for i, l := range lens {
		sections[i] = b[at : at+l : at+l]
		at += (l + 7) &^ 7
	}

	sc := &SearchCache{kw: search.NewKeyword(search.DefaultBM25), phr: search.NewKeyword(search.DefaultBM25)}
	var phrErr error
	var wg sync.WaitGroup
	wg.Go(func() { phrErr = sc.phr.UnmarshalShared(sections[2]) })
	kwErr := sc.kw.UnmarshalShared(sections[1])
	var idsErr error
	sc.ids, sc.slot, sc.free, idsErr = decodeSlotTable(sections[0])
	wg.Wait()
	if err := errors.Join(kwErr, phrErr, idsErr); err != nil {
		return nil, err
	}
	return sc, nil
}

// decodeSlotTable reads the slot table section (zero-padded to 8 bytes).
func decodeSlotTable(b []byte) (ids []string, slot map[string]int32, free []int32, err error) {
	le := binary.LittleEndian
	if len(b) < 8 {
		return nil, nil, nil, errStaleCache
	}
	n := uint64(le.Uint32(b))
	if n > uint64(len(b))/4 {
		return nil, nil, nil, errStaleCache
	}
	ends := b[4 : 4+4*n]
	blobLen := uint64(0)
	if n > 0 {
		blobLen = uint64(le.Uint32(ends[4*(n-1):]))
	}
	body := 4 + 4*n + blobLen
	if body+4 > uint64(len(b)) || (body+4+7)&^7 != uint64(len(b)) || crc32.Checksum(b[:body], castagnoli) != le.Uint32(b[body:]) {
		return nil, nil, nil, errStaleCache
	}
	blob := string(b[4+4*n : body])
	ids = make([]string, n)
	slot = make(map[string]int32, n)
	start := uint64(0)
	for i := range ids {
		end := uint64(le.Uint32(ends[4*i:]))
		if end < start || end > blobLen {
			return nil, nil, nil, errStaleCache
		}
		ids[i] = blob[start:end]
		start = end
		if ids[i] == "" {
			free = append(free, int32(i))
			continue
		}
		if _, dup := slot[ids[i]]; dup {
			return nil, nil, nil, errStaleCache
		}
		slot[ids[i]] = int32(i)
	}
	return ids, slot, free, nil
}

// SearchCacheGeneration is the generation the search cache at path was
// written at (read from its header only); false when there is none.
func SearchCacheGeneration(path string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	return readSearchCacheHeader(bufio.NewReader(f))
}
