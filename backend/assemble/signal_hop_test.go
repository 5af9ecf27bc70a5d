package assemble

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHopSignal(t *testing.T) {
	tests := []struct {
		name    string
		hops    int
		maxHops int
		want    float64
	}{
		{"an unreachable node scores zero", -1, 3, 0},
		{"a node on a best concept scores one", 0, 3, 1},
		{"a node one edge away still scores one", 1, 3, 1},
		{"two edges away halves the signal", 2, 3, 0.5},
		{"three edges away halves it again", 3, 3, 0.25},
		{"beyond max hops scores zero", 4, 3, 0},
		{"far beyond max hops scores zero", 40, 3, 0},
		{"exactly at a small max hops still scores", 1, 1, 1},
		{"past a max hops of one scores zero", 2, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, HopSignal(tt.hops, tt.maxHops), 1e-12)
		})
	}
}
