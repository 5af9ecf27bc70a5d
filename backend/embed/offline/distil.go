package offline

import (
	"context"
	"fmt"
	"strings"

	"github.com/loomwork/loom/backend/embed/minilm"
)

// Pooling says which of a token's last hidden states make its vector.
type Pooling int

const (
	// PoolToken is the token's own row (position 1 of [CLS] tok [SEP]):
	// Loom's table uses it.
	PoolToken Pooling = iota
	// PoolMean is the mean of the three rows of [CLS] tok [SEP], as the
	// sentence encoder pools a text that is that one token.
	PoolMean
)

// Distillable reports whether a vocabulary entry gets a row: every entry
// but the empty ones, [PAD], [MASK], [CLS], [SEP], [UNK] and [unusedN].
func Distillable(tok string) bool {
	switch tok {
	case "", "[PAD]", "[MASK]", "[CLS]", "[SEP]", "[UNK]":
		return false
	}
	return !(strings.HasPrefix(tok, "[unused") && strings.HasSuffix(tok, "]"))
}

// TokenVectors passes each of ids through enc as the sequence [CLS] id
// [SEP] and returns the pooled last hidden states, row-major
// [len(ids)][enc.Dim()], not normalised. batch sequences go through the
// encoder at once (0: 128), which spreads each batch's rows over
// GOMAXPROCS; progress, when not nil, is called with the number done after
// each batch.
func TokenVectors(ctx context.Context, enc *minilm.Encoder, ids []int32, pool Pooling, batch int, progress func(done int)) ([]float32, error) {
	if batch <= 0 {
		batch = 128
	}
	H := enc.Dim()
	_, cls, sep := enc.Tokenizer().Special()
	out := make([]float32, len(ids)*H)
	seqs := make([]int32, 0, 3*batch)
	for lo := 0; lo < len(ids); lo += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+batch, len(ids))
		seqs = seqs[:0]
		for _, id := range ids[lo:hi] {
			seqs = append(seqs, cls, id, sep)
		}
		h, err := enc.Hidden(seqs, 3)
		if err != nil {
			return nil, fmt.Errorf("distil tokens %d to %d: %w", lo, hi-1, err)
		}
		for k := range hi - lo {
			rows, row := h[3*k*H:3*(k+1)*H], out[(lo+k)*H:(lo+k+1)*H]
			switch pool {
			case PoolMean:
				minilm.MeanPool(row, rows, 3)
			default:
				copy(row, rows[H:2*H])
			}
		}
		if progress != nil {
			progress(hi)
		}
	}
	return out, nil
}

// DistilOptions configures Distil; the zero value is Loom's table.
type DistilOptions struct {
	// ID is stored in the table; empty means ID.
	ID string
	// Source describes the weights (file and sha256); it is stored in the
	// table after a description of the method.
	Source string
	// Dims is the table's vector length (principal components kept); 0
	// means 256.
	Dims int
	// Pooling picks the token's vector; the zero value is PoolToken.
	Pooling Pooling
	// SIFA is the SIF constant a of the weights a/(a+p) (0: 1e-4, as in
	// Model2Vec).
	SIFA float64
	// IDs limits the rows to these token ids (tests distil a few); nil
	// means every Distillable entry of the vocabulary.
	IDs []int32
	// Batch and Progress are passed to TokenVectors.
	Batch    int
	Progress func(done, total int)
}

// Distil makes a static table from enc in the manner of Model2Vec
// (Tulkens and van Dongen, 2024): every vocabulary token goes through the
// encoder alone as [CLS] tok [SEP] and its output row becomes its vector;
// the rows are centred and projected on their first Dims principal
// components; each row is weighted a/(a+p) with p estimated by Zipf's law
// from the token's rank in the vocabulary, which BERT's WordPiece training
// left in roughly descending frequency (characters first, then "the",
// "of", "and", …). A text's vector is then the normalised sum of its
// pieces' rows.
func Distil(ctx context.Context, enc *minilm.Encoder, opts DistilOptions) ([]byte, BuildStats, error) {
	tok := enc.Tokenizer()
	vocab := tok.Vocab()
	ids := opts.IDs
	if ids == nil {
		for id, t := range vocab {
			if Distillable(t) {
				ids = append(ids, int32(id))
			}
		}
	}
	var progress func(int)
	if opts.Progress != nil {
		progress = func(done int) { opts.Progress(done, len(ids)) }
	}
	vecs, err := TokenVectors(ctx, enc, ids, opts.Pooling, opts.Batch, progress)
	if err != nil {
		return nil, BuildStats{}, err
	}
	dims := opts.Dims
	if dims <= 0 {
		dims = 256
	}
	a := opts.SIFA
	if a <= 0 {
		a = 1e-4
	}
	id := opts.ID
	if id == "" {
		id = ID
	}
	pool := "the token's own output row"
	if opts.Pooling == PoolMean {
		pool = "the mean of the three output rows"
	}
	unk, prefix, maxChars := tok.Settings()
	// Ranks follow the ids, which the vocabulary orders by frequency.
	return Build(BuildInput{
		ID:           id,
		Source:       fmt.Sprintf("Model2Vec-style distillation of %s: [CLS] token [SEP], %s, %d principal components, SIF a=%g on Zipf ranks", opts.Source, pool, dims, a),
		Vocab:        vocab,
		Unk:          unk,
		Prefix:       prefix,
		MaxWordChars: maxChars,
		IDs:          ids,
		Vectors:      vecs,
		Dims:         dims,
		Weight:       SIFWeights(ZipfByRank(len(ids)), a),
	})
}
