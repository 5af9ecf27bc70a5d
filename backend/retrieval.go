package backend

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/search"
)

// retrieval is the query side of the working index: every searchable
// content node has a slot (a small int) in a BM25 keyword index and in one
// contiguous matrix of unit vectors, and the concept graph has undirected
// adjacency for hop distances. It is built from the index on first need
// (from search.cache when that matches the store's generation) and kept in
// step by ingest.
type retrieval struct {
	ix      *index // the working index it was built for
	slot    map[string]int32
	ids     []string // by slot; "" for a free slot
	free    []int32
	kw      *search.Keyword // unigrams
	phr     *search.Keyword // bigrams (phrase field)
	vec     *search.Vectors
	relAdj  map[string][]string // concept ↔ concept (related edges, both ways)
	concept map[string][]string // concept → content nodes about it
	// conceptSlots is concept → the slots of those nodes (the query's
	// graph expansion walks it without map lookups).
	conceptSlots map[string][]int32
	// analysis: source node → level → summary node; pins: pinned nodes.
	analysis map[string]map[string]string
	pins     map[string]bool
	children map[string][]string // section → its subsections
	scratch  sync.Pool
}

// scratch holds one query's per-slot arrays (reused: at 50k nodes they
// are 800 KB a question, which the garbage collector would otherwise chase).
type scratch struct {
	kw, cos, phr, fused []float32
	seen                []bool
}

func (r *retrieval) getScratch(n int) *scratch {
	if sc, ok := r.scratch.Get().(*scratch); ok && len(sc.seen) == n {
		clear(sc.seen)
		return sc
	}
	return &scratch{kw: make([]float32, n), cos: make([]float32, n), phr: make([]float32, n), fused: make([]float32, n), seen: make([]bool, n)}
}

func (r *retrieval) putScratch(sc *scratch) { r.scratch.Put(sc) }

func newRetrieval(ix *index, dim int) *retrieval {
	return &retrieval{ix: ix, slot: map[string]int32{}, kw: search.NewKeyword(search.DefaultBM25), phr: search.NewKeyword(search.DefaultBM25),
		vec: search.NewVectors(dim), relAdj: map[string][]string{}, concept: map[string][]string{}}
}

// searchable: analysis nodes (summaries) are reached through their source.
func searchable(n *model.ContentNode) bool { return n.Source == "" }

