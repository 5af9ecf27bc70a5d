package search

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// BM25 holds the Okapi BM25 parameters. K1 sets how quickly repeated
// occurrences of a term stop adding to a document's score; B sets how far a
// document's length (relative to the average) discounts its term
// frequencies, from 0 (not at all) to 1 (fully).
type BM25 struct{ K1, B float64 }

// DefaultBM25 is Anserini's default (K1 0.9, B 0.4), tuned on MS MARCO
// passages; it discounts length less than the textbook 1.2/0.75, which suits
// Loom's short, uneven nodes (a heading next to a long log).
var DefaultBM25 = BM25{K1: 0.9, B: 0.4}

// posting is one document's entry in a term's postings list. gen must equal
// the slot's current generation for the posting to count: replacing or
// removing a document bumps the generation, which retires every posting it
// had at once, without finding them.
type posting struct {
	slot int32
	tf   uint16 // occurrences in the document, saturating at 65535
	gen  uint16
}

// docInfo is what the index keeps per slot.
type docInfo struct {
	length uint32 // terms in the document, repeats counted
	gen    uint16
	live   bool
}

// Keyword is an in-memory BM25 index over integer slots. The caller maps its
// node ids to slots: small dense integers, reused after removal.
//
// A Keyword is safe for concurrent use: searches share a read lock, Set and
// Remove take it exclusively. Use NewKeyword, or new(Keyword) followed by
// UnmarshalBinary.
type Keyword struct {
	mu     sync.RWMutex
	params BM25

	ids   map[string]int32 // term → term id, for ids from base on
	terms []string         // term id → term; "" for a freed id
	// base is how many leading term ids came sorted from UnmarshalBinary:
	// terms[:base] is in strictly increasing order and found by binary
	// search, not through ids (a million-term map would dominate the
	// decode). Base ids are never freed: one that loses its last posting
	// keeps its term with an empty list.
	base     int
	postings [][]posting // term id → postings, in insertion order
	df       []int32     // term id → live documents containing it
	freeIDs  []int32     // ids of terms that lost their last posting

	docs     []docInfo // by slot
	docTerms [][]int32 // by slot: the live document's distinct term ids
	// fz, when not nil, holds every term and posting as UnmarshalBinary
	// read them, in flat arrays (terms, postings and docTerms are then
	// nil): no per-term slice or string for the collector to scan, which
	// at a million phrase terms is most of the decode. The first Set or
	// Remove thaws it into the mutable form.
	fz            *frozen
	live          int   // live documents
	totalLength   int64 // sum of live documents' lengths
	totalPostings int   // postings held, dead ones included
	deadPostings  int   // postings whose document was replaced or removed

	// Reused by Set (which holds the write lock) to count term frequencies.
	counts   map[string]int
	distinct []termCount

	scratch sync.Pool // *keywordScratch
}

type termCount struct {
	term  string
	count int
}

// NewKeyword returns an empty index scoring with p. It panics unless
// K1 ≥ 0 and 0 ≤ B ≤ 1, outside which BM25 scores stop meaning anything.
func NewKeyword(p BM25) *Keyword {
	if err := p.validate(); err != nil {
		panic("search: " + err.Error())
	}
	return &Keyword{params: p, ids: map[string]int32{}}
}

func (p BM25) validate() error {
	if !(p.K1 >= 0) || math.IsInf(p.K1, 0) || !(p.B >= 0 && p.B <= 1) {
		return fmt.Errorf("BM25 parameters K1 %v, B %v out of range", p.K1, p.B)
	}
	return nil
}

// Params returns the BM25 parameters the index scores with.
func (k *Keyword) Params() BM25 {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.params
}

// SetParams changes the BM25 parameters (scores use them at query time,
// so nothing is re-indexed).
func (k *Keyword) SetParams(p BM25) error {
	if err := p.validate(); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.params = p
	return nil
}

// Len returns the number of live documents.
func (k *Keyword) Len() int {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.live
}

