package pdf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFontStylesFromNamesWeightsAndFlags(t *testing.T) {
	bold := map[string]bool{
		"CMBX12": true, "CMB10": true, "Times-Bold": true, "ArialMT-BoldItalic": true, "NimbusRomNo9L-Medi": true,
		"LMRoman10-Bold": true, "CMR10": false, "Times-Roman": false, "CMTI10": false, "NimbusRomNo9L-Regu": false,
	}
	for name, want := range bold {
		assert.Equal(t, want, boldFont(name, 400, 0), name)
	}
	assert.True(t, boldFont("F1", 700, 0), "a stated weight")
	assert.True(t, boldFont("F1", 0, flagForceBold), "the ForceBold flag")
	italic := map[string]bool{"CMTI10": true, "CMMI10": true, "Times-Italic": true, "NimbusRomNo9L-ReguItal": true, "Helvetica-Oblique": true, "CMR10": false, "Times-Bold": false}
	for name, want := range italic {
		assert.Equal(t, want, italicFont(name, 0), name)
	}
	assert.True(t, italicFont("F1", flagItalic))
	assert.Equal(t, "CMR10", fontName("ABCDEF+CMR10"))
	assert.Equal(t, "Times+Roman", fontName("Times+Roman"))
}
