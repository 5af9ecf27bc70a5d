package offline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// ID identifies this embedder and its vector space; see embed.Embedder.
const ID = "offline/glove-6b-100d-sif"

// TableFile is the table's file name inside the embedded table directory
// (backend/embed/offline/table/), where scripts/embeddings.sh writes it.
const TableFile = "glove-100d.bin"

// ErrTableMissing is returned by New when the binary was built without the
// generated table.
var ErrTableMissing = errors.New("offline embedding table missing: run `bash scripts/embeddings.sh` (or `make embeddings`)")

// Embedder embeds texts with SIF-weighted GloVe vectors. It is immutable
// and safe for concurrent use.
type Embedder struct {
	t      *table
	dim    int
	index  map[string]int32 // word → row
	weight []float32        // per row: a/(a+p(w)) × dequantisation scale
	pool   sync.Pool        // *scratch
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

// FromBytes parses a table produced by tools/mkembed. The Embedder keeps
// using b, which must not be modified afterwards.
func FromBytes(b []byte) (*Embedder, error) {
	t, err := parseTable(b)
	if err != nil {
		return nil, err
	}
	return newEmbedder(t), nil
}

// FromFile reads and parses the table at path.
func FromFile(path string) (*Embedder, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w (no file at %s)", ErrTableMissing, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read offline embedding table: %w", err)
	}
	return FromBytes(b)
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

func newEmbedder(t *table) *Embedder {
	e := &Embedder{
		t:      t,
		dim:    t.dim,
		index:  make(map[string]int32, len(t.words)),
		weight: make([]float32, len(t.words)),
	}
	a := float64(t.sifA)
	for i, w := range t.words {
		if _, dup := e.index[w]; !dup { // the first (most frequent) wins
			e.index[w] = int32(i)
		}
		e.weight[i] = float32(a / (a + float64(t.prob[i])) * float64(t.scale[i]))
	}
	return e
}

// ID returns the constant ID.
func (e *Embedder) ID() string { return ID }

// Dim returns the vector length, 100.
func (e *Embedder) Dim() int { return e.dim }

// Words returns the vocabulary size, for diagnostics.
func (e *Embedder) Words() int { return len(e.t.words) }

// Source describes where the table's vectors came from.
func (e *Embedder) Source() string { return e.t.source }

// Known reports whether word (lower-case) is in the vocabulary.
func (e *Embedder) Known(word string) bool {
	_, ok := e.index[word]
	return ok
}

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
type scratch struct {
	tok  tokenizer
	ids  []int32
	acc  []float32
	emit func([]byte)
}

func (e *Embedder) getScratch() *scratch {
	if s, ok := e.pool.Get().(*scratch); ok {
		return s
	}
	s := &scratch{acc: make([]float32, e.dim)}
	s.emit = func(w []byte) { s.ids = e.lookup(s.ids, w) }
	return s
}

// lookup appends the row of w, or when w is an unknown hyphenated compound
// the rows of its known parts.
func (e *Embedder) lookup(ids []int32, w []byte) []int32 {
	if id, ok := e.index[string(w)]; ok {
		return append(ids, id)
	}
	if bytes.IndexByte(w, '-') < 0 {
		return ids
	}
	for part := range bytes.SplitSeq(w, []byte{'-'}) {
		if id, ok := e.index[string(part)]; ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// wordIDs returns the rows of text's known words, in order.
func (e *Embedder) wordIDs(s *scratch, text string) []int32 {
	s.ids = s.ids[:0]
	s.tok.each(text, s.emit)
	return s.ids
}

// sum sets acc to the SIF-weighted sum of the rows in ids.
func (e *Embedder) sum(acc []float32, ids []int32) {
	clear(acc)
	dim := len(acc)
	for _, id := range ids {
		base := int(id) * dim
		axpy(acc, e.t.q[base:base+dim], e.weight[id])
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

// dotSquares returns x·u and x·x. Four partial sums per result keep the
// floating-point adders busy instead of waiting on one long chain.
func dotSquares(x, u []float32) (dot, squares float32) {
	u = u[:len(x)]
	var d0, d1, d2, d3, s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		a, b := x[i:i+4:i+4], u[i:i+4:i+4]
		d0 += a[0] * b[0]
		d1 += a[1] * b[1]
		d2 += a[2] * b[2]
		d3 += a[3] * b[3]
		s0 += a[0] * a[0]
		s1 += a[1] * a[1]
		s2 += a[2] * a[2]
		s3 += a[3] * a[3]
	}
	for ; i < len(x); i++ {
		d0 += x[i] * u[i]
		s0 += x[i] * x[i]
	}
	return d0 + d1 + d2 + d3, s0 + s1 + s2 + s3
}

// embedOne writes text's unit vector to out.
func (e *Embedder) embedOne(s *scratch, text string, out []float32) {
	ids := e.wordIDs(s, text)
	if len(ids) == 0 {
		fallbackVector(text, out)
		return
	}
	acc := s.acc
	e.sum(acc, ids)
	// Remove the common component: out = acc - (acc·u) u.
	u := e.t.common[:len(acc)]
	out = out[:len(acc)]
	dot, before := dotSquares(acc, u)
	for d, x := range acc {
		out[d] = x - dot*u[d]
	}
	_, after := dotSquares(out, u)
	switch {
	case after > 1e-12*before && after > 0:
		scaleTo(out, float64(after))
	case before > 0: // the text is all common component; keep it rather than return noise
		copy(out, acc)
		scaleTo(out, float64(before))
	default:
		fallbackVector(text, out)
	}
}

// scaleTo divides v by the square root of sumSquares.
func scaleTo(v []float32, sumSquares float64) {
	inv := float32(1 / math.Sqrt(sumSquares))
	for d := range v {
		v[d] *= inv
	}
}
