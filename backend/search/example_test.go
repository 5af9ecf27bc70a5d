package search_test

import (
	"fmt"

	"github.com/loomwork/loom/backend/search"
)

// Example indexes three nodes for keyword and vector search and fuses the
// two score lists, each scaled by its maximum.
func Example() {
	nodes := []struct {
		text string
		vec  []float32
	}{
		{"Quarterly budgets for the design team", []float32{0.9, 0.1, 0}},
		{"Alice's travel budget", []float32{0.7, 0.7, 0}},
		{"Retro notes: ship smaller changes", []float32{0, 0.2, 0.9}},
	}
	keyword := search.NewKeyword(search.DefaultBM25)
	vectors := search.NewVectors(3)
	for slot, node := range nodes {
		keyword.Set(int32(slot), search.Terms(node.text))
		vectors.Set(int32(slot), node.vec)
	}

	query := search.Terms("travel budgets")
	fmt.Println(query)
	for _, hit := range keyword.Search(query, 10, nil) {
		fmt.Printf("keyword slot %d\n", hit.Slot)
	}

	keywordScores := make([]float32, keyword.Slots())
	vectorScores := make([]float32, vectors.Slots())
	best := keyword.ScoreAll(query, keywordScores)
	vectors.ScoreAll([]float32{0.5, 0.5, 0}, vectorScores)
	fused := make([]float32, len(nodes))
	for slot := range fused {
		fused[slot] = 0.5*keywordScores[slot]/best + 0.5*vectorScores[slot]
	}
	for _, hit := range search.TopK(fused, 2, nil) {
		fmt.Printf("fused slot %d %.2f\n", hit.Slot, hit.Score)
	}
	// Output:
	// [travel budget]
	// keyword slot 1
	// keyword slot 0
	// fused slot 1 1.00
	// fused slot 0 0.54
}
