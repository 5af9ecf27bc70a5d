package code

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// parseAny parses src as path, accepting ErrUnsupported for a language
// this build does not parse.
func parseAny(t *testing.T, path string, src []byte) *File {
	t.Helper()
	f, err := Parse(path, src)
	if err != nil {
		l, _ := LangOf(path)
		if errors.Is(err, ErrUnsupported) && (!slices.Contains(Supported(), l) || noPageParser()) {
			return nil
		}
		t.Fatalf("Parse(%s): %v", path, err)
	}
	if f == nil {
		t.Fatalf("Parse(%s) = nil, nil", path)
	}
	return f
}

// allExtensions has one path per language.
func allExtensions() []string {
	return []string{"a.go", "a.py", "a.js", "a.ts", "a.tsx", "a.rs", "A.java", "a.c", "a.cpp"}
}

func TestEmptyFile(t *testing.T) {
	for _, path := range allExtensions() {
		for _, src := range [][]byte{nil, {}, []byte("\n\n"), []byte("   ")} {
			f := parseAny(t, path, src)
			if f == nil {
				continue
			}
			if len(f.Defs) > 0 || len(f.Imports) > 0 || f.Generated {
				t.Errorf("%s %q: %+v, want nothing", path, src, f)
			}
			if wantLang, _ := LangOf(path); f.Lang != wantLang {
				t.Errorf("%s: Lang = %q", path, f.Lang)
			}
		}
	}
}

// TestBadBytes: invalid UTF-8, NUL bytes and noise never make Parse panic
// or fail.
func TestBadBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(rng.IntN(256))
	}
	inputs := [][]byte{
		[]byte("package p\n\nfunc F() { s := \"\xff\xfe\" }\n"),
		[]byte("def f():\n    return '\xc3\x28'\n\x00\x00class C: pass\n"),
		[]byte("function f() { return 1 }\x00\x00\x00\xff"),
		[]byte("\xef\xbb\xbfpackage p\n"), // a byte order mark
		[]byte(strings.Repeat("\x00", 1000)),
		noise,
	}
	for _, path := range allExtensions() {
		for i, src := range inputs {
			f := parseAny(t, path, src)
			if f == nil {
				continue
			}
			for _, d := range f.Defs {
				if d.LineStart < 1 || d.LineEnd < d.LineStart {
					t.Errorf("%s input %d: %s has lines %d-%d", path, i, d.Name, d.LineStart, d.LineEnd)
				}
			}
		}
	}
}

// TestDeterministic: the same bytes give the same File.
func TestDeterministic(t *testing.T) {
	names, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		path := strings.TrimSuffix(name, ".txt")
		if _, ok := LangOf(path); !ok {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		first := parseAny(t, path, src)
		for range 3 {
			if again := parseAny(t, path, src); !reflect.DeepEqual(first, again) {
				t.Fatalf("%s: two parses differ", name)
			}
		}
	}
}

// TestRandomCuts parses every sample cut at random points: broken files of
// every shape, which must never fail.
func TestRandomCuts(t *testing.T) {
	names, _ := filepath.Glob("testdata/*")
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range names {
		path := strings.TrimSuffix(name, ".txt")
		if _, ok := LangOf(path); !ok {
			continue
		}
		src, _ := os.ReadFile(name)
		for range 20 {
			a := rng.IntN(len(src))
			b := a + rng.IntN(len(src)-a)
			cut := append(append([]byte(nil), src[:a]...), src[b:]...)
			parseAny(t, path, cut)
		}
	}
}

// TestOneLineGo: a 5 MB Go file on one line parses (in linear time; the
// test does not time it).
func TestOneLineGo(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p;")
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "func f%d(a int) int { return g%d(a) + %d };", i, i%97, i)
	}
	f := parseAny(t, "big.go", []byte(b.String()))
	if f.Partial || len(f.Defs) < 100000 {
		t.Fatalf("Partial = %v, %d defs", f.Partial, len(f.Defs))
	}
}

func TestDeepNesting(t *testing.T) {
	const depth = 20000
	for path, src := range map[string]string{
		"deep.go": "package p\nvar x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\n",
		"deep.js": "const x = " + strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) + ";\nfunction f() {}\n",
		"deep.py": "X = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\ndef f(): pass\n",
	} {
		parseAny(t, path, []byte(src))
	}
}

func FuzzParse(f *testing.F) {
	names, _ := filepath.Glob("testdata/*")
	for _, name := range names {
		path := strings.TrimSuffix(name, ".txt")
		if _, ok := LangOf(path); !ok {
			continue
		}
		src, _ := os.ReadFile(name)
		f.Add(filepath.Ext(path), src)
	}
	f.Fuzz(func(t *testing.T, ext string, src []byte) {
		if _, ok := LangOf("x" + ext); !ok {
			return
		}
		parseAny(t, "x"+ext, src)
	})
}
