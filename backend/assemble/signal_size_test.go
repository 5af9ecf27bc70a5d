package assemble

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSizeSignal(t *testing.T) {
	tests := []struct {
		name           string
		tokens, budget int
		want           float64
	}{
		{"an empty node leaves the whole budget", 0, 1000, 1},
		{"a node of a quarter of the budget scores three quarters", 250, 1000, 0.75},
		{"a node as large as the budget scores zero", 1000, 1000, 0},
		{"a node larger than the budget is clamped to zero", 3000, 1000, 0},
		{"no budget scores zero", 10, 0, 0},
		{"a negative budget scores zero", 10, -5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, SizeSignal(tt.tokens, tt.budget), 1e-12)
		})
	}
}