// keywordTerms is what the keyword index sees of a section: its heading
// path, its own heading again headingBoost more times (a heading names
// what the section is about: a cheap BM25F), and its text.
func keywordTerms(headingPath []string, text string) []string {
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

// bigrams are the pairs of adjacent terms, indexed as a phrase field of
// their own: a shared phrase ("context catalog", "budget calculation") is
// strong evidence on notes, but weighs on scientific abstracts, so its
// weight is a setting (phrase_weight).
func bigrams(terms []string) []string {
	out := make([]string, 0, len(terms))
	for i := 1; i < len(terms); i++ {
		out = append(out, terms[i-1]+"_"+terms[i])
	}
	return out
}

// headingBoost: on the seed queries, repeating a section's own heading
// twice more lifted precision 0.51 → 0.53 at equal recall (BENCHMARKS.md).
const headingBoost = 2

func (r *retrieval) add(n *model.ContentNode, terms []string, vec []float32) {
	s, ok := r.slot[n.ID]
	if !ok {
		if k := len(r.free); k > 0 {
			s, r.free = r.free[k-1], r.free[:k-1]
			r.ids[s] = n.ID
		} else {
			s = int32(len(r.ids))
			r.ids = append(r.ids, n.ID)
		}
		r.slot[n.ID] = s
	}
	r.kw.Set(s, terms)
	r.phr.Set(s, bigrams(terms))
	if vec != nil {
		r.vec.Set(s, vec)
	}
}

func (r *retrieval) remove(id string) {
	s, ok := r.slot[id]
	if !ok {
		return
	}
	r.kw.Remove(s)
	r.phr.Remove(s)
	r.vec.Remove(s)
	r.ids[s] = ""
	r.free = append(r.free, s)
	delete(r.slot, id)
}

// rebuildGraph recomputes the concept adjacency from the index's edges.
func (r *retrieval) rebuildGraph() {
	r.indexNodes()
	r.relAdj, r.concept, r.conceptSlots = map[string][]string{}, map[string][]string{}, map[string][]int32{}
	ids := make([]string, 0, len(r.ix.out))
	for id := range r.ix.out {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, from := range ids {
		for _, e := range r.ix.out[from] {
			switch e.Kind {
			case model.EdgeRelated:
				r.relAdj[e.From] = append(r.relAdj[e.From], e.To)
				r.relAdj[e.To] = append(r.relAdj[e.To], e.From)
			case model.EdgeAbout:
				r.concept[e.To] = append(r.concept[e.To], e.From)
				if sl, ok := r.slot[e.From]; ok {
					r.conceptSlots[e.To] = append(r.conceptSlots[e.To], sl)
				}
			}
		}
	}
}

// liveRetrieval is the query index if it belongs to ix (else nil: it will
// be rebuilt when next needed).
func (w *Workbench) liveRetrieval(ix *index) *retrieval {
	if w.retr != nil && w.retr.ix == ix {
		return w.retr
	}
	return nil
}

// saveCaches writes the working-index and search caches for the current
// generation (best effort: a missing cache only makes the next open
// slower). Callers hold w.mu.
func (w *Workbench) saveCaches() {
	if w.cfg.memory || w.index == nil || w.cachedGen == w.meta.Generation {
		return // nothing changed since the caches were read or written
	}
	_ = w.index.saveCache(w.cachePath(), w.meta)
	if r := w.liveRetrieval(w.index); r != nil {
		_ = r.saveCache(w.searchCachePath(), w.meta.Generation)
	}
	w.cachedGen = w.meta.Generation
}

// retrieval returns the query index, building it when missing or stale.
// Callers hold w.mu.
func (w *Workbench) retrieval(ctx context.Context) (*retrieval, error) {
	ix, err := w.loadIndex(ctx)
	if err != nil {
		return nil, err
	}
	if w.retr != nil && w.retr.ix == ix {
		if w.retr.relAdj == nil {
			w.retr.rebuildGraph()
		}
		return w.retr, nil
	}
	r := newRetrieval(ix, w.emb.Dim())
	fromCache := !w.cfg.memory && r.loadCache(w.searchCachePath(), w.meta.Generation, ix)
	if !fromCache { // keyword postings from the cache, else from the texts
		if err := w.buildKeywords(ctx, r); err != nil {
			return nil, err
		}
	}
	// Highest slot first: the matrix grows once, to its full size.
	for s := len(r.ids) - 1; s >= 0; s-- {
		if id := r.ids[s]; id != "" {
			if v, ok := w.vecs.Get(contentKey(ix.nodes[id].ContentHash)); ok {
				r.vec.Set(int32(s), v)
			}
		}
	}
	r.rebuildGraph()
	w.retr = r
	if !w.cfg.memory && !fromCache {
		_ = r.saveCache(w.searchCachePath(), w.meta.Generation)
	}
	return r, nil
}

// buildKeywords reads every searchable node's text and indexes it, in
// parallel (analysis is the cost).
func (w *Workbench) buildKeywords(ctx context.Context, r *retrieval) error {
	var nodes []*model.ContentNode
	for _, n := range r.ix.nodes {
		if searchable(n) {
			nodes = append(nodes, n)
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	terms := make([][]string, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				text, err := w.Content(nodes[i].ContentHash)
				if err != nil {
					errs[i] = err
					continue
				}
				terms[i] = keywordTerms(nodes[i].HeadingPath, text)
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
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build the keyword index: %w", err)
	}
	for i, n := range nodes {
		r.add(n, terms[i], nil)
	}
	return nil
}

func (w *Workbench) searchCachePath() string { return w.dir + "/search.cache" }

const searchCacheMagic = "LOOMSRC2"

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
	magic := make([]byte, len(searchCacheMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != searchCacheMagic {
		return 0, false
	}
	g, err := binary.ReadUvarint(br)
	return int64(g), err == nil
}

// saveCache writes the slot table and keyword postings (vectors live in
// the vector log) for one generation, atomically.
func (r *retrieval) saveCache(path string, generation int64) error {
	kw, err := r.kw.MarshalBinary()
	if err != nil {
		return err
	}
	phr, err := r.phr.MarshalBinary()
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	bw.WriteString(searchCacheMagic)
	var buf [binary.MaxVarintLen64]byte
	putU := func(v uint64) { bw.Write(buf[:binary.PutUvarint(buf[:], v)]) }
	putU(uint64(generation))
	putU(uint64(len(r.ids)))
	for _, id := range r.ids {
		putU(uint64(len(id)))
		bw.WriteString(id)
	}
	putU(uint64(len(kw)))
	bw.Write(kw)
	putU(uint64(len(phr)))
	bw.Write(phr)
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// loadCache fills slots and keyword postings from the cache when it was
// made at this generation and names only nodes the index has.
func (r *retrieval) loadCache(path string, generation int64, ix *index) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	if g, ok := readSearchCacheHeader(br); !ok || g != generation {
		return false
	}
	n, err := binary.ReadUvarint(br)
	if err != nil || n > 1<<26 {
		return false
	}
	ids := make([]string, n)
	slot := make(map[string]int32, n)
	var free []int32
	for i := range ids {
		l, err := binary.ReadUvarint(br)
		if err != nil || l > 1<<10 {
			return false
		}
		b := make([]byte, l)
		if _, err := io.ReadFull(br, b); err != nil {
			return false
		}
		ids[i] = string(b)
		if ids[i] == "" {
			free = append(free, int32(i))
			continue
		}
		if _, ok := ix.nodes[ids[i]]; !ok {
			return false
		}
		slot[ids[i]] = int32(i)
	}
	want := 0
	for _, nd := range ix.nodes {
		if searchable(nd) {
			want++
		}
	}
	if want != len(slot) {
		return false
	}
	readIndex := func() *search.Keyword {
		l, err := binary.ReadUvarint(br)
		if err != nil || l > 1<<34 {
			return nil
		}
		b := make([]byte, l)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil
		}
		k := search.NewKeyword(search.DefaultBM25)
		if err := k.UnmarshalBinary(b); err != nil {
			return nil
		}
		return k
	}
	k, phr := readIndex(), readIndex()
	if k == nil || phr == nil {
		return false
	}
	r.ids, r.slot, r.free, r.kw, r.phr = ids, slot, free, k, phr
	return true
}
