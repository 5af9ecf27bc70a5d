package assemble

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestStaleness(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	half := 30 * 24 * time.Hour
	tests := []struct {
		name     string
		last     time.Time
		halfLife time.Duration
		want     float64
	}{
		{"a node accessed just now scores one", now, half, 1},
		{"a node one half-life old scores a half", now.Add(-half), half, 0.5},
		{"a node two half-lives old scores a quarter", now.Add(-2 * half), half, 0.25},
		{"a node half a half-life old scores one over root two", now.Add(-half / 2), half, 0.7071067811865476},
		{"a node never accessed scores a neutral half", time.Time{}, half, 0.5},
		{"an access time in the future scores one", now.Add(time.Hour), half, 1},
		{"a non-positive half-life scores a neutral half", now.Add(-half), 0, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, StalenessAt(tt.last, now, tt.halfLife), 1e-9)
		})
	}
}
