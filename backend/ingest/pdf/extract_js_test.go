//go:build js && wasm

package pdf

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeReader installs loomExtractPDF as f for the test, and removes it after.
func fakeReader(t *testing.T, f func(bytes js.Value) any) {
	t.Helper()
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args[0]) })
	js.Global().Set(ExtractFunc, fn)
	t.Cleanup(func() {
		js.Global().Delete(ExtractFunc)
		fn.Release()
	})
}

func promise() js.Value { return js.Global().Get("Promise") }

func TestExtractHandsTheBytesToTheReaderAndDecodesItsRaw(t *testing.T) {
	var got []byte
	fakeReader(t, func(bytes js.Value) any {
		got = make([]byte, bytes.Get("length").Int())
		js.CopyBytesToGo(got, bytes)
		return promise().Call("resolve", `{"pages":[{"number":1,"width":612,"height":792,"runs":[`+
			`{"text":"Introduction","x0":72,"y0":100,"x1":150,"y1":112,"size":12,"bold":true,"italic":false,"font":"CMBX12"}]}],`+
			`"outline":[{"title":"1 Introduction","level":1,"page":1,"y":98.5}],"title":"A Paper","author":"Ada Lovelace"}`)
	})
	raw, err := Extract([]byte("%PDF-1.5 fake"))
	require.NoError(t, err)
	assert.Equal(t, "%PDF-1.5 fake", string(got))
	assert.Equal(t, &Raw{
		Pages: []Page{{Number: 1, Width: 612, Height: 792, Runs: []Run{
			{Text: "Introduction", X0: 72, Y0: 100, X1: 150, Y1: 112, Size: 12, Bold: true, Font: "CMBX12"},
		}}},
		Outline: []OutlineItem{{Title: "1 Introduction", Level: 1, Page: 1, Y: 98.5}},
		Title:   "A Paper",
		Author:  "Ada Lovelace",
	}, raw)
}

func TestExtractSaysWhatTheReaderFoundWrong(t *testing.T) {
	cases := []struct {
		name   string
		reader func(js.Value) any
		want   string
	}{
		{"a rejection with an Error gives its message", func(js.Value) any {
			return promise().Call("reject", js.Global().Get("Error").New("is encrypted: Loom cannot read password-protected PDFs"))
		}, "is encrypted: Loom cannot read password-protected PDFs"},
		{"a rejection with text gives the text", func(js.Value) any {
			return promise().Call("reject", "has no text layer")
		}, "has no text layer"},
		{"an answer that is not a Raw", func(js.Value) any {
			return promise().Call("resolve", "not json")
		}, "PDF reading failed inside Loom: the reader's answer is not a Raw"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fakeReader(t, c.reader)
			raw, err := Extract([]byte("%PDF"))
			assert.Nil(t, raw)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestExtractReportsAReaderThatThrowsAtOnce(t *testing.T) {
	js.Global().Set(ExtractFunc, js.Global().Get("Function").New(`throw new Error("is not a PDF or is damaged: Invalid PDF structure.")`))
	t.Cleanup(func() { js.Global().Delete(ExtractFunc) })
	_, err := Extract([]byte("%PDF"))
	require.EqualError(t, err, "is not a PDF or is damaged: Invalid PDF structure.")
}

func TestExtractWithoutAReaderSaysSo(t *testing.T) {
	js.Global().Delete(ExtractFunc)
	_, err := Extract([]byte("%PDF"))
	require.EqualError(t, err, "PDF reading is not available in this build")
}
