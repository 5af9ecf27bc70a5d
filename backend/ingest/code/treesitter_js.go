//go:build js

package code

import (
	"encoding/binary"
	"errors"
	"fmt"
	"syscall/js"
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
	type outcome struct {
		tree js.Value
		err  error
	}
	done := make(chan outcome, 1) // buffered: the callbacks never wait
	resolved := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeObject {
			done <- outcome{err: errors.New("the page's parser answered with no tree")}
		} else {
			done <- outcome{tree: args[0]}
		}
		return nil
	})
	defer resolved.Release()
	rejected := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var reason js.Value
		if len(args) > 0 {
			reason = args[0]
		}
		done <- outcome{err: errors.New(jsProblem(reason))}
		return nil
	})
	defer rejected.Release()
	if err := startParse(fn, string(lang), string(src), resolved, rejected); err != nil {
		return nil, &unsupportedError{what: lang.title() + " parser", why: err.Error()}
	}
	out := <-done
	if out.err != nil {
		return nil, &unsupportedError{what: lang.title() + " parser", why: out.err.Error()}
	}
	types, err := jsStrings(out.tree.Get("types"))
	if err != nil {
		return nil, fmt.Errorf("the web edition's %s parser sent a damaged tree for %s (%v): read it as text", lang.title(), path, err)
	}
	fields, err := jsStrings(out.tree.Get("fields"))
	if err != nil {
		return nil, fmt.Errorf("the web edition's %s parser sent a damaged tree for %s (%v): read it as text", lang.title(), path, err)
	}
	recs := out.tree.Get("records")
	if recs.Type() != js.TypeObject || recs.Get("BYTES_PER_ELEMENT").Int() != 4 {
		return nil, fmt.Errorf("the web edition's %s parser sent no records for %s: read it as text", lang.title(), path)
	}
	raw := make([]byte, recs.Get("byteLength").Int())
	js.CopyBytesToGo(raw, js.Global().Get("Uint8Array").New(recs.Get("buffer"), recs.Get("byteOffset"), recs.Get("byteLength")))
	nums := make([]int32, len(raw)/4)
	for i := range nums {
		nums[i] = int32(binary.LittleEndian.Uint32(raw[i*4:]))
	}
	root, err := readFlat(src, types, fields, nums, out.tree.Get("units").Int())
	if err != nil {
		return nil, fmt.Errorf("the web edition's %s parser sent a tree that does not fit %s (%v): read it as text", lang.title(), path, err)
	}
	return root, nil
}

// startParse calls fn and hands its promise (or value) to the callbacks; a
// function that throws at once is an error.
func startParse(fn js.Value, lang, src string, resolved, rejected js.Func) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(js.Error); ok {
				err = errors.New(jsProblem(e.Value))
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	p := js.Global().Get("Promise").Call("resolve", fn.Invoke(lang, src))
	p.Call("then", resolved, rejected)
	return nil
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

// jsProblem is the message of a rejection: an Error's message, or the
// value as text.
func jsProblem(reason js.Value) string {
	switch reason.Type() {
	case js.TypeUndefined, js.TypeNull:
		return "the page's parser gave no reason"
	case js.TypeString:
		return reason.String()
	case js.TypeObject:
		if m := reason.Get("message"); m.Type() == js.TypeString && m.String() != "" {
			return m.String()
		}
	}
	return js.Global().Get("String").Invoke(reason).String()
}