// Slots returns one past the highest slot ever set: the length a ScoreAll
// output needs to cover every document.
func (k *Keyword) Slots() int {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return len(k.docs)
}

// Set indexes terms (normally from Terms) as the document in slot, replacing
// any document already there. Empty strings are ignored. A document with no
// terms is live (it counts towards N and the average length) but matches
// nothing. It panics if slot is negative.
func (k *Keyword) Set(slot int32, terms []string) {
	if slot < 0 {
		panic(fmt.Sprintf("search: negative slot %d", slot))
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ids == nil {
		k.ids = map[string]int32{}
	}
	k.ensureDocTerms()
	if int(slot) >= len(k.docs) {
		grow := int(slot) + 1 - len(k.docs)
		k.docs = append(k.docs, make([]docInfo, grow)...)
		k.docTerms = append(k.docTerms, make([][]int32, grow)...)
	}
	k.retire(slot)

	if k.counts == nil {
		k.counts = map[string]int{}
	}
	clear(k.counts)
	k.distinct = k.distinct[:0]
	length := 0
	for _, term := range terms {
		if term == "" {
			continue
		}
		length++
		if i, ok := k.counts[term]; ok {
			k.distinct[i].count++
			continue
		}
		k.counts[term] = len(k.distinct)
		k.distinct = append(k.distinct, termCount{term: term, count: 1})
	}

	d := &k.docs[slot]
	ids := k.docTerms[slot][:0] // retire left the old backing array to reuse
	for _, tc := range k.distinct {
		id := k.termID(tc.term)
		k.postings[id] = append(k.postings[id], posting{
			slot: slot,
			tf:   uint16(min(tc.count, math.MaxUint16)),
			gen:  d.gen,
		})
		k.df[id]++
		ids = append(ids, id)
	}
	k.docTerms[slot] = slices.Clip(ids)
	d.length = uint32(length)
	d.live = true
	k.live++
	k.totalLength += int64(length)
	k.totalPostings += len(k.distinct)
	clear(k.distinct) // drop the term strings for the collector
	k.maybeCompact()
}

// Remove drops the document in slot, if any. Its postings are retired at once
// and reclaimed by a later compaction.
func (k *Keyword) Remove(slot int32) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if slot < 0 || int(slot) >= len(k.docs) || !k.docs[slot].live {
		return
	}
	k.ensureDocTerms()
	k.retire(slot)
	k.maybeCompact()
}

// frozen is a decoded index's terms and postings, read-only: term id i is
// blob[termEnds[i-1]:termEnds[i]] (terms in increasing order) and its
// postings arena[postEnds[i-1]:postEnds[i]], all live, by slot.
type frozen struct {
	blob     string
	termEnds []uint32
	postEnds []uint32
	arena    []posting
}

func (f *frozen) term(id int32) string {
	start := uint32(0)
	if id > 0 {
		start = f.termEnds[id-1]
	}
	return f.blob[start:f.termEnds[id]]
}

func (f *frozen) list(id int32) []posting {
	start := uint32(0)
	if id > 0 {
		start = f.postEnds[id-1]
	}
	end := f.postEnds[id]
	return f.arena[start:end:end]
}

