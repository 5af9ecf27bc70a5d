package library

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearestKeepsTheFocusAndItsNeighboursWithinTheLimit(t *testing.T) {
	assert.Equal(t, []bool{false, true, true, true, false}, nearest([]int{5, 5, 5, 5, 5}, 2, 15))
	assert.Equal(t, []bool{false, false, true, false, false}, nearest([]int{5, 5, 50, 5, 5}, 2, 10), "the focus always, even alone over the limit")
	assert.Equal(t, []bool{true, true, true}, nearest([]int{1, 1, 1}, 0, 100))
	assert.Empty(t, nearest(nil, 0, 10))
}
