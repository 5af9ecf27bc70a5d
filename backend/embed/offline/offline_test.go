package offline

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustNew loads the embedded table (under WebAssembly, which embeds none,
// the table file, as the web edition fetches it), failing (not skipping)
// with the instruction to generate it.
func mustNew(t testing.TB) *Embedder {
	t.Helper()
	if runtime.GOOS == "js" {
		e, err := FromFile(filepath.Join("table", TableFile))
		require.NoError(t, err, "the tests need the generated table")
		return e
	}
	e, err := New()
	require.NoError(t, err, "the tests need the generated table")
	return e
}

// tableBytes is the table mustNew reads.
func tableBytes(t testing.TB) []byte {
	t.Helper()
	if runtime.GOOS == "js" {
		b, err := os.ReadFile(filepath.Join("table", TableFile))
		require.NoError(t, err)
		return b
	}
	b, err := embeddedTable()
	require.NoError(t, err)
	return b
}

func embedOne(t testing.TB, e *Embedder, text string) []float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), []string{text})
	require.NoError(t, err)
	require.Len(t, vs, 1)
	return vs[0]
}

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s // both are unit vectors
}

func requireUnit(t *testing.T, v []float32) {
	t.Helper()
	var ss float64
	for _, x := range v {
		require.False(t, math.IsNaN(float64(x)) || math.IsInf(float64(x), 0), "component %v", x)
		ss += float64(x) * float64(x)
	}
	require.InDelta(t, 1, ss, 1e-4, "vector is not unit length")
}

func TestNewLoadsTheEmbeddedTable(t *testing.T) {
	e := mustNew(t)
	assert.Equal(t, ID, e.ID())
	assert.Equal(t, 256, e.Dim())
	assert.Equal(t, 30522, e.Tokens(), "BERT's uncased vocabulary")
	assert.Contains(t, e.Source(), "all-MiniLM-L6-v2 (model.fp16.safetensors sha256 ")
	if runtime.GOOS != "js" {
		again, err := New()
		require.NoError(t, err)
		assert.Same(t, e, again, "the table is parsed once")
	}
	// Frequent tokens weigh less than rare ones; special tokens not at all.
	w := func(tok string) float32 {
		for id, s := range e.t.tokens {
			if s == tok {
				return e.t.weight[id]
			}
		}
		t.Fatalf("%q is not in the vocabulary", tok)
		return 0
	}
	assert.Less(t, w("the"), w("protein"))
	assert.Less(t, w("protein"), w("insulin"))
	assert.Zero(t, w("[CLS]"))
	assert.Zero(t, w("[unused7]"))
}

func TestEmbedReturnsUnitVectors(t *testing.T) {
	e := mustNew(t)
	cases := map[string]string{
		"sentence":         "The mitochondria is the powerhouse of the cell.",
		"single word":      "protein",
		"stop words only":  "the of and",
		"long text":        strings.Repeat("Insulin regulates blood glucose levels. ", 2000),
		"made-up word":     "xqzzyvvk",
		"numbers only":     "1990 42 3.14",
		"empty":            "",
		"whitespace":       " \t\n ",
		"punctuation":      "?!...",
		"non-latin script": "東京は日本の首都です",
		"only unknown":     "🙂🙂 🙃",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			requireUnit(t, embedOne(t, e, text))
		})
	}
}

func TestTextsWithoutTokensGetDistinctDeterministicVectors(t *testing.T) {
	e := mustNew(t)
	// Emoji are not in BERT's vocabulary: each word is [UNK], which has no row.
	a1 := embedOne(t, e, "🙂🙂")
	a2 := embedOne(t, e, "🙂🙂")
	b := embedOne(t, e, "🙂🙃")
	assert.Equal(t, a1, a2)
	assert.NotEqual(t, a1, b)
	assert.NotEqual(t, embedOne(t, e, ""), embedOne(t, e, " "))
}

func TestEmbedIsDeterministicAndOrderPreserving(t *testing.T) {
	e := mustNew(t)
	texts := make([]string, 1000) // enough to use every core
	for i := range texts {
		p := paraphrases[i%len(paraphrases)]
		texts[i] = fmt.Sprintf("%s %s", p[i%2], strings.Repeat("again ", i%7))
	}
	batch, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, batch, len(texts))
	for i, text := range texts {
		require.Equal(t, embedOne(t, e, text), batch[i], "text %d", i)
	}
	// Appending to one vector must not overwrite its neighbour.
	_ = append(batch[0], 1)
	assert.Equal(t, embedOne(t, e, texts[1]), batch[1])
	// A second table parsed from the same bytes gives the same vectors.
	other, err := FromBytes(tableBytes(t))
	require.NoError(t, err)
	assert.Equal(t, batch[7], embedOne(t, other, texts[7]))
}

