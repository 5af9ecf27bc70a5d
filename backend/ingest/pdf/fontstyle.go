package pdf

import (
	"regexp"
	"strings"
)

// PDF font descriptor flags (PDF 1.7, 9.8.2).
const (
	flagItalic    = 1 << 6
	flagForceBold = 1 << 18
)

var (
	// boldName matches the names bold faces go by: Times-Bold,
	// ArialMT-BoldItalic, NimbusRomNo9L-Medi, LMRoman10-Bold, and TeX's
	// CMBX12, CMB10, CMSSBX10, ECBX1000.
	boldName = regexp.MustCompile(`(?i)bold|black|heavy|demi|-medi$|-bd$|^(cm|ec|tc|lm|sf)(bx|b\d|ssbx)`)
	// italicName matches italic and slanted faces: Times-Italic,
	// NimbusRomNo9L-ReguItal, CMTI10, CMSL10, CMMI10 (maths), CMBXTI10.
	italicName = regexp.MustCompile(`(?i)ital|oblique|-it$|^(cm|ec|lm)(ti|sl|mi|bxti|bi)`)
)

// fontName strips the subset prefix ("ABCDEF+") from a font's name.
func fontName(name string) string {
	if i := strings.IndexByte(name, '+'); i == 6 {
		return name[i+1:]
	}
	return name
}

// boldFont tells whether a font is bold from its name, its weight (when the
// font states one) and its descriptor flags.
func boldFont(name string, weight, flags int) bool {
	return weight >= 600 || flags&flagForceBold != 0 || boldName.MatchString(name)
}

// italicFont tells whether a font is italic or slanted.
func italicFont(name string, flags int) bool {
	return flags&flagItalic != 0 || italicName.MatchString(name)
}
