package assemble

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSemanticMixing(t *testing.T) {
	tests := []struct {
		name                                string
		keyword, keywordMax, cos, cosMax, w float64
		want                                float64
	}{
		{"the best candidate on both scores one", 4, 4, 0.6, 0.6, 0.8, 1},
		{"keyword and cosine are each normalised to the best then mixed", 2, 4, 0.3, 0.6, 0.8, 0.8*0.5 + 0.2*0.5},
		{"keyword weight one ignores vectors", 1, 4, 0.6, 0.6, 1, 0.25},
		{"keyword weight zero ignores keywords", 4, 4, 0.15, 0.6, 0, 0.25},
		{"no keyword hit for this candidate still lets vectors count", 0, 4, 0.6, 0.6, 0.8, 0.2},
		{"no keyword evidence at all lets vectors alone decide", 0, 0, 0.3, 0.6, 0.8, 0.5},
		{"no keyword evidence and no vectors score zero", 0, 0, 0, 0, 0.8, 0},
		{"a negative cosine counts as no vector evidence", 4, 4, -0.5, 0.6, 0.5, 0.5},
		{"a negative cosine without keyword evidence scores zero", 0, 0, -0.5, 0.6, 0.5, 0},
		{"a missing best cosine counts as no vector evidence", 2, 4, 0.3, 0, 0.5, 0.25},
		{"scores above the stated best are clamped to one", 8, 4, 1.2, 0.6, 0.5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, SemanticRelevance(tt.keyword, tt.keywordMax, tt.cos, tt.cosMax, tt.w), 1e-12)
		})
	}
}
