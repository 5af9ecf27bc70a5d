// Package tokens counts tokens the way OpenAI-style BPE models do, with
// tiktoken-go and its offline tables: nothing is downloaded at run time.
// Loom counts once, at ingest, and stores the count on the node.
package tokens

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// DefaultEncoding is the BPE table Loom counts with. Local models have their
// own tokenizers; cl100k is a close, model-independent estimate that chat
// later calibrates against Ollama's prompt_eval_count.
const DefaultEncoding = "cl100k_base"

// Counter counts tokens in text. Safe for concurrent use.
type Counter interface {
	Count(text string) int
	// Encoding names the table, e.g. "cl100k_base".
	Encoding() string
}

var (
	loaderOnce sync.Once
	cache      sync.Map // encoding name → *BPE
)

// BPE is a Counter backed by a tiktoken table.
type BPE struct {
	name string
	enc  *tiktoken.Tiktoken
}

var _ Counter = (*BPE)(nil)

// New loads the named encoding from the offline tables (cached per name).
func New(encoding string) (*BPE, error) {
	if c, ok := cache.Load(encoding); ok {
		return c.(*BPE), nil
	}
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader()) })
	enc, err := tiktoken.GetEncoding(encoding)
	if err != nil {
		return nil, fmt.Errorf("load token table %s: %w", encoding, err)
	}
	c, _ := cache.LoadOrStore(encoding, &BPE{name: encoding, enc: enc})
	return c.(*BPE), nil
}

// Default is the cl100k_base counter; it panics only if the tables compiled
// into the binary are broken, which a test catches.
func Default() *BPE {
	c, err := New(DefaultEncoding)
	if err != nil {
		panic(err)
	}
	return c
}

// Count returns the number of tokens in text. Special-token strings such as
// "<|endoftext|>" are counted as ordinary text, never rejected.
func (b *BPE) Count(text string) int {
	if text == "" {
		return 0
	}
	return len(b.enc.EncodeOrdinary(text))
}

// Encoding names the table.
func (b *BPE) Encoding() string { return b.name }

// Estimate is a table-free estimate (about 4 bytes a token) for places that
// must not pay for encoding, such as sizing a reply before it exists.
func Estimate(text string) int { return (len(text) + 3) / 4 }
