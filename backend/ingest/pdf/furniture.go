package pdf

import (
	"math"
	"regexp"
	"strings"
	"unicode"
)

// The share of a page's height at its top and bottom where running
// headers, footers and page numbers live.
const furnitureBand = 0.12

// pageNumber matches what a page number looks like on its own: "7",
// "vii", "Page 7", "7 of 12", "- 7 -".
var pageNumber = regexp.MustCompile(`(?i)^(page\s*)?[-–—]?\s*([0-9]+|[ivxlc]+)\s*[-–—]?(\s*(of|/)\s*[0-9]+)?$`)

// removeFurniture drops running headers and footers (lines near the top
// or bottom that repeat, digits aside, on many pages) and lone page
// numbers. pages holds each page's fragments; heights the pages' heights.
func removeFurniture(pages [][]*fragment, heights []float64) {
	type spot struct {
		top bool
		key string
	}
	seen := map[spot]int{}
	candidates := make([][]*fragment, len(pages))
	for i, frags := range pages {
		keys := map[spot]bool{}
		for _, f := range edgeFragments(frags, heights[i]) {
			candidates[i] = append(candidates[i], f)
			keys[spot{f.center() < heights[i]/2, furnitureKey(f.text)}] = true
		}
		for k := range keys {
			seen[k]++
		}
	}
	withText := 0
	for _, frags := range pages {
		if len(frags) > 0 {
			withText++
		}
	}
	need := max(2, int(math.Ceil(0.4*float64(withText))))
	for i, frags := range pages {
		drop := map[*fragment]bool{}
		for _, f := range candidates[i] {
			k := spot{f.center() < heights[i]/2, furnitureKey(f.text)}
			if seen[k] >= need || pageNumber.MatchString(f.text) && alone(f, frags) {
				drop[f] = true
			}
		}
		if len(drop) == 0 {
			continue
		}
		kept := frags[:0]
		for _, f := range frags {
			if !drop[f] {
				kept = append(kept, f)
			}
		}
		pages[i] = kept
	}
}

// edgeFragments are the fragments of the top two and bottom two rows of
// a page that lie in its top or bottom band.
func edgeFragments(frags []*fragment, height float64) []*fragment {
	rs := rows(frags)
	var out []*fragment
	for i, r := range rs {
		top := i < 2 && r.y1 < furnitureBand*height
		bottom := i >= len(rs)-2 && r.y0 > (1-furnitureBand)*height
		if top || bottom {
			out = append(out, r.frags...)
		}
	}
	return out
}

// furnitureKey is a fragment's text with digits and case ignored, so that
// "Page 3" and "Page 4" are the same footer.
func furnitureKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return '#'
		}
		return unicode.ToLower(r)
	}, s)
}

// alone tells whether no other fragment shares f's row.
func alone(f *fragment, frags []*fragment) bool {
	for _, g := range frags {
		if g != f && vOverlap(f.y0, f.y1, g.y0, g.y1) > 0.3 {
			return false
		}
	}
	return true
}
