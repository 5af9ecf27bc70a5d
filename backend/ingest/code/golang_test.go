package code

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestLangOf(t *testing.T) {
	for path, want := range map[string]Lang{
		"main.go": Go, "a/b.py": Python, "stubs.pyi": Python, "app.js": JavaScript, "m.mjs": JavaScript,
		"c.cjs": JavaScript, "view.jsx": JavaScript, "x.ts": TypeScript, "x.mts": TypeScript,
		"x.cts": TypeScript, "App.tsx": TSX, "lib.rs": Rust, "Main.java": Java, "a.c": C, "a.h": C,
		"a.cc": CPP, "a.cpp": CPP, "a.cxx": CPP, "a.hpp": CPP, "a.hh": CPP, "UPPER.GO": Go,
	} {
		if got, ok := LangOf(path); !ok || got != want {
			t.Errorf("LangOf(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
	for _, path := range []string{"notes.md", "README", "a.go.txt", "x.json", ".go"} {
		if l, ok := LangOf(path); ok && path != ".go" {
			t.Errorf("LangOf(%q) = %q, want none", path, l)
		}
	}
}

func TestParseNotCode(t *testing.T) {
	_, err := Parse("notes.md", []byte("# title"))
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Parse(notes.md) = %v, want ErrUnsupported", err)
	}
	if !strings.Contains(err.Error(), "notes.md") {
		t.Errorf("the error does not name the file: %v", err)
	}
}

func TestSupportedHasGo(t *testing.T) {
	if !slices.Contains(Supported(), Go) {
		t.Fatalf("Supported() = %v, want Go in every build", Supported())
	}
}

func TestGoSample(t *testing.T) {
	f := parseFile(t, "sample.go.txt")
	if f.Lang != Go || f.Package != "library" || f.Partial || f.Generated || len(f.Problems) > 0 {
		t.Fatalf("file = %+v", f)
	}
	if f.Doc != "// Package library links notes into a graph." {
		t.Errorf("Doc = %q", f.Doc)
	}
	if got, want := fmtImports(f.Imports), "fmt@5 os@6 strings@7 sync@8 github.com/loomwork/loom/backend/index@10 yaml=go.yaml.in/yaml/v3@11"; got != want {
		t.Errorf("imports = %s\nwant %s", got, want)
	}
	checkDefs(t, f, []wantDef{
		{"var", "formats", 14, 18, "var formats = map[string]bool{ …", "", false, "// formats are the extensions the library reads.", nil, nil, nil},
		{"const", "Small", 20, 25, "const ( Small = iota; Medium; large )", "", true, "// Small is a tiny library.", nil, nil, nil},
		{"var", "ErrClosed", 27, 28, "var ErrClosed = fmt.Errorf(\"library: closed\")", "", true, "// ErrClosed is returned after Close.", []string{"fmt.Errorf()"}, nil, nil},
		{"struct", "Library", 30, 36, "type Library struct", "", true, "// Library holds the notes of one folder.", []string{"index.Graph", "sync.Mutex", "Note"}, []string{"index.Graph", "sync.Mutex"}, nil},
		{"struct", "Note", 38, 42, "type Note struct", "", true, "// Note is one file.", []string{"index.Term"}, nil, nil},
		{"interface", "Linker", 44, 49, "type Linker interface", "", true, "// Linker links notes.", []string{"fmt.Stringer", "Note"}, []string{"fmt.Stringer"}, []string{"Link", "Close"}},
		{"type", "ID", 52, 53, "type ID string", "", true, "// ID names a note.", nil, nil, nil},
		{"type", "batch", 55, 55, "type batch []*Note", "", false, "", []string{"Note"}, nil, nil},
		{"func", "Open", 58, 72, "func Open(root string) (*Library, error)", "", true, "// Open reads the library at root.", []string{"Library", "os.Stat()", "IsDir()", "fmt.Errorf()", "Note", "load()", "formats"}, nil, nil},
		{"method", "Library.link", 74, 82, "func (w *Library) link(ix *index.Graph, b *batch) int", "Library", false, "", []string{"index.Graph", "batch", "index.NodeTerms()", "Add()"}, nil, nil},
		{"method", "Library.load", 84, 90, "func (w *Library) load(exts map[string]bool)", "Library", false, "", []string{"Config", "yaml.Unmarshal()", "strings.TrimPrefix()", "Note"}, nil, nil},
		{"method", "Library.String", 92, 93, "func (w Library) String() string", "Library", true, "// String names the library.", nil, nil, nil},
		{"func", "Map", 95, 102, "func Map[T, U any](xs []T, f func(T) U) []U", "", true, "// Map applies f to every element.", nil, nil, nil},
	})
	open := f.Defs[8]
	if !strings.HasPrefix(open.Doc, "// Open reads the library at root.\n//\n// It fails") {
		t.Errorf("Open's doc = %q, want all three lines", open.Doc)
	}
	for _, r := range open.Refs {
		if r.Name == "Stat" && (r.Qual != "os" || !r.Call) {
			t.Errorf("os.Stat ref = %+v", r)
		}
	}
}

// TestGoSyntaxError: the definitions before and after a broken one are
// still read.
func TestGoSyntaxError(t *testing.T) {
	for _, broken := range []string{
		"func Broken() {\n\tif x {\n}\n",
		"func Broken() {\n\tx := foo(\n}\n",
		"func Broken( {\n\tx :=\n}\n",
		"func Broken() {\n\tx := 1 +\n}\n",
	} {
		src := "package broken\n\n// Before is fine.\nfunc Before() int { return 1 }\n\n" + broken +
			"\ntype After struct{ N int }\n\nfunc (a *After) Get() int { return a.N }\n"
		f, err := Parse("broken.go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if !f.Partial || len(f.Problems) == 0 || len(f.Problems) > maxProblems || !strings.HasPrefix(f.Problems[0], "line ") {
			t.Errorf("%q: Partial = %v, Problems = %q", broken, f.Partial, f.Problems)
		}
		var got []string
		for _, d := range f.Defs {
			got = append(got, fmt.Sprintf("%s %d-%d p%d", d.Name, d.LineStart, d.LineEnd, d.Parent))
		}
		want := []string{"Before 3-4 p-1", "Broken 6-8 p-1", "After 10-10 p-1", "After.Get 12-12 p2"}
		if !slices.Equal(got, want) {
			t.Errorf("%q: defs = %q\nwant %q", broken, got, want)
		}
	}
}

func TestGoManyErrors(t *testing.T) {
	src := "package p\n" + strings.Repeat("func ( {\n", 50)
	f, err := Parse("many.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Partial || len(f.Problems) == 0 || len(f.Problems) > maxProblems {
		t.Fatalf("Partial = %v, %d problems", f.Partial, len(f.Problems))
	}
}

func TestGenerated(t *testing.T) {
	for _, c := range []struct {
		path, src string
		want      bool
	}{
		{"gen.go", "// Code generated by stringer; DO NOT EDIT.\n\npackage p\n\nfunc F() {}\n", true},
		{"gen.go", "// Copyright.\n\n// Code generated by protoc-gen-go. DO NOT EDIT.\n// source: a.proto\n\npackage p\n", true},
		{"hand.go", "package p\n\n// Code generated is a phrase in this comment, not a marker.\nfunc F() {}\n", false},
		{"marked.go", "// @generated by a tool\npackage p\n", true},
		{"late.go", "package p\n" + strings.Repeat("\n", 30) + "// @generated\n", false},
	} {
		f, err := Parse(c.path, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if f.Generated != c.want {
			t.Errorf("%q: Generated = %v, want %v", c.src, f.Generated, c.want)
		}
	}
}

func TestGoRefs(t *testing.T) {
	src := `package p

import (
	"os"
	str "strings"
)

type T struct{ next *T }

func (t *T) Walk(fn func(*T) bool) error {
	var local = 3
	for n := t; n != nil; n = n.next {
		if !fn(n) {
			break
		}
	}
	_ = len(os.Args) + local
	s := str.ToUpper("x")
	helper(s, T{next: nil}, []int{1})
	return os.ErrNotExist
}
`
	f, err := Parse("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(fmtRefs(f.Defs[1].Refs), " ")
	if want := "T os.Args str.ToUpper() helper() os.ErrNotExist"; got != want {
		t.Errorf("refs = %s\nwant %s", got, want)
	}
}
