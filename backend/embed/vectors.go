package embed

import (
	"fmt"
	"math"
)

// Normalize checks what a server returned for n texts — n finite, non-zero
// vectors of length dim — and scales each to unit length in place. Its
// error says what is wrong with the reply; the server adapters wrap it in
// their own error naming the server and the model.
func Normalize(vecs [][]float32, n, dim int) error {
	if len(vecs) != n {
		return fmt.Errorf("%d embeddings for %d inputs", len(vecs), n)
	}
	for i, v := range vecs {
		if len(v) != dim {
			return fmt.Errorf("embedding %d has %d dimensions, want %d", i, len(v), dim)
		}
		var ss float64
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("embedding %d contains %v", i, x)
			}
			ss += float64(x) * float64(x)
		}
		if ss == 0 {
			return fmt.Errorf("embedding %d is all zeros", i)
		}
		inv := 1 / math.Sqrt(ss)
		for d, x := range v {
			v[d] = float32(float64(x) * inv)
		}
	}
	return nil
}

// InBatches embeds texts size at a time with one, in order, and returns
// every vector; the first failure stops it.
func InBatches(texts []string, size int, one func(batch []string) ([][]float32, error)) ([][]float32, error) {
	if size <= 0 {
		size = len(texts)
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += size {
		vecs, err := one(texts[start:min(start+size, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}
