package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTopK(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name   string
		scores []float32
		limit  int
		allow  func(int32) bool
		want   []Hit
	}{
		{"best first", []float32{0.1, 0.9, 0.5}, 2, nil, []Hit{{1, 0.9}, {2, 0.5}}},
		{"ties by lower slot", []float32{0.5, 0.7, 0.5, 0.7, 0.5}, 4, nil, []Hit{{1, 0.7}, {3, 0.7}, {0, 0.5}, {2, 0.5}}},
		{"tie at the cut keeps the lower slot", []float32{0.5, 0.5, 0.5}, 1, nil, []Hit{{0, 0.5}}},
		{"limit above n", []float32{0.2, 0.3}, 10, nil, []Hit{{1, 0.3}, {0, 0.2}}},
		{"zero, negative and NaN skipped", []float32{0, -1, nan, 0.4}, 10, nil, []Hit{{3, 0.4}}},
		{"allow filters", []float32{0.9, 0.8, 0.7}, 2, func(s int32) bool { return s != 0 }, []Hit{{1, 0.8}, {2, 0.7}}},
		{"limit zero", []float32{0.9}, 0, nil, nil},
		{"negative limit", []float32{0.9}, -1, nil, nil},
		{"no scores", nil, 5, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, TopK(tt.scores, tt.limit, tt.allow))
		})
	}
}

func TestTopKMatchesFullSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	scores := make([]float32, 5000)
	for i := range scores {
		// Few distinct values, so ties are common.
		scores[i] = float32(r.IntN(50)-10) / 10
	}
	var all []Hit
	for i, s := range scores {
		if s > 0 && i%3 != 0 {
			all = append(all, Hit{int32(i), s})
		}
	}
	slices.SortFunc(all, func(a, b Hit) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	for _, limit := range []int{1, 7, 100, len(all), len(all) + 10} {
		got := TopK(scores, limit, func(s int32) bool { return s%3 != 0 })
		assert.Equal(t, all[:min(limit, len(all))], got, "limit %d", limit)
	}
}

func TestBestIsTheSortedPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := range 200 {
		n := r.IntN(300)
		hits := make([]Hit, n)
		for i := range hits {
			// Few distinct scores, so ties (broken by slot) are common.
			hits[i] = Hit{Slot: int32(r.IntN(1000)), Score: float32(r.IntN(8))}
		}
		limit := r.IntN(40)
		sorted := slices.Clone(hits)
		slices.SortStableFunc(sorted, func(a, b Hit) int {
			switch {
			case better(a, b):
				return -1
			case better(b, a):
				return 1
			}
			return 0
		})
		want := sorted[:min(limit, n)]
		got := Best(slices.Clone(hits), limit)
		if len(want) == 0 {
			want = nil
		}
		if len(got) == 0 {
			got = nil
		}
		if !slices.Equal(want, got) {
			t.Fatalf("trial %d: Best(%d of %d) = %v, want %v", trial, limit, n, got, want)
		}
	}
}
