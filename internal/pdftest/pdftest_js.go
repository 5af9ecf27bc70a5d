//go:build js && wasm

// Package pdftest stands in for the web page's PDF reader when the engine's
// WebAssembly tests run under node, where there is no page and no pdf.js:
// Install registers loomExtractPDF (see pdf.ExtractFunc) serving the
// extraction of the sample paper recorded with the native reader (pdfium),
// so the engine's own path — Layout, sections, pages, citations — runs as
// in the browser. Any other PDF is refused the way the page refuses a
// damaged one. The real pdf.js path is tested in Chromium
// (frontend/e2e/web-pdf.e2e.mjs and the sample in workbench.e2e.mjs).
package pdftest

import (
	"crypto/sha256"
	_ "embed"
	"syscall/js"

	"github.com/loomwork/loom/backend/ingest/pdf"
	"github.com/loomwork/loom/backend/sample"
)

// recorded is pdf.Extract's Raw of sample/papers/budgeted-context.pdf as
// JSON, written by the native build (regenerate with
// go test ./internal/pdftest -run TestRecordedExtractionIsCurrent -update).
//
//go:embed testdata/budgeted-context.raw.json
var recorded string

// Install registers the stand-in reader on the global object.
func Install() {
	var known [32]byte
	for _, f := range sample.Papers() {
		if len(f.Data) > 4 && string(f.Data[:4]) == "%PDF" {
			known = sha256.Sum256(f.Data)
		}
	}
	js.Global().Set(pdf.ExtractFunc, js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(data, args[0])
		match := sha256.Sum256(data) == known
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, pa []js.Value) any {
			defer executor.Release()
			if match {
				pa[0].Invoke(recorded)
			} else {
				pa[1].Invoke(js.Global().Get("Error").New("is not a PDF or is damaged: the test reader knows only the sample paper"))
			}
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	}))
}
