package offline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/loomwork/loom/backend/embed/minilm"
)

// ID identifies the embedder of the table scripts/embeddings.sh builds, and
// its vector space (see embed.Embedder): all-MiniLM-L6-v2 distilled to a
// static table of 256 dimensions. A table carries its own ID; this is the
// one tools/mkembed writes.
const ID = "offline/minilm-l6-m2v-256"

// TableFile is the table's file name inside the embedded table directory
// (backend/embed/offline/table/), where scripts/embeddings.sh writes it.
const TableFile = "minilm-l6-m2v-256.bin"

// ErrTableMissing is returned by New when the binary was built without the
// generated table.
var ErrTableMissing = errors.New("offline embedding table missing: run `bash scripts/embeddings.sh` (or `make setup`)")

// Embedder embeds texts with a static table: WordPiece pieces, the
// weighted sum of their rows, scaled to unit length. It is immutable and
// safe for concurrent use.
type Embedder struct {
	t    *table
	dim  int
	tok  *minilm.Tokenizer
	mult []float32 // per row: weight × dequantisation scale; 0 skips the token
	pool sync.Pool // *scratch
}

var (
	embeddedOnce sync.Once
	embedded     *Embedder
	embeddedErr  error
)

// New returns the embedder over the table compiled into the binary. The
// table is parsed on the first call only; later calls return the same
// Embedder. Without a generated table it returns ErrTableMissing.
func New() (*Embedder, error) {
	embeddedOnce.Do(func() {
		b, err := embeddedTable()
		if err != nil {
			embeddedErr = err
			return
		}
		embedded, embeddedErr = FromBytes(b)
	})
	return embedded, embeddedErr
}

// FromBytes parses a table made by Build (tools/mkembed). The Embedder
// keeps using b, which must not be modified afterwards.
func FromBytes(b []byte) (*Embedder, error) {
	t, err := parseTable(b)
	if err != nil {
		return nil, err
	}
	return newEmbedder(t)
}

// FromFile reads and parses the table at path; its errors name the file.
func FromFile(path string) (*Embedder, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w (no file at %s)", ErrTableMissing, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read offline embedding table: %w", err)
	}
	e, err := FromBytes(b)
	var te *TableError
	if errors.As(err, &te) {
		te.File = path
	}
	return e, err
}

// FromReader reads a whole table from r (for example an HTTP response in the
// WebAssembly edition) and parses it.
func FromReader(r io.Reader) (*Embedder, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read offline embedding table: %w", err)
	}
	return FromBytes(b)
}

func newEmbedder(t *table) (*Embedder, error) {
	vocab := make(map[string]int32, len(t.tokens))
	for i, tok := range t.tokens {
		if tok != "" {
			vocab[tok] = int32(i)
		}
	}
	tok, err := minilm.NewTokenizer(vocab, t.unk, t.prefix, t.maxWordChars)
	if err != nil {
		return nil, tableError("vocabulary: %v", err)
	}
	e := &Embedder{t: t, dim: t.dim, tok: tok, mult: make([]float32, len(t.tokens))}
	for i := range e.mult {
		e.mult[i] = t.weight[i] * t.scale[i]
	}
	return e, nil
}

// ID returns the ID the table carries (ID for the table
// scripts/embeddings.sh builds).
func (e *Embedder) ID() string { return e.t.id }

// Dim returns the vector length.
func (e *Embedder) Dim() int { return e.dim }

// Source describes where the table's vectors came from.
func (e *Embedder) Source() string { return e.t.source }

// Tokens returns the vocabulary size, for diagnostics.
func (e *Embedder) Tokens() int { return len(e.t.tokens) }

// Embed returns one unit vector per text. Large batches are spread over
// GOMAXPROCS goroutines. It fails only when ctx is done.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*e.dim)
	for i := range out {
		out[i] = flat[i*e.dim : (i+1)*e.dim : (i+1)*e.dim]
	}
	const chunk = 32 // texts per unit of work: small enough to balance, large enough to amortise
	workers := min(runtime.GOMAXPROCS(0), (len(texts)+chunk-1)/chunk)
	if workers <= 1 {
		s := e.getScratch()
		defer e.pool.Put(s)
		for i, text := range texts {
			if i%chunk == chunk-1 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			e.embedOne(s, text, out[i])
		}
		return out, nil
	}
	var nextChunk atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := e.getScratch()
			defer e.pool.Put(s)
			for ctx.Err() == nil {
				start := int(nextChunk.Add(chunk)) - chunk
				if start >= len(texts) {
					return
				}
				for i := start; i < min(start+chunk, len(texts)); i++ {
					e.embedOne(s, texts[i], out[i])
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// scratch is per-goroutine working memory.
type scratch struct{ ids []int32 }

func (e *Embedder) getScratch() *scratch {
	if s, ok := e.pool.Get().(*scratch); ok {
		return s
	}
	return &scratch{}
}

// embedOne writes text's unit vector to out.
func (e *Embedder) embedOne(s *scratch, text string, out []float32) {
	s.ids = e.tok.Pieces(s.ids[:0], text)
	clear(out)
	dim := len(out)
	for _, id := range s.ids {
		if w := e.mult[id]; w != 0 {
			base := int(id) * dim
			axpy(out, e.t.q[base:base+dim], w)
		}
	}
	var ss float64
	for _, x := range out {
		ss += float64(x) * float64(x)
	}
	if ss == 0 { // no piece with a row: the empty text, or only [UNK]
		fallbackVector(text, out)
		return
	}
	scaleTo(out, ss)
}

// scaleTo divides v by the square root of sumSquares.
func scaleTo(v []float32, sumSquares float64) {
	inv := float32(1 / math.Sqrt(sumSquares))
	for d := range v {
		v[d] *= inv
	}
}

// int8ToFloat converts a quantised component; a table lookup is faster here
// than the conversion instruction.
var int8ToFloat = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(int8(uint8(i)))
	}
	return t
}()

// axpy adds w × row to acc, four lanes at a time.
func axpy(acc []float32, row []int8, w float32) {
	row = row[:len(acc)]
	d := 0
	for ; d+4 <= len(acc); d += 4 {
		a, r := acc[d:d+4:d+4], row[d:d+4:d+4]
		a[0] += w * int8ToFloat[uint8(r[0])]
		a[1] += w * int8ToFloat[uint8(r[1])]
		a[2] += w * int8ToFloat[uint8(r[2])]
		a[3] += w * int8ToFloat[uint8(r[3])]
	}
	for ; d < len(acc); d++ {
		acc[d] += w * int8ToFloat[uint8(row[d])]
	}
}
