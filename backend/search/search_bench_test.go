package search

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// Run with: go test -run '^$' -bench . -benchtime 20x ./backend/search/
//
// The data is generated from fixed seeds: a working index of 50,000 nodes,
// the size the query path is designed for.

const benchNodes = 50_000

// benchCorpus is 50,000 documents of 150 terms each, drawn from a
// 30,000-term vocabulary with a Zipf distribution (s = 1.1), roughly the
// shape of stemmed English text.
var benchCorpus = sync.OnceValues(func() (*Keyword, [][]string) {
	r := rand.New(rand.NewPCG(2024, 1))
	vocabulary := make([]string, 30_000)
	for i := range vocabulary {
		vocabulary[i] = fmt.Sprintf("term%05d", i)
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocabulary)-1))
	k := NewKeyword(DefaultBM25)
	doc := make([]string, 150)
	for slot := range int32(benchNodes) {
		for i := range doc {
			doc[i] = vocabulary[zipf.Uint64()]
		}
		k.Set(slot, doc)
	}
	queries := make([][]string, 64)
	for i := range queries {
		query := make([]string, 10)
		for j := range query {
			query[j] = vocabulary[zipf.Uint64()]
		}
		queries[i] = query
	}
	return k, queries
})

func BenchmarkKeywordSearch(b *testing.B) {
	k, queries := benchCorpus()
	commonest := make([]string, 10)
	for i := range commonest {
		commonest[i] = fmt.Sprintf("term%05d", i)
	}
	mid := make([]string, 10)
	for i := range mid {
		mid[i] = fmt.Sprintf("term%05d", 100+50*i)
	}
	b.Run("zipf-10-terms", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			k.Search(queries[i%len(queries)], 50, nil)
		}
	})
	b.Run("10-mid-frequency-terms", func(b *testing.B) {
		for b.Loop() {
			k.Search(mid, 50, nil)
		}
	})
	b.Run("10-commonest-terms", func(b *testing.B) {
		for b.Loop() {
			k.Search(commonest, 50, nil)
		}
	})
	b.Run("scoreall-zipf-10-terms", func(b *testing.B) {
		out := make([]float32, benchNodes)
		for i := 0; b.Loop(); i++ {
			k.ScoreAll(queries[i%len(queries)], out)
		}
	})
}

func BenchmarkKeywordSet(b *testing.B) {
	_, queries := benchCorpus()
	k := NewKeyword(DefaultBM25)
	doc := make([]string, 0, 150)
	for _, q := range queries {
		doc = append(doc, q...)
	}
	doc = doc[:150]
	for i := 0; b.Loop(); i++ {
		k.Set(int32(i%benchNodes), doc)
	}
}

func BenchmarkKeywordMarshal(b *testing.B) {
	k, _ := benchCorpus()
	data, _ := k.MarshalBinary()
	b.Run("marshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			k.MarshalBinary()
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var decoded Keyword
			if err := decoded.UnmarshalBinary(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

var benchVectors = map[int]func() *Vectors{}

func vectorsOf(dim int) *Vectors {
	if benchVectors[dim] == nil {
		benchVectors[dim] = sync.OnceValue(func() *Vectors {
			r := rand.New(rand.NewPCG(uint64(dim), 7))
			v := NewVectors(dim)
			for slot := range int32(benchNodes) {
				v.Set(slot, randomVector(r, dim))
			}
			return v
		})
	}
	return benchVectors[dim]()
}

func BenchmarkVectorsScoreAll(b *testing.B) {
	for _, dim := range []int{100, 384, 768} {
		v := vectorsOf(dim)
		q := randomVector(rand.New(rand.NewPCG(1, 1)), dim)
		out := make([]float32, benchNodes)
		b.Run(fmt.Sprintf("%dx%d", benchNodes, dim), func(b *testing.B) {
			b.SetBytes(int64(4 * benchNodes * dim))
			for b.Loop() {
				v.ScoreAll(q, out)
			}
		})
	}
}

func BenchmarkVectorsSearch(b *testing.B) {
	v := vectorsOf(768)
	q := randomVector(rand.New(rand.NewPCG(1, 1)), 768)
	for b.Loop() {
		v.Search(q, 50, nil)
	}
}

func BenchmarkTopK(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	scores := make([]float32, benchNodes)
	for i := range scores {
		scores[i] = r.Float32()
	}
	for b.Loop() {
		TopK(scores, 50, nil)
	}
}

func BenchmarkTerms(b *testing.B) {
	text := "Alice's quarterly budgets for the design team were reviewed on Tuesday; " +
		"the travel costs (flights, hotels) ran 12% over plan, so the offsite moves to Q3."
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Terms(text)
	}
}

// BenchmarkKeywordUnmarshal decodes the 50,000-document index, copying
// the postings (UnmarshalBinary) and in place from an aligned buffer as
// search.cache is read (UnmarshalShared).
func BenchmarkKeywordUnmarshal(b *testing.B) {
	k, _ := benchCorpus()
	data, err := k.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := new(Keyword).UnmarshalBinary(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		aligned := alignedCopy(data)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := new(Keyword).UnmarshalShared(aligned); err != nil {
				b.Fatal(err)
			}
		}
	})
}
