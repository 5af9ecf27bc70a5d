//go:build js && wasm

package pdf

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
)

// ExtractFunc is the JavaScript function Extract calls in the web edition:
// loomExtractPDF(bytes Uint8Array) Promise<string>, registered by the
// engine's worker (frontend/src/web/worker.ts, the reading itself in
// frontend/src/web/pdf.ts, through pdf.js). It resolves with the JSON of a
// Raw, or rejects with an Error whose message is the problem, written to
// follow the file's name: "is encrypted: …", "has no text layer …", "is
// not a PDF or is damaged: …".
const ExtractFunc = "loomExtractPDF"

// Extract reads data's text runs, outline and information through pdf.js
// in the web edition's worker. It blocks the calling goroutine until the
// promise settles, which lets the JavaScript event loop run meanwhile (the
// engine's calls each run in a goroutine of their own, cmd/loom-web's
// promise); so it must not be called from inside a js.Func callback.
func Extract(data []byte) (*Raw, error) {
	fn := js.Global().Get(ExtractFunc)
	if fn.Type() != js.TypeFunction {
		return nil, errors.New("PDF reading is not available in this build")
	}
	bytes := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(bytes, data)

	type outcome struct {
		json string
		err  error
	}
	done := make(chan outcome, 1) // buffered: the callbacks never wait
	resolved := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			done <- outcome{err: errors.New("PDF reading failed inside Loom: the reader did not answer with text")}
		} else {
			done <- outcome{json: args[0].String()}
		}
		return nil
	})
	defer resolved.Release()
	rejected := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var reason js.Value
		if len(args) > 0 {
			reason = args[0]
		}
		done <- outcome{err: errors.New(problem(reason))}
		return nil
	})
	defer rejected.Release()

	if err := start(fn, bytes, resolved, rejected); err != nil {
		return nil, err
	}
	out := <-done
	if out.err != nil {
		return nil, out.err
	}
	var raw Raw
	if err := json.Unmarshal([]byte(out.json), &raw); err != nil {
		return nil, fmt.Errorf("PDF reading failed inside Loom: the reader's answer is not a Raw (%w)", err)
	}
	return &raw, nil
}

// start calls fn and hands its promise (or value: Promise.resolve makes
// either one) to the callbacks; a function that throws at once rejects
// too.
func start(fn, bytes js.Value, resolved, rejected js.Func) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(js.Error); ok {
				err = errors.New(problem(e.Value))
				return
			}
			err = fmt.Errorf("PDF reading failed inside Loom: %v", r)
		}
	}()
	p := js.Global().Get("Promise").Call("resolve", fn.Invoke(bytes))
	p.Call("then", resolved, rejected)
	return nil
}

// problem is the message of a rejection: an Error's message, or the value
// as text.
func problem(reason js.Value) string {
	switch reason.Type() {
	case js.TypeUndefined, js.TypeNull:
		return "PDF reading failed inside Loom: the reader gave no reason"
	case js.TypeString:
		return reason.String()
	case js.TypeObject:
		if m := reason.Get("message"); m.Type() == js.TypeString && m.String() != "" {
			return m.String()
		}
	}
	return js.Global().Get("String").Invoke(reason).String()
}
