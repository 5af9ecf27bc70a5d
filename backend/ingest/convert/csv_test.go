package convert

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func csvHead(maxRows int) func([]byte) (*Doc, error) {
	return func(data []byte) (*Doc, error) { return CSVHead(data, maxRows) }
}

func TestCSVWithQuotesNewlinesAndRaggedRows(t *testing.T) {
	d := convertGolden(t, "measures.csv", csvHead(5))
	md := d.Markdown
	assertHasLines(t, md,
		"| id | name | description | value | unit |  |",
		"| 2 | latency | End-to-end time, from question to first token | 31 | ms |  |",
		`| 3 | index size | Bytes on disk, "compressed" | 420 | MB |  |`,
		"| 4 | ragged row with extra | cell | 1 | x | EXTRA |",
		"| 5 | short row |  |  |  |  |",
		"(7 rows, 6 columns; first 5 shown)",
	)
	assert.NotContains(t, md, "| 6 | pipes")
	assert.Empty(t, d.Title)
}

func TestCSVAllRowsShownEscapesPipesAndBackslashes(t *testing.T) {
	d, err := CSVHead(readTestdata(t, "measures.csv"), 100)
	require.NoError(t, err)
	assertHasLines(t, d.Markdown, `| 6 | pipes | a \| b | 7 | count |  |`, `| 7 | backslash | C:\\loom\\index | 8 | path |  |`, "(7 rows, 6 columns; all shown)")
}

func TestTSVAndSemicolonsAreDetected(t *testing.T) {
	d := convertGolden(t, "terms.tsv", csvHead(10))
	assertHasLines(t, d.Markdown, "| term | documents | idf |", "| quoted tab | 3 | 2.5 |", "(3 rows, 3 columns; all shown)")
	d = convertGolden(t, "cities-semicolon.csv", csvHead(1))
	assertHasLines(t, d.Markdown, "| land | hauptstadt | einwohner |", "| Österreich | Wien | 1,9 Mio. |", "(2 rows, 3 columns; first 1 shown)")
}

func TestCSVShapes(t *testing.T) {
	cases := []struct {
		name, data string
		maxRows    int
		lines      []string
	}{
		{"a header only", "a,b,c\n", 5, []string{"| a | b | c |", "(0 rows, 3 columns; all shown)"}},
		{"one column", "word\nalpha\nbeta\n", 5, []string{"| word |", "| alpha |", "(2 rows, 1 column; all shown)"}},
		{"no rows asked for", "a,b\n1,2\n", 0, []string{"| a | b |", "(1 row, 2 columns; first 0 shown)"}},
		{"a negative count is none", "a,b\n1,2\n", -3, []string{"(1 row, 2 columns; first 0 shown)"}},
		{"CRLF and a byte-order mark", "\xef\xbb\xbfa,b\r\n1,2\r\n", 5, []string{"| a | b |", "| 1 | 2 |"}},
		{"Windows-1252", "name,city\nJos\xe9,M\xe1laga\n", 5, []string{"| José | Málaga |"}},
		{"an unclosed quote at the end", "a,b\n1,\"open\n", 5, []string{"| 1 | open |", "(1 row, 2 columns; all shown)"}},
		{"a bare quote in a field", "a,b\n5\" disk,x\n", 5, []string{`| 5" disk | x |`}},
		{"commas inside quotes are not a vote for commas", "a;b\n\"x,y,z\";1\n\"p,q\";2\n", 5, []string{"| x,y,z | 1 |"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := CSVHead([]byte(c.data), c.maxRows)
			require.NoError(t, err)
			assertHasLines(t, d.Markdown, c.lines...)
		})
	}
}

func TestCSVCountsEveryRowOfALongFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("n,square\n")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i, i*i)
	}
	d, err := CSVHead([]byte(b.String()), 3)
	require.NoError(t, err)
	assert.Equal(t, "| n | square |\n| --- | --- |\n| 0 | 0 |\n| 1 | 1 |\n| 2 | 4 |\n\n(10000 rows, 2 columns; first 3 shown)\n", d.Markdown)
}

func TestCSVProblems(t *testing.T) {
	for _, c := range []struct{ name, data, message string }{
		{"empty", "", "is empty"},
		{"blank", " \n\n", "is empty"},
		{"binary", "PK\x03\x04\x00\x00binary", "is binary data, not CSV text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := CSVHead([]byte(c.data), 5)
			assert.Nil(t, d)
			requireBadFile(t, err, c.message)
		})
	}
}
