package assemble

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTrustSignal(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Trust = map[string]float64{"papers": 0.9, "drafts/": 0.2}
	tests := []struct {
		name  string
		facts Facts
		want  float64
	}{
		{"a trusted collection scores its trust", Facts{Collection: "papers", Path: "a.md", HasDocument: true}, 0.9},
		{"a path prefix scores its trust", Facts{Collection: "notes", Path: "drafts/b.md", HasDocument: true}, 0.2},
		{"anything else scores the default trust", Facts{Collection: "notes", Path: "c.md", HasDocument: true}, 1},
		{"a node without a document scores zero", Facts{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.facts.Config = &cfg
			assert.Equal(t, tt.want, trustSignal{}.Score(&tt.facts))
		})
	}
}
