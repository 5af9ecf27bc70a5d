package search

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConcurrentReaders runs searches from several goroutines (run it with
// -race): first readers alone, whose answers must match a serial run, then
// readers alongside a writer, which must merely stay race-free.
func TestConcurrentReaders(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	k := churnedKeyword(r)
	v := NewVectors(32)
	for slot := range int32(minRowsPerWorker + 500) { // large enough to fan out
		v.Set(slot, randomVector(r, 32))
	}
	queries := make([][]string, 8)
	vectorQueries := make([][]float32, 8)
	wantKeyword := make([][]Hit, 8)
	wantVectors := make([][]Hit, 8)
	for i := range queries {
		queries[i] = randomTerms(r, 4)
		vectorQueries[i] = randomVector(r, 32)
		wantKeyword[i] = k.Search(queries[i], 10, nil)
		wantVectors[i] = v.Search(vectorQueries[i], 10, nil)
	}

	read := func(check bool) {
		var wg sync.WaitGroup
		for worker := range 6 {
			wg.Go(func() {
				keywordScores := make([]float32, k.Slots()+100)
				vectorScores := make([]float32, v.Slots()+100)
				for round := range 40 {
					i := (worker + round) % len(queries)
					gotKeyword := k.Search(queries[i], 10, nil)
					gotVectors := v.Search(vectorQueries[i], 10, func(int32) bool { return true })
					k.ScoreAll(queries[i], keywordScores)
					v.ScoreAll(vectorQueries[i], vectorScores)
					if check {
						assert.Equal(t, wantKeyword[i], gotKeyword)
						assert.Equal(t, wantVectors[i], gotVectors)
					}
				}
			})
		}
		wg.Wait()
	}
	read(true)

	var writer sync.WaitGroup
	writer.Go(func() {
		w := rand.New(rand.NewPCG(5, 6))
		for range 200 {
			slot := int32(w.IntN(500))
			k.Set(slot, randomTerms(w, 20))
			v.Set(slot, randomVector(w, 32))
			k.Remove(int32(w.IntN(500)))
			v.Remove(int32(w.IntN(500)))
		}
	})
	read(false)
	writer.Wait()
}

// TestConcurrentThaw: searches of a decoded (frozen) index run alongside
// the write that thaws it (run with -race).
func TestConcurrentThaw(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	data, err := churnedKeyword(r).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var k Keyword
	if err := k.UnmarshalShared(alignedCopy(data)); err != nil {
		t.Fatal(err)
	}
	queries := make([][]string, 8)
	for i := range queries {
		queries[i] = randomTerms(r, 4)
	}
	var wg sync.WaitGroup
	for worker := range 4 {
		wg.Go(func() {
			out := make([]float32, k.Slots()+10)
			for round := range 50 {
				q := queries[(worker+round)%len(queries)]
				k.Search(q, 10, nil)
				k.ScoreAll(q, out)
			}
		})
	}
	wg.Go(func() {
		w := rand.New(rand.NewPCG(1, 1))
		for range 100 {
			k.Set(int32(w.IntN(460)), randomTerms(w, 10))
			k.Remove(int32(w.IntN(460)))
		}
	})
	wg.Wait()
	assert.Nil(t, k.fz, "thawed by the writes")
}
