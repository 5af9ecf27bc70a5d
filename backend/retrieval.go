package backend

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
)

// Search is the query side of the working index: every searchable
// content node has a slot (a small int) in a BM25 keyword index and in one
// contiguous matrix of unit vectors, and the concept graph has undirected
// adjacency for hop distances. It is built from the index on first need
// (from search.cache when that matches the store's generation) and kept in
// step by ingest.
type Search struct {
	Graph      *Graph // the working index it was built for
	Slot    map[string]int32
	IDs     []string // by slot; "" for a free slot
	Free    []int32
	Keyword      *search.Keyword // unigrams
	Phrases     *search.Keyword // bigrams (phrase field)
	Vectors     *search.Vectors
	RelAdj  map[string][]string // concept ↔ concept (related edges, both ways)
	Concept map[string][]string // concept → content nodes about it
	// ConceptSlots is concept → the slots of those nodes (the query's
	// graph expansion walks it without map lookups).
	ConceptSlots map[string][]int32
	// Analysis: source node → level → summary node; pins: pinned nodes.
	Analysis map[string]map[string]string
	Pins     map[string]bool
	Children map[string][]string // section → its subsections
	scratch  sync.Pool
	key      []byte // tableKey, once computed; add and remove clear it
}

// Scratch holds one query's per-slot arrays (reused: at 50k nodes they
// are 800 KB a question, which the garbage collector would otherwise chase).
type Scratch struct {
	KW, Cos, Fused []float32
	Seen, Exact    []bool
}

func (r *Search) GetScratch(n int) *Scratch {
	if sc, ok := r.scratch.Get().(*Scratch); ok && len(sc.Seen) == n {
		clear(sc.Seen)
		clear(sc.Exact)
		return sc
	}
	return &Scratch{KW: make([]float32, n), Cos: make([]float32, n), Fused: make([]float32, n),
		Seen: make([]bool, n), Exact: make([]bool, n)}
}

func (r *Search) PutScratch(sc *Scratch) { r.scratch.Put(sc) }

func NewSearch(ix *Graph, dim int) *Search {
	return &Search{Graph: ix, Slot: map[string]int32{}, Keyword: search.NewKeyword(search.DefaultBM25), Phrases: search.NewKeyword(search.DefaultBM25),
		Vectors: search.NewVectors(dim), RelAdj: map[string][]string{}, Concept: map[string][]string{}}
}

// Searchable: analysis nodes (summaries) are reached through their source.
func Searchable(n *model.ContentNode) bool { return n.Source == "" }

// KeywordTerms is what the keyword index sees of a section: its heading
// path, its own heading again headingBoost more times (a heading names
// what the section is about: a cheap BM25F), and its text.
func KeywordTerms(headingPath []string, text string) []string {
	var b strings.Builder
	b.WriteString(ingest.EmbedText(headingPath, text))
	if len(headingPath) > 0 {
		for range headingBoost {
			b.WriteString("\n")
			b.WriteString(headingPath[len(headingPath)-1])
		}
	}
	return search.Terms(b.String())
}

// Bigrams are the pairs of adjacent terms, indexed as a phrase field of
// their own: a shared phrase ("context catalog", "budget calculation") is
// strong evidence on notes, but weighs on scientific abstracts, so its
// weight is a setting (phrase_weight).
func Bigrams(terms []string) []string {
	out := make([]string, 0, len(terms))
	for i := 1; i < len(terms); i++ {
		out = append(out, terms[i-1]+"_"+terms[i])
	}
	return out
}

// headingBoost: on the seed queries, repeating a section's own heading
// twice more lifted precision 0.51 → 0.53 at equal recall (BENCHMARKS.md).
const headingBoost = 2

