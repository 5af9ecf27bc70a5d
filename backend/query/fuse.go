package query

import (
	"runtime"
	"sync"
)

// fuseBlock is the unit of work of sumMax and fuse: fixed, so that the
// partial sums, and so the floor, are the same whatever the core count.
const fuseBlock = 8192

// blocks runs f over [0, n) in fuseBlock-sized blocks on up to GOMAXPROCS
// goroutines (the calling one included); f gets the block's index.
func blocks(n int, f func(b, start, end int)) {
	nb := (n + fuseBlock - 1) / fuseBlock
	workers := min(runtime.GOMAXPROCS(0), nb)
	if workers <= 1 {
		for b := range nb {
			f(b, b*fuseBlock, min(n, (b+1)*fuseBlock))
		}
		return
	}
	var wg sync.WaitGroup
	per := (nb + workers - 1) / workers
	run := func(first int) {
		for b := first; b < min(nb, first+per); b++ {
			f(b, b*fuseBlock, min(n, (b+1)*fuseBlock))
		}
	}
	for first := per; first < nb; first += per {
		wg.Go(func() { run(first) })
	}
	run(0)
	wg.Wait()
}

// sumMax returns the sum (in float64, block by block in a fixed order) and
// the maximum of xs (-1 when xs is empty or all below -1: cosines).
func sumMax(xs []float32) (float64, float32) {
	nb := (len(xs) + fuseBlock - 1) / fuseBlock
	sums := make([]float64, nb)
	maxes := make([]float32, nb)
	blocks(len(xs), func(b, start, end int) {
		var s float64
		m := float32(-1)
		for _, c := range xs[start:end] {
			s += float64(c)
			if c > m {
				m = c
			}
		}
		sums[b], maxes[b] = s, m
	})
	var sum float64
	m := float32(-1)
	for b := range nb {
		sum += sums[b]
		m = max(m, maxes[b])
	}
	return sum, m
}

// fuse writes each slot's semantic relevance (fuseOne) into fused.
func fuse(fused, kw, cos []float32, kwScale, vecScale, floor float32) {
	blocks(len(fused), func(_, start, end int) {
		f, k, c := fused[start:end], kw[start:end], cos[start:end]
		k, c = k[:len(f)], c[:len(f)]
		for i := range f {
			f[i] = fuseOne(k[i], c[i], kwScale, vecScale, floor)
		}
	})
}
