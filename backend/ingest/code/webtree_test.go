//go:build cgo && !js

package code

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// grammarsDir is where scripts/grammars.sh puts the web edition's
// grammars.
func grammarsDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../../.cache/grammars")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "tree-sitter-python.wasm")); err != nil {
		t.Skipf("the web edition's grammars are not fetched (bash scripts/grammars.sh): %v", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	if _, err := os.Stat("../../../frontend/node_modules/web-tree-sitter"); err != nil {
		t.Skip("the frontend's packages are not installed (bash scripts/frontend-deps.sh)")
	}
	return dir
}

// webTree parses a file as the web edition's page does (web-tree-sitter,
// through frontend/src/web/codetree.js, in Node) and reads its flat tree.
func webTree(t *testing.T, dir string, lang Lang, file string, src []byte) *node {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), filepath.Base(file))
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", "testdata/flattree.mjs", dir, string(lang), tmp).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("node flattree.mjs %s: %v\n%s", file, err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var flat struct {
		Types, Fields []string
		Records       []int32
		Units         int
	}
	if err := json.Unmarshal(out, &flat); err != nil {
		t.Fatal(err)
	}
	root, err := readFlat(src, flat.Types, flat.Fields, flat.Records, flat.Units)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return root
}

// TestWebEditionReadsCodeAsTheDesktopDoes: the web edition's grammars (the
// npm packages' wasm files, through web-tree-sitter) give every sample the
// same definitions, doc comments, imports and references as the grammars
// compiled into the desktop app and the CLI: the extractors are the same,
// so this checks the trees and their transfer (UTF-16 offsets included).
func TestWebEditionReadsCodeAsTheDesktopDoes(t *testing.T) {
	dir := grammarsDir(t)
	files := map[string]Lang{"sample.py": Python, "sample.ts": TypeScript, "sample.tsx": TSX, "sample.js": JavaScript,
		"sample.rs": Rust, "Sample.java": Java, "sample.c": C, "sample.cpp": CPP}
	for name, lang := range files {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			// Text beyond ASCII moves UTF-16 offsets away from bytes.
			src = append(src, []byte(commentFor(lang, "naïve café — 🚀 done"))...)
			want, err := Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			web := webTree(t, dir, lang, name, src)
			treeOf = func(Lang, string, []byte) (*node, error) { return web, nil }
			defer func() { treeOf = parseTree }()
			got, err := Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Defs) != len(want.Defs) {
				t.Fatalf("web: %d definitions, desktop: %d", len(got.Defs), len(want.Defs))
			}
			for i := range want.Defs {
				if !reflect.DeepEqual(got.Defs[i], want.Defs[i]) {
					t.Errorf("definition %d:\n web     %+v\n desktop %+v", i, got.Defs[i], want.Defs[i])
				}
			}
			if !reflect.DeepEqual(got.Imports, want.Imports) || got.Package != want.Package || got.Partial != want.Partial {
				t.Errorf("web: imports %v package %q partial %v; desktop: %v %q %v", got.Imports, got.Package, got.Partial, want.Imports, want.Package, want.Partial)
			}
		})
	}
}

// commentFor is a line comment in lang.
func commentFor(lang Lang, text string) string {
	if lang == Python {
		return "\n# " + text + "\n"
	}
	return "\n// " + text + "\n"
}

// A damaged flat tree is an error, never a panic or a wrong tree.
func TestDamagedFlatTreesAreRefused(t *testing.T) {
	src := []byte("x = 1\n")
	types, fields := []string{"module", "expression_statement"}, []string{"body"}
	good := []int32{0, -1, 0, 6, 1, 1, 0, 0, 5, 8 + 1}
	if _, err := readFlat(src, types, fields, good, 6); err != nil {
		t.Fatalf("good tree: %v", err)
	}
	for name, recs := range map[string][]int32{
		"empty":                 {},
		"a partial node":        good[:7],
		"an unknown type":       {0, -1, 0, 6, 1, 9, 0, 0, 5, 9},
		"an unknown field":      {0, -1, 0, 6, 1, 1, 4, 0, 5, 9},
		"past the end":          {0, -1, 0, 6, 1, 1, 0, 0, 60, 9},
		"ends before it starts": {0, -1, 0, 6, 1, 1, 0, 5, 2, 9},
		"a second root":         {0, -1, 0, 6, 1, 1, 0, 0, 5, 1},
		"a depth skipped":       {0, -1, 0, 6, 1, 1, 0, 0, 5, 16 + 1},
		"a negative depth":      {0, -1, 0, 6, 1, 1, 0, 0, 5, -7},
	} {
		if _, err := readFlat(src, types, fields, recs, 6); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := readFlat(src, types, fields, good, 7); err == nil {
		t.Error("a source the page counted otherwise: no error")
	}
}