func (r *Search) Add(n *model.ContentNode, terms []string, vec []float32) {
	r.key = nil
	s, ok := r.Slot[n.ID]
	if !ok {
		if k := len(r.Free); k > 0 {
			s, r.Free = r.Free[k-1], r.Free[:k-1]
			r.IDs[s] = n.ID
		} else {
			s = int32(len(r.IDs))
			r.IDs = append(r.IDs, n.ID)
		}
		r.Slot[n.ID] = s
	}
	r.Keyword.Set(s, terms)
	r.Phrases.Set(s, Bigrams(terms))
	if vec != nil {
		r.Vectors.Set(s, vec)
	}
}

func (r *Search) Remove(id string) {
	s, ok := r.Slot[id]
	if !ok {
		return
	}
	r.key = nil
	r.Keyword.Remove(s)
	r.Phrases.Remove(s)
	r.Vectors.Remove(s)
	r.IDs[s] = ""
	r.Free = append(r.Free, s)
	delete(r.Slot, id)
}

// RebuildGraph recomputes the concept adjacency from the index's edges.
func (r *Search) RebuildGraph() {
	r.IndexNodes()
	r.RelAdj, r.Concept, r.ConceptSlots = map[string][]string{}, map[string][]string{}, map[string][]int32{}
	// By source id, so that every list comes out in the same order
	// whatever the map's; the edges are taken with their key (no second
	// lookup).
	type source struct {
		id    string
		edges []model.Edge
	}
	sources := make([]source, 0, len(r.Graph.Out))
	for id, es := range r.Graph.Out {
		sources = append(sources, source{id, es})
	}
	slices.SortFunc(sources, func(a, b source) int { return strings.Compare(a.id, b.id) })
	for _, src := range sources {
		sl, hasSlot := int32(0), false
		looked := false
		for _, e := range src.edges {
			switch e.Kind {
			case model.EdgeRelated:
				r.RelAdj[e.From] = append(r.RelAdj[e.From], e.To)
				r.RelAdj[e.To] = append(r.RelAdj[e.To], e.From)
			case model.EdgeAbout:
				r.Concept[e.To] = append(r.Concept[e.To], e.From)
				if e.From != src.id || !looked {
					sl, hasSlot = r.Slot[e.From]
					looked = e.From == src.id
				}
				if hasSlot {
					r.ConceptSlots[e.To] = append(r.ConceptSlots[e.To], sl)
				}
			}
		}
	}
}

// liveRetrieval is the query index if it belongs to ix (else nil: it will
// be rebuilt when next needed).
func (w *Workbench) liveRetrieval(ix *Graph) *Search {
	if w.retr != nil && w.retr.Graph == ix {
		return w.retr
	}
	return nil
}

// saveCaches writes the working-index and search caches for the current
// generation (best effort: a missing cache only makes the next open
// slower). Callers hold w.mu.
func (w *Workbench) saveCaches() {
	if !w.keepsFiles() || w.index == nil || w.cachedGen == w.meta.Generation {
		return // nothing changed since the caches were read or written
	}
	_ = w.index.SaveCache(w.cachePath(), w.meta)
	if r := w.liveRetrieval(w.index); r != nil {
		_ = r.SaveCache(w.searchCachePath(), w.meta.Generation)
		if !r.Vectors.Prepared() {
			// A sketch is due (an ingest grew the vectors past the
			// sketch's threshold, or twice past its fit): build and
			// cache it now, so the next open does not fit it (~0.4 s at
			// 50,000 rows of 768).
			w.prepareVectors(r)
		}
	}
	w.cachedGen = w.meta.Generation
}

// retrieval returns the query index, building it when missing or stale.
// Callers hold w.mu.
func (w *Workbench) retrieval(ctx context.Context) (*Search, error) {
	return w.retrievalWith(ctx, nil)
}

