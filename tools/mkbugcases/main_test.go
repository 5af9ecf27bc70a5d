package main

import (
	"reflect"
	"testing"
)

const sample = `package p

import "fmt"

// A is documented.
const (
	A = 1
	B = 2
)

var x, y = 1, 2

// T is a type.
type T struct{}

type (
	// U is grouped.
	U int
	V[K comparable] map[K]int
)

func init() {}

// M is a method.
func (t *T) M() {
	fmt.Println()
}

func (v V[K]) Len() int { return len(v) }

func init() {}
`

func TestParseDefinitionsNamesAndRanges(t *testing.T) {
	defs, err := parseDefinitions("p.go", sample)
	if err != nil {
		t.Fatal(err)
	}
	want := []definition{
		{"A", 5, 9},
		{"x", 11, 11},
		{"T", 13, 14},
		{"U", 17, 18},
		{"V", 19, 19},
		{"init", 22, 22},
		{"T.M", 24, 27},
		{"V.Len", 29, 29},
		{"init-2", 31, 31},
	}
	if !reflect.DeepEqual(defs, want) {
		t.Errorf("got  %v\nwant %v", defs, want)
	}
}

func TestTouchedBy(t *testing.T) {
	d := definition{"f", 10, 20}
	for _, c := range []struct {
		h    hunk
		want bool
	}{
		{hunk{5, 5}, false},  // lines 5–9
		{hunk{5, 6}, true},   // lines 5–10: the doc comment's first line
		{hunk{20, 3}, true},  // from the last line on
		{hunk{21, 1}, false}, // after it
		{hunk{12, 0}, true},  // inserted inside
		{hunk{9, 0}, false},  // inserted before it
		{hunk{20, 0}, false}, // inserted after it
		{hunk{10, 0}, true},  // inserted after its first line
	} {
		if got := d.touchedBy([]hunk{c.h}); got != c.want {
			t.Errorf("hunk %+v: touched %v, want %v", c.h, got, c.want)
		}
	}
}

func TestInCorpus(t *testing.T) {
	for path, want := range map[string]bool{
		"backend/query/query.go":       true,
		"backend/query/query_test.go":  false,
		"backend/ingest/testdata/x.go": false,
		"cmd/loom/main.go":             true,
		"tools/mkbugcases/main.go":     false,
		"main.go":                      false,
		"graphdb/store.go":             true,
		"bind/app.go":                  true,
		"frontend/src/lib/budget.ts":   false,
		"backend/ingest/pdf/layout.go": true,
	} {
		if got := inCorpus(path); got != want {
			t.Errorf("inCorpus(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestTSDefinitions(t *testing.T) {
	src := "export function a(x: number) {\n  return x;\n}\nexport class C {\n  constructor() {}\n  private m(): void {\n    if (x) {\n    }\n  }\n  async n() {}\n}\nexport const f = (x: number) => x;\ninterface I {}\ntype Y = string;\n"
	var names []string
	defs, err := parseDefinitions("c.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		names = append(names, d.Name)
	}
	want := []string{"a", "C", "C.constructor", "C.m", "C.n", "f", "I", "Y"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("got %v, want %v", names, want)
	}
}
