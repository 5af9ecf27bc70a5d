package abstract

import (
	"regexp"
	"strings"

	"github.com/loomwork/loom/backend/model"
)

// Docs written for MkDocs (Python-Markdown's admonitions, Material's
// collapsible ones) and for pymdownx.blocks put notes, tips and warnings
// in blocks of their own:
//
//	!!! warning "Mind the cache"
//
//	    The cache is never cleared by cargo clean.
//
//	/// tip | Use async
//	You can also declare the function with async def.
//	///
//
// To a Markdown parser the first is a line of text and a block of code,
// the second two lines of text around a paragraph: a summary kept the
// markers and left out the warning. withoutAdmonitions is the text a
// summary reads: the markers gone, an admonition's body out of its
// indentation, so that it reads as the prose it is. Fenced code is left as
// it is.

// admonitionOpen opens an admonition whose body is indented under it
// (!!! or ??? / ???+, a kind, an optional quoted title).
var admonitionOpen = regexp.MustCompile(`^(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+"[^"]*")?[ \t]*$`)

// blockMarker opens or closes a pymdownx block ("/// tip | Title", "///").
var blockMarker = regexp.MustCompile(`^///(?:[ \t]+[\w-]+(?:[ \t]*\|.*)?)?[ \t]*$`)

func withoutAdmonitions(src string) string {
	if !strings.Contains(src, "!!!") && !strings.Contains(src, "???") && !strings.Contains(src, "///") {
		return src
	}
	lines := strings.Split(src, "\n")
	fence := ""
	body := false // inside an admonition's indented body
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case fence != "":
			if model.ClosesFence(trimmed, fence) {
				fence = ""
			}
			continue
		case body && trimmed != "" && !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "\t"):
			body = false
		}
		switch {
		case body:
			l = strings.TrimPrefix(strings.TrimPrefix(l, "    "), "\t")
			lines[i] = l
			trimmed = strings.TrimSpace(l)
			if f := model.Fence(trimmed); f != "" {
				fence = f
			}
		case admonitionOpen.MatchString(l):
			lines[i], body = "", true
		case blockMarker.MatchString(l):
			lines[i] = ""
		default:
			if f := model.Fence(trimmed); f != "" {
				fence = f
			}
		}
	}
	return strings.Join(lines, "\n")
}
