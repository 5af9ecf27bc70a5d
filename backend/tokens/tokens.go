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
	cache      sync.Map // encoding name → *loading
)

// BPE is a Counter backed by a tiktoken table.
type BPE struct {
	name string
	fast *cl100k            // cl100k_base: the hand-written pre-split
	enc  *tiktoken.Tiktoken // other encodings
}

var _ Counter = (*BPE)(nil)

// loading is one load of one encoding, which concurrent callers share.
type loading struct {
	once sync.Once
	bpe  *BPE
	err  error
}

// New loads the named encoding from the offline tables (cached per name).
// Concurrent first calls share one load (about 0.1 s for cl100k_base), so
// Preload can start it early.
func New(encoding string) (*BPE, error) {
	l, _ := cache.LoadOrStore(encoding, new(loading))
	ld := l.(*loading)
	ld.once.Do(func() {
		if encoding == DefaultEncoding {
			ranks, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(encoding + ".tiktoken")
			if err != nil {
				ld.err = fmt.Errorf("load token table %s: %w", encoding, err)
				return
			}
			ld.bpe = &BPE{name: encoding, fast: &cl100k{ranks: ranks}}
			return
		}
		loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader()) })
		enc, err := tiktoken.GetEncoding(encoding)
		if err != nil {
			ld.err = fmt.Errorf("load token table %s: %w", encoding, err)
			return
		}
		ld.bpe = &BPE{name: encoding, enc: enc}
	})
	return ld.bpe, ld.err
}

// Preload starts loading the named encoding in the background, so that a
// later New finds it loaded (or waits only for the rest of the load).
func Preload(encoding string) { go New(encoding) }

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
	if b.fast != nil {
		return b.fast.count(text)
	}
	return len(b.enc.EncodeOrdinary(text))
}

// Encoding names the table.
func (b *BPE) Encoding() string { return b.name }

// Estimate is a table-free estimate (about 4 bytes a token) for places that
// must not pay for encoding, such as sizing a reply before it exists.
func Estimate(text string) int { return (len(text) + 3) / 4 }