// find binary-searches the terms.
func (f *frozen) find(term string) (int32, bool) {
	lo, hi := 0, len(f.termEnds)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if f.term(int32(mid)) < term {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return int32(lo), lo < len(f.termEnds) && f.term(int32(lo)) == term
}

// numTerms is how many term ids there are (freed ones included).
func (k *Keyword) numTerms() int {
	if k.fz != nil {
		return len(k.fz.termEnds)
	}
	return len(k.postings)
}

// termOf and postingsOf read a term id's term and postings list in either
// form. The caller holds a lock.
func (k *Keyword) termOf(id int32) string {
	if k.fz != nil {
		return k.fz.term(id)
	}
	return k.terms[id]
}

// parallelPostings: from this many postings a ScoreAll splits its slots
// between two goroutines (below, a query takes well under 0.1 ms).
const parallelPostings = 8192

func (k *Keyword) postingsOf(id int32) []posting {
	if k.fz != nil {
		return k.fz.list(id)
	}
	return k.postings[id]
}

// ensureDocTerms thaws a frozen index: every term becomes a string and a
// postings list of its own (cut from the frozen arrays: the base ids, found
// by binary search in terms[:base]), and every document gets its distinct
// term ids. Only writes need this. The caller holds the write lock.
func (k *Keyword) ensureDocTerms() {
	f := k.fz
	if f == nil {
		return
	}
	n := len(f.termEnds)
	k.terms, k.postings = make([]string, n), make([][]posting, n)
	for id := range int32(n) {
		k.terms[id], k.postings[id] = f.term(id), f.list(id)
	}
	k.base, k.fz = n, nil

	counts := make([]int, len(k.docs))
	for _, p := range f.arena {
		counts[p.slot]++
	}
	arena := make([]int32, len(f.arena))
	k.docTerms = make([][]int32, len(k.docs))
	for slot, c := range counts {
		// Each slot's share is capped, so appending past it reallocates.
		k.docTerms[slot], arena = arena[:0:c], arena[c:]
	}
	for id, list := range k.postings {
		for _, p := range list {
			k.docTerms[p.slot] = append(k.docTerms[p.slot], int32(id))
		}
	}
}

// retire bumps the slot's generation, so none of its postings count any
// more, and takes its document (if live) out of the collection statistics.
func (k *Keyword) retire(slot int32) {
	if k.docs[slot].gen == math.MaxUint16 {
		// The generation is about to wrap: a posting left from 65,536
		// generations ago would come back to life. Compacting first leaves
		// only postings of the current generation, which the bump retires.
		k.compact()
	}
	d := &k.docs[slot]
	if d.live {
		k.live--
		k.totalLength -= int64(d.length)
		for _, id := range k.docTerms[slot] {
			k.df[id]--
		}
		k.deadPostings += len(k.docTerms[slot])
		k.docTerms[slot] = k.docTerms[slot][:0]
		*d = docInfo{gen: d.gen}
	}
	d.gen++
}

// lookup returns the id of term, if the index has one for it.
func (k *Keyword) lookup(term string) (int32, bool) {
	if k.fz != nil {
		return k.fz.find(term)
	}
	if k.base > 0 {
		if i, ok := slices.BinarySearch(k.terms[:k.base], term); ok {
			return int32(i), true
		}
	}
	id, ok := k.ids[term]
	return id, ok
}

func (k *Keyword) termID(term string) int32 {
	if id, ok := k.lookup(term); ok {
		return id
	}
	var id int32
	if n := len(k.freeIDs); n > 0 {
		id = k.freeIDs[n-1]
		k.freeIDs = k.freeIDs[:n-1]
		k.terms[id] = term
	} else {
		id = int32(len(k.terms))
		k.terms = append(k.terms, term)
		k.postings = append(k.postings, nil)
		k.df = append(k.df, 0)
	}
	k.ids[term] = id
	return id
}

// maybeCompact compacts once more than a quarter of the postings are dead,
// which bounds the wasted scanning in Search to a third of the useful work
// and makes the compaction cost amortised O(1) per retired posting.
func (k *Keyword) maybeCompact() {
	if 4*k.deadPostings > k.totalPostings {
		k.compact()
	}
}

// compact drops dead postings from every list and frees the ids of terms
// left with none.
func (k *Keyword) compact() {
	for id, list := range k.postings {
		if len(list) == 0 {
			continue
		}
		kept := list[:0]
		for _, p := range list {
			if k.docs[p.slot].gen == p.gen {
				kept = append(kept, p)
			}
		}
		switch {
		case len(kept) == 0 && id < k.base:
			k.postings[id] = nil // found by binary search: the id stays
		case len(kept) == 0:
			delete(k.ids, k.terms[id])
			k.terms[id] = ""
			k.postings[id] = nil
			k.freeIDs = append(k.freeIDs, int32(id))
		case cap(kept) > 2*len(kept)+8:
			k.postings[id] = append([]posting(nil), kept...)
		default:
			k.postings[id] = kept
		}
	}
	k.totalPostings -= k.deadPostings
	k.deadPostings = 0
}

// queryTerm is a distinct query term found in the index, weighted by how
// often it occurs in the query.
type queryTerm struct {
	id     int32
	weight float32
}

// resolve maps query terms to term ids, keeping the first-occurrence order
// (so float sums, and therefore ties, do not depend on map order) and
// counting repeats: a term given twice contributes twice its score, as a
// Lucene boolean query with the clause repeated would.
func (k *Keyword) resolve(terms []string) []queryTerm {
	query := make([]queryTerm, 0, len(terms))
	var index map[int32]int // only for long queries; short ones scan
	if len(terms) > 32 {
		index = make(map[int32]int, len(terms))
	}
	for _, term := range terms {
		id, ok := k.lookup(term)
		if !ok {
			continue
		}
		at := -1
		if index != nil {
			if i, ok := index[id]; ok {
				at = i
			} else {
				index[id] = len(query)
			}
		} else {
			for i := range query {
				if query[i].id == id {
					at = i
					break
				}
			}
		}
		if at >= 0 {
			query[at].weight++
			continue
		}
		query = append(query, queryTerm{id: id, weight: 1})
	}
	return query
}

// scoreInto adds the BM25 score of every live document matching query to
// acc, which must cover every slot. When touched is non-nil, each slot scored
// for the first time is appended to it (with valid parameters every
// contribution is positive, so a zero accumulator means untouched).
//
// score(d) = Σ_t w_t · idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))
// idf(t)   = ln(1 + (N − df + 0.5) / (df + 0.5))
//
// with w_t the term's count in the query. The caller holds the read lock.
func (k *Keyword) scoreInto(query []queryTerm, acc []float32, touched *[]int32) {
	k.scoreRange(query, acc, touched, 0, math.MaxInt32)
}

// scoreRange is scoreInto for the slots in [lo, hi) only: every posting
// list is read, but only those slots' scores are written, each adding its
// terms in the query's order as scoreInto does, so that two goroutines can
// score the two halves of the slots into one acc and get the same sums.
func (k *Keyword) scoreRange(query []queryTerm, acc []float32, touched *[]int32, lo, hi int32) {
	if k.live == 0 {
		return
	}
	n := float64(k.live)
	avgLength := float64(k.totalLength) / n
	k1, b := k.params.K1, k.params.B
	base := float32(k1 * (1 - b))
	perLength := float32(0)
	if avgLength > 0 {
		perLength = float32(k1 * b / avgLength)
	}
	docs := k.docs
	for _, q := range query {
		list, df := k.postingsOf(q.id), k.df[q.id]
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		weight := float32(idf*(k1+1)) * q.weight
		for _, p := range list {
			if p.slot < lo || p.slot >= hi {
				continue
			}
			d := &docs[p.slot]
			if d.gen != p.gen {
				continue
			}
			tf := float32(p.tf)
			if touched != nil && acc[p.slot] == 0 {
				*touched = append(*touched, p.slot)
			}
			acc[p.slot] += weight * tf / (tf + base + perLength*float32(d.length))
		}
	}
}

type keywordScratch struct {
	acc     []float32
	touched []int32
}

func (k *Keyword) getScratch(slots int) *keywordScratch {
	s, _ := k.scratch.Get().(*keywordScratch)
	if s == nil {
		s = &keywordScratch{}
	}
	if len(s.acc) < slots {
		s.acc = make([]float32, slots+slots/8)
	}
	s.touched = s.touched[:0]
	return s
}

// Search returns the limit best live documents for the query terms by BM25,
// best first, ties broken by the lower slot. Only documents containing at
// least one query term are returned, and when allow is non-nil only slots it
// accepts. Repeated query terms count once per occurrence. allow is called
// without the index's lock held.
func (k *Keyword) Search(terms []string, limit int, allow func(int32) bool) []Hit {
	if limit <= 0 || len(terms) == 0 {
		return nil
	}
	k.mu.RLock()
	query := k.resolve(terms)
	if len(query) == 0 {
		k.mu.RUnlock()
		return nil
	}
	slots := len(k.docs)
	scanned := 0
	for _, q := range query {
		scanned += len(k.postingsOf(q.id))
	}
	s := k.getScratch(slots)
	// A selective query touches few slots: remember them rather than scan
	// the whole accumulator afterwards.
	sparse := scanned < slots/4
	if sparse {
		k.scoreInto(query, s.acc, &s.touched)
	} else {
		k.scoreInto(query, s.acc, nil)
	}
	k.mu.RUnlock()

	var hits []Hit
	if sparse {
		top := newTopHits(limit)
		for _, slot := range s.touched {
			hit := Hit{Slot: slot, Score: s.acc[slot]}
			s.acc[slot] = 0
			if top.wants(hit) && (allow == nil || allow(slot)) {
				top.offer(hit)
			}
		}
		hits = top.sorted()
	} else {
		hits = TopK(s.acc[:slots], limit, allow)
		clear(s.acc[:slots])
	}
	k.scratch.Put(s)
	return hits
}

// AddScaled adds scale times the BM25 score of every live document matching
// terms to acc, touching only those documents' slots, and returns the
// largest value it left in one of them (0 if it matched nothing). Each
// document's score is summed apart first, so acc ends up exactly as after
// ScoreAll(terms, out) and acc[s] += scale*out[s] for every slot, without
// the passes over every slot. scale must be positive and acc must have at
// least Slots() elements.
func (k *Keyword) AddScaled(terms []string, scale float32, acc []float32) float32 {
	k.mu.RLock()
	query := k.resolve(terms)
	slots := len(k.docs)
	if len(query) == 0 || len(acc) < slots {
		k.mu.RUnlock()
		if len(query) > 0 { // acc too short: the dense way, for what it covers
			out := make([]float32, slots)
			k.ScoreAll(terms, out)
			best := float32(0)
			for i := range acc {
				if out[i] > 0 {
					acc[i] += scale * out[i]
					best = max(best, acc[i])
				}
			}
			return best
		}
		return 0
	}
	s := k.getScratch(slots)
	k.scoreInto(query, s.acc, &s.touched)
	k.mu.RUnlock()
	best := float32(0)
	for _, slot := range s.touched {
		v := acc[slot] + scale*s.acc[slot]
		acc[slot] = v
		s.acc[slot] = 0
		if v > best {
			best = v
		}
	}
	k.scratch.Put(s)
	return best
}

// ScoreAll writes the BM25 score of every slot into out (zero for slots that
// are absent or match no query term) and returns the highest score, for
// fusing with vector scores. out should have at least Slots() elements;
// slots at or beyond len(out) are left out.
func (k *Keyword) ScoreAll(terms []string, out []float32) float32 {
	clear(out)
	k.mu.RLock()
	query := k.resolve(terms)
	if slots := len(k.docs); len(out) >= slots {
		// Long posting lists: each half of the slots on its own core
		// (the random reads and writes are the cost, not the lists).
		postings := 0
		for _, q := range query {
			postings += len(k.postingsOf(q.id))
		}
		if half := int32(slots / 2); postings >= parallelPostings && runtime.GOMAXPROCS(0) > 1 {
			var wg sync.WaitGroup
			wg.Go(func() { k.scoreRange(query, out, nil, half, math.MaxInt32) })
			k.scoreRange(query, out, nil, 0, half)
			wg.Wait()
		} else {
			k.scoreInto(query, out, nil)
		}
	} else {
		s := k.getScratch(slots)
		k.scoreInto(query, s.acc, nil)
		copy(out, s.acc)
		clear(s.acc[:slots])
		k.scratch.Put(s)
	}
	k.mu.RUnlock()
	var best float32
	for _, score := range out {
		if score > best {
			best = score
		}
	}
	return best
}
