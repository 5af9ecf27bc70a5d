package search

import "slices"

// Hit is one retrieved slot and its score (BM25 or cosine, by source).
type Hit struct {
	Slot  int32
	Score float32
}

// better reports whether a ranks above b: higher score first, then the lower
// slot, so that results are deterministic whatever the scan order.
func better(a, b Hit) bool {
	return a.Score > b.Score || (a.Score == b.Score && a.Slot < b.Slot)
}

// topHits keeps the best limit hits seen so far in a binary min-heap whose
// root is the worst kept hit, so each offer costs one comparison unless it
// displaces the root.
type topHits struct {
	limit int
	heap  []Hit
}

func newTopHits(limit int) topHits {
	return topHits{limit: limit, heap: make([]Hit, 0, min(limit, 1024))}
}

// wants reports whether h would be kept, so that a caller can skip a costly
// allow check for hits that cannot make the cut.
func (t *topHits) wants(h Hit) bool {
	return len(t.heap) < t.limit || better(h, t.heap[0])
}

func (t *topHits) offer(h Hit) {
	if len(t.heap) < t.limit {
		t.heap = append(t.heap, h)
		t.up(len(t.heap) - 1)
		return
	}
	if !better(h, t.heap[0]) {
		return
	}
	t.heap[0] = h
	t.down(0)
}

func (t *topHits) up(i int) {
	h := t.heap
	for i > 0 {
		parent := (i - 1) / 2
		if !better(h[parent], h[i]) {
			break
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

func (t *topHits) down(i int) {
	h := t.heap
	for {
		worst := i
		left, right := 2*i+1, 2*i+2
		if left < len(h) && better(h[worst], h[left]) {
			worst = left
		}
		if right < len(h) && better(h[worst], h[right]) {
			worst = right
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// sorted returns the kept hits best first.
func (t *topHits) sorted() []Hit {
	if len(t.heap) == 0 {
		return nil
	}
	slices.SortFunc(t.heap, func(a, b Hit) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	return t.heap
}

// TopK returns the limit highest scores of a dense score slice indexed by
// slot, best first, ties broken by the lower slot. Scores that are not
// positive (including NaN) are never returned, nor are slots for which a
// non-nil allow returns false. A limit of zero or less returns nil.
func TopK(scores []float32, limit int, allow func(int32) bool) []Hit {
	if limit <= 0 {
		return nil
	}
	top := newTopHits(limit)
	// Slots rise through the scan, so once the heap is full a hit must beat
	// the worst kept score outright: a tie loses on slot. floor starts at 0,
	// which also drops non-positive scores and NaN.
	var floor float32
	for i, score := range scores {
		if !(score > floor) {
			continue
		}
		slot := int32(i)
		if allow != nil && !allow(slot) {
			continue
		}
		top.offer(Hit{Slot: slot, Score: score})
		if len(top.heap) == top.limit {
			floor = max(top.heap[0].Score, 0)
		}
	}
	return top.sorted()
}

// Best returns the limit best of hits (higher score first, ties to the
// lower slot), in that order: the first limit of hits sorted, without
// sorting all of them.
func Best(hits []Hit, limit int) []Hit {
	if limit <= 0 {
		return nil
	}
	t := newTopHits(limit)
	for _, h := range hits {
		t.offer(h)
	}
	return t.sorted()
}