func TestEmbedEdgeCases(t *testing.T) {
	e := mustNew(t)
	t.Run("no texts", func(t *testing.T) {
		vs, err := e.Embed(context.Background(), nil)
		require.NoError(t, err)
		assert.Empty(t, vs)
	})
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := e.Embed(ctx, make([]string, 5000))
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("case and accents do not matter", func(t *testing.T) {
		assert.Equal(t, embedOne(t, e, "blood pressure in cafe"), embedOne(t, e, "Blood PRESSURE in Café"))
	})
	t.Run("words past the encoder's 256 tokens count", func(t *testing.T) {
		filler := strings.Repeat("the cat sat on the mat . ", 60) // 420 pieces
		assert.NotEqual(t, embedOne(t, e, filler+"insulin"), embedOne(t, e, filler+"football"))
	})
	t.Run("pieces of an unknown word are looked up", func(t *testing.T) {
		// "hypoglycaemia" is not one token; its pieces carry its meaning.
		v := embedOne(t, e, "hypoglycaemia")
		assert.Greater(t, cosine(v, embedOne(t, e, "low blood sugar")), cosine(v, embedOne(t, e, "football match")))
	})
}

// paraphrases are hand-made pairs that say the same thing in different
// words, half everyday, half scientific. Unrelated pairs are formed by
// matching each first sentence with another pair's second sentence.
var paraphrases = [][2]string{
	{"The cat sat on the mat.", "A kitten was resting on the rug."},
	{"How do I reset my password?", "I forgot my login password and need to change it."},
	{"The train to London was cancelled because of the snow.", "Heavy snowfall led to the London train being called off."},
	{"She bought fresh vegetables at the market this morning.", "This morning she went to the market and purchased fresh produce."},
	{"The restaurant serves excellent Italian food.", "That restaurant has great pasta and pizza."},
	{"My car would not start in the cold weather.", "The vehicle failed to start because it was freezing outside."},
	{"The children played football in the park after school.", "After classes the kids kicked a ball around in the park."},
	{"He is learning to play the guitar.", "He has started taking guitar lessons."},
	{"The meeting has been moved to next Tuesday.", "We rescheduled the meeting for Tuesday next week."},
	{"It rained all weekend so we stayed indoors.", "Because of the constant rain over the weekend we remained at home."},
	{"Smoking increases the risk of lung cancer.", "Tobacco use raises the likelihood of developing lung tumours."},
	{"The vaccine reduced hospital admissions among elderly patients.", "Immunisation lowered the rate of hospitalisation in older people."},
	{"Insulin regulates blood glucose levels.", "Blood sugar is controlled by the hormone insulin."},
	{"Antibiotics are ineffective against viral infections.", "Bacterial drugs do not work on illnesses caused by viruses."},
	{"Regular exercise lowers blood pressure in adults.", "Physical activity reduces hypertension in grown-ups."},
	{"The mutation disrupts the protein's ability to bind DNA.", "This genetic variant impairs how the protein attaches to DNA."},
	{"Climate change is causing sea levels to rise.", "Global warming leads to higher oceans."},
	{"The drug was well tolerated with few side effects.", "Patients experienced minimal adverse reactions to the medication."},
	{"Sleep deprivation impairs memory consolidation.", "Lack of sleep harms the brain's ability to store memories."},
	{"Obesity is associated with an increased risk of type 2 diabetes.", "Being overweight raises the chance of developing diabetes."},
}

func TestParaphrasesScoreAboveUnrelatedPairs(t *testing.T) {
	e := mustNew(t)
	var first, second []string
	for _, p := range paraphrases {
		first = append(first, p[0])
		second = append(second, p[1])
	}
	a, err := e.Embed(context.Background(), first)
	require.NoError(t, err)
	b, err := e.Embed(context.Background(), second)
	require.NoError(t, err)
	n := len(paraphrases)
	var paired, unrelated float64
	closer := 0
	for i := range n {
		p, u := cosine(a[i], b[i]), cosine(a[i], b[(i+n/2)%n])
		paired += p / float64(n)
		unrelated += u / float64(n)
		if p > u {
			closer++
		}
	}
	t.Logf("mean cosine: paraphrases %.3f, unrelated %.3f", paired, unrelated)
	assert.Equal(t, n, closer, "every paraphrase is closer to its pair than to an unrelated sentence")
	assert.Greater(t, paired, 0.5, "paraphrases should be clearly similar")
	assert.Less(t, unrelated, 0.3, "unrelated pairs should be far apart")
	assert.Greater(t, paired-unrelated, 0.35)
}

func TestRelatedTextsAreCloserThanUnrelatedOnes(t *testing.T) {
	e := mustNew(t)
	cases := []struct{ text, near, far string }{
		{"doctor", "physician", "banana"},
		{"car", "automobile", "poetry"},
		{"tumour growth", "cancer cells proliferate", "stock market prices"},
		{"the stock market fell sharply", "shares dropped on wall street", "the patient recovered from surgery"},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			v := embedOne(t, e, tc.text)
			assert.Greater(t, cosine(v, embedOne(t, e, tc.near)), cosine(v, embedOne(t, e, tc.far)))
		})
	}
}

// The tokenizer the table builds is MiniLM's, with the same vocabulary.
func TestTokenizerMatchesMiniLM(t *testing.T) {
	e := mustNew(t)
	enc := realEncoder(t)
	text := "Hypoglycaemia: blood-glucose < 3.9 mmol/L in naïve patients (n=42)."
	assert.Equal(t, enc.Tokenizer().Pieces(nil, text), e.tok.Pieces(nil, text))
	assert.Equal(t, enc.Tokenizer().Vocab(), e.tok.Vocab())
}
