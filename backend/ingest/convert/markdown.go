package convert

import (
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
)

// newMarkdownConverter is html-to-markdown as Loom reads its output: ATX
// headings ("# …", the only kind the splitter's titles come from), "-"
// bullets, "**"/"*" emphasis, ``` fences, inline links and GFM tables
// whose first row becomes the header when the table has none (a table
// without a header row is not a GFM table). No "<!--THE END-->" comment
// between adjacent lists: it would end up in a section's text. A converter
// is cheap to make (the plugins only register handlers), so each call makes
// its own and nothing is shared between goroutines.
func newMarkdownConverter() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(
			commonmark.WithHeadingStyle(commonmark.HeadingStyleATX),
			commonmark.WithBulletListMarker("-"),
			commonmark.WithStrongDelimiter("**"),
			commonmark.WithEmDelimiter("*"),
			commonmark.WithCodeBlockFence("```"),
			commonmark.WithListEndComment(false),
		),
		table.NewTablePlugin(
			table.WithHeaderPromotion(true),
			table.WithNewlineBehavior(table.NewlineBehaviorPreserve),
			table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal),
			table.WithSkipEmptyRows(true),
		),
	))
}

// toMarkdown converts an HTML tree (a document or any element of one) to
// markdown, ending in one newline ("" for a tree without text).
func toMarkdown(n *html.Node) (string, error) {
	out, err := newMarkdownConverter().ConvertNode(n)
	if err != nil {
		return "", err
	}
	md := strings.TrimSpace(string(out))
	if md == "" {
		return "", nil
	}
	return md + "\n", nil
}
