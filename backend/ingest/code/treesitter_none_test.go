//go:build !cgo && !js

package code

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestNoTreeSitter: without cgo Go still parses and every other language
// is ErrUnsupported, with a message that names it.
func TestNoTreeSitter(t *testing.T) {
	if got := Supported(); !slices.Equal(got, []Lang{Go}) {
		t.Fatalf("Supported() = %v, want Go only", got)
	}
	_, err := Parse("ledger.py", []byte("def f():\n    pass\n"))
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Parse(ledger.py) = %v, want ErrUnsupported", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "no Python parser in this build") || !strings.Contains(msg, "Go only") {
		t.Errorf("message = %q", msg)
	}
	for _, path := range []string{"a.js", "a.ts", "a.tsx", "a.rs", "A.java", "a.c", "a.cpp"} {
		if _, err := Parse(path, []byte("x")); !errors.Is(err, ErrUnsupported) {
			t.Errorf("Parse(%s) = %v, want ErrUnsupported", path, err)
		}
	}
	f, err := Parse("main.go", []byte("package main\n\nfunc main() {}\n"))
	if err != nil || len(f.Defs) != 1 || f.Defs[0].Name != "main" {
		t.Fatalf("Parse(main.go) = %+v, %v", f, err)
	}
}
