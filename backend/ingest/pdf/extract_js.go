//go:build js && wasm

package pdf

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/loomwork/loom/internal/jsawait"
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
	v, err := jsawait.Call(fn, "PDF reading failed inside Loom: the reader gave no reason", bytes)
	if err != nil {
		return nil, err
	}
	if v.Type() != js.TypeString {
		return nil, errors.New("PDF reading failed inside Loom: the reader did not answer with text")
	}
	var raw Raw
	if err := json.Unmarshal([]byte(v.String()), &raw); err != nil {
		return nil, fmt.Errorf("PDF reading failed inside Loom: the reader's answer is not a Raw (%w)", err)
	}
	return &raw, nil
}
