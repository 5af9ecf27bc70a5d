package convert

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/internal/golden"
)

// readTestdata reads a file under testdata.
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// render writes a converted document the way its golden file holds it:
// what it says of itself, then its markdown.
func render(d *Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title: %q\n", d.Title)
	m := d.Meta
	for _, f := range []struct {
		name string
		val  any
	}{{"authors", m.Authors}, {"tags", m.Tags}, {"year", m.Year}, {"venue", m.Venue}, {"doi", m.DOI}, {"arxiv", m.ArXiv}} {
		switch v := f.val.(type) {
		case []string:
			if len(v) > 0 {
				fmt.Fprintf(&b, "%s: %q\n", f.name, v)
			}
		case string:
			if v != "" {
				fmt.Fprintf(&b, "%s: %q\n", f.name, v)
			}
		}
	}
	b.WriteString("-----\n")
	b.WriteString(d.Markdown)
	return b.String()
}

// convertGolden converts a file under testdata and compares the result
// with its golden file (name + ".golden").
func convertGolden(t *testing.T, name string, convert func([]byte) (*Doc, error)) *Doc {
	t.Helper()
	d, err := convert(readTestdata(t, name))
	require.NoError(t, err)
	golden.Equal(t, filepath.Join("testdata", name+".golden"), []byte(render(d)))
	return d
}

// requireBadFile checks that err is a bad-file error whose message is the
// given sentence (or starts with it, for one with a cause after a colon).
func requireBadFile(t *testing.T, err error, message string) {
	t.Helper()
	require.Error(t, err)
	assert.Equal(t, errs.BadFile, errs.CodeOf(err), "%v", err)
	assert.True(t, strings.HasPrefix(err.Error(), message), "%q should start with %q", err.Error(), message)
}

// makeZip builds a zip archive of the given entries, in name order.
func makeZip(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f, err := w.Create(name)
		require.NoError(t, err)
		_, err = f.Write([]byte(files[name]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// markdownLines reports whether md has each line, whole.
func assertHasLines(t *testing.T, md string, lines ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, l := range strings.Split(md, "\n") {
		have[l] = true
	}
	for _, l := range lines {
		assert.True(t, have[l], "the markdown should have the line %q", l)
	}
}
