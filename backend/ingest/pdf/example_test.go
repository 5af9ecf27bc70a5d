package pdf_test

import (
	"fmt"

	"github.com/loomwork/loom/backend/ingest/blocks"
	"github.com/loomwork/loom/backend/ingest/pdf"
)

// Layout works on text an extractor positioned: here two lines, a bold
// numbered heading and a paragraph whose first word pdf.js cut in two.
func ExampleLayout() {
	raw := &pdf.Raw{Pages: []pdf.Page{{Number: 1, Width: 612, Height: 792, Runs: []pdf.Run{
		{Text: "1", X0: 72, Y0: 100, X1: 78, Y1: 112, Size: 12, Bold: true},
		{Text: "Introduction", X0: 90, Y0: 100, X1: 160, Y1: 112, Size: 12, Bold: true},
		{Text: "Lay", X0: 72, Y0: 120, X1: 88, Y1: 130, Size: 10},
		{Text: "outs are hard to read back.", X0: 88, Y0: 120, X1: 220, Y1: 130, Size: 10},
	}}}}
	doc, err := pdf.Layout(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range doc.Blocks {
		fmt.Printf("%v level %d, page %d: %s\n", b.Kind == blocks.Heading, b.Level, b.Page, b.Text)
	}
	// Output:
	// true level 1, page 1: 1 Introduction
	// false level 0, page 1: Layouts are hard to read back.
}
