package storage

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTextCacheKeepsTheNewestWithinItsLimit: texts read back until the
// cache is over its limit, then the oldest go first; a text larger than
// textCacheMax is never kept; the byte count stays exact through many
// evictions.
func TestTextCacheKeepsTheNewestWithinItsLimit(t *testing.T) {
	c := &textCache{limit: 1000}
	text := func(i int) string { return fmt.Sprintf("%05d%s", i, strings.Repeat("x", 95)) } // 100 bytes
	for i := range 10 {
		c.put(fmt.Sprint(i), text(i))
	}
	for i := range 10 {
		got, ok := c.get(fmt.Sprint(i))
		require.True(t, ok)
		assert.Equal(t, text(i), got)
	}
	c.put("10", text(10))
	_, ok := c.get("0")
	assert.False(t, ok, "the oldest went first")
	_, ok = c.get("10")
	assert.True(t, ok)
	c.put("10", text(10)) // again: no change
	assert.Equal(t, 1000, c.bytes)

	for i := 11; i < 5000; i++ {
		c.put(fmt.Sprint(i), text(i))
	}
	assert.Equal(t, 1000, c.bytes)
	assert.Len(t, c.texts, 10)
	assert.LessOrEqual(t, len(c.order)-c.head, 10)
	assert.Less(t, len(c.order), 40, "evicted hashes do not pile up")
	for i := 4990; i < 5000; i++ {
		_, ok := c.get(fmt.Sprint(i))
		assert.True(t, ok, "%d is among the newest", i)
	}

	big := strings.Repeat("y", textCacheMax+1)
	c.put("big", big)
	_, ok = c.get("big")
	assert.False(t, ok, "too large to keep")
}

func TestTextCacheConcurrent(t *testing.T) {
	c := &textCache{limit: 5000}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				k := fmt.Sprint(g*10000 + i%300)
				if got, ok := c.get(k); ok {
					assert.Equal(t, "text "+k, got)
				} else {
					c.put(k, "text "+k)
				}
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, c.bytes, 5000)
}
