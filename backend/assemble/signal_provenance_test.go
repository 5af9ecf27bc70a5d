package assemble

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestProvenanceSignal(t *testing.T) {
	cfg := DefaultConfig()
	for kind, want := range map[string]float64{"input": 0.5, "output": 0.8, "analysis": 1, "unknown": 0} {
		t.Run("a node of kind "+kind+" scores the configured "+kind, func(t *testing.T) {
			assert.Equal(t, want, provenanceSignal{}.Score(&Facts{Kind: kind, Config: &cfg}))
		})
	}
}
