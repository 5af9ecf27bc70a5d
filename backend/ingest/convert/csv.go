package convert

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// delimiters are the separators CSVHead tells apart, in the order it
// prefers them when the evidence is equal.
var delimiters = []rune{',', '\t', ';', '|'}

// CSVHead renders the start of a CSV or TSV file as a GFM table: the
// header row and the first maxRows rows, followed by a line saying how
// many rows and columns the file has ("(120 rows, 4 columns; first 20
// shown)"). The delimiter — comma, tab, semicolon or bar — is the one that
// splits the first lines into the same number of fields most consistently.
// Quoted fields may hold delimiters and newlines; rows may be ragged (the
// table is as wide as the widest row shown, the column count is the widest
// row of the file). A file that is not UTF-8 is read as Windows-1252, as
// spreadsheets write it.
func CSVHead(data []byte, maxRows int) (*Doc, error) {
	maxRows = max(maxRows, 0)
	data = bytes.TrimPrefix(data, []byte{0xef, 0xbb, 0xbf})
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, bad("is empty")
	}
	if bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0 {
		return nil, bad("is binary data, not CSV text")
	}
	if !utf8.Valid(data) {
		decoded, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, bad("is neither UTF-8 nor Windows-1252 text")
		}
		data = decoded
	}
	r := newCSVReader(data, detectDelimiter(data))
	var shown [][]string
	rows, columns := 0, 0
	var stopped error
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			stopped = err
			break
		}
		columns = max(columns, len(rec))
		if len(shown) <= maxRows {
			shown = append(shown, append([]string(nil), rec...))
		}
		rows++
	}
	if rows == 0 {
		if stopped != nil {
			return nil, badWrap(stopped, "is not readable as CSV")
		}
		return nil, bad("is empty")
	}
	var b strings.Builder
	writeTable(&b, shown)
	dataRows := rows - 1
	fmt.Fprintf(&b, "\n(%d %s, %d %s; ", dataRows, plural(dataRows, "row", "rows"), columns, plural(columns, "column", "columns"))
	if dataRows <= maxRows {
		b.WriteString("all shown)")
	} else {
		fmt.Fprintf(&b, "first %d shown)", maxRows)
	}
	var perr *csv.ParseError
	if errors.As(stopped, &perr) {
		fmt.Fprintf(&b, "\n(reading stopped at line %d: %v)", perr.StartLine, perr.Err)
	}
	b.WriteString("\n")
	return &Doc{Markdown: b.String()}, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newCSVReader(data []byte, comma rune) *csv.Reader {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = comma
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	return r
}

// sniffRecords is how many records the delimiter is judged on.
const sniffRecords = 50

// detectDelimiter picks the delimiter that gives the first records the
// same number of fields (more than one) most often; ties go to the more
// fields, then to the order of delimiters.
func detectDelimiter(data []byte) rune {
	sample := data[:min(len(data), 64<<10)]
	if len(sample) < len(data) {
		if i := bytes.LastIndexByte(sample, '\n'); i > 0 {
			sample = sample[:i+1]
		}
	}
	best, bestShare, bestWidth := ',', 0.0, 0
	for _, d := range delimiters {
		r := newCSVReader(sample, d)
		counts := map[int]int{}
		n := 0
		for n < sniffRecords {
			rec, err := r.Read()
			if err != nil {
				break
			}
			counts[len(rec)]++
			n++
		}
		width, most := 0, 0
		for w, c := range counts {
			if c > most || c == most && w > width {
				width, most = w, c
			}
		}
		if n == 0 || width < 2 {
			continue
		}
		share := float64(most) / float64(n)
		if share > bestShare || share == bestShare && width > bestWidth {
			best, bestShare, bestWidth = d, share, width
		}
	}
	return best
}

// writeTable writes records as a GFM table, the first as its header.
func writeTable(b *strings.Builder, records [][]string) {
	width := 0
	for _, rec := range records {
		width = max(width, len(rec))
	}
	row := func(rec []string) {
		b.WriteString("|")
		for c := 0; c < width; c++ {
			cell := ""
			if c < len(rec) {
				cell = tableCell(rec[c])
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	row(records[0])
	b.WriteString("|" + strings.Repeat(" --- |", width) + "\n")
	for _, rec := range records[1:] {
		row(rec)
	}
}

// tableCell makes a field fit in a table cell: one line, pipes escaped.
func tableCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, "|", `\|`)
}
