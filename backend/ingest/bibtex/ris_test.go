package bibtex

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseRIS: RIS records read as the entries BibTeX would give — type,
// title, authors (family, given), year of a full date, venue, a DOI from
// its URL form, an arXiv id from a URL, keywords, a wrapped abstract —
// keyed by their ID or by author, year and title; a record with no title
// and one with no end are problems, not lost files.
func TestParseRIS(t *testing.T) {
	data, err := os.ReadFile("testdata/refs.ris")
	require.NoError(t, err)
	entries, problems, err := ParseRIS(data)
	require.NoError(t, err)
	require.Len(t, entries, 3)

	e := entries[0]
	assert.Equal(t, "article", e.Type)
	assert.Equal(t, "smith2019stratified", e.Key)
	assert.Equal(t, "Stratified random sampling of wetlands", e.Title())
	assert.Equal(t, []string{"Ann B. Smith", "Jörg Müller"}, e.Authors())
	assert.Equal(t, "2019", e.Year())
	assert.Equal(t, "Journal of Field Ecology", e.Venue())
	assert.Equal(t, "10.1000/jfe.2019.12", e.DOI())
	assert.Equal(t, []string{"sampling", "wetlands"}, e.Keywords())
	assert.Equal(t, "Catchment-size strata reduce between-site variance in nitrate surveys.", e.Abstract())
	assert.Equal(t, "101–117", e.Fields["pages"])
	assert.Equal(t, 4, e.Line)
	assert.Equal(t, 18, e.EndLine)
	assert.Contains(t, e.Text(), "Ann B. Smith, Jörg Müller (2019). Journal of Field Ecology.")

	v := entries[1]
	assert.Equal(t, "inproceedings", v.Type)
	assert.Equal(t, "vaswani2017", v.Key, "its ID")
	assert.Equal(t, "1706.03762", v.ArXiv())
	assert.Equal(t, "Advances in Neural Information Processing Systems", v.Venue())

	w := entries[2]
	assert.Equal(t, "smith2019stratifiedb", w.Key, "the same author, year and word: the next letter")

	require.Len(t, problems, 2)
	assert.Equal(t, 29, problems[0].Line)
	assert.Contains(t, problems[0].Message, "no title")
	assert.Equal(t, 34, problems[1].Line)
	assert.Contains(t, problems[1].Message, "no end")

	_, _, err = ParseRIS([]byte("just some text\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no RIS records")
}

// FuzzParseRIS: no input makes ParseRIS panic; every record read has a
// key of its own, a title and lines in order, and the accessors run on it.
func FuzzParseRIS(f *testing.F) {
	refs, err := os.ReadFile("testdata/refs.ris")
	require.NoError(f, err)
	for _, seed := range []string{string(refs), "", "TY  - ", "TY  - JOUR\nTI  - x\n", "ER  - \nTY  - X\nAU  - ,\nTI  - y\nER  -", "\xff\xfeTY  - JOUR"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, problems, err := ParseRIS(data)
		if err != nil && len(entries) > 0 {
			t.Fatalf("an error (%v) with %d entries", err, len(entries))
		}
		keys := map[string]bool{}
		for _, e := range entries {
			if e.Key == "" || keys[e.Key] || e.Title() == "" || e.Line < 1 || e.EndLine < e.Line {
				t.Fatalf("record %q at lines %d-%d", e.Key, e.Line, e.EndLine)
			}
			keys[e.Key] = true
			_, _, _, _ = e.Text(), e.Authors(), e.DOI(), e.ArXiv()
		}
		for _, p := range problems {
			if p.Line < 1 || p.Message == "" {
				t.Fatalf("problem %+v", p)
			}
		}
	})
}
