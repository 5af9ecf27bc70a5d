package bibtex

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes Parse panic, every entry has a key and lines
// in order, and the accessors run on whatever was read.
func FuzzParse(f *testing.F) {
	library, err := os.ReadFile(filepath.Join("testdata", "library.bib"))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(library), "", "@", "@misc{", "@misc{a,", "@misc{a, t = {", `@misc{a, t = "{"}`,
		"@string{x = x # x}\n@misc{a, t = x}", "@comment(", "@misc(a, t = {)}", "@misc{a, t = 1 # }",
		"@misc{a, author = {, and , and {}}}", `@misc{a, title = {\"}}`, "\xff\xfe@misc{a}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, problems, err := Parse(data)
		if err != nil && len(entries) > 0 {
			t.Fatalf("an error (%v) with %d entries", err, len(entries))
		}
		if err != nil && len(problems) == 0 {
			t.Fatalf("an error (%v) without problems", err)
		}
		for _, e := range entries {
			if e.Key == "" || e.Line < 1 || e.EndLine < e.Line {
				t.Fatalf("entry %q at lines %d-%d", e.Key, e.Line, e.EndLine)
			}
			_ = e.Text()
		}
		for _, p := range problems {
			if p.Line < 1 || p.Message == "" {
				t.Fatalf("problem %+v", p)
			}
		}
	})
}

// FuzzNormalize: the normalizers never panic and are idempotent.
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{"10.1000/abc.", "arXiv:2205.14135v2", "hep-th/9711200", "Über ﬁ", "10.1000/%zz", "(10.1000/a))"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := NormalizeDOI(s); d != "" && NormalizeDOI(d) != d {
			t.Fatalf("NormalizeDOI(%q) = %q, then %q", s, d, NormalizeDOI(d))
		}
		if a := NormalizeArXiv(s); a != "" && NormalizeArXiv(a) != a {
			t.Fatalf("NormalizeArXiv(%q) = %q, then %q", s, a, NormalizeArXiv(a))
		}
		if n := NormalizeTitle(s); NormalizeTitle(n) != n {
			t.Fatalf("NormalizeTitle(%q) = %q, then %q", s, n, NormalizeTitle(n))
		}
		_ = CleanTeX(s)
	})
}
