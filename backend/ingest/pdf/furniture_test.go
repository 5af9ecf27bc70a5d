package pdf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPageNumbersLookLikePageNumbers(t *testing.T) {
	for s, want := range map[string]bool{"7": true, "vii": true, "Page 7": true, "7 of 12": true, "- 7 -": true, "7/12": true, "Table 7": false, "2024 Workshop": false} {
		assert.Equal(t, want, pageNumber.MatchString(s), s)
	}
	assert.Equal(t, furnitureKey("Page 3 of 10"), furnitureKey("page 4 of 10"))
}

// A header that repeats on most pages goes, one that is on a single page
// of many stays, and so does text in the middle of the page.
func TestRemoveFurnitureDropsRepeatsAtTheEdgesOnly(t *testing.T) {
	frag := func(text string, y float64) *fragment {
		return &fragment{text: text, x0: 50, x1: 300, y0: y, y1: y + 10, chars: len(text)}
	}
	var pages [][]*fragment
	for p := range 5 {
		page := []*fragment{frag("Journal of Tests, vol. 3", 30), frag("Body text in the middle", 400), frag("A closing line", 700)}
		if p == 2 {
			page = append(page, frag("Only here at the top", 45))
		}
		pages = append(pages, page)
	}
	heights := []float64{792, 792, 792, 792, 792}
	removeFurniture(pages, heights)
	for p, page := range pages {
		var texts []string
		for _, f := range page {
			texts = append(texts, f.text)
		}
		assert.NotContains(t, texts, "Journal of Tests, vol. 3", "page %d", p+1)
		assert.Contains(t, texts, "Body text in the middle")
		if p == 2 {
			assert.Contains(t, texts, "Only here at the top")
		}
	}
}
