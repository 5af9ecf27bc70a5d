package code

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"func  F(a int,\n\tb int)  error ": "func F(a int, b int) error",
		"\n\n  x\r\ny  ":                   "x y",
		"":                                 "",
		"a\x00b":                           "a\uFFFDb",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
	long := oneLine("func F(" + strings.Repeat("a int, ", 100) + ")")
	if n := utf8.RuneCountInString(long); n != maxSignature || !strings.HasSuffix(long, "…") {
		t.Errorf("a long signature has %d runes and ends %q", n, long[len(long)-8:])
	}
	exact := strings.Repeat("é", maxSignature)
	if got := oneLine(exact); got != exact {
		t.Errorf("a signature of exactly %d runes was clipped", maxSignature)
	}
}

func TestFirstLine(t *testing.T) {
	if got := firstLine("var x = map[string]int{\n\t\"a\": 1,\n}"); got != "var x = map[string]int{ …" {
		t.Errorf("firstLine = %q", got)
	}
	if got := firstLine("  X = 1  "); got != "X = 1" {
		t.Errorf("firstLine = %q", got)
	}
}

func TestGoTypeParamsAndFuncValues(t *testing.T) {
	src := `package p

type List[T any] struct{ items []T; next *List[T] }

var handler = func(w Writer) { n := 1; use(n, w) }
`
	f, err := Parse("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(fmtRefs(f.Defs[0].Refs), " "); got != "" {
		t.Errorf("List refs = %q, want none", got)
	}
	if got := strings.Join(fmtRefs(f.Defs[1].Refs), " "); got != "Writer use()" {
		t.Errorf("handler refs = %q", got)
	}
}
