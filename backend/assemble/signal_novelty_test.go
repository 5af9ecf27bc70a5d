package assemble

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNoveltySignal: novelty is measured while selecting (select_test.go
// checks the measure), so its score from the facts is 0, and it stays out
// of the composite.
func TestNoveltySignal(t *testing.T) {
	assert.Zero(t, noveltySignal{}.Score(&Facts{Semantic: 1}))
	s := Signals{Semantic: 0.5, Novelty: 1}
	assert.Equal(t, 0.5, s.Composite(Weights{Semantic: 1, Novelty: 1}))
}
