package minilm

import (
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// weightsDir is where scripts/minilm.sh unpacks the model, relative to this
// package; MINILM_DIR overrides it.
func weightsDir() string {
	if d := os.Getenv("MINILM_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", ".cache", "minilm", "package", "model")
}

var (
	loadOnce sync.Once
	loaded   *Encoder
	loadErr  error
)

// realEncoder loads the real weights once, or skips the test when they have
// not been fetched.
func realEncoder(tb testing.TB) *Encoder {
	tb.Helper()
	dir := weightsDir()
	if _, err := os.Stat(filepath.Join(dir, WeightsFile)); err != nil {
		tb.Skipf("all-MiniLM-L6-v2 weights not found in %s (run scripts/minilm.sh): %v", dir, err)
	}
	loadOnce.Do(func() { loaded, loadErr = Load(dir) })
	if loadErr != nil {
		tb.Fatal(loadErr)
	}
	return loaded
}

// realTokenizer loads tokenizer.json alone, or skips.
func realTokenizer(tb testing.TB) *Tokenizer {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(weightsDir(), TokenizerFile))
	if err != nil {
		tb.Skipf("tokenizer.json not found (run scripts/minilm.sh): %v", err)
	}
	t, err := ParseTokenizer(b)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

// The similarity matrix the sentence-transformers documentation prints for
// all-MiniLM-L6-v2 (Quickstart, "model.similarity(embeddings, embeddings)").
func TestReferenceSimilarities(t *testing.T) {
	e := realEncoder(t)
	texts := []string{"The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."}
	want := [3][3]float64{{1, 0.6660, 0.1046}, {0.6660, 1, 0.1411}, {0.1046, 0.1411, 1}}
	vs, err := e.Encode(texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		for j := range texts {
			got := cosine(vs[i], vs[j])
			t.Logf("sim[%d][%d] = %.4f (reference %.4f)", i, j, got, want[i][j])
			if math.Abs(got-want[i][j]) > 0.01 {
				t.Errorf("sim(%q, %q) = %.4f, reference %.4f", texts[i], texts[j], got, want[i][j])
			}
		}
	}
}

func TestSimilarityOrder(t *testing.T) {
	e := realEncoder(t)
	texts := []string{"A man is eating food.", "A man is eating a piece of bread.", "A man is riding a horse.", "The girl is carrying a baby.", "A man is eating food."}
	vs, err := e.Encode(texts)
	if err != nil {
		t.Fatal(err)
	}
	bread, horse, baby, same := cosine(vs[0], vs[1]), cosine(vs[0], vs[2]), cosine(vs[0], vs[3]), cosine(vs[0], vs[4])
	t.Logf("bread %.4f horse %.4f baby %.4f same %.6f", bread, horse, baby, same)
	if bread <= 0.6 || bread <= horse {
		t.Errorf("sim(food, bread) = %.4f, want > 0.6 and > sim(food, horse) = %.4f", bread, horse)
	}
	if baby >= 0.2 {
		t.Errorf("sim(food, baby) = %.4f, want < 0.2", baby)
	}
	if math.Abs(same-1) > 1e-5 {
		t.Errorf("identical texts have similarity %.6f, want 1", same)
	}
	for i, v := range vs {
		if len(v) != 384 {
			t.Fatalf("vector %d has %d dims", i, len(v))
		}
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-4 {
			t.Errorf("vector %d has squared norm %.6f", i, n)
		}
	}
}

func TestReferenceTokenIDs(t *testing.T) {
	tok := realTokenizer(t)
	for _, c := range []struct {
		text string
		want []int32
	}{
		{"Hello world", []int32{101, 7592, 2088, 102}},
		{"The quick brown fox jumps over the lazy dog.", []int32{101, 1996, 4248, 2829, 4419, 14523, 2058, 1996, 13971, 3899, 1012, 102}},
		{"unaffable", []int32{101, 14477, 20961, 3468, 102}},
	} {
		got := tok.Encode(c.text)
		if !equalIDs(got, c.want) {
			t.Errorf("Encode(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func equalIDs(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
