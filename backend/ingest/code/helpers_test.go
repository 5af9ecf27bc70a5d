package code

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// wantDef is what a test expects of one definition.
type wantDef struct {
	kind, name           string
	start, end           int
	sig                  string
	parent               string // the parent's Name, "" for none
	exported             bool
	doc                  string   // the doc's first line, "" for none
	refs, bases, methods []string // nil checks for none
}

// fmtRefs writes refs as "qual.name()" for a call, "name" for a mention.
func fmtRefs(refs []Ref) []string {
	var out []string
	for _, r := range refs {
		s := r.Name
		if r.Qual != "" {
			s = r.Qual + "." + s
		}
		if r.Call {
			s += "()"
		}
		out = append(out, s)
	}
	return out
}

func fmtImports(imps []Import) string {
	var out []string
	for _, i := range imps {
		s := fmt.Sprintf("%s@%d", i.Path, i.Line)
		if i.Name != "" {
			s = i.Name + "=" + s
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func firstDocLine(doc string) string {
	line, _, _ := strings.Cut(doc, "\n")
	return line
}

// parseFile parses a testdata file, its ".txt" suffix dropped for the
// language.
func parseFile(t *testing.T, name string) *File {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(strings.TrimSuffix(name, ".txt"), src)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return f
}

// checkDefs compares every definition of f, in order, with want.
func checkDefs(t *testing.T, f *File, want []wantDef) {
	t.Helper()
	var got, exp []string
	for _, d := range f.Defs {
		got = append(got, d.Kind+" "+d.Name)
	}
	for _, w := range want {
		exp = append(exp, w.kind+" "+w.name)
	}
	if !slices.Equal(got, exp) {
		t.Fatalf("definitions:\n got %q\nwant %q", got, exp)
	}
	for i, w := range want {
		d := f.Defs[i]
		parent := ""
		if d.Parent >= 0 {
			parent = f.Defs[d.Parent].Name
		}
		checks := []struct {
			what      string
			got, want any
		}{
			{"lines", [2]int{d.LineStart, d.LineEnd}, [2]int{w.start, w.end}},
			{"signature", d.Signature, w.sig},
			{"parent", parent, w.parent},
			{"exported", d.Exported, w.exported},
			{"doc", firstDocLine(d.Doc), w.doc},
			{"refs", fmtRefs(d.Refs), w.refs},
			{"bases", d.Bases, w.bases},
			{"methods", d.Methods, w.methods},
		}
		for _, c := range checks {
			if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
				t.Errorf("%s %s: %s = %#v, want %#v", d.Kind, d.Name, c.what, c.got, c.want)
			}
		}
	}
}
