package bibtex

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/internal/golden"
)

// render writes what Parse read in a form a person can review: every
// entry with its lines, fields and accessors, then the problems.
func render(entries []Entry, problems []Problem) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "@%s{%s} lines %d-%d\n", e.Type, e.Key, e.Line, e.EndLine)
		names := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&b, "  %s = %q\n", k, e.Fields[k])
		}
		fmt.Fprintf(&b, "  Title() = %q\n  Authors() = %q\n  Year() = %q\n  Venue() = %q\n  DOI() = %q\n  ArXiv() = %q\n  Keywords() = %q\n",
			e.Title(), e.Authors(), e.Year(), e.Venue(), e.DOI(), e.ArXiv(), e.Keywords())
		fmt.Fprintf(&b, "  Text():\n    %s\n\n", strings.ReplaceAll(e.Text(), "\n", "\n    "))
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "problem %s\n", p)
	}
	return b.String()
}

func TestLibraryMatchesItsGoldenRendering(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "library.bib"))
	require.NoError(t, err)
	entries, problems, err := Parse(data)
	require.NoError(t, err)
	golden.Equal(t, filepath.Join("testdata", "library.golden"), []byte(render(entries, problems)))
}
