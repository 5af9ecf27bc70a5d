package tokens

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCount(t *testing.T) {
	c := Default()
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"hello world", "hello world", 2},
		{"special token text is ordinary", "<|endoftext|>", 7},
		{"tiktoken reference sentence", "tiktoken is great!", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, c.Count(tt.text))
		})
	}
	assert.Equal(t, "cl100k_base", c.Encoding())
}

func TestUnknownEncoding(t *testing.T) {
	_, err := New("no_such_table")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no_such_table")
}

func TestConcurrentCountsAgree(t *testing.T) {
	c := Default()
	text := strings.Repeat("Loom assembles the minimum relevant context. ", 50)
	want := c.Count(text)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				assert.Equal(t, want, c.Count(text))
			}
		}()
	}
	wg.Wait()
}

func BenchmarkCount(b *testing.B) {
	c := Default()
	text := strings.Repeat("The quick brown fox jumps over the lazy dog; tokens per second matter. ", 100)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		c.Count(text)
	}
}
