package assemble

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDensity(t *testing.T) {
	tests := []struct {
		name          string
		touched, best float64
		want          float64
	}{
		{"the best candidate's share scores one", 0.75, 0.75, 1},
		{"half the best candidate's share scores a half", 0.25, 0.5, 0.5},
		{"no concept near the question scores zero", 0, 0.5, 0},
		{"no candidate near any concept scores zero", 0, 0, 0},
		{"more than the stated best is clamped to one", 1, 0.8, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, DensityOf(tt.touched, tt.best), 1e-12)
		})
	}
}
