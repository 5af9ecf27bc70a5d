package minilm

import (
	"math"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestHiddenBatchMatchesEncode checks that a batch of sequences encodes
// each as if it were alone: MeanPool over a sequence's rows, normalised,
// is bit for bit what Encode returns for a text with those tokens, however
// many sequences share the batch and however many workers run it.
func TestHiddenBatchMatchesEncode(t *testing.T) {
	e, err := Load(tinyFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"hello", "world", "hellos", ".", "world."}
	var ids []int32
	seq := -1
	for _, text := range texts {
		s := e.Tokenizer().Encode(text)
		if seq < 0 {
			seq = len(s)
		}
		if len(s) != seq {
			continue // keep sequences of one length
		}
		ids = append(ids, s...)
	}
	if len(ids)/seq < 3 {
		t.Fatalf("only %d sequences of %d tokens", len(ids)/seq, seq)
	}
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		h, err := e.Hidden(ids, seq)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		H := e.Dim()
		for k := range len(ids) / seq {
			pooled := make([]float32, H)
			MeanPool(pooled, h[k*seq*H:(k+1)*seq*H], seq)
			want, err := e.model.forward(ids[k*seq : (k+1)*seq])
			if err != nil {
				t.Fatal(err)
			}
			if got := normalised(pooled); !slices.Equal(got, want) {
				t.Errorf("GOMAXPROCS %d, sequence %d: pooled batch row %v, Encode %v", procs, k, got, want)
			}
		}
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

// TestHiddenBatchLong runs many random sequences at once (the parallel
// paths) and compares each with its own forward pass.
func TestHiddenBatchLong(t *testing.T) {
	e, err := Load(tinyFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(7))
	const seq, n = 5, 40
	ids := make([]int32, seq*n)
	for i := range ids {
		ids[i] = int32(r.Intn(tinyConfig.Vocab))
	}
	h, err := e.Hidden(ids, seq)
	if err != nil {
		t.Fatal(err)
	}
	H := e.Dim()
	for k := range n {
		pooled := make([]float32, H)
		MeanPool(pooled, h[k*seq*H:(k+1)*seq*H], seq)
		want, _ := e.model.forward(ids[k*seq : (k+1)*seq])
		if got := normalised(pooled); !slices.Equal(got, want) {
			t.Fatalf("sequence %d differs from its own forward pass", k)
		}
	}
}

func TestHiddenErrors(t *testing.T) {
	e, err := Load(tinyFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ids  []int32
		seq  int
		want string
	}{
		{nil, 3, "do not make sequences"},
		{[]int32{2, 4, 3, 2}, 3, "do not make sequences"},
		{[]int32{2, 4, 3}, 0, "do not make sequences"},
		{[]int32{2, 99, 3}, 3, "outside the vocabulary"},
		{make([]int32, tinyConfig.MaxPositions+1), tinyConfig.MaxPositions + 1, "positions"},
	} {
		if _, err := e.Hidden(c.ids, c.seq); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Hidden(%d ids, %d): err = %v, want %q", len(c.ids), c.seq, err, c.want)
		}
	}
}

// TestPieces checks the word pieces without [CLS], [SEP] or the cut at
// MaxTokens, against Encode's.
func TestPieces(t *testing.T) {
	tok := tinyTokenizer(t)
	text := "Hello worlds. Unknownword"
	enc := tok.Encode(text)
	if got := tok.Pieces(nil, text); !slices.Equal(got, enc[1:len(enc)-1]) {
		t.Errorf("Pieces = %v, Encode = %v", got, enc)
	}
	long := strings.Repeat("hello ", 2*MaxTokens)
	if got := tok.Pieces([]int32{42}, long); len(got) != 1+2*MaxTokens || got[0] != 42 {
		t.Errorf("Pieces of %d words appended %d ids to one", 2*MaxTokens, len(got)-1)
	}
	vocab := tok.Vocab()
	for tokStr, id := range tok.vocab {
		if vocab[id] != tokStr {
			t.Errorf("Vocab()[%d] = %q, want %q", id, vocab[id], tokStr)
		}
	}
	unk, cls, sep := tok.Special()
	if vocab[unk] != "[UNK]" || vocab[cls] != "[CLS]" || vocab[sep] != "[SEP]" {
		t.Errorf("Special = %d %d %d", unk, cls, sep)
	}
}
