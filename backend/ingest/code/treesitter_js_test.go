//go:build js

package code

import (
	"errors"
	"strings"
	"syscall/js"
	"testing"
)

// tinyPy and its flat tree as frontend/src/web/codetree.js makes it
// (node testdata/flattree.mjs .cache/grammars python tiny.py): "é" and
// "—" put the UTF-16 offsets behind the bytes.
const tinyPy = "def café(x):\n    \"\"\"Says hi — twice.\"\"\"\n    return x\n"

var tinyTree = map[string]any{
	"types":  []any{"module", "function_definition", "def", "identifier", "parameters", "(", ")", ":", "block", "expression_statement", "string", "string_start", "string_content", "string_end", "return_statement", "return"},
	"fields": []any{"name", "parameters", "body"},
	"records": []any{0, -1, 0, 53, 1, 1, -1, 0, 52, 9, 2, -1, 0, 3, 16, 3, 0, 4, 8, 17, 4, 1, 8, 11, 17, 5, -1, 8, 9, 24, 3, -1, 9, 10, 25, 6, -1, 10, 11, 24, 7, -1, 11, 12, 16, 8, 2, 17, 52, 17, 9, -1, 17, 39, 25,
		10, -1, 17, 39, 33, 11, -1, 17, 20, 41, 12, -1, 20, 36, 41, 13, -1, 36, 39, 41, 14, -1, 44, 52, 25, 15, -1, 44, 50, 32, 3, -1, 51, 52, 33},
	"units": 53,
}

// noPageParser: the tests run in Node, where no page registered its
// parser unless the test did.
func noPageParser() bool { return js.Global().Get(ParseFunc).Type() != js.TypeFunction }

// withParser registers f as the page's loomParseCode for the test.
func withParser(t *testing.T, f func(lang, src string) js.Value) {
	t.Helper()
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args[0].String(), args[1].String()) })
	js.Global().Set(ParseFunc, fn)
	t.Cleanup(func() {
		js.Global().Delete(ParseFunc)
		fn.Release()
	})
}

// The web edition reads code through the page's parser: the tree it sends
// back gives the definitions, with byte offsets from its UTF-16 ones.
func TestWebEditionParsesThroughThePage(t *testing.T) {
	var asked []string
	withParser(t, func(lang, src string) js.Value {
		asked = append(asked, lang)
		tree := js.ValueOf(tinyTree)
		recs := tinyTree["records"].([]any)
		arr := js.Global().Get("Int32Array").New(len(recs))
		for i, r := range recs {
			arr.SetIndex(i, r)
		}
		tree.Set("records", arr)
		return js.Global().Get("Promise").Call("resolve", tree)
	})
	f, err := Parse("tiny.py", []byte(tinyPy))
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0] != "python" {
		t.Errorf("asked %v", asked)
	}
	if len(f.Defs) != 1 {
		t.Fatalf("defs = %+v", f.Defs)
	}
	d := f.Defs[0]
	if d.Name != "café" || d.Kind != "func" || d.Signature != "def café(x):" || d.Doc != "\"\"\"Says hi — twice.\"\"\"" || d.LineStart != 1 || d.LineEnd != 3 {
		t.Errorf("def = %+v", d)
	}
}

// A grammar the page cannot load, or no parser at all, leaves the file to
// be read as text, saying why.
func TestWebEditionWithoutAGrammarReadsText(t *testing.T) {
	_, err := Parse("a.rs", []byte("fn main() {}\n"))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "the page has no code parser") {
		t.Fatalf("no parser: %v", err)
	}
	withParser(t, func(lang, _ string) js.Value {
		return js.Global().Get("Promise").Call("reject", js.Global().Get("Error").New("could not load its grammar (grammars/tree-sitter-"+lang+".wasm: HTTP 404)"))
	})
	_, err = Parse("a.rs", []byte("fn main() {}\n"))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "no Rust parser") || !strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("no grammar: %v", err)
	}
	f, err := Parse("main.go", []byte("package main\n\nfunc main() {}\n"))
	if err != nil || len(f.Defs) != 1 {
		t.Fatalf("Go is parsed in Go: %+v, %v", f, err)
	}
}
