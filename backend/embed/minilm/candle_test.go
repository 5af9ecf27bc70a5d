package minilm

import (
	"encoding/json"
	"os"
	"testing"
)

// TestCandleReference compares Encode with an independent implementation
// (candle's BERT and Hugging Face tokenizers, see testdata/README.md) on
// texts that exercise accents, CJK, kana and Hangul, emoji, symbols,
// control characters, Greek, Turkish, ß and ligatures, combining marks, a
// word over 100 characters and truncation at 256
// tokens. A tokenization difference shows as a cosine well below 1.
func TestCandleReference(t *testing.T) {
	e := realEncoder(t)
	b, err := os.ReadFile("testdata/candle_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		Text   string    `json:"text"`
		Vector []float32 `json:"vector"`
	}
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		vs, err := e.Encode([]string{r.Text})
		if err != nil {
			t.Fatal(err)
		}
		c := cosine(vs[0], r.Vector)
		n := len(e.Tokenizer().Encode(r.Text))
		if c < 0.9999 {
			t.Errorf("%d tokens, cosine %.6f with candle: %.60q", n, c, r.Text)
		} else {
			t.Logf("%d tokens, cosine %.6f: %.40q", n, c, r.Text)
		}
	}
}
