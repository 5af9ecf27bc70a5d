package storage

import "sync"

// textCache keeps recently read stored texts in memory. A text is stored
// under the hash of its content and never changes, so a cached one is
// always right. Reading a section from its file costs four system calls
// (~25 µs here); a question loads two dozen, mostly the ones questions
// before it loaded. The oldest entries go first once the texts take more
// than limit bytes.
type textCache struct {
	mu    sync.Mutex
	texts map[string]string
	order []string // hashes, oldest first (a ring from head)
	head  int
	bytes int
	limit int
}

// textCacheLimit bounds the cache: ~8,000 sections of the usual size.
const textCacheLimit = 16 << 20

// textCacheMax is the largest text worth caching; a larger one is read
// from disk every time (it rarely loads whole).
const textCacheMax = 256 << 10

func (c *textCache) get(hash string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.texts[hash]
	return t, ok
}

func (c *textCache) put(hash, text string) {
	if len(text) > textCacheMax {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.texts == nil {
		c.texts = map[string]string{}
		if c.limit == 0 {
			c.limit = textCacheLimit
		}
	}
	if _, ok := c.texts[hash]; ok {
		return
	}
	for c.bytes+len(text) > c.limit && c.head < len(c.order) {
		old := c.order[c.head]
		c.order[c.head] = ""
		c.head++
		c.bytes -= len(c.texts[old])
		delete(c.texts, old)
	}
	if c.head > len(c.order)/2 { // drop the evicted half of the ring
		c.order = append(c.order[:0], c.order[c.head:]...)
		c.head = 0
	}
	c.texts[hash] = text
	c.order = append(c.order, hash)
	c.bytes += len(text)
}
