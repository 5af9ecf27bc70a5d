//go:build js && wasm

// Package jsawait calls a JavaScript function of the web edition's page
// that answers with a promise, and waits for it: the engine's way of asking
// the page for what only it can do (pdf.js reading a PDF, web-tree-sitter
// parsing source code).
package jsawait

import (
	"errors"
	"fmt"
	"syscall/js"
)

// Call calls fn with args and waits until the promise it returns (or the
// value: Promise.resolve takes either) settles: its value, or an error
// whose message is the rejection's (an Error's message, or the value as
// text; noReason when there is none). A function that throws at once is
// an error too. It blocks the calling goroutine, which lets the JavaScript
// event loop run meanwhile (the engine's calls each run in a goroutine of
// their own); so it must not be called from inside a js.Func callback.
func Call(fn js.Value, noReason string, args ...any) (js.Value, error) {
	type outcome struct {
		v   js.Value
		err error
	}
	done := make(chan outcome, 1) // buffered: the callbacks never wait
	resolved := js.FuncOf(func(_ js.Value, a []js.Value) any {
		v := js.Undefined()
		if len(a) > 0 {
			v = a[0]
		}
		done <- outcome{v: v}
		return nil
	})
	defer resolved.Release()
	rejected := js.FuncOf(func(_ js.Value, a []js.Value) any {
		reason := js.Undefined()
		if len(a) > 0 {
			reason = a[0]
		}
		done <- outcome{err: errors.New(Problem(reason, noReason))}
		return nil
	})
	defer rejected.Release()
	if err := start(fn, noReason, args, resolved, rejected); err != nil {
		return js.Undefined(), err
	}
	out := <-done
	return out.v, out.err
}

// start calls fn and hands its promise to the callbacks.
func start(fn js.Value, noReason string, args []any, resolved, rejected js.Func) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(js.Error); ok {
				err = errors.New(Problem(e.Value, noReason))
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	p := js.Global().Get("Promise").Call("resolve", fn.Invoke(args...))
	p.Call("then", resolved, rejected)
	return nil
}

// Problem is the message of a rejection: an Error's message, or the value
// as text; noReason for undefined or null.
func Problem(reason js.Value, noReason string) string {
	switch reason.Type() {
	case js.TypeUndefined, js.TypeNull:
		return noReason
	case js.TypeString:
		return reason.String()
	case js.TypeObject:
		if m := reason.Get("message"); m.Type() == js.TypeString && m.String() != "" {
			return m.String()
		}
	}
	return js.Global().Get("String").Invoke(reason).String()
}
