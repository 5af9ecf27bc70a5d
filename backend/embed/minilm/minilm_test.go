package minilm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyFiles writes a tiny model's config.json, tokenizer.json and
// model.fp16.safetensors to a temporary directory.
func tinyFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cj, _ := json.Marshal(tinyConfig)
	vocab := map[string]int{"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "hello": 4, "world": 5, "##s": 6, ".": 7}
	tj, _ := json.Marshal(map[string]any{
		"normalizer":    map[string]any{"type": "BertNormalizer", "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model":         map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": vocab},
	})
	for name, b := range map[string][]byte{
		ConfigFile:    cj,
		TokenizerFile: tj,
		WeightsFile:   encodeSafetensors(tinyWeights(tinyConfig, "", 3), "F16"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestEncoderTiny(t *testing.T) {
	e, err := Load(tinyFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != tinyConfig.Hidden {
		t.Errorf("Dim = %d", e.Dim())
	}
	vs, err := e.Encode([]string{"Hello worlds.", "", "hello WORLDS ."})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 {
		t.Fatalf("%d vectors", len(vs))
	}
	for i, v := range vs {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if len(v) != tinyConfig.Hidden || math.Abs(n-1) > 1e-5 {
			t.Errorf("vector %d: len %d, squared norm %g", i, len(v), n)
		}
	}
	// Case and spacing around punctuation do not change the tokens.
	if c := cosine(vs[0], vs[2]); math.Abs(c-1) > 1e-6 {
		t.Errorf("same tokens, cosine %g", c)
	}
	emb := Embedder{e}
	if emb.ID() != ID || emb.Dim() != tinyConfig.Hidden {
		t.Errorf("Embedder ID %q Dim %d", emb.ID(), emb.Dim())
	}
	ev, err := emb.Embed(context.Background(), []string{"Hello worlds."})
	if err != nil || cosine(ev[0], vs[0]) < 1-1e-6 {
		t.Errorf("Embed differs from Encode: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := emb.Embed(ctx, []string{"hello"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Embed: err = %v", err)
	}
}

func TestLoadErrorsNameTheFile(t *testing.T) {
	for _, c := range []struct {
		file, content string
	}{
		{ConfigFile, "{"},
		{ConfigFile, `{"hidden_size": 8, "num_attention_heads": 3}`},
		{TokenizerFile, `{"model": {"type": "BPE"}}`},
		{WeightsFile, "not safetensors"},
		{ConfigFile, ""}, // removed below
	} {
		dir := tinyFiles(t)
		p := filepath.Join(dir, c.file)
		if c.content == "" {
			os.Remove(p)
		} else if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), c.file) {
			t.Errorf("%s %q: err = %v, want one naming the file", c.file, c.content, err)
		}
	}
}

// TestEncoderConcurrent encodes from several goroutines at once (run with
// -race): every result must equal the serial one.
func TestEncoderConcurrent(t *testing.T) {
	e, err := Load(tinyFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"hello", strings.Repeat("hello worlds. ", 40), "world hello", ""}
	want, err := e.Encode(texts)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			for r := 0; r < 5; r++ {
				got, err := e.Encode(texts)
				if err == nil {
					for i := range got {
						for j := range got[i] {
							if got[i][j] != want[i][j] {
								err = fmt.Errorf("text %d dim %d: %g, serial %g", i, j, got[i][j], want[i][j])
							}
						}
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
