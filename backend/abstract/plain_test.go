package abstract

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plainish makes texts that are mostly plain paragraphs, with now and then
// something markdown reads differently: markers at the start of a line,
// inline syntax, links, entities, odd white space and non-ASCII text.
func plainish(r *rand.Rand) string {
	starts := []string{"", "", "", "", "# ", "## ", "####### ", "#", "- ", "1. ", "2) ", "12.5 ", "> ", "    ", " ", "=== ", "---", "+ ", "* "}
	bits := []string{"plain words here", "Another sentence.", "e.g. this", "It ends! Then", "What? Yes", "3.5 percent",
		"*emph*", "_under_", "`code`", "[link](x)", "a <b> tag", "AT&T", "&amp;", "a\\b", "x | y", "~~s~~", "{#id}",
		"me@example.com", "http://x.org", "www.example.com", "WWW.X.ORG", "a:b", "tags: topic03", "über naïve",
		"\u00a0nbsp", "tab\there", "cr\r", "end  ", "  two  spaces  ", "\"Quoted.\" Next", "(Paren.) Next", "Dr. Who", "J. Smith"}
	var b strings.Builder
	odd := 1 + r.IntN(40) // one bit in odd is anything; the rest plain
	for range 1 + r.IntN(8) {
		if r.IntN(odd) == 0 {
			b.WriteString(starts[r.IntN(len(starts))])
		}
		for k := range 1 + r.IntN(4) {
			if k > 0 {
				b.WriteString([]string{" ", "  ", ". ", "? "}[r.IntN(4)])
			}
			if r.IntN(odd) == 0 {
				b.WriteString(bits[r.IntN(len(bits))])
			} else {
				b.WriteString(bits[r.IntN(6)])
			}
		}
		b.WriteString([]string{"\n", "\n\n", "\n\n\n", "  \n", " \n"}[r.IntN(5)])
	}
	return b.String()
}

// TestReadPlainIsGoldmark: wherever readPlain takes a text, it reads it
// exactly as goldmark does; it takes the bench corpus and plain texts and
// declines texts with markdown in them.
func TestReadPlainIsGoldmark(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	texts := benchSections(300)
	texts = append(texts, fixtureTexts(t)...)
	for range 20000 {
		texts = append(texts, plainish(r))
	}
	taken := 0
	for _, s := range texts {
		d, ok := readPlain(s)
		if !ok {
			continue
		}
		taken++
		require.Equal(t, parseMarkdown(s), d, "text %q", s)
	}
	t.Logf("%d of %d texts read without goldmark", taken, len(texts))
	assert.Greater(t, taken, 2000)
	for _, s := range benchSections(300) {
		_, ok := readPlain(s)
		assert.True(t, ok, "bench section %q", s)
	}
	for _, s := range []string{"*a*", "# T\n\n- item", "a\n===", "a [b](c)", "AT&amp;T", "    code", "x\n> q", "see www.x.org", "#T", "# T #", "0\n:-"} {
		_, ok := readPlain(s)
		assert.False(t, ok, "%q", s)
	}
}

func FuzzReadPlain(f *testing.F) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 50 {
		f.Add(plainish(r))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, ok := readPlain(s); ok {
			require.Equal(t, parseMarkdown(s), d, "text %q", s)
		}
	})
}
