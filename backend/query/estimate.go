package query

import (
	"math"
	"sync"

	"github.com/loomwork/loom/backend/search"
)

// estimate is the state of a pool whose cosines came from the vectors'
// quantised copy (search.Vectors.Estimate): cos[s] is within bound[s] of
// the exact cosine, and exact where exact[s]. The pool ranks exactly all
// the same: every decision that reads a slot's relevance first makes
// exact the slots whose bounds could change the outcome — the best cosine
// (for the scale), the top slots, graph expansion's picks — and any slot
// read later (a candidate's signals, a parent's relevance) on first read.
// So a query returns what the full float32 scan would, reading a quarter
// of the bytes (TestEstimatedPoolRanksExactly).
type estimate struct {
	qv    []float32
	bound []float32 // the vectors' own (read only)
	exact []bool
}

// relu is max(x, 0) for a number, without a branch (the signs of c − floor
// are random, and a mispredicted branch a slot cost more than the
// arithmetic): the sign bit, spread, masks x out.
func relu(x float32) float32 {
	b := math.Float32bits(x)
	return math.Float32frombits(b &^ uint32(int32(b)>>31))
}

// fuseOne is a slot's semantic relevance (assemble.SemanticRelevance):
// min(1, kw·kwScale + max(0, cos−floor)·vecScale). Every computation of
// it goes through here, so the estimated and the exact paths agree bit for
// bit (the conversions also keep a compiler from fusing multiply and add).
// It is monotone in cos, which bounds a slot's relevance from its cosine's
// bounds.
func fuseOne(kw, cos, kwScale, vecScale, floor float32) float32 {
	v := float32(kw*kwScale) + float32(relu(cos-floor)*vecScale)
	if v > 1 { // v is never NaN
		v = 1
	}
	return v
}

// exactify makes the slots' cosines and relevance exact.
func (p *pool) exactify(slots ...int32) {
	e := p.est
	if e == nil {
		return
	}
	todo := slots[:0:0]
	for _, s := range slots {
		if !e.exact[s] {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return
	}
	p.r.Vectors.Cosines(e.qv, todo, p.cos)
	for _, s := range todo {
		e.exact[s] = true
		if p.fused != nil {
			p.fused[s] = fuseOne(p.kw[s], p.cos[s], p.kwScale, p.vecScale, p.floor)
		}
	}
}

// gather runs scan over the slots below n in blocks (on every core, through blocks) and
// returns the slots the blocks picked, in slot order.
func gather(n int, scan func(start, end int, picked []int32) []int32) []int32 {
	parts := make([][]int32, (n+fuseBlock-1)/fuseBlock)
	blocks(n, func(b, start, end int) { parts[b] = scan(start, end, nil) })
	var out []int32
	for _, part := range parts {
		out = append(out, part...)
	}
	return out
}

// exactMax returns the largest cosine, exactly, given atLeast, the largest
// lower bound: only rows whose upper bound reaches it can hold the
// maximum.
func (p *pool) exactMax(atLeast float32) float32 {
	cos, bound := p.cos, p.est.bound
	at := gather(len(cos), func(start, end int, picked []int32) []int32 {
		c, b := cos[start:end], bound[start:end]
		for i := range c {
			if c[i]+b[i] >= atLeast {
				picked = append(picked, int32(start+i))
			}
		}
		return picked
	})
	p.exactify(at...)
	top := float32(-1)
	for _, s := range at {
		top = max(top, cos[s])
	}
	return top
}

// topAll fuses every slot's estimated relevance and returns what
// search.TopK of the exact relevance would: the limit best with a positive
// relevance, best first, ties to the lower slot. A slot's relevance lies
// between its value at cos−bound and at cos+bound (fuseOne is monotone in
// the cosine). The limit best by estimate are limit slots whose lowest
// values are all at or above their least, so that least is a cut no higher
// than the limit-th best lowest value overall; a slot whose highest value
// is below it cannot make the cut, and the rest are made exact and ranked.
func (p *pool) topAll(limit int) []search.Hit {
	f, kw, cos, bound := p.fused, p.kw[:len(p.fused)], p.cos[:len(p.fused)], p.est.bound[:len(p.fused)]
	ks, vs, floor := p.kwScale, p.vecScale, p.floor
	// Fuse, and the best by estimate of each half while it is in cache,
	// one half on each core.
	half := (len(f) + 1) / 2
	var tops [2][]search.Hit
	run := func(h int) {
		start, end := h*half, min(len(f), (h+1)*half)
		bf, bk, bc := f[start:end], kw[start:end], cos[start:end]
		for i := range bf {
			bf[i] = fuseOne(bk[i], bc[i], ks, vs, floor)
		}
		tops[h] = search.TopK(bf, limit, nil)
		for i := range tops[h] {
			tops[h][i].Slot += int32(start)
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { run(1) })
	run(0)
	wg.Wait()
	var cut float32 // 0 when fewer are positive: any slot that may be stays in
	if top := search.Best(append(tops[0], tops[1]...), limit); len(top) == limit {
		cut = float32(math.Inf(1))
		for _, h := range top {
			cut = min(cut, fuseOne(kw[h.Slot], cos[h.Slot]-bound[h.Slot], ks, vs, floor))
		}
		cut = max(cut, 0)
	}
	in := gather(len(cos), func(start, end int, picked []int32) []int32 {
		bf, c, b, k := f[start:end], cos[start:end], bound[start:end], kw[start:end]
		for i := range bf {
			// A slot's highest value is at most its estimate plus
			// bound·vecScale (fuseOne is vecScale-Lipschitz in the
			// cosine), plus rounding: most slots stop at this test.
			if bf[i]+b[i]*vs+1e-6 < cut {
				continue
			}
			if h := fuseOne(k[i], c[i]+b[i], ks, vs, floor); h > 0 && h >= cut {
				picked = append(picked, int32(start+i))
			}
		}
		return picked
	})
	return p.rankExact(in, limit)
}

// topOf is topAll among the given slots, whose relevance is fused already:
// the cut is the limit-th best of their lowest values.
func (p *pool) topOf(slots []int32, limit int) []search.Hit {
	cos, bound, kw := p.cos, p.est.bound, p.kw
	ks, vs, floor := p.kwScale, p.vecScale, p.floor
	lows := make([]search.Hit, 0, len(slots))
	for _, s := range slots {
		if l := fuseOne(kw[s], cos[s]-bound[s], ks, vs, floor); l > 0 {
			lows = append(lows, search.Hit{Slot: s, Score: l})
		}
	}
	var cut float32
	if top := search.Best(lows, limit); len(top) == limit {
		cut = top[limit-1].Score
	}
	var in []int32
	for _, s := range slots {
		if h := fuseOne(kw[s], cos[s]+bound[s], ks, vs, floor); h > 0 && h >= cut {
			in = append(in, s)
		}
	}
	return p.rankExact(in, limit)
}

// rankExact makes the slots exact and returns the limit best with a
// positive relevance.
func (p *pool) rankExact(slots []int32, limit int) []search.Hit {
	p.exactify(slots...)
	hits := make([]search.Hit, 0, len(slots))
	for _, s := range slots {
		if f := p.fused[s]; f > 0 {
			hits = append(hits, search.Hit{Slot: s, Score: f})
		}
	}
	return search.Best(hits, limit)
}
