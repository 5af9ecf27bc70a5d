// Command tinyollama writes a tiny llama-architecture model that a real
// Ollama (v0.6.8) loads and runs in milliseconds on a CPU, so that Loom's
// tests can talk to a real server without downloading a model:
//
//	go run . -out ../../.cache/ollama/tiny.gguf
//
// The model has random weights from a fixed seed (so the file is the same
// on every machine), two layers of width 64 with four heads, a context of
// 2048 tokens, and a byte-level vocabulary (GPT-2's byte-to-unicode
// alphabet with no merges, so every byte of a prompt is one token, plus
// the control tokens <|bos|> and <|eos|>). Only printable ASCII bytes have
// non-zero output weights: greedy decoding (temperature 0 in the
// Modelfile) answers with printable text and never ends the answer itself,
// so a reply always runs to num_predict. It is written with Ollama's own
// fs/ggml.WriteGGUF; this is its own Go module so that Loom's go.mod does
// not pin Ollama's server.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/ollama/ollama/fs/ggml"
)

const (
	embd    = 64
	ff      = 128
	heads   = 4
	layers  = 2
	ctxLen  = 2048
	bosID   = 256
	eosID   = 257
	nTokens = 258
)

func main() {
	out := flag.String("out", "tiny.gguf", "the GGUF file to write")
	flag.Parse()
	// WriteGGUF logs each default it falls back to (general.alignment).
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "tinyollama:", err)
		os.Exit(1)
	}
}

// write writes the model to path atomically (a temporary file renamed).
func write(path string) error {
	tokens, types := vocabulary()
	scores := make([]float32, nTokens)
	kv := ggml.KV{
		"general.architecture":                   "llama",
		"general.name":                           "tiny",
		"general.file_type":                      uint32(0), // all F32
		"llama.context_length":                   uint32(ctxLen),
		"llama.embedding_length":                 uint32(embd),
		"llama.feed_forward_length":              uint32(ff),
		"llama.block_count":                      uint32(layers),
		"llama.attention.head_count":             uint32(heads),
		"llama.attention.head_count_kv":          uint32(heads),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.rope.dimension_count":             uint32(embd / heads),
		"llama.rope.freq_base":                   float32(10000),
		"llama.vocab_size":                       uint32(nTokens),
		"tokenizer.ggml.model":                   "gpt2",
		"tokenizer.ggml.pre":                     "default",
		"tokenizer.ggml.tokens":                  tokens,
		"tokenizer.ggml.token_type":              types,
		"tokenizer.ggml.scores":                  scores,
		"tokenizer.ggml.merges":                  []string{},
		"tokenizer.ggml.bos_token_id":            uint32(bosID),
		"tokenizer.ggml.eos_token_id":            uint32(eosID),
		"tokenizer.ggml.add_bos_token":           false,
		"tokenizer.ggml.add_eos_token":           false,
	}

	rng := rand.New(rand.NewPCG(21, 6))
	normal := func(n int, std float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64() * std)
		}
		return v
	}
	ones := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = 1
		}
		return v
	}
	// The output layer: a row per token; only printable ASCII can win.
	output := normal(embd*nTokens, 0.5)
	for tok := range nTokens {
		if tok < 0x20 || tok > 0x7e {
			clear(output[tok*embd : (tok+1)*embd])
		}
	}

	// Shapes are GGML's: the first dimension is the input's.
	var ts []ggml.Tensor
	add := func(name string, data []float32, shape ...uint64) {
		var b bytes.Buffer
		_ = binary.Write(&b, binary.LittleEndian, data)
		ts = append(ts, ggml.Tensor{Name: name, Kind: 0, Shape: shape, WriterTo: bytes.NewReader(b.Bytes())})
	}
	std := 1 / math.Sqrt(embd)
	add("token_embd.weight", normal(embd*nTokens, 1), embd, nTokens)
	add("output_norm.weight", ones(embd), embd)
	add("output.weight", output, embd, nTokens)
	for l := range layers {
		p := fmt.Sprintf("blk.%d.", l)
		add(p+"attn_norm.weight", ones(embd), embd)
		add(p+"attn_q.weight", normal(embd*embd, std), embd, embd)
		add(p+"attn_k.weight", normal(embd*embd, std), embd, embd)
		add(p+"attn_v.weight", normal(embd*embd, std), embd, embd)
		add(p+"attn_output.weight", normal(embd*embd, std), embd, embd)
		add(p+"ffn_norm.weight", ones(embd), embd)
		add(p+"ffn_gate.weight", normal(embd*ff, std), embd, ff)
		add(p+"ffn_up.weight", normal(embd*ff, std), embd, ff)
		add(p+"ffn_down.weight", normal(ff*embd, 1/math.Sqrt(ff)), ff, embd)
	}

	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tiny-*.gguf")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := ggml.WriteGGUF(f, kv, ts); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// vocabulary is GPT-2's byte-level alphabet (each byte as the rune GPT-2's
// byte-to-unicode table gives it) and two control tokens.
func vocabulary() ([]string, []int32) {
	tokens := make([]string, 0, nTokens)
	types := make([]int32, 0, nTokens)
	shifted := 0
	for b := range 256 {
		r := rune(b)
		if !(b >= '!' && b <= '~' || b >= 0xa1 && b <= 0xac || b >= 0xae) {
			r = rune(256 + shifted)
			shifted++
		}
		tokens = append(tokens, string(r))
		types = append(types, 1) // normal
	}
	tokens = append(tokens, "<|bos|>", "<|eos|>")
	types = append(types, 3, 3) // control
	return tokens, types
}
