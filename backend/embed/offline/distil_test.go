package offline

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/embed/minilm"
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
	loaded   *minilm.Encoder
	loadErr  error
)

// realEncoder loads all-MiniLM-L6-v2 once, or skips the test when
// scripts/minilm.sh has not fetched it.
func realEncoder(tb testing.TB) *minilm.Encoder {
	tb.Helper()
	dir := weightsDir()
	if _, err := os.Stat(filepath.Join(dir, minilm.WeightsFile)); err != nil {
		tb.Skipf("all-MiniLM-L6-v2 weights not found in %s (run scripts/minilm.sh): %v", dir, err)
	}
	loadOnce.Do(func() { loaded, loadErr = minilm.Load(dir) })
	require.NoError(tb, loadErr)
	return loaded
}

// someTokens returns the ids of words that are single tokens of the
// vocabulary, and the words.
func someTokens(t *testing.T, enc *minilm.Encoder) ([]int32, []string) {
	words := []string{"insulin", "glucose", "diabetes", "hormone", "cat", "dog", "kitten",
		"football", "guitar", "music", "protein", "dna", "gene", "car", "train", "snow",
		"rain", "market", "bank", "money", "the", "of", ".", "##ing", "paris", "london"}
	vocab := enc.Tokenizer().Vocab()
	var ids []int32
	for _, w := range words {
		id := slices.Index(vocab, w)
		require.GreaterOrEqual(t, id, 0, "%q is not one token", w)
		require.True(t, Distillable(w))
		ids = append(ids, int32(id))
	}
	return ids, words
}

// TestTokenVectorsAreTheEncodersOutput checks the distillation's first
// step against the encoder: the mean-pooled vector of a token, normalised,
// is bit for bit what Encode returns for the word that is that token, and
// the token's own row is the encoder's hidden state at position 1.
func TestTokenVectorsAreTheEncodersOutput(t *testing.T) {
	enc := realEncoder(t)
	ids, words := someTokens(t, enc)
	H := enc.Dim()
	// A batch size that does not divide the count exercises the last, short batch.
	mean, err := TokenVectors(context.Background(), enc, ids, PoolMean, 7, nil)
	require.NoError(t, err)
	own, err := TokenVectors(context.Background(), enc, ids, PoolToken, 0, nil)
	require.NoError(t, err)
	_, cls, sep := enc.Tokenizer().Special()
	for k, w := range words {
		if w[0] == '#' {
			continue // a continuation piece is no text of its own
		}
		want, err := enc.Encode([]string{w})
		require.NoError(t, err)
		assert.Equal(t, want[0], normalised(mean[k*H:(k+1)*H]), "mean pool of %q", w)
		h, err := enc.Hidden([]int32{cls, ids[k], sep}, 3)
		require.NoError(t, err)
		assert.Equal(t, h[H:2*H], own[k*H:(k+1)*H], "own row of %q", w)
	}
}

func normalised(v []float32) []float32 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(ss))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}

// TestDistilKeepsTheEncodersGeometry distils a few tokens with every
// dimension kept and checks, through the embedder's own interface, that a
// one-token text's vector is its token's output row, centred on the rows'
// mean: cosines between such texts equal those between the centred rows,
// up to the int8 rounding.
func TestDistilKeepsTheEncodersGeometry(t *testing.T) {
	enc := realEncoder(t)
	ids, words := someTokens(t, enc)
	H := enc.Dim()
	var progressed []int
	b, stats, err := Distil(context.Background(), enc, DistilOptions{
		ID: "offline/test", Source: "test", Dims: H, IDs: ids, Batch: 10,
		Progress: func(done, total int) { progressed = append(progressed, done, total) },
	})
	require.NoError(t, err)
	assert.Equal(t, []int{10, len(ids), 20, len(ids), len(ids), len(ids)}, progressed)
	assert.InDelta(t, 1, stats.Variance, 1e-9)
	assert.Greater(t, stats.MinQuantCosine, 0.999)
	e, err := FromBytes(b)
	require.NoError(t, err)
	assert.Equal(t, "offline/test", e.ID())
	assert.Equal(t, H, e.Dim())
	assert.Contains(t, e.Source(), "Model2Vec-style distillation of test")

	rows := make([][]float64, len(ids))
	mean := make([]float64, H)
	_, cls, sep := enc.Tokenizer().Special()
	for k, id := range ids {
		h, err := enc.Hidden([]int32{cls, id, sep}, 3)
		require.NoError(t, err)
		rows[k] = make([]float64, H)
		for d, x := range h[H : 2*H] {
			rows[k][d] = float64(x)
			mean[d] += float64(x) / float64(len(ids))
		}
	}
	cos := func(a, b []float64) float64 {
		var ab, aa, bb float64
		for d := range a {
			x, y := a[d]-mean[d], b[d]-mean[d]
			ab += x * y
			aa += x * x
			bb += y * y
		}
		return ab / math.Sqrt(aa*bb)
	}
	var texts []string
	var pairs [][2]int
	for k, w := range words {
		if w[0] != '#' && w != "." {
			texts = append(texts, w)
			pairs = append(pairs, [2]int{len(texts) - 1, k})
		}
	}
	vs, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	// The int8 rows keep cosines to a few thousandths.
	var sum, worst float64
	for _, p := range pairs {
		for _, q := range pairs {
			d := math.Abs(cos(rows[p[1]], rows[q[1]]) - cosine(vs[p[0]], vs[q[0]]))
			sum += d
			worst = max(worst, d)
			assert.Less(t, d, 0.01, "%s · %s", texts[p[0]], texts[q[0]])
		}
	}
	assert.Less(t, sum/float64(len(pairs)*len(pairs)), 0.002, "mean difference of the cosines")
	t.Logf("cosines of one-token texts against the centred rows: mean difference %.5f, largest %.5f", sum/float64(len(pairs)*len(pairs)), worst)
	// Only the distilled tokens have rows: a text of others falls back.
	assert.Equal(t, embedOne(t, e, "zebra"), fallbackOf("zebra", H))
}

func fallbackOf(text string, dim int) []float32 {
	v := make([]float32, dim)
	fallbackVector(text, v)
	return v
}

// TestDistilIsDeterministic distils the same tokens twice, one batch size
// apart, and on a different number of threads.
func TestDistilIsDeterministic(t *testing.T) {
	enc := realEncoder(t)
	ids, _ := someTokens(t, enc)
	a, _, err := Distil(context.Background(), enc, DistilOptions{Dims: 8, IDs: ids, Batch: 5})
	require.NoError(t, err)
	b, _, err := Distil(context.Background(), enc, DistilOptions{Dims: 8, IDs: ids, Batch: 64})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	e, err := FromBytes(a)
	require.NoError(t, err)
	assert.Equal(t, ID, e.ID(), "the default ID")
	assert.Equal(t, 8, e.Dim())
}

func TestDistilStopsWhenCancelled(t *testing.T) {
	enc := realEncoder(t)
	ids, _ := someTokens(t, enc)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := Distil(ctx, enc, DistilOptions{IDs: ids})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestDistillable(t *testing.T) {
	for tok, want := range map[string]bool{
		"the": true, "##ing": true, ".": true, "東": true,
		"": false, "[PAD]": false, "[CLS]": false, "[SEP]": false, "[MASK]": false, "[UNK]": false, "[unused0]": false, "[unused993]": false,
	} {
		assert.Equal(t, want, Distillable(tok), tok)
	}
}
