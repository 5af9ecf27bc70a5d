//go:build js

package code

import (
	"encoding/binary"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/loomwork/loom/internal/jsawait"
)

// ParseFunc is the JavaScript function the web edition parses source code
// with: loomParseCode(lang string, source string) Promise<{types, fields,
// records, units}>, registered by the engine's worker
// (frontend/src/web/worker.ts; the parsing itself in
// frontend/src/web/codetree.js, through web-tree-sitter and the grammars
// make web puts in build/web/grammars). It loads a language's grammar the
// first time a file of it is read, and rejects with an Error whose message
// says what went wrong ("could not load its grammar (…)").
const ParseFunc = "loomParseCode"

// Supported lists the languages this build parses into definitions: the
// web edition has every grammar the desktop app has, loaded by the page
// when first needed.
func Supported() []Lang {
	return []Lang{Go, Python, JavaScript, TypeScript, TSX, Rust, Java, C, CPP}
}

// parseTree asks the page to parse src and reads the flat tree it sends
// back. It blocks the calling goroutine until the page's promise settles,
// which lets the JavaScript event loop run meanwhile (the engine's calls
// each run in a goroutine of their own); so it must not be called from
// inside a js.Func callback. A grammar the page cannot load leaves the
// file to be read as text (an unsupportedError naming why).
func parseTree(lang Lang, path string, src []byte) (*node, error) {
	fn := js.Global().Get(ParseFunc)
	if fn.Type() != js.TypeFunction {
		return nil, &unsupportedError{what: lang.title() + " parser", why: "the page has no code parser"}
	}
	tree, err := jsawait.Call(fn, "the page's parser gave no reason", string(lang), string(src))
	if err != nil {
		return nil, &unsupportedError{what: lang.title() + " parser", why: err.Error()}
	}
	if tree.Type() != js.TypeObject {
		return nil, &unsupportedError{what: lang.title() + " parser", why: "the page's parser answered with no tree"}
	}
	types, err := jsStrings(tree.Get("types"))
	if err != nil {
		return nil, fmt.Errorf("the web edition's %s parser sent a damaged tree for %s (%v): read it as text", lang.title(), path, err)
	}
	fields, err := jsStrings(tree.Get("fields"))
	if err != nil {
		return nil, fmt.Errorf("the web edition's %s parser sent a damaged tree for %s (%v): read it as text", lang.title(), path, err)
	}
	recs := tree.Get("records")
	if recs.Type() != js.TypeObject || recs.Get("BYTES_PER_ELEMENT").Int() != 4 {
		return nil, fmt.Errorf("the web edition's %s parser sent no records for %s: read it as text", lang.title(), path)
	}
	raw := make([]byte, recs.Get("byteLength").Int())
	js.CopyBytesToGo(raw, js.Global().Get("Uint8Array").New(recs.Get("buffer"), recs.Get("byteOffset"), recs.Get("byteLength")))
	nums := make([]int32, len(raw)/4)
	for i := range nums {
		nums[i] = int32(binary.LittleEndian.Uint32(raw[i*4:]))
	}
	root, err := readFlat(src, types, fields, nums, tree.Get("units").Int())
	if err != nil {
		return nil, fmt.Errorf("the web edition's %s parser sent a tree that does not fit %s (%v): read it as text", lang.title(), path, err)
	}
	return root, nil
}

// jsStrings reads an array of strings.
func jsStrings(v js.Value) ([]string, error) {
	if v.Type() != js.TypeObject || v.Get("length").Type() != js.TypeNumber {
		return nil, errors.New("not an array")
	}
	out := make([]string, v.Length())
	for i := range out {
		s := v.Index(i)
		if s.Type() != js.TypeString {
			return nil, fmt.Errorf("item %d is not a string", i)
		}
		out[i] = s.String()
	}
	return out, nil
}
