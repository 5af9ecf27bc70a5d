package abstract

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		name, in string
		want     Level
		wantErr  string
	}{
		{name: "empty means adaptive", in: "", want: Adaptive},
		{name: "blank means adaptive", in: "  ", want: Adaptive},
		{name: "detailed", in: "detailed", want: Detailed},
		{name: "case and space ignored", in: " Summary\n", want: Summary},
		{name: "upper case", in: "ESSENCE", want: Essence},
		{name: "adaptive", in: "adaptive", want: Adaptive},
		{name: "unknown", in: "brief", wantErr: `unknown abstraction level "brief": want detailed, summary, essence or adaptive`},
		{name: "reference doc's L2 is not a name", in: "L2", wantErr: "want detailed, summary, essence or adaptive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseLevel(tt.in)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestTarget(t *testing.T) {
	tests := []struct {
		level Level
		n     int
		want  int
	}{
		{Detailed, 700, 700},
		{Adaptive, 700, 700},
		{Summary, 0, 0},
		{Summary, -3, 0},
		{Summary, 10, 10}, // never more than the source
		{Summary, 50, 24}, // at least 24
		{Summary, 400, 100},
		{Summary, 1500, 200}, // at most 200
		{Essence, 5, 5},
		{Essence, 50, 14}, // n/8 + 8
		{Essence, 100, 20},
		{Essence, 400, 30}, // at most 30
		{Essence, 1500, 30},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Target(tt.level, tt.n), "Target(%s, %d)", tt.level, tt.n)
	}
}

func TestFit(t *testing.T) {
	tests := []struct {
		n, available int
		want         Level
		ok           bool
	}{
		{1000, 1000, Detailed, true},
		{1000, 999, Summary, true}, // summary target 200
		{1000, 200, Summary, true},
		{1000, 199, Essence, true}, // essence target 30
		{1000, 30, Essence, true},
		{1000, 29, "", false},
		{20, 20, Detailed, true},
		{0, 0, Detailed, true},
	}
	for _, tt := range tests {
		got, ok := Fit(tt.n, tt.available)
		assert.Equal(t, tt.ok, ok, "Fit(%d, %d)", tt.n, tt.available)
		assert.Equal(t, tt.want, got, "Fit(%d, %d)", tt.n, tt.available)
	}
}