// retrievalWith is retrieval with search.cache possibly being read
// already (Warm starts reading it while the working index loads): pre,
// when not nil, returns what readSearchCache returned for the current
// generation.
func (w *Workbench) retrievalWith(ctx context.Context, pre func() (*SearchCache, error)) (*Search, error) {
	ix, err := w.loadIndex(ctx)
	if err != nil {
		return nil, err
	}
	if w.retr != nil && w.retr.Graph == ix {
		if w.retr.RelAdj == nil {
			w.retr.RebuildGraph()
		}
		return w.retr, nil
	}
	r := NewSearch(ix, w.emb.Dim())
	fromCache := false
	if !w.cfg.memory {
		var sc *SearchCache
		if pre != nil {
			sc, err = pre()
		} else {
			sc, err = ReadSearchCache(w.searchCachePath(), w.meta.Generation)
		}
		fromCache = err == nil && r.AdoptCache(sc, ix)
	}
	if !fromCache { // keyword postings from the cache, else from the texts
		if err := w.buildKeywords(ctx, r); err != nil {
			return nil, err
		}
	}
	// The vectors, from the matrix cache when it was made for this slot
	// table, else from the log; the concept graph is built meanwhile.
	var graph sync.WaitGroup
	graph.Go(r.RebuildGraph)
	if w.cfg.memory || !w.adoptRows(r) {
		w.fillRows(r)
	}
	graph.Wait()
	w.retr = r
	if w.keepsFiles() && !fromCache {
		_ = r.SaveCache(w.searchCachePath(), w.meta.Generation)
	}
	return r, nil
}

// fillRows sets every slot's vector from the log, all rows at once: the
// matrix grows once, and rows are normalised in parallel.
func (w *Workbench) fillRows(r *Search) {
	dim := w.vecs.Dim()
	slots := make([]int32, 0, len(r.IDs))
	arena := make([]float32, len(r.IDs)*dim)
	rows := make([][]float32, 0, len(r.IDs))
	for s, id := range r.IDs {
		if id == "" {
			continue
		}
		row := arena[len(rows)*dim : (len(rows)+1)*dim]
		if w.vecs.Read(ContentKey(r.Graph.Nodes[id].ContentHash), row) {
			slots, rows = append(slots, int32(s)), append(rows, row)
		}
	}
	r.Vectors.SetRows(slots, rows)
}

// buildKeywords reads every searchable node's text and indexes it, in
// parallel (analysis is the cost).
func (w *Workbench) buildKeywords(ctx context.Context, r *Search) error {
	var nodes []*model.ContentNode
	for _, n := range r.Graph.Nodes {
		if Searchable(n) {
			nodes = append(nodes, n)
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	terms := make([][]string, len(nodes))
	failed := make([]error, len(nodes))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				text, err := w.Content(nodes[i].ContentHash)
				if errs.CodeOf(err) == errs.Unavailable {
					// Found by its headings and vector only; a question
					// that would load it says why it cannot.
					text, err = "", nil
				}
				if err != nil {
					failed[i] = err
					continue
				}
				terms[i] = KeywordTerms(nodes[i].HeadingPath, text)
			}
		}()
	}
	for i := range nodes {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := errors.Join(failed...); err != nil {
		return fmt.Errorf("build the keyword index: %w", err)
	}
	for i, n := range nodes {
		r.Add(n, terms[i], nil)
	}
	return nil
}

func (w *Workbench) searchCachePath() string { return w.dir + "/search.cache" }

// search.cache holds the slot table and the keyword and phrase postings of
// one generation (vectors live in the vector log), laid out so that one
// read into an 8-aligned buffer gives postings usable in place:
//
//	0   "LOOMSRC3", generation (uint64 LE)
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
const searchCacheMagic = "LOOMSRC3"

const searchCacheHeader = 48

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// searchCacheValid reports whether search.cache was written at the
// current generation (read from its header only).
func (w *Workbench) searchCacheValid() bool {
	f, err := os.Open(w.searchCachePath())
	if err != nil {
		return false
	}
	defer f.Close()
	g, ok := readSearchCacheHeader(bufio.NewReader(f))
	return ok && g == w.meta.Generation
}

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
